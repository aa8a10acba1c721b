"""Gateway API routes and policies of the experimental channel: said so, until they graduate.

TLSRoute, TCPRoute and UDPRoute ``v1alpha2`` (and TLSRoute ``v1alpha3``, BackendTLSPolicy
``v1alpha2``/``v1alpha3``) are served by the experimental channel's CRDs only (``config/crd/experimental``
of kubernetes-sigs/gateway-api): a cluster that installed the standard channel does not know them. They
graduated to v1 in the standard channel in 1.4 (BackendTLSPolicy), 1.5 (TLSRoute) and 1.6 (TCPRoute,
UDPRoute); from those releases on the version steps move them (``gateway_api_tlsroute_v1alpha2``…). This
check only reports (K8SM-GW-005, info).
"""

from __future__ import annotations

from k8smigrate.addons import gateway
from k8smigrate.model import Check

MIGRATION = Check(
    applies_to={
        "gateway.networking.k8s.io/v1alpha2": ("TLSRoute", "TCPRoute", "UDPRoute", "BackendTLSPolicy"),
        "gateway.networking.k8s.io/v1alpha3": ("TLSRoute", "BackendTLSPolicy"),
    },
    body=gateway.experimental,
    component="gateway-api",
    category="removed-field",
    summary="Gateway API routes and policies of the experimental channel reported",
    codes=(gateway.EXPERIMENTAL,),
)
