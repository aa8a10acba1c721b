"""CSI snapshot objects: what the v1 CRDs reject that v1beta1 let through.

The JSON of ``snapshot.storage.k8s.io`` v1beta1 and v1 is the same (kubernetes-csi/external-snapshotter
``client/apis/volumesnapshot/v1beta1/types.go`` against ``v1/types.go`` at v4.1.0). v1beta1 objects
were checked by the validation webhook only (``pkg/utils/util.go`` · ``ValidateV1Beta1Snapshot``,
``ValidateV1Beta1SnapshotContent`` at v4.0.0), and "invalid v1beta1 objects have to be deleted before
upgrading to 4.1.0" (CHANGELOG-4.1.md); the v1 CRDs enforce the same rules in their schema (a
``oneOf`` on ``spec.source``, and CEL rules from v8.0.0). A document that breaks one of them is left as
it is: which source is meant is a human's call.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.tree import Mapping

from .edits import text

SOURCES = Code("K8SM-SNP-001", "error", "spec.source must name exactly one source")
EMPTY_CLASS = Code("K8SM-SNP-002", "error", "volumeSnapshotClassName is empty")
CONTENT_REF = Code("K8SM-SNP-003", "error", "VolumeSnapshotContent volumeSnapshotRef without name or namespace")

_SOURCES = {
    "VolumeSnapshot": ("persistentVolumeClaimName", "volumeSnapshotContentName"),
    "VolumeSnapshotContent": ("volumeHandle", "snapshotHandle"),
}


def check_v1(obj: Mapping, ctx: Context) -> None:
    """``ValidateV1Snapshot`` / ``ValidateV1SnapshotContent`` as the v1 schema enforces them."""
    kind = text(obj.get("kind")) or ""
    spec = obj.mapping("spec")
    if spec is None or kind not in _SOURCES:
        return
    source = spec.mapping("source")
    if source is not None or "source" in spec:
        names = _SOURCES[kind]
        given = [n for n in names if source is not None and text(source.get(n))]
        if len(given) != 1:
            what = "both" if given else "neither"
            ctx.error(
                "K8SM-SNP-001",
                f"spec.source has {what} of {' and '.join(names)}; v1 requires exactly one "
                "(the v1beta1 webhook rejected this too)",
                source if source is not None else spec,
            )
    if kind == "VolumeSnapshot" and "volumeSnapshotClassName" in spec and not text(spec.get("volumeSnapshotClassName")):
        ctx.error("K8SM-SNP-002", "spec.volumeSnapshotClassName is empty; leave it out to use the default class", spec)
    if kind == "VolumeSnapshotContent":
        ref = spec.mapping("volumeSnapshotRef")
        if ref is not None and not (text(ref.get("name")) and text(ref.get("namespace"))):
            ctx.error("K8SM-SNP-003", "spec.volumeSnapshotRef needs both name and namespace in v1", ref)
