"""Istio PeerAuthentication ``security.istio.io/v1beta1`` → ``security.istio.io/v1``.

PeerAuthentication v1 is served from Istio 1.22 (istio/api 339eb52d, #3112) and is the storage version from
1.28. The schemas are the same for every served version of a kind (one proto message per kind;
``networking/v1/*_alias.gen.go`` and ``security/v1/*_alias.gen.go`` in istio/api are Go aliases since
b9c26acf; the CRD ``openAPIV3Schema`` of the versions compare equal at 1.22.0 and 1.30.0), so the step
changes the apiVersion only. No Istio release marks the old versions deprecated; they stay served.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("PeerAuthentication",),
    from_api="security.istio.io/v1beta1",
    to_api="security.istio.io/v1",
    available_in="1.22",
    component="istio",
    summary="Istio PeerAuthentication v1beta1 → v1: apiVersion only",
)
