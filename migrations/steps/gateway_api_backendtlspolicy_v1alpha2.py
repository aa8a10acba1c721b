"""Gateway API BackendTLSPolicy ``gateway.networking.k8s.io/v1alpha2`` → ``v1alpha3``.

Gateway API 1.1.0 replaced v1alpha2 with v1alpha3 (experimental channel) and renamed fields
(CHANGELOG/1.1-CHANGELOG.md "BackendTLSPolicy"; CRDs at v1.0.0 and v1.1.0): ``spec.targetRef`` becomes the
list ``spec.targetRefs`` whose references have no ``namespace`` (K8SM-GW-003 when the old one named another
namespace than the policy's), ``spec.tls`` → ``spec.validation``, ``caCertRefs`` → ``caCertificateRefs``,
``wellKnownCACerts`` → ``wellKnownCACertificates``. Comments travel with the keys.
"""

from __future__ import annotations

from k8smigrate.addons import gateway
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("BackendTLSPolicy",),
    from_api="gateway.networking.k8s.io/v1alpha2",
    to_api="gateway.networking.k8s.io/v1alpha3",
    available_in="1.1",
    component="gateway-api",
    body=gateway.backend_tls_policy_v1alpha3,
    codes=(gateway.POLICY_NAMESPACE, gateway.BOTH),
    summary="BackendTLSPolicy v1alpha2 → v1alpha3: targetRefs, validation",
)
