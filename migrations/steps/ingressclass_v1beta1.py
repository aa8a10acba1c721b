"""IngressClass ``networking.k8s.io/v1beta1`` → ``networking.k8s.io/v1``.

No field changed: ``spec.controller`` and ``spec.parameters`` (``apiGroup``, ``kind``,
``name``, ``scope``, ``namespace``) are identical in both versions, so only ``apiVersion``
is rewritten. ``networking.k8s.io/v1`` IngressClass is served from 1.19.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("IngressClass",),
    from_api="networking.k8s.io/v1beta1",
    to_api="networking.k8s.io/v1",
    available_in="1.19",
    summary="IngressClass networking.k8s.io/v1beta1 → v1 (apiVersion only)",
)
