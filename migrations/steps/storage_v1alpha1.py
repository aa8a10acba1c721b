"""VolumeAttachment ``storage.k8s.io/v1alpha1`` → ``storage.k8s.io/v1``.

Only ``apiVersion`` changes: ``spec.attacher``, ``spec.nodeName``, ``spec.source``
(``persistentVolumeName`` or ``inlineVolumeSpec``) and ``status`` are the same in both versions
and neither defaults them (``k8s.io/api: storage/{v1alpha1,v1}/types.go``). CSIStorageCapacity
and VolumeAttributesClass at this group version are other kinds and are not handled here.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("VolumeAttachment",),
    from_api="storage.k8s.io/v1alpha1",
    to_api="storage.k8s.io/v1",
    available_in="1.13",
    summary="VolumeAttachment storage.k8s.io/v1alpha1 → v1: apiVersion only",
)
