"""CSIStorageCapacity ``storage.k8s.io/v1beta1`` → ``storage.k8s.io/v1``.

The two versions have the same fields (``storageClassName``, ``nodeTopology``,
``capacity``, ``maximumVolumeSize``) and no defaults: only ``apiVersion`` changes.
"""

from k8smigrate.registry import Migration

MIGRATION = Migration(
    kinds=("CSIStorageCapacity",),
    from_api="storage.k8s.io/v1beta1",
    to_api="storage.k8s.io/v1",
    available_in="1.24",
    deprecated_in="1.24",
    removed_in="1.27",
    summary="CSIStorageCapacity storage.k8s.io/v1beta1 → v1 (apiVersion only)",
)
