"""cert-manager ``acme.cert-manager.io/v1alpha2`` → ``acme.cert-manager.io/v1`` (Order, Challenge).

v1alpha2 was served from cert-manager 0.11, deprecated in 1.4, no longer served from 1.6 and gone from the
CRDs in 1.7; v1 is served from 1.0. The fields follow upstream's converters
(``internal/apis/acme/v1alpha2/conversion.go`` at release 1.15):

- Order (``Convert_v1alpha2_OrderSpec_To_acme_OrderSpec``): ``spec.csr`` → ``spec.request``.
- Challenge (``Convert_v1alpha2_ChallengeSpec_To_acme_ChallengeSpec``): ``spec.authzURL`` →
  ``spec.authorizationURL``; ``spec.type`` ``http-01`` → ``HTTP-01``, ``dns-01`` → ``DNS-01`` (any other
  value copied, K8SM-CM-009); the DNS01 provider keys of ``spec.solver.dns01`` ``clouddns``, ``azuredns``,
  ``acmedns`` → ``cloudDNS``, ``azureDNS``, ``acmeDNS``.

Orders and Challenges are written by the controller: migrating them matters for backups, not for manifests.
An old field beside its replacement is an error (K8SM-CM-001).
"""

from __future__ import annotations

from k8smigrate.addons import certmanager
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Mapping


def body(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "Order":
        certmanager.csr_to_request(obj, ctx)
    else:
        certmanager.challenge_to_v1(obj, ctx, dns01_keys=True)
    certmanager.drop_unknown_spec_fields(obj, ctx)


MIGRATION = Step(
    kinds=("Order", "Challenge"),
    from_api="acme.cert-manager.io/v1alpha2",
    to_api="acme.cert-manager.io/v1",
    available_in="1.0",
    component="cert-manager",
    body=body,
    codes=(certmanager.BOTH, certmanager.CHALLENGE_TYPE, certmanager.UNKNOWN_FIELD),
    summary="acme.cert-manager.io v1alpha2 → v1: Order and Challenge fields",
)
