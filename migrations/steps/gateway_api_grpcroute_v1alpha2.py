"""Gateway API GRPCRoute ``gateway.networking.k8s.io/v1alpha2`` → ``v1``.

GRPCRoute v1alpha2 came with the experimental channel of 0.6.0; v1 is served (standard channel, storage)
from 1.1.0, where v1alpha2 is deprecated and served by the experimental CRDs only; 1.2.0 removes it
(CHANGELOG/1.2 "GRPCRoute and ReferenceGrant v1alpha2 removal", #3361). The Go type is an alias
(``apis/v1alpha2/grpcroute_types.go`` · ``type GRPCRoute v1.GRPCRoute`` at v1.1.0) and the schema of v1.1.0
only adds ``sessionPersistence``; the default match 0.6.0 wrote was invalid and is gone (CHANGELOG/0.x
"GRPCRoute: The default match has been removed"). apiVersion only.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("GRPCRoute",),
    from_api="gateway.networking.k8s.io/v1alpha2",
    to_api="gateway.networking.k8s.io/v1",
    available_in="1.1",
    component="gateway-api",
    summary="GRPCRoute v1alpha2 → v1: apiVersion only",
)
