"""Helpers shared by the workload steps (``workloads_*``) to ``apps/v1``.

The rules come from
upstream's ``SetDefaults_*`` functions in ``pkg/apis/extensions/v1beta1/defaults.go``,
``pkg/apis/apps/v1beta1/defaults.go`` and ``pkg/apis/apps/v1beta2/defaults.go``, compared
with ``pkg/apis/apps/v1/defaults.go``.
"""

from __future__ import annotations

from k8smigrate.codes import CONDITIONAL_DEFAULT, NEW_DEFAULT, Code
from k8smigrate.context import Context
from k8smigrate.results import Level
from k8smigrate.scalars import Data
from k8smigrate.templating.placeholders import holds_placeholder, opened_by_action
from k8smigrate.templating.values import selector_first, written_under
from k8smigrate.tree import Alias, Mapping, Node, Scalar, nodes, unique_anchor

MAX_INT32 = 2147483647

CODES = (
    Code("K8SM-APPS-001", "error", "no spec.selector and no template labels to build the selector apps/v1 requires"),
    Code("K8SM-APPS-002", "info", "metadata.labels pinned to the template labels (the old API copied them)"),
    Code("K8SM-APPS-003", "info", "spec.selector written as matchLabels of the template labels (the old default)"),
    Code("K8SM-APPS-004", "info", "updateStrategy.type: OnDelete pinned (the old default)"),
    Code("K8SM-APPS-005", "info", "spec.revisionHistoryLimit pinned to the old default"),
    Code("K8SM-APPS-006", "info", "spec.progressDeadlineSeconds pinned to the old default (no deadline)"),
    Code("K8SM-APPS-007", "info", "strategy.rollingUpdate maxUnavailable/maxSurge pinned to the old default 1"),
    Code("K8SM-APPS-010", "warning", "spec.rollbackTo dropped (apps/v1 has no such field)"),
    Code("K8SM-APPS-011", "info", "spec.templateGeneration dropped (apps/v1 has no such field)"),
    NEW_DEFAULT.with_summary("with --adopt-new-defaults, an old default left unset"),
)
"""What the extensions/v1beta1 and apps/v1beta1 workload steps report."""
SELECTOR_REQUIRED = Code(
    "K8SM-APPS-012", "error", "apps/v1beta2 object without spec.selector (invalid in apps/v1beta2 too)"
)


def _absent(node: Node | None) -> bool:
    return node is None or (isinstance(node, Scalar) and node.data is None)


def template_labels(spec: Mapping) -> Mapping | None:
    """``spec.template.metadata.labels`` when it is a mapping."""
    template = spec.mapping("template")
    metadata = template.mapping("metadata") if template is not None else None
    return metadata.mapping("labels") if metadata is not None else None


def default_selector(obj: Mapping, ctx: Context) -> None:
    """Write ``selector: {matchLabels: <template labels>}`` where it is absent, as the old API defaulted it.

    Also pins ``metadata.labels`` to the template labels when they are empty: the old
    ``SetDefaults_*`` copied them (``if len(obj.Labels) == 0 { obj.Labels = labels }``).
    """
    spec = obj.mapping("spec")
    if spec is None:
        ctx.error("K8SM-APPS-001", "no spec: apps/v1 requires spec.selector and spec.template", obj)
        return
    labels = template_labels(spec)
    if _absent(spec.get("selector")):
        if labels is None or len(labels) == 0:
            ctx.error(
                "K8SM-APPS-001",
                "no spec.selector and no spec.template.metadata.labels: apps/v1 requires a selector "
                "that matches the template labels",
                spec,
            )
            return
        if _templated(labels, spec, ctx):
            alias_selector(spec, labels, ctx)
        else:
            selector = Mapping.of({"matchLabels": labels.to_data()})
            spec.set("selector", selector, before="template")
            ctx.info("K8SM-APPS-003", "spec.selector written from the template labels (the old default)", selector)
            ctx.note("spec.selector written from spec.template.metadata.labels")
    if labels is not None and len(labels) > 0:
        pin_object_labels(obj, labels.to_data(), ctx)


def _templated(labels: Mapping, spec: Mapping, ctx: Context) -> bool:
    """Whether the template labels are written with template actions (a masked template).

    Their whole text counts, comment lines included: a ``{{- if }}`` around a label masks to
    a comment line, and a copy of the label without it would be written unconditionally. So
    does an action on the line of their key, which writes the first labels
    (``labels: {{- include "x.labels" . | nindent 8 }}`` with more labels below).
    """
    src = labels.src
    if src is not None and holds_placeholder(ctx.source[src.start : src.end]):
        return True
    template = spec.mapping("template")
    metadata = template.mapping("metadata") if template is not None else None
    return metadata is not None and opened_by_action(metadata.entry("labels"))


ANCHOR = "podlabels"


def alias_selector(spec: Mapping, labels: Mapping, ctx: Context) -> None:
    """``selector: {matchLabels: *podlabels}`` after the template, whose labels get ``&podlabels``.

    A template's labels hold actions (``app: {{ template "x.name" . }}``, ``{{ include
    "x.labels" . | nindent 8 }}``), and a migration carries every action once: a copy would
    write them twice. A YAML alias gives the selector the labels the template renders, as the
    old API defaulted it, without a second copy; Helm and kubectl read aliases like any YAML
    reader. The alias must follow its anchor, so the selector goes after ``template``.
    """
    anchor = labels.anchor
    if not anchor:
        anchor = unique_anchor(ANCHOR, {node.anchor for node in nodes(ctx.root) if node.anchor})
        labels.set_anchor(anchor)
    if selector_first(ctx.document):
        _labels_in_selector(spec, labels, anchor, ctx)
        return
    selector = Mapping.of({"matchLabels": Alias(anchor, labels)})
    spec.set("selector", selector, after="template")
    message = f"spec.selector written as matchLabels: *{anchor}, an alias of the template labels (the old default)"
    ctx.info("K8SM-APPS-003", message, selector)
    ctx.note(f"spec.selector written as an alias of spec.template.metadata.labels (&{anchor})")


def _labels_in_selector(spec: Mapping, labels: Mapping, anchor: str, ctx: Context) -> None:
    """The template's labels moved into ``selector.matchLabels`` (``&anchor``), before the
    template, whose labels become ``*anchor``: for a template that ends with a tag trimming the
    line break after it (``{{- end -}}``), where nothing can follow."""
    template = spec.mapping("template")
    metadata = template.mapping("metadata") if template is not None else None
    if metadata is None:
        return
    metadata.set("labels", Alias(anchor, labels))
    selector = Mapping.of({"matchLabels": labels})
    spec.set("selector", selector, before="template")
    message = (
        f"spec.selector written from the template labels (the old default), moved into it as &{anchor}; "
        f"the template's labels are now *{anchor} (nothing can follow the template: it ends with a tag that "
        "trims the line break after it)"
    )
    ctx.info("K8SM-APPS-003", message, selector)
    ctx.note(f"spec.selector written with the template labels, spec.template.metadata.labels now *{anchor}")


def pin_object_labels(obj: Mapping, labels: Data, ctx: Context) -> None:
    metadata = obj.mapping("metadata")
    if metadata is None:
        return
    existing = metadata.get("labels")
    if isinstance(existing, Mapping) and len(existing) > 0:
        return
    if existing is not None and not _absent(existing) and not isinstance(existing, Mapping):
        return
    after = "namespace" if "namespace" in metadata else "name"
    popped = metadata.pop("labels") if existing is not None else None
    why = "the old API copied the template labels to the object; apps/v1 does not"
    if not ctx.pin(metadata, "labels", labels, "K8SM-APPS-002", why, after=after) and popped is not None:
        metadata.insert(popped, after=after)


def require_selector(obj: Mapping, ctx: Context) -> None:
    """apps/v1beta2 had no selector defaulting: a missing selector was already invalid."""
    spec = obj.mapping("spec")
    if spec is None or _absent(spec.get("selector")):
        ctx.error(
            "K8SM-APPS-012",
            "no spec.selector: apps/v1beta2 did not default it and apps/v1 requires it; "
            "add matchLabels that match the template labels",
            spec if spec is not None else obj,
        )


def pin_path(
    ctx: Context,
    parent: Mapping,
    path: tuple[str, ...],
    key: str,
    value: Data,
    code: str,
    why: str,
    *,
    before: str | None = None,
) -> bool:
    """Pin ``parent.<path>.key``, creating the mappings on the way only when something is pinned.

    ``before`` places a new top entry (the first of ``path``, or ``key``) before that sibling.
    """
    node = parent
    missing: tuple[str, ...] = ()
    for i, step in enumerate(path):
        child = node.get(step)
        if _absent(child):
            missing = path[i:]
            break
        if not isinstance(child, Mapping):
            return False
        condition = written_under(node.entry(step))
        if condition is not None:  # pinned below where it is written; said for where it is not
            dotted = ".".join((*path, key))
            ctx.warn(
                CONDITIONAL_DEFAULT.code,
                f"{step} is written only under {condition}: where that is false the new API's default "
                f"applies to {dotted}, not the old one ({why})",
                child,
            )
        node = child
    if not missing:
        after = _key_before(node, before) if before is not None and node is parent else None
        if not ctx.pin(node, key, value, code, why, after=after):
            return False
        if before is not None and node is parent and after is None:
            _move_before(parent, key, before)
        return True
    dotted = ".".join((*path, key))
    if ctx.adopt_new_defaults:
        ctx.info("K8SM-GEN-002", f"{dotted} left unset: {why}", node)
        return False
    top = Mapping()
    inner = top
    for step in missing[1:]:
        nested = Mapping()
        inner.set(step, nested)
        inner = nested
    inner.set(key, value)
    node.set(missing[0], top, before=before if node is parent else None)
    ctx.info(code, f"pinned {dotted}: {value} ({why})", inner.get(key))
    return True


def _key_before(mapping: Mapping, before: str) -> str | None:
    """The key just before ``before``, so that a new entry lands in front of ``before``."""
    index = mapping.index(before)
    return mapping.entries[index - 1].name if index else None


def _move_before(mapping: Mapping, key: str, before: str) -> None:
    if before not in mapping:
        return
    entry = mapping.pop(key)
    if entry is not None:
        mapping.insert(entry, before=before)


def deployment_spec(obj: Mapping, ctx: Context) -> Mapping | None:
    """The spec of an extensions/apps v1beta1 Deployment once its selector is explicit and
    ``rollbackTo`` (which apps/v1 does not have) is gone; None when there is nothing to do."""
    default_selector(obj, ctx)
    spec = obj.mapping("spec")
    if spec is None or ctx.failed:
        return None
    message = "spec.rollbackTo dropped: apps/v1 has no such field; use `kubectl rollout undo`"
    drop(spec, "rollbackTo", "warning", "K8SM-APPS-010", message, ctx)
    return spec


def drop(spec: Mapping, key: str, level: Level, code: str, message: str, ctx: Context) -> None:
    """Remove a field the target API does not have, with a finding at ``level``."""
    node = spec.get(key)
    if node is None:
        return
    ctx.report(level, code, message, node)
    spec.pop(key)
    ctx.note(f"spec.{key} removed")
