"""RBAC rules on ``podsecuritypolicies``: dead once PodSecurityPolicy is gone (1.25), reported.

A pod could use a PodSecurityPolicy when its creator or its service account was allowed the
verb ``use`` on the ``podsecuritypolicies`` resource of the ``policy`` group (``extensions``
before 1.16) — that is how the admission plugin authorized a policy
(``authorizedForPolicy`` in kubernetes ``plugin/pkg/admission/security/podsecuritypolicy/
admission.go``, up to 1.24). Kubernetes 1.25 removed both the ``policy/v1beta1``
PodSecurityPolicy API and the admission plugin, so such a rule grants nothing any more: the
authorizer still accepts it (RBAC does not check that a resource exists), nothing breaks,
and it is clutter that misleads a reader into thinking pods are still constrained.

For targets from 1.25 on, every rule of a Role or ClusterRole (``rbac.authorization.k8s.io``
v1, v1beta1, v1alpha1) whose ``resources`` name ``podsecuritypolicies`` (or
``podsecuritypolicies/…``) in the ``policy``, ``extensions`` or ``*`` group is reported
(K8SM-PSP-002, an info); nothing is rewritten: delete the rule, or the role when it holds
nothing else, once Pod Security Admission (or a policy webhook) has taken over. Rules that
grant ``*`` resources are not reported: they do not name the API.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Node

RESOURCE = "podsecuritypolicies"
GROUPS = ("policy", "extensions", "*")
ROLES = ("Role", "ClusterRole")


def strings(node: Node | None) -> list[str]:
    """The items of a list of strings (a scalar or anything else: none)."""
    data = node.to_data() if node is not None else None
    return [str(x) for x in data] if isinstance(data, list) else []


def body(role: Mapping, ctx: Context) -> None:
    for rule in mappings_at(role, "rules"):
        resources = strings(rule.get("resources"))
        named = [r for r in resources if r == RESOURCE or r.startswith(RESOURCE + "/")]
        if not named or not any(g in GROUPS for g in strings(rule.get("apiGroups"))):
            continue
        verbs = ", ".join(strings(rule.get("verbs"))) or "no verbs"
        ctx.info(
            "K8SM-PSP-002",
            f"this rule grants {verbs} on {', '.join(named)}: PodSecurityPolicy and its admission plugin "
            "are gone from 1.25, so it grants nothing; delete it once Pod Security Admission (or a "
            "policy webhook) enforces your pod rules",
            rule,
        )


MIGRATION = Check(
    applies_to={f"rbac.authorization.k8s.io/{version}": ROLES for version in ("v1", "v1beta1", "v1alpha1")},
    body=body,
    matters_from="1.25",
    trigger=RESOURCE,
    category="rbac",
    summary="RBAC rules on podsecuritypolicies (dead from 1.25): reported",
    codes=(Code("K8SM-PSP-002", "info", "an RBAC rule on podsecuritypolicies, which grant nothing from 1.25"),),
)
