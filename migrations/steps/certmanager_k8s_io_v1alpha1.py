"""cert-manager ``certmanager.k8s.io/v1alpha1`` → ``cert-manager.io/v1alpha2`` (Certificate,
CertificateRequest, Issuer, ClusterIssuer).

cert-manager 0.11 replaced the API group (``pkg/apis/certmanager/doc.go`` · ``GroupName``); there was no
conversion: the old objects had to be backed up, the old CRDs removed and the objects re-created in the new
group (website ``upgrading-0.10-0.11.md``). The schemas differ only where 0.11 removed the solver format
from before 0.8 (field diff of ``pkg/apis/certmanager/v1alpha1`` at v0.10.0 against
``pkg/apis/{certmanager,acme}/v1alpha2`` at v0.11.0):

- Certificate ``spec.acme`` (``config: [{domains, http01: {ingress, ingressClass}, dns01: {provider}}]``) is
  removed; 0.10 built each domain's solver from it and the issuer (``pkg/issuer/acme/http/http.go`` ·
  ``httpDomainCfgForChallenge``, ``pkg/issuer/acme/dns/dns.go`` · ``extractChallengeSolverConfigOldOrNew``).
  The warning (K8SM-CM-004) gives the equivalent issuer solvers, one per entry, selected by its domains.
- Issuer/ClusterIssuer ``spec.acme.http01: {serviceType}`` and ``spec.acme.dns01.providers[]`` become
  ``spec.acme.solvers``: ``{http01: {ingress: {serviceType}}}`` or ``{dns01: <the provider without its
  name>}`` (K8SM-CM-005). With several old solvers only the Certificates knew which domain used which: an
  error (K8SM-CM-006) leaves the document as it is and lists the solvers to write with selectors. Beside
  existing ``solvers`` the old fields are removed (K8SM-CM-007).

The annotations and solver labels of the old group are renamed by the ``cert_manager_annotations`` check,
for every kind. Orders and Challenges go to ``acme.cert-manager.io`` (``certmanager_acme_v1alpha1``).
"""

from __future__ import annotations

from k8smigrate.addons import certmanager
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Mapping


def body(obj: Mapping, ctx: Context) -> None:
    kind = obj.data("kind")
    if kind == "Certificate":
        spec = obj.mapping("spec")
        if spec is not None:
            certmanager.drop_old_certificate_acme(spec, ctx, since="0.11")
    elif kind in ("Issuer", "ClusterIssuer"):
        certmanager.convert_old_issuer_format(obj, ctx)


MIGRATION = Step(
    kinds=("Certificate", "CertificateRequest", "Issuer", "ClusterIssuer"),
    from_api="certmanager.k8s.io/v1alpha1",
    to_api="cert-manager.io/v1alpha2",
    available_in="0.11",
    component="cert-manager",
    body=body,
    codes=(
        certmanager.OLD_SOLVER_DROPPED,
        certmanager.OLD_ISSUER_CONVERTED,
        certmanager.OLD_ISSUER_AMBIGUOUS,
        certmanager.OLD_ISSUER_DROPPED,
    ),
    summary="certmanager.k8s.io → cert-manager.io: the solver format before 0.8 moved to issuer solvers",
)
