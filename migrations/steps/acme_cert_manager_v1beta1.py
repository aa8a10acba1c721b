"""cert-manager ``acme.cert-manager.io/v1beta1`` → ``acme.cert-manager.io/v1`` (Order, Challenge).

v1beta1 was served from cert-manager 0.16, deprecated in 1.4, no longer served from 1.6 and gone from the
CRDs in 1.7; v1 is served from 1.0. Nothing changes but the apiVersion: v1beta1 already has
``spec.request``, ``spec.authorizationURL``, the upper-case challenge types and the DNS01 provider keys of
v1 (``internal/apis/acme/v1beta1/conversion.go`` at release 1.15 only passes the ACME issuer through). A
``spec`` field no cert-manager version has is removed, as the v1 API server prunes it (K8SM-CM-015). Orders
and Challenges are written by the controller: migrating them matters for backups, not for manifests.
"""

from __future__ import annotations

from k8smigrate.addons import certmanager
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Order", "Challenge"),
    from_api="acme.cert-manager.io/v1beta1",
    to_api="acme.cert-manager.io/v1",
    available_in="1.0",
    component="cert-manager",
    body=certmanager.drop_unknown_spec_fields,
    codes=(certmanager.UNKNOWN_FIELD,),
    summary="acme.cert-manager.io v1beta1 → v1: apiVersion only (fields no version has removed)",
)
