"""CSIStorageCapacity ``storage.k8s.io/v1alpha1`` → ``storage.k8s.io/v1beta1``.

v1alpha1 (deprecated 1.21, removed 1.24) and v1beta1 have the same fields: only
``apiVersion`` changes. The next step, ``csistoragecapacity_v1beta1``, goes on to ``v1``.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("CSIStorageCapacity",),
    from_api="storage.k8s.io/v1alpha1",
    to_api="storage.k8s.io/v1beta1",
    available_in="1.21",
    summary="CSIStorageCapacity storage.k8s.io/v1alpha1 → v1beta1 (apiVersion only)",
)
