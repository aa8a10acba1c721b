"""cert-manager ``cert-manager.io/v1alpha3`` → ``cert-manager.io/v1`` (Certificate, CertificateRequest, Issuer,
ClusterIssuer).

v1alpha3 was served from cert-manager 0.14, deprecated in 1.4 (the webhook warns: ``pkg/internal/apis/
certmanager/validation/deprecation.go`` · ``validateAPIVersion``), no longer served from 1.6 and gone from
the CRDs in 1.7; v1 is served from 1.0. The fields follow upstream's converters
(``internal/apis/certmanager/v1alpha3/conversion.go`` at release 1.15, the last one with them):

- Certificate (``Convert_v1alpha3_CertificateSpec_To_certmanager_CertificateSpec``): ``keyAlgorithm``,
  ``keyEncoding``, ``keySize`` → ``privateKey.algorithm``/``encoding``/``size`` with ``rsa``→``RSA``,
  ``ecdsa``→``ECDSA``, ``pkcs1``→``PKCS1``, ``pkcs8``→``PKCS8`` (any other value copied, K8SM-CM-002 when v1
  rejects it; empty ones dropped, as Go's zero values are); ``emailSANs`` → ``emailAddresses``; ``uriSANs``
  → ``uris``. A ``spec.acme`` left from the solver format before 0.8 is removed with the issuer solvers it
  meant (K8SM-CM-004).
- CertificateRequest (``Convert_v1alpha3_CertificateRequestSpec_To_certmanager_CertificateRequestSpec``):
  ``spec.csr`` → ``spec.request``.
- Issuer, ClusterIssuer: the DNS01 provider keys ``clouddns``, ``azuredns``, ``acmedns`` of
  ``spec.acme.solvers[].dns01`` → ``cloudDNS``, ``azureDNS``, ``acmeDNS`` (renamed by JSON tag in b57088a3);
  ``spec.acme.http01``/``dns01`` of the old solver format, ignored since 0.11, are removed with the solvers
  they meant (K8SM-CM-007).

A ``spec`` field no cert-manager version has (a typo, another tool's field) is removed, as the v1 API server
prunes it (K8SM-CM-015). An old field beside its replacement is an error (K8SM-CM-001): the document is left
as it is.
"""

from __future__ import annotations

from k8smigrate.addons import certmanager
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Mapping


def body(obj: Mapping, ctx: Context) -> None:
    kind = obj.data("kind")
    if kind == "Certificate":
        certmanager.certificate_to_v1(obj, ctx, key_fields=True, organization=False)
    elif kind == "CertificateRequest":
        certmanager.csr_to_request(obj, ctx)
    else:
        certmanager.issuer_to_v1(obj, ctx, dns01_keys=True)
    certmanager.drop_unknown_spec_fields(obj, ctx)


MIGRATION = Step(
    kinds=("Certificate", "CertificateRequest", "Issuer", "ClusterIssuer"),
    from_api="cert-manager.io/v1alpha3",
    to_api="cert-manager.io/v1",
    available_in="1.0",
    component="cert-manager",
    body=body,
    codes=(
        certmanager.BOTH,
        certmanager.KEY_VALUE,
        certmanager.OLD_SOLVER_DROPPED,
        certmanager.OLD_ISSUER_DROPPED,
        certmanager.OLD_WINS,
        certmanager.UNKNOWN_FIELD,
    ),
    summary="cert-manager.io v1alpha3 → v1: private key settings, SANs, CSR, DNS01 provider keys",
)
