"""Pod annotations in a chart's ``values.yaml`` that Kubernetes no longer reads.

Charts render pod annotations from values (``annotations:`` then ``{{ toYaml
.Values.podAnnotations | nindent 8 }}``), so an annotation that the plain migrations take out of
a pod spec can be a default in ``values.yaml``, where no migration of the templates sees it:
kubernetes-dashboard 2.x sets ``podAnnotations: {seccomp.security.alpha.kubernetes.io/pod:
runtime/default}``. Rendered, the chart gives a pod the plain migration fixes; for the chart:

- **seccomp** (``seccomp_annotations``, targets from 1.25): what replaces the annotation is
  ``securityContext.seccompProfile`` in the pod spec, which values.yaml does not describe (each
  chart names its own values for it, or writes it in the template). From 1.27 the profile
  silently stops applying, so it is an error at the key (``K8SM-TPL-015``) that names the field
  to set, with the window rules of the plain check (nothing before the field exists).
- **critical-pod** (``critical_pod_annotation``, non-functional since 1.16): deleted from the
  values, as the plain migration deletes it from a pod (``K8SM-FLD-010``, the same finding).
- **tolerate-unready-endpoints** on a Service (``service_tolerate_unready``, ignored from 1.24;
  cetic's nifi sets it in ``headless.annotations``): what replaces it is the Service's
  ``spec.publishNotReadyAddresses``, which values.yaml does not describe either: an error at
  the key (``K8SM-TPL-015``) when it is true, as for seccomp; not-ready pods otherwise silently
  drop out of the Service's DNS.

Keys are recognised by their names, at any depth, where the value is a string; the file is
edited through the splicing tree, so comments, quotes and every other byte stay.
"""

from __future__ import annotations

from ..codes import VALUES_POD_ANNOTATION
from ..registry import Registry
from ..render import Renderer, detect_style
from ..results import DocumentResult, Finding
from ..runtime_typing import TYPE_CHECKING
from ..settings import Settings
from ..tree import Mapping, Scalar, nodes
from ..yamlio import EVERY, read_stream

if TYPE_CHECKING:
    from ..model import Check
    from ..scan import ScanEntry

SECCOMP = "seccomp_annotations"
CRITICAL_POD = "critical_pod_annotation"
TOLERATE_UNREADY = "service_tolerate_unready"
TOLERATE_UNREADY_KEY = "service.alpha.kubernetes.io/tolerate-unready-endpoints"
SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP_CONTAINER = "container.seccomp.security.alpha.kubernetes.io/"
CRITICAL_POD_KEY = "scheduler.alpha.kubernetes.io/critical-pod"
_MARKERS = (SECCOMP_POD, SECCOMP_CONTAINER, CRITICAL_POD_KEY, TOLERATE_UNREADY_KEY)


def migrate_values(text: str, settings: Settings, filename: str, registry: Registry) -> tuple[str, list[Finding]]:
    """``text`` with the critical-pod annotation deleted, and the findings (at their lines)."""
    if not any(marker in text for marker in _MARKERS):
        return text, []
    checks = _checks(settings, registry)
    stream = read_stream(text, EVERY)
    docs = [d for d in stream.documents if d.root is not None]
    if not checks or not docs or not isinstance(docs[0].root, Mapping) or docs[0].root.src is None:
        return text, []
    root = docs[0].root
    findings: list[Finding] = []
    dropped = False
    for holder, key, node in _annotations(root):
        if key == CRITICAL_POD_KEY:
            if CRITICAL_POD in checks:
                holder.pop(key)
                dropped = True
                message = f"annotation {key} deleted from the chart's values: non-functional since 1.16"
                findings.append(Finding("info", "K8SM-FLD-010", message, CRITICAL_POD, filename, 0, node.line))
        elif key == TOLERATE_UNREADY_KEY:
            if TOLERATE_UNREADY in checks and str(node.value).strip().lower() in ("true", "1", "t"):
                message = (
                    f"values.yaml sets the Service annotation {key}: {node.value}, which the chart renders into a "
                    "Service and Kubernetes ignores from 1.24 (not-ready pods silently drop out of its endpoints "
                    "and DNS): set the Service's spec.publishNotReadyAddresses: true instead (the template, or a "
                    "value the chart offers for it) and delete the annotation"
                )
                code = VALUES_POD_ANNOTATION
                findings.append(Finding(code.level, code.code, message, TOLERATE_UNREADY, filename, 0, node.line))
        elif SECCOMP in checks and _field_exists(checks[SECCOMP], settings):
            where = "the pod's" if key == SECCOMP_POD else f"container {key[len(SECCOMP_CONTAINER) :]}'s"
            message = (
                f"values.yaml sets the pod annotation {key}: {node.value}, which the chart renders into pods and "
                f"Kubernetes ignores from 1.27 (the profile silently stops applying): set {where} "
                "securityContext.seccompProfile instead (the chart's security context values, or the template) "
                "and delete the annotation"
            )
            code = VALUES_POD_ANNOTATION
            findings.append(Finding(code.level, code.code, message, SECCOMP, filename, 0, node.line))
    if not dropped:
        return text, findings
    src = root.src
    assert src is not None  # read from the text
    new = Renderer(stream.text, detect_style(stream.text, root)).document(root)
    bom = text[:1] if stream.bom else ""
    return bom + stream.text[: src.start] + new + stream.text[src.end :], findings


def scan_rows(text: str, settings: Settings, filename: str, registry: Registry) -> list[ScanEntry]:
    """``scan``'s rows for a chart's values.yaml: what ``apply`` reports there."""
    from ..model import Check
    from ..scan import readiness_entry

    changed, findings = migrate_values(text, settings, filename, registry)
    rows = []
    for f in findings:
        check = next((m for m in registry.named(f.migration or "") if isinstance(m, Check)), None)
        if check is not None:
            applied = [check.name] if changed != text and f.migration == CRITICAL_POD else []
            rows.append(readiness_entry(f, check, DocumentResult(0, 1, name="chart defaults", applied=applied)))
    return rows


def _checks(settings: Settings, registry: Registry) -> dict[str, Check]:
    """The checks of this step that run in the window, by name."""
    from ..model import Check
    from ..prefilter import runs_in

    enabled = runs_in(settings, settings.window)
    return {
        name: m
        for name in (SECCOMP, CRITICAL_POD, TOLERATE_UNREADY)
        for m in registry.named(name)
        if isinstance(m, Check) and enabled(m) and m.component == "kubernetes"
    }


def _annotations(root: Mapping) -> list[tuple[Mapping, str, Scalar]]:
    """Each (mapping, key, value) of an annotation this step knows, at any depth (a snapshot:
    entries are deleted after)."""
    return [
        (holder, e.name, e.value)
        for holder in [n for n in nodes(root) if isinstance(n, Mapping)]
        for e in holder.entries
        if isinstance(e.value, Scalar)
        and (e.name in (SECCOMP_POD, CRITICAL_POD_KEY, TOLERATE_UNREADY_KEY) or e.name.startswith(SECCOMP_CONTAINER))
    ]


def _field_exists(check: Check, settings: Settings) -> bool:
    """The plain check's window rule: the field must exist at the window's first release."""
    return check.needed is None or check.needed <= settings.window.min_version
