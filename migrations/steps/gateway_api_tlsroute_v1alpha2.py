"""Gateway API TLSRoute ``gateway.networking.k8s.io/v1alpha2`` → ``v1``.

TLSRoute v1 came to the standard channel in Gateway API 1.5.0 (dbb66e4ad "TLSRoute: Promote to standard");
its v1alpha2 and v1alpha3 are no longer served by the standard CRDs and deprecated in the experimental ones.
The v1 schema is v1alpha2's with two rules tightened (CRDs at v1.5.0/v1.6.0): ``spec.hostnames`` is required
with at least one name (K8SM-GW-002: v1alpha2 without hostnames matched every SNI name of the listener; only
a human knows which names are meant) and ``spec.rules`` holds at most one rule (K8SM-GW-001; b6b242839 set
it in v1alpha3). A document that breaks either is left as it is.
"""

from __future__ import annotations

from k8smigrate.addons import gateway
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("TLSRoute",),
    from_api="gateway.networking.k8s.io/v1alpha2",
    to_api="gateway.networking.k8s.io/v1",
    available_in="1.5",
    component="gateway-api",
    body=gateway.tls_route_to_v1,
    codes=(gateway.ONE_RULE, gateway.NO_HOSTNAME),
    summary="TLSRoute v1alpha2 → v1: hostnames required, one rule",
)
