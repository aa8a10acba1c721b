"""CSIStorageCapacity ``storage.k8s.io/v1beta1`` → ``storage.k8s.io/v1``.

The two versions have the same fields (``storageClassName``, ``nodeTopology``,
``capacity``, ``maximumVolumeSize``) and no defaults: only ``apiVersion`` changes.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("CSIStorageCapacity",),
    from_api="storage.k8s.io/v1beta1",
    to_api="storage.k8s.io/v1",
    available_in="1.24",
    summary="CSIStorageCapacity storage.k8s.io/v1beta1 → v1 (apiVersion only)",
)
