"""``storage.k8s.io/v1beta1`` → ``storage.k8s.io/v1`` for five kinds (CSIDriver … VolumeAttributesClass).

Only ``apiVersion`` changes. The struct fields are the same, and so are the defaults
(``SetDefaults_StorageClass`` and ``SetDefaults_CSIDriver`` in
``pkg/apis/storage/{v1beta1,v1}/defaults.go``): StorageClass ``reclaimPolicy: Delete`` and
``volumeBindingMode: Immediate``; CSIDriver ``attachRequired: true``, ``podInfoOnMount: false``,
``storageCapacity: false``, ``fsGroupPolicy: ReadWriteOnceWithFSType``,
``volumeLifecycleModes: [Persistent]``, ``requiresRepublish: false``. Nothing is pinned.

Each kind reached ``storage.k8s.io/v1`` in its own release (StorageClass 1.6, VolumeAttachment
1.13, CSINode 1.17, CSIDriver 1.19, VolumeAttributesClass 1.34: ``driverName`` and
``parameters``, no defaults), so each has its own entry and gate. CSIStorageCapacity shares
this group version with another lifecycle (``csistoragecapacity_v1beta1``).
"""

from __future__ import annotations

from k8smigrate.model import Step

GROUP = "storage.k8s.io"


def step(kind: str, available_in: str) -> Step:
    return Step(
        kinds=(kind,),
        from_api=f"{GROUP}/v1beta1",
        to_api=f"{GROUP}/v1",
        available_in=available_in,
        summary=f"{kind} storage.k8s.io/v1beta1 → v1: apiVersion only",
    )


MIGRATIONS = [
    step("StorageClass", "1.6"),
    step("VolumeAttachment", "1.13"),
    step("CSINode", "1.17"),
    step("CSIDriver", "1.19"),
    step("VolumeAttributesClass", "1.34"),
]
