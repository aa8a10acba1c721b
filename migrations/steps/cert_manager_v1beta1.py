"""cert-manager ``cert-manager.io/v1beta1`` → ``cert-manager.io/v1`` (Certificate, CertificateRequest, Issuer,
ClusterIssuer).

v1beta1 was served from cert-manager 0.16, deprecated in 1.4, no longer served from 1.6 and gone from the
CRDs in 1.7; v1 is served from 1.0. Upstream's converter
(``internal/apis/certmanager/v1beta1/conversion.go`` ·
``Convert_v1beta1_CertificateSpec_To_certmanager_CertificateSpec``, release 1.15) renames two Certificate
fields: ``emailSANs`` → ``emailAddresses`` and ``uriSANs`` → ``uris``. The private key settings,
``spec.request``, the DNS01 provider keys and the issuers are already in their v1 shape. A ``spec`` field no
cert-manager version has is removed, as the v1 API server prunes it (K8SM-CM-015). An old field beside its
replacement is an error (K8SM-CM-001).
"""

from __future__ import annotations

from k8smigrate.addons import certmanager
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Mapping


def body(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "Certificate":
        certmanager.certificate_to_v1(obj, ctx, key_fields=False, organization=False)
    certmanager.drop_unknown_spec_fields(obj, ctx)


MIGRATION = Step(
    kinds=("Certificate", "CertificateRequest", "Issuer", "ClusterIssuer"),
    from_api="cert-manager.io/v1beta1",
    to_api="cert-manager.io/v1",
    available_in="1.0",
    component="cert-manager",
    body=body,
    codes=(certmanager.BOTH, certmanager.OLD_SOLVER_DROPPED, certmanager.UNKNOWN_FIELD),
    summary="cert-manager.io v1beta1 → v1: emailSANs, uriSANs renamed",
)
