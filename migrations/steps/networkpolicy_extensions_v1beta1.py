"""NetworkPolicy ``extensions/v1beta1`` → ``networking.k8s.io/v1``.

The two versions have the same fields and the same defaults (upstream
``SetDefaults_NetworkPolicy`` in both: ingress ``ports[].protocol`` defaults to TCP, an
absent ``policyTypes`` means ``[Ingress]``, plus ``Egress`` when egress rules exist).
Only ``apiVersion`` changes.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("NetworkPolicy",),
    from_api="extensions/v1beta1",
    to_api="networking.k8s.io/v1",
    available_in="1.7",
    summary="NetworkPolicy extensions/v1beta1 → networking.k8s.io/v1 (apiVersion only)",
)
