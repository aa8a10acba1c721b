"""Ingress ``extensions/v1beta1`` → ``networking.k8s.io/v1beta1``.

The two versions have the same fields; only ``apiVersion`` changes. This step is what a
window that still includes 1.14–1.18 stops at (``--min-version 1.18``): every release from
1.14 to 1.21 serves ``networking.k8s.io/v1beta1``. The next step,
``ingress_networking_v1beta1``, restructures the backends for ``networking.k8s.io/v1``.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Ingress",),
    from_api="extensions/v1beta1",
    to_api="networking.k8s.io/v1beta1",
    available_in="1.14",
    summary="Ingress extensions/v1beta1 → networking.k8s.io/v1beta1 (apiVersion only)",
)
