"""IngressClass ``networking.k8s.io/v1beta1`` → ``networking.k8s.io/v1``.

No field changed: ``spec.controller`` and ``spec.parameters`` (``apiGroup``, ``kind``,
``name``, ``scope``, ``namespace``) are identical in both versions, so only ``apiVersion``
is rewritten. ``networking.k8s.io/v1`` IngressClass is served from 1.19.
"""

from k8smigrate.registry import Migration

MIGRATION = Migration(
    kinds=("IngressClass",),
    from_api="networking.k8s.io/v1beta1",
    to_api="networking.k8s.io/v1",
    available_in="1.19",
    deprecated_in="1.19",
    removed_in="1.22",
    summary="IngressClass networking.k8s.io/v1beta1 → v1 (apiVersion only)",
)
