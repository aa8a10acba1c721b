"""Pod annotation ``kubectl.kubernetes.io/default-logs-container`` → ``default-container`` (1.25).

``kubectl logs`` picked the container named by ``kubectl.kubernetes.io/default-logs-container``;
kubectl 1.21 introduced ``kubectl.kubernetes.io/default-container`` for every container
command (``logs``, ``exec``, ``attach``, ``cp``) and deprecated the old key, and kubectl 1.25
and later ignore it (kubernetes.io "Well-Known Labels, Annotations and Taints"). For targets
from 1.25 on, in every pod template (Pod, workload templates, CronJob job templates):

- the key is renamed, value and comments unchanged (K8SM-FLD-026);
- beside an equal ``default-container`` the old key is dropped (K8SM-FLD-026);
- beside a different one it is an error, to settle by hand (K8SM-FLD-053; the document is
  left unchanged).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import POD_APIS, annotations_of, pod_specs
from k8smigrate.kube.renames import rename_key
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar

OLD = "kubectl.kubernetes.io/default-logs-container"
NEW = "kubectl.kubernetes.io/default-container"


def body(obj: Mapping, ctx: Context) -> None:
    for metadata, _spec in pod_specs(obj):
        notes = annotations_of(metadata)
        old = notes.get(OLD) if notes is not None else None
        if notes is None or not isinstance(old, Scalar):
            continue
        outcome = rename_key(notes, OLD, NEW)
        if outcome == "conflict":
            ctx.error("K8SM-FLD-053", f"annotations {OLD} and {NEW} name different containers; keep one by hand", old)
            return
        why = f"→ {NEW}" if outcome == "renamed" else f"dropped: {NEW} says the same"
        ctx.info("K8SM-FLD-026", f"annotation {OLD} (ignored by kubectl from 1.25) {why}", old)
        ctx.note(f"{OLD} → {NEW}")


MIGRATION = Check(
    applies_to=POD_APIS,
    body=body,
    matters_from="1.25",
    trigger=OLD,
    category="annotation",
    edits=True,
    summary="kubectl.kubernetes.io/default-logs-container pod annotation (ignored from 1.25) → default-container",
    codes=(
        Code(
            "K8SM-FLD-026", "info", "default-logs-container renamed default-container (or dropped beside an equal one)"
        ),
        Code("K8SM-FLD-053", "error", "default-logs-container and default-container name different containers"),
    ),
)
