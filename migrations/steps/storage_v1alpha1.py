"""VolumeAttachment and VolumeAttributesClass ``storage.k8s.io/v1alpha1`` → ``storage.k8s.io/v1``.

Only ``apiVersion`` changes. VolumeAttachment: ``spec.attacher``, ``spec.nodeName``,
``spec.source`` (``persistentVolumeName`` or ``inlineVolumeSpec``) and ``status`` are the
same in both versions and neither defaults them (``k8s.io/api: storage/{v1alpha1,v1}/types.go``).
VolumeAttributesClass (``driverName``, ``parameters``) is the same in v1alpha1, v1beta1 and
v1, served from 1.34; v1alpha1 is no longer served from 1.35. CSIStorageCapacity at this
group version goes to ``storage.k8s.io/v1`` through the ``csistoragecapacity_*`` steps.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATIONS = [
    Step(
        kinds=("VolumeAttachment",),
        from_api="storage.k8s.io/v1alpha1",
        to_api="storage.k8s.io/v1",
        available_in="1.13",
        summary="VolumeAttachment storage.k8s.io/v1alpha1 → v1: apiVersion only",
    ),
    Step(
        kinds=("VolumeAttributesClass",),
        from_api="storage.k8s.io/v1alpha1",
        to_api="storage.k8s.io/v1",
        available_in="1.34",
        summary="VolumeAttributesClass storage.k8s.io/v1alpha1 → v1: apiVersion only",
    ),
]
