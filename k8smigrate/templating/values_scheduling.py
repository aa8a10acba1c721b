"""Scheduling defaults in a chart's ``values.yaml``: the master node role → control-plane.

Most charts do not write a pod's tolerations, node selector or node affinity in the template:
they render them from values (``tolerations:`` then ``{{ toYaml .Values.tolerations | nindent
8 }}``), so the ``node-role.kubernetes.io/master`` toleration a DaemonSet needs is a default in
``values.yaml``, where no migration of the templates sees it. Rendered, the chart gives the
pod spec the plain migration fixes (the ``control_plane_role`` check); this step gives the
chart's defaults the same fix, with the same functions, findings and window rules:

- every ``tolerations`` list, at any depth, whose items tolerate the master taint;
- every mapping holding a ``nodeSelector`` on the master label, or an ``affinity.nodeAffinity``
  with an expression on it.

The keys are the ones charts use by convention for pod-spec fields; their values are read
only where they have that shape (a list of mappings with ``key:``, a mapping of labels), so a
value named the same that is something else is left alone. The file is edited through the
splicing tree: comments, quotes and every other byte stay.
"""

from __future__ import annotations

from ..context import Context
from ..kube.node_roles import MASTER, fix_affinity, fix_node_selector, fix_tolerations
from ..model import Check
from ..registry import Registry
from ..render import Renderer, detect_style
from ..results import DocumentResult, Finding
from ..runtime_typing import TYPE_CHECKING
from ..settings import Settings
from ..tree import Mapping, nodes
from ..yamlio import EVERY, read_stream

if TYPE_CHECKING:
    from ..scan import ScanEntry

CHECK = "control_plane_role"


def migrate_values(text: str, settings: Settings, filename: str, registry: Registry) -> tuple[str, list[Finding]]:
    """``text`` with its scheduling defaults migrated, and the findings (at their lines)."""
    if MASTER not in text:
        return text, []
    from ..prefilter import runs_in

    enabled = runs_in(settings, settings.window)
    declared = [m for m in registry.named(CHECK) if enabled(m) and m.component == "kubernetes"]
    stream = read_stream(text, EVERY)
    docs = [d for d in stream.documents if d.root is not None]
    if not declared or not docs or not isinstance(docs[0].root, Mapping) or docs[0].root.src is None:
        return text, []
    root = docs[0].root
    check = declared[0]
    ctx = Context(
        check,
        settings,
        root,
        settings.window,
        filename,
        0,
        root.line or 1,
        needs=getattr(check, "needed", None),
        lifecycles=registry.lifecycles,
    )
    # a snapshot: the fixes add nodes
    for holder in [n for n in nodes(root) if isinstance(n, Mapping)]:
        tolerations = holder.sequence("tolerations")
        if tolerations is not None and all(isinstance(i.value, Mapping) for i in tolerations.items):
            fix_tolerations(tolerations, ctx)
        selector = holder.mapping("nodeSelector")
        if selector is not None and MASTER in selector:
            fix_node_selector(holder, ctx)
        affinity = holder.mapping("affinity")
        node_affinity = affinity.mapping("nodeAffinity") if affinity is not None else None
        if node_affinity is not None:
            fix_affinity(node_affinity, ctx)
    if not ctx.notes:
        return text, ctx.findings
    src = root.src
    assert src is not None  # read from the text
    new = Renderer(stream.text, detect_style(stream.text, root)).document(root)
    bom = text[:1] if stream.bom else ""
    return bom + stream.text[: src.start] + new + stream.text[src.end :], ctx.findings


def scan_rows(text: str, settings: Settings, filename: str, registry: Registry) -> list[ScanEntry]:
    """``scan``'s rows for a chart's values.yaml: what ``apply`` would fix there."""
    from ..scan import readiness_entry

    changed, findings = migrate_values(text, settings, filename, registry)
    checks = [m for m in registry.named(CHECK) if isinstance(m, Check)]
    if not findings or not checks:
        return []
    doc = DocumentResult(0, 1, name="chart defaults", applied=[CHECK] if changed != text else [])
    return [readiness_entry(f, checks[0], doc) for f in findings]
