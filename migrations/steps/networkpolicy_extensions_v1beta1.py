"""NetworkPolicy ``extensions/v1beta1`` → ``networking.k8s.io/v1``.

The two versions have the same fields and the same defaults (upstream
``SetDefaults_NetworkPolicy`` in both: ingress ``ports[].protocol`` defaults to TCP, an
absent ``policyTypes`` means ``[Ingress]``, plus ``Egress`` when egress rules exist).
Only ``apiVersion`` changes.
"""

from k8smigrate.registry import Migration

MIGRATION = Migration(
    kinds=("NetworkPolicy",),
    from_api="extensions/v1beta1",
    to_api="networking.k8s.io/v1",
    available_in="1.7",
    deprecated_in="1.9",
    removed_in="1.16",
    summary="NetworkPolicy extensions/v1beta1 → networking.k8s.io/v1 (apiVersion only)",
)
