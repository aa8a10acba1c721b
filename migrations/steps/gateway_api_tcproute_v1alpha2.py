"""Gateway API TCPRoute and UDPRoute ``gateway.networking.k8s.io/v1alpha2`` → ``v1``.

Both came to the standard channel as v1 in Gateway API 1.6.0 (93283a3ab "Promote TCPRoute to v1"); v1alpha2
is deprecated there and served by the experimental CRDs only. The v1 schema is v1alpha2's with
``spec.rules`` limited to one rule (CRDs at v1.6.0): a route with several is left as it is (K8SM-GW-001;
split it into one route per rule).
"""

from __future__ import annotations

from k8smigrate.addons import gateway
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("TCPRoute", "UDPRoute"),
    from_api="gateway.networking.k8s.io/v1alpha2",
    to_api="gateway.networking.k8s.io/v1",
    available_in="1.6",
    component="gateway-api",
    body=gateway.one_rule,
    codes=(gateway.ONE_RULE,),
    summary="TCPRoute, UDPRoute v1alpha2 → v1: one rule",
)
