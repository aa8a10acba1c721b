"""CSI snapshots ``snapshot.storage.k8s.io/v1beta1`` → ``v1`` (VolumeSnapshot, VolumeSnapshotClass,
VolumeSnapshotContent).

kubernetes-csi/external-snapshotter serves v1 from 4.0.0, deprecates v1beta1 in 4.1.0 (storage moves to v1;
CHANGELOG-4.1.md, #493), removes it in 6.0.0 (1c8e6b39, #704/#709) and from 6.0.1 lists it again as
``served: false`` only so that stored objects can be migrated (CHANGELOG-6.0.md, #718/#719). The JSON of
both versions is the same (``client/apis/volumesnapshot/v1beta1/types.go`` against ``v1/types.go`` at
v4.1.0); v1 enforces in its schema what the v1beta1 webhook checked (``pkg/utils/util.go`` ·
``ValidateV1Beta1Snapshot``, ``ValidateV1Beta1SnapshotContent``): exactly one source
(``persistentVolumeClaimName`` or ``volumeSnapshotContentName``; ``volumeHandle`` or ``snapshotHandle``), a
non-empty ``volumeSnapshotClassName``, a ``volumeSnapshotRef`` with name and namespace. A document that
breaks one is left as it is (K8SM-SNP-001…003): upstream asks to delete such objects.
"""

from __future__ import annotations

from k8smigrate.addons import snapshots
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("VolumeSnapshot", "VolumeSnapshotClass", "VolumeSnapshotContent"),
    from_api="snapshot.storage.k8s.io/v1beta1",
    to_api="snapshot.storage.k8s.io/v1",
    available_in="4.0",
    component="external-snapshotter",
    body=snapshots.check_v1,
    codes=(snapshots.SOURCES, snapshots.EMPTY_CLASS, snapshots.CONTENT_REF),
    summary="snapshot.storage.k8s.io v1beta1 → v1: sources checked",
)
