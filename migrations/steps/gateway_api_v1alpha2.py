"""Gateway API ``gateway.networking.k8s.io/v1alpha2`` → ``v1beta1`` (GatewayClass, Gateway, HTTPRoute).

v1beta1 is served from Gateway API 0.5.0; v1alpha2 was deprecated in 0.6.0 and is no longer served from
0.8.0 (``served: false`` in both channels' CRDs), then dropped from the CRDs in 1.0.0 (faba2585). Within a
release every served version of a kind has the same schema: the Go types are aliases
(``apis/v1beta1/httproute_types.go`` · ``type HTTPRoute v1.HTTPRoute`` since faba2585, ``apis/v1alpha2``
aliases of v1beta1 since v0.6.0), and the CRDs of v0.4.3 and of v1.6.0 differ by additions and tighter
validation only (kubernetes-sigs/gateway-api ``config/crd/standard/gateway.networking.k8s.io_*.yaml``). The
step changes the apiVersion only; with ``--component gateway-api=1.0`` or later the next step takes the
objects on to v1.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("GatewayClass", "Gateway", "HTTPRoute"),
    from_api="gateway.networking.k8s.io/v1alpha2",
    to_api="gateway.networking.k8s.io/v1beta1",
    available_in="0.5",
    component="gateway-api",
    summary="Gateway API v1alpha2 → v1beta1: apiVersion only",
)
