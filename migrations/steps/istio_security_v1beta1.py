"""Istio ``security.istio.io/v1beta1`` → ``security.istio.io/v1`` (AuthorizationPolicy, RequestAuthentication).

The CRDs serve ``security.istio.io/v1`` for these two kinds from Istio 1.17.0 (istio/api bd9c37f9 "security
policy graduation to v1", #2553; CRD versions parsed at each tag), although the release announcement of v1
APIs came with 1.22; v1 is the storage version from 1.28 (4e0bbe7a). The schemas are the same for every
served version of a kind (one proto message per kind; ``networking/v1/*_alias.gen.go`` and
``security/v1/*_alias.gen.go`` in istio/api are Go aliases since b9c26acf; the CRD ``openAPIV3Schema`` of
the versions compare equal at 1.22.0 and 1.30.0), so the step changes the apiVersion only. No Istio release
marks the old versions deprecated; they stay served. PeerAuthentication came to v1 later
(``istio_peerauthentication_v1beta1``).
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("AuthorizationPolicy", "RequestAuthentication"),
    from_api="security.istio.io/v1beta1",
    to_api="security.istio.io/v1",
    available_in="1.17",
    component="istio",
    summary="Istio AuthorizationPolicy, RequestAuthentication v1beta1 → v1: apiVersion only",
)
