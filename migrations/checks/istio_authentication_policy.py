"""Istio ``authentication.istio.io/v1alpha1`` Policy and MeshPolicy: the objects to write instead.

Istio deprecated the alpha authentication API in 1.4, served both in 1.5 and removed it in 1.6 (istio
118cd731 "Remove fallback to v1alpha1 authentication", b88a3f09 removed the CRDs; istio.io blog "Migrate
pre-Istio 1.4 Alpha security policy"). Its replacement is several ``security.istio.io`` objects, so nothing
is rewritten: the lifecycle finding says the API is gone and this check (K8SM-IST-001) spells out the
replacement the way Istio's own converter builds it (istio-ecosystem/security-policy-migrate ·
``converter/convert.go`` · ``Converter.Convert``, ``convertMTLS``, ``convertJWT``, ``extractMTLS`` at
a3054f2):

- PeerAuthentication: ``mtls.mode`` from the first peer method (``mtls: {}`` is STRICT, no peers is
  PERMISSIVE); with target ports, ``portLevelMtls`` keyed by the workload's port;
- RequestAuthentication, when origins carry a JWT: ``jwtRules`` with ``issuer``, ``audiences``, ``jwksUri``,
  ``jwks``, ``jwtHeaders`` → ``fromHeaders[].name``, ``jwtParams`` → ``fromParams``, and
  ``forwardOriginalToken: true`` (the alpha API forwarded the token);
- AuthorizationPolicy, unless ``originIsOptional``: ``action: DENY`` for ``notRequestPrincipals: ["*"]``,
  one rule per trigger rule with its paths (exact ``p``, prefix ``p*``, suffix ``*p``; regular expressions
  cannot be carried, K8SM-IST-002).

A Policy's ``targets`` name Services; the new objects select workloads. The converter looked the Services up
in the cluster; k8smigrate reads files, so the selector and the target ports are left as ``<spec.selector of
Service …>`` and ``<targetPort of Service port …>``. A MeshPolicy's replacement goes to the mesh root
namespace (``istio-system`` unless ``meshConfig.rootNamespace`` says otherwise).
"""

from __future__ import annotations

from k8smigrate.addons import istio
from k8smigrate.model import Check

MIGRATION = Check(
    applies_to={"authentication.istio.io/v1alpha1": ("Policy", "MeshPolicy")},
    body=istio.report_policy_replacement,
    matters_from="1.4",
    component="istio",
    category="removed-field",
    summary="Istio alpha authentication Policy: the security.istio.io objects to write instead",
    codes=(istio.POLICY_REPLACEMENT, istio.POLICY_UNSUPPORTED),
)
