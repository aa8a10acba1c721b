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

from k8smigrate.context import Context
from k8smigrate.kube.renames import rename_key
from k8smigrate.registry import Migration
from k8smigrate.tree import Mapping, Scalar
from k8smigrate.versions import KubeVersion

OLD = "service.kubernetes.io/topology-aware-hints"
NEW = "service.kubernetes.io/topology-mode"
SINCE = KubeVersion(1, 27)


def body(service: Mapping, ctx: Context) -> None:
    metadata = service.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    old = notes.get(OLD) if notes is not None else None
    if notes is None or not isinstance(old, Scalar):
        return
    if ctx.settings.window.min_version < SINCE:
        ctx.info(
            "K8SM-FLD-050",
            f"annotation {OLD} kept: releases before 1.27 in the window (--min-version "
            f"{ctx.settings.window.min_version}) do not read {NEW}",
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


MIGRATION = Migration(
    kinds=("Service",),
    from_api="v1",
    to_api="v1",
    available_in="1.27",
    removed_in="1.27",
    trigger=OLD,
    body=body,
    fixer=True,
    cleanup=True,
    category="annotation",
    summary="Service topology-aware-hints annotation (deprecated in 1.27) → topology-mode",
    codes={
        "K8SM-FLD-002": "info: topology-aware-hints renamed to topology-mode (or dropped beside an equal one)",
        "K8SM-FLD-050": "info: topology-aware-hints kept: the window starts before 1.27",
        "K8SM-FLD-051": "error: topology-aware-hints and topology-mode have different values",
    },
)
