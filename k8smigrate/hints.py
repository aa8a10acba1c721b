"""What to do instead, for APIs that were removed without a mechanical replacement.

The engine appends these hints to its lifecycle findings (K8SM-GEN-007 "removed",
K8SM-GEN-008 "deprecated", K8SM-GEN-009 "replacement unavailable") so that a document no
migration can rewrite still says what a human should do with it. Keyed on
``(apiVersion, kind)``, like the removal table.
"""

from __future__ import annotations

_PSP_INSTEAD = (
    "enforce Pod Security Admission with the namespace label "
    "pod-security.kubernetes.io/enforce=privileged|baseline|restricted (and audit=/warn=) or use a "
    "policy webhook"
)
_PSP_GUIDE = "field by field: k8smigrate explain podsecuritypolicy"
_PSP = f"Instead, {_PSP_INSTEAD}, then delete this PodSecurityPolicy by hand; {_PSP_GUIDE}"

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
_DRA_ALPHA = (
    "Instead, write it again for resource.k8s.io/v1 (served from 1.34): the v1alpha3 shapes of 1.31 to 1.33 "
    "differ from v1 (device capacities are {value: quantity}, a request's class, selectors, mode and count "
    "sit under exactly, a ResourceSlice device has no basic)"
)
_BETA_OFF = (
    "Its fields are the same in {new}, which is a beta API the API server does not serve unless "
    "--runtime-config enables it: enable it, then change apiVersion"
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
    **{
        ("resource.k8s.io/v1alpha3", kind): _DRA_ALPHA
        for kind in ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")
    },
    ("storagemigration.k8s.io/v1alpha1", "StorageVersionMigration"): (
        "Instead, create it again as storagemigration.k8s.io/v1beta1 (1.35, a beta the API server serves only "
        "with --runtime-config): spec.resource is {group, resource} without version, spec.continueToken is "
        "gone; a migration that already ran needs nothing"
    ),
    ("certificates.k8s.io/v1alpha1", "ClusterTrustBundle"): _BETA_OFF.format(new="certificates.k8s.io/v1beta1"),
    ("admissionregistration.k8s.io/v1alpha1", "MutatingAdmissionPolicy"): _BETA_OFF.format(
        new="admissionregistration.k8s.io/v1beta1"
    ),
    ("admissionregistration.k8s.io/v1alpha1", "MutatingAdmissionPolicyBinding"): _BETA_OFF.format(
        new="admissionregistration.k8s.io/v1beta1"
    ),
    ("coordination.k8s.io/v1alpha2", "LeaseCandidate"): (
        "Instead, let the control plane write its own: LeaseCandidate objects belong to coordinated leader "
        "election, which creates them (coordination.k8s.io/v1beta1 from 1.33)"
    ),
}
"""Keyed on ``(apiVersion, kind)``; a kind of ``*`` stands for every kind of that apiVersion."""


def hint(api_version: str, kind: str) -> str:
    """``". <hint>"`` for an (apiVersion, kind) that has one, else ``""``."""
    text = HINTS.get((api_version, kind)) or HINTS.get((api_version, "*"))
    return f". {text}" if text else ""


INSTEAD: dict[tuple[str, str], str] = {
    ("extensions/v1beta1", "PodSecurityPolicy"): f"{_PSP_INSTEAD}; {_PSP_GUIDE}",
    ("policy/v1beta1", "PodSecurityPolicy"): f"{_PSP_INSTEAD}; {_PSP_GUIDE}",
}
"""What takes over where an object of a removed kind is no longer written (a chart that writes it
only for older releases, ``--set unserved-kinds=gate``): the hint without "delete it"."""
