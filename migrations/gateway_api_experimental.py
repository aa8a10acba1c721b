"""Gateway API routes and policies of the experimental channel: said so, until they graduate.

TLSRoute, TCPRoute and UDPRoute ``v1alpha2`` (and TLSRoute ``v1alpha3``, BackendTLSPolicy
``v1alpha2``/``v1alpha3``) are served by the experimental channel's CRDs only (``config/crd/experimental``
of kubernetes-sigs/gateway-api): a cluster that installed the standard channel does not know them. They
graduated to v1 in the standard channel in 1.4 (BackendTLSPolicy), 1.5 (TLSRoute) and 1.6 (TCPRoute,
UDPRoute); from those releases on the version steps move them (``gateway_api_tlsroute_v1alpha2``…). This
check only reports (K8SM-GW-005, info).
"""

from __future__ import annotations

from dataclasses import replace

from k8smigrate.addons import gateway
from k8smigrate.registry import Migration

_BASE = Migration(
    kinds=("TLSRoute", "TCPRoute", "UDPRoute", "BackendTLSPolicy"),
    from_api="",
    to_api="",
    available_in="0.5",
    component="gateway-api",
    fixer=True,
    category="removed-field",
    body=gateway.experimental,
    summary="Gateway API experimental routes and policies reported",
)
MIGRATIONS = [
    replace(_BASE, from_api=api, to_api=api)
    for api in ("gateway.networking.k8s.io/v1alpha2", "gateway.networking.k8s.io/v1alpha3")
]
