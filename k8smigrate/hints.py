"""What to do instead, for APIs that were removed without a mechanical replacement.

The engine appends these hints to its lifecycle findings (K8SM-GEN-007 "removed",
K8SM-GEN-008 "deprecated", K8SM-GEN-009 "replacement unavailable") so that a document no
migration can rewrite still says what a human should do with it. Keyed on
``(apiVersion, kind)``, like the removal table.
"""

from __future__ import annotations

_PSP = (
    "Instead, enforce Pod Security Admission with the namespace label "
    "pod-security.kubernetes.io/enforce=privileged|baseline|restricted (and audit=/warn=) or use a "
    "policy webhook, then delete this PodSecurityPolicy by hand; field by field: k8smigrate explain podsecuritypolicy"
)

_ISTIO_RBAC = (
    "Write a security.istio.io/v1 AuthorizationPolicy per workload instead: each ServiceRole rule "
    "(services, methods, paths, constraints) becomes rules[].to.operation (hosts, methods, paths) and "
    "rules[].when, each ServiceRoleBinding subject rules[].from.source (user → principals, property "
    "source.namespace → namespaces, source.ip → ipBlocks), the Services spec.selector.matchLabels of "
    "their workloads; ClusterRbacConfig ON_WITH_INCLUSION becomes an ALLOW policy per included "
    "namespace or workload (istioctl x authz convert did this in Istio 1.4 and 1.5, reading the cluster)"
)
_ISTIO_AUTHN = (
    "Write security.istio.io/v1 PeerAuthentication (peers mtls), RequestAuthentication (origins jwt) "
    "and, unless originIsOptional, a DENY AuthorizationPolicy with notRequestPrincipals: ['*']; the "
    "K8SM-IST-001 finding of this object spells them out"
)
_MIXER = (
    "Mixer was deprecated in Istio 1.5 and removed in 1.8 (its adapter- and template-specific kinds "
    "were no longer installed from 1.2): metrics and logs come from the proxies (telemetry.istio.io "
    "Telemetry), policy adapters become an ext_authz provider, an EnvoyFilter or a WasmPlugin; delete "
    "this object"
)

HINTS: dict[tuple[str, str], str] = {
    ("extensions/v1beta1", "PodSecurityPolicy"): _PSP,
    ("policy/v1beta1", "PodSecurityPolicy"): _PSP,
    **{("rbac.istio.io/v1alpha1", k): _ISTIO_RBAC for k in ("ServiceRole", "ServiceRoleBinding", "RbacConfig")},
    ("rbac.istio.io/v1alpha1", "ClusterRbacConfig"): _ISTIO_RBAC,
    ("authentication.istio.io/v1alpha1", "Policy"): _ISTIO_AUTHN,
    ("authentication.istio.io/v1alpha1", "MeshPolicy"): _ISTIO_AUTHN,
    ("config.istio.io/v1alpha2", "*"): _MIXER,
    ("gateway.networking.k8s.io/v1alpha2", "ReferencePolicy"): "The kind is ReferenceGrant since Gateway API 0.5",
    ("image.toolkit.fluxcd.io/v1alpha1", "ImageUpdateAutomation"): (
        "v1alpha2 replaced spec.checkout and spec.push with spec.sourceRef and spec.git "
        "{checkout, commit, push}; rewrite it by hand"
    ),
}
"""Keyed on ``(apiVersion, kind)``; a kind of ``*`` stands for every kind of that apiVersion."""


def hint(api_version: str, kind: str) -> str:
    """``". <hint>"`` for an (apiVersion, kind) that has one, else ``""``."""
    text = HINTS.get((api_version, kind)) or HINTS.get((api_version, "*"))
    return f". {text}" if text else ""
