"""CoreDNS that watches EndpointSlices, and a ClusterRole that does not let it.

CoreDNS **1.8.1** is the first release whose kubernetes plugin watches EndpointSlices instead
of Endpoints, on clusters from 1.19 (``plugin/kubernetes/kubernetes.go``
``(*Kubernetes).InitKubeCache`` sets ``useEndpointSlices``; ``controller.go``
``endpointSliceListFunc``/``endpointSliceWatchFunc``; 1.8.0 has no EndpointSlice code); its
release notes (``notes/coredns-1.8.1.md``, PR #4209): "CoreDNS must be granted `list` and `watch`
access to `endpointslices`". 1.8.4 reads ``discovery.k8s.io/v1``; 1.11.0 dropped Endpoints
altogether (PR #6147). Without the permission the reflector fails with "endpointslices.discovery.k8s.io
is forbidden", CoreDNS starts "with unsynced Kubernetes API" and stops resolving Services.
kubeadm's ``system:coredns`` ClusterRole (``cmd/kubeadm/app/phases/addons/dns/manifests.go``
``CoreDNSClusterRole``) gained the rule in 1.22 with CoreDNS 1.8.4 (PR #102466, from #101955);
a CoreDNS upgraded beside an older role breaks.

For targets from 1.19, when the run holds a CoreDNS whose image (``coredns/coredns``,
``k8s.gcr.io/coredns``, ``registry.k8s.io/coredns/coredns``, ``eks/coredns``: any image named
``coredns``) is 1.8.1 or later, a ClusterRole of the run that serves it — one that a
ClusterRoleBinding of the run grants to the CoreDNS pods' service account, or one named
``system:coredns`` — must allow ``list`` and ``watch`` on ``discovery.k8s.io``
``endpointslices`` (in one rule or several; ``*`` counts):

- K8SM-DNS-001: the rule is added (the missing verbs join an existing ``discovery.k8s.io``
  ``endpointslices`` rule; otherwise a rule like kubeadm's is appended, in the document's
  style, comments kept): a warning, and ``scan`` lists it as breaking;
- K8SM-DNS-002: an error when it cannot be added (an aggregated ClusterRole, whose rules the
  aggregation controller writes, or ``rules`` that is not a list);
- K8SM-DNS-003: an info on the CoreDNS workload when no ClusterRole of the run serves it (check
  the cluster's).

The CoreDNS workloads, ClusterRoles and ClusterRoleBindings of the whole run are joined
(``k8smigrate.facts``); the findings name the files.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.dataclasscode import dataclass
from k8smigrate.facts import Collector, Located, Object
from k8smigrate.kube.images import Release, parse_image
from k8smigrate.kube.podspec import POD_APIS, POD_KINDS, container_data, containers, pod_spec_data, pod_specs
from k8smigrate.model import Check
from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping, Scalar, Sequence

FIRST_SLICES = Release(1, 8, 1)
ROLE = "system:coredns"
GROUP = "discovery.k8s.io"
RESOURCE = "endpointslices"
VERBS = ("list", "watch")
RBAC_APIS = ("rbac.authorization.k8s.io/v1", "rbac.authorization.k8s.io/v1beta1", "rbac.authorization.k8s.io/v1alpha1")


def is_coredns(image: str) -> bool:
    return parse_image(image).path.rsplit("/", 1)[-1] == "coredns"


def granted(rules: Data) -> set[str]:
    """The verbs ``rules`` grant on ``discovery.k8s.io`` ``endpointslices``."""
    verbs: set[str] = set()
    for rule in rules if isinstance(rules, list) else []:
        if not isinstance(rule, dict):
            continue
        groups, resources, found = (_strings(rule.get(k)) for k in ("apiGroups", "resources", "verbs"))
        if (GROUP in groups or "*" in groups) and (RESOURCE in resources or "*" in resources):
            verbs |= set(found)
    return set(VERBS) if "*" in verbs else verbs & set(VERBS)


def _strings(value: Data) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


# ------------------------------------------------------------------ facts


@dataclass(frozen=True)
class CoreDNS:
    """A CoreDNS workload of the run: its release and the service account it runs as."""

    workload: str
    release: Release | None
    account: str
    namespace: str | None


@dataclass(frozen=True)
class Binding:
    """A ClusterRoleBinding of the run: its role and the service accounts it binds."""

    role: str
    accounts: tuple[tuple[str, str | None], ...]


def _coredns(obj: Object) -> Iterator[CoreDNS]:
    pod = pod_spec_data(obj.data)
    if pod is None:
        return
    spec = pod[1]
    account = spec.get("serviceAccountName") or spec.get("serviceAccount") or "default"
    for container in container_data(spec):
        image = container.get("image")
        if isinstance(image, str) and is_coredns(image):
            where = f"{obj.namespace}/{obj.name}" if obj.namespace else str(obj.name)
            yield CoreDNS(f"{obj.kind} {where}", parse_image(image).release, str(account), obj.namespace)
            return


def _bindings(obj: Object) -> Iterator[Binding]:
    ref = obj.data.get("roleRef")
    if obj.kind != "ClusterRoleBinding" or not isinstance(ref, dict) or ref.get("kind") != "ClusterRole":
        return
    subjects = obj.data.get("subjects")
    accounts = tuple(
        (str(s.get("name")), _text(s.get("namespace")))
        for s in (subjects if isinstance(subjects, list) else [])
        if isinstance(s, dict) and s.get("kind") == "ServiceAccount"
    )
    if isinstance(ref.get("name"), str):
        yield Binding(str(ref["name"]), accounts)


def _roles(obj: Object) -> Iterator[str]:
    if obj.kind == "ClusterRole" and obj.name:
        yield obj.name


def _text(value: Data) -> str | None:
    return value if isinstance(value, str) else None


COREDNS = Collector("coredns-workloads", ("coredns",), _coredns, POD_KINDS)
# as role_body's trigger: the roles and bindings CoreDNS uses name it (system:coredns,
# RELEASE-coredns, the coredns service account)
BINDINGS = Collector("cluster-role-bindings", ("dns",), _bindings, frozenset({"ClusterRoleBinding"}))
ROLES = Collector("cluster-roles", ("dns",), _roles, frozenset({"ClusterRole"}))


def serves(role: str, dns: CoreDNS, bindings: list[Located[Binding]]) -> bool:
    """Whether ClusterRole ``role`` is (one of) the CoreDNS pods' roles."""
    for b in bindings:
        if b.value.role == role:
            for name, namespace in b.value.accounts:
                if name == dns.account and (dns.namespace is None or namespace in (None, dns.namespace)):
                    return True
    bound = any(
        name == dns.account and (dns.namespace is None or ns in (None, dns.namespace))
        for b in bindings
        for name, ns in b.value.accounts
    )
    return role == ROLE and not bound


def watchers(role: str, ctx: Context) -> list[Located[CoreDNS]]:
    """The CoreDNS workloads of the run that watch EndpointSlices and use ClusterRole ``role``."""
    bindings = ctx.facts(BINDINGS)
    return [
        d
        for d in ctx.facts(COREDNS)
        if d.value.release is not None and d.value.release >= FIRST_SLICES and serves(role, d.value, bindings)
    ]


# ------------------------------------------------------------------ ClusterRole


def role_body(role: Mapping, ctx: Context) -> None:
    metadata = role.mapping("metadata")
    name = metadata.data("name") if metadata is not None else None
    if not isinstance(name, str):
        return
    users = watchers(name, ctx)
    rules = role.get("rules")
    data = rules.to_data() if rules is not None else None
    missing = [v for v in VERBS if v not in granted(data)]
    if not users or not missing:
        return
    first = users[0]
    more = f" and {len(users) - 1} more" if len(users) > 1 else ""
    need = (
        f"ClusterRole {name} does not allow {'/'.join(missing)} on {GROUP} {RESOURCE}, which CoreDNS "
        f"{first.value.release} ({first.value.workload} in {first.where}{more}) watches from {FIRST_SLICES} on "
        "clusters from 1.19: without it CoreDNS stops resolving Services"
    )
    if "aggregationRule" in role or not (rules is None or isinstance(rules, Sequence) or _null(rules)):
        aggregated = "aggregationRule" in role
        what = "it is aggregated (add the rule to a role it aggregates)" if aggregated else "its rules are not a list"
        ctx.error("K8SM-DNS-002", f"{need}; cannot add the rule: {what}", rules if rules is not None else role)
        return
    added = add_rule(role, missing)
    ctx.warn("K8SM-DNS-001", f"{need}; {added}", role.get("rules"))
    ctx.note(f"rules: {GROUP} {RESOURCE} {', '.join(missing)}")


def _null(node: object) -> bool:
    return isinstance(node, Scalar) and node.data is None


def add_rule(role: Mapping, missing: list[str]) -> str:
    """Grant the missing verbs; says what was done."""
    rules = role.get("rules")
    if isinstance(rules, Sequence):
        for _i, rule in rules.mappings():
            groups, resources = rule.data("apiGroups"), rule.data("resources")
            verbs = rule.sequence("verbs")
            if groups == [GROUP] and resources == [RESOURCE] and verbs is not None:
                for verb in missing:
                    verbs.append(verb)
                return f"added {', '.join(missing)} to its {GROUP} {RESOURCE} rule"
        rules.append(new_rule(rules.flow))
        return "added the rule kubeadm ships (list, watch)"
    role.set("rules", Sequence.of([new_rule(False)]))
    return "added the rule kubeadm ships (list, watch)"


def new_rule(flow: bool) -> Mapping:
    return Mapping.of(
        {
            "apiGroups": Sequence.of([GROUP], flow=flow),
            "resources": Sequence.of([RESOURCE], flow=flow),
            "verbs": Sequence.of(list(VERBS), flow=flow),
        },
        flow=flow,
    )


# ------------------------------------------------------------------ CoreDNS workloads


def workload_body(obj: Mapping, ctx: Context) -> None:
    bindings = ctx.facts(BINDINGS)
    roles = [r.value for r in ctx.facts(ROLES)]
    for _metadata, spec in pod_specs(obj):
        for container in containers(spec):
            image = container.scalar("image")
            text = image.data if image is not None else None
            if image is None or not isinstance(text, str) or not is_coredns(text):
                continue
            found = parse_image(text).release
            if found is None or found < FIRST_SLICES:
                continue
            account = spec.data("serviceAccountName") or spec.data("serviceAccount") or "default"
            meta = obj.mapping("metadata")
            namespace = meta.data("namespace") if meta is not None else None
            dns = CoreDNS("", found, str(account), namespace if isinstance(namespace, str) else None)
            if not any(serves(role, dns, bindings) for role in roles):
                ctx.info(
                    "K8SM-DNS-003",
                    f"CoreDNS {found} watches {GROUP} {RESOURCE} (from {FIRST_SLICES}, on clusters from 1.19) and "
                    "needs "
                    f"list and watch on them; no ClusterRole of the repository serves its service account {account}: "
                    f"check the cluster's (kubeadm's {ROLE} has the rule from 1.22)",
                    image,
                )


CODES = (
    Code("K8SM-DNS-001", "warning", "a CoreDNS ClusterRole lacked list/watch on endpointslices; the rule was added"),
    Code("K8SM-DNS-002", "error", "a CoreDNS ClusterRole lacks list/watch on endpointslices and cannot be fixed here"),
    Code(
        "K8SM-DNS-003", "info", "CoreDNS 1.8.1+ needs list/watch on endpointslices; no ClusterRole of the run serves it"
    ),
)
_ROLES = Check(
    applies_to=dict.fromkeys(RBAC_APIS, ("ClusterRole",)),
    body=role_body,
    trigger="dns",  # a role CoreDNS uses names it (system:coredns, RELEASE-coredns) in practice
    matters_from="1.19",
    edits=True,
    category="controller",
    summary="CoreDNS 1.8.1+ watches EndpointSlices: its ClusterRole gets list/watch on them",
    codes=CODES,
    facts=(COREDNS, BINDINGS, ROLES),
)
MIGRATIONS = [_ROLES, replace(_ROLES, applies_to=POD_APIS, body=workload_body, trigger="coredns", edits=False)]
