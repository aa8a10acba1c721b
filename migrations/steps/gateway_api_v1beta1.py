"""Gateway API ``gateway.networking.k8s.io/v1beta1`` → ``v1`` (GatewayClass, Gateway, HTTPRoute).

v1 is served from Gateway API 1.0.0 (faba2585) and is the storage version from 1.1.0; v1beta1 is still
served and not marked deprecated (CRDs at v1.6.0), but v1 is the GA API the project documents. Within a
release every served version of a kind has the same schema: the Go types are aliases
(``apis/v1beta1/httproute_types.go`` · ``type HTTPRoute v1.HTTPRoute`` since faba2585, ``apis/v1alpha2``
aliases of v1beta1 since v0.6.0), and the CRDs of v0.4.3 and of v1.6.0 differ by additions and tighter
validation only (kubernetes-sigs/gateway-api ``config/crd/standard/gateway.networking.k8s.io_*.yaml``). The
step changes the apiVersion only.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("GatewayClass", "Gateway", "HTTPRoute"),
    from_api="gateway.networking.k8s.io/v1beta1",
    to_api="gateway.networking.k8s.io/v1",
    available_in="1.0",
    component="gateway-api",
    summary="Gateway API v1beta1 → v1: apiVersion only",
)
