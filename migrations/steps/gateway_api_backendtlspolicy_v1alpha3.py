"""Gateway API BackendTLSPolicy ``gateway.networking.k8s.io/v1alpha3`` → ``v1``.

BackendTLSPolicy v1 is in the standard channel from Gateway API 1.4.0, where v1alpha3 is no longer served by
the standard CRDs and deprecated in the experimental ones. Same schema (CRDs at v1.4.0): apiVersion only.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("BackendTLSPolicy",),
    from_api="gateway.networking.k8s.io/v1alpha3",
    to_api="gateway.networking.k8s.io/v1",
    available_in="1.4",
    component="gateway-api",
    summary="BackendTLSPolicy v1alpha3 → v1: apiVersion only",
)
