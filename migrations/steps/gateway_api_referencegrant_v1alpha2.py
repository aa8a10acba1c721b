"""Gateway API ReferenceGrant ``gateway.networking.k8s.io/v1alpha2`` → ``v1beta1``.

ReferenceGrant v1beta1 is served (standard channel) from 0.6.0; v1alpha2 is deprecated from 0.8.0, no longer
served by the standard CRDs of 1.1.0 and removed in 1.2.0. Same schema: apiVersion only.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("ReferenceGrant",),
    from_api="gateway.networking.k8s.io/v1alpha2",
    to_api="gateway.networking.k8s.io/v1beta1",
    available_in="0.6",
    component="gateway-api",
    summary="ReferenceGrant v1alpha2 → v1beta1: apiVersion only",
)
