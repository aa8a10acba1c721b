"""Service annotation ``service.kubernetes.io/topology-aware-hints`` → ``topology-mode`` (1.27).

Kubernetes 1.27 renamed the topology-aware routing annotation: ``core/v1``
``annotation_key_constants.go`` keeps the old key as ``DeprecatedAnnotationTopologyAwareHints``
and adds ``AnnotationTopologyMode`` (``service.kubernetes.io/topology-mode``); the API server
warns that the old key "is deprecated, please use service.kubernetes.io/topology-mode instead"
(``pkg/api/service/warnings.go``). The old key is still honoured, so nothing breaks yet.

For targets from 1.27 on, on a Service (K8SM-FLD-002):

- when every release of the window knows ``topology-mode`` (``--min-version`` 1.27 or later),
  the key is renamed, value and comments unchanged; if ``topology-mode`` is already there
  with the same value, the old key is dropped;
- when the window starts before 1.27 the old key is kept, as those releases do not read
  ``topology-mode`` (K8SM-FLD-050, info);
- both keys with different values is an error: which one was meant is for a human to say
  (K8SM-FLD-051; the document is left unchanged).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.renames import rename_key
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar

OLD = "service.kubernetes.io/topology-aware-hints"
NEW = "service.kubernetes.io/topology-mode"


def body(service: Mapping, ctx: Context) -> None:
    metadata = service.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    old = notes.get(OLD) if notes is not None else None
    if notes is None or not isinstance(old, Scalar):
        return
    if not ctx.needs_met:
        ctx.info(
            "K8SM-FLD-050",
            f"annotation {OLD} kept: releases before 1.27 in the window (--min-version {ctx.oldest}) do not read {NEW}",
            old,
        )
        return
    outcome = rename_key(notes, OLD, NEW)
    if outcome == "conflict":
        ctx.error("K8SM-FLD-051", f"annotations {OLD} and {NEW} disagree; keep one by hand", old)
        return
    why = f"→ {NEW}" if outcome == "renamed" else f"dropped: {NEW} says the same"
    ctx.info("K8SM-FLD-002", f"annotation {OLD} (deprecated in 1.27) {why}", old)
    ctx.note(f"{OLD} → {NEW}")


MIGRATION = Check(
    applies_to={"v1": ("Service",)},
    body=body,
    matters_from="1.27",
    needs="1.27",
    trigger=OLD,
    category="annotation",
    edits=True,
    cleanup=True,
    summary="Service topology-aware-hints annotation (deprecated in 1.27) → topology-mode",
    codes=(
        Code("K8SM-FLD-002", "info", "topology-aware-hints renamed to topology-mode (or dropped beside an equal one)"),
        Code("K8SM-FLD-050", "info", "topology-aware-hints kept: the window starts before 1.27"),
        Code("K8SM-FLD-051", "error", "topology-aware-hints and topology-mode have different values"),
    ),
)
