"""Deprecated node labels in scheduling constraints → their GA names (opt-in).

The beta node labels have GA twins, and the kubelet sets both: ``beta.kubernetes.io/os`` and
``/arch`` → ``kubernetes.io/os`` and ``/arch`` (1.14); ``failure-domain.beta.kubernetes.io/zone``
and ``/region`` → ``topology.kubernetes.io/zone`` and ``/region``, and
``beta.kubernetes.io/instance-type`` → ``node.kubernetes.io/instance-type`` (1.17). The API
server warns on the old keys (``deprecatedNodeLabels`` in ``pkg/api/node/util.go``, used by
``pkg/api/pod/warnings.go``); ``well_known_labels.go`` says the failure-domain labels stay
supported "for the foreseeable future", so nothing breaks: this is clean-up, run only when
asked for (``--only deprecated_node_labels``), for targets from 1.17 on, where every node of
the window (``--min-version``) carries the GA label.

In every pod spec (Pod, workload templates, CronJob job templates) and in
``RuntimeClass.scheduling`` the key is renamed, value and comments unchanged (K8SM-FLD-019), in:
``nodeSelector`` keys; ``nodeAffinity`` match expressions (required and preferred terms);
``topologySpreadConstraints[].topologyKey``; ``podAffinity``/``podAntiAffinity``
``topologyKey`` (required and preferred terms). A ``nodeSelector`` with both keys drops the
old one when the values are equal, and is an error otherwise (K8SM-FLD-055; the document is
left unchanged). ``PersistentVolume.spec.nodeAffinity`` is never touched: it is immutable,
and volumes legitimately carry the old keys.
"""

from __future__ import annotations

from collections.abc import Iterator

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import POD_APIS, pod_specs
from k8smigrate.kube.renames import rename_key
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar
from k8smigrate.versions import KubeVersion

# old key → (new key, first release whose nodes all carry the new key)
RENAMES = {
    "beta.kubernetes.io/os": ("kubernetes.io/os", KubeVersion(1, 14)),
    "beta.kubernetes.io/arch": ("kubernetes.io/arch", KubeVersion(1, 14)),
    "failure-domain.beta.kubernetes.io/zone": ("topology.kubernetes.io/zone", KubeVersion(1, 17)),
    "failure-domain.beta.kubernetes.io/region": ("topology.kubernetes.io/region", KubeVersion(1, 17)),
    "beta.kubernetes.io/instance-type": ("node.kubernetes.io/instance-type", KubeVersion(1, 17)),
}
AFFINITY_TERMS = ("requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution")


def renamed(old: object, ctx: Context) -> str | None:
    """The GA key for a deprecated one, when every node of the window carries it."""
    found = RENAMES.get(old) if isinstance(old, str) else None
    if found is None or not ctx.everywhere_from(found[1]):
        return None
    return found[0]


def body(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "RuntimeClass":
        scheduling = obj.mapping("scheduling")
        if scheduling is not None:
            fix_node_selector(scheduling, "scheduling.nodeSelector", ctx)
        return
    for _meta, spec in pod_specs(obj):
        if not fix_node_selector(spec, "nodeSelector", ctx):
            return
        for where, key in label_keys(spec):
            new = renamed(key.data, ctx)
            if new is not None:
                ctx.info("K8SM-FLD-019", f"{where} {key.data} (deprecated node label) → {new}", key)
                ctx.note(f"{where} {key.data} → {new}")
                key.set(new)


def fix_node_selector(parent: Mapping, where: str, ctx: Context) -> bool:
    """Rename the deprecated keys of ``parent.nodeSelector``; False after an error finding."""
    selector = parent.mapping("nodeSelector")
    if selector is None:
        return True
    for old in list(selector.keys()):
        new = renamed(old, ctx)
        if new is None:
            continue
        node = selector.get(old)
        outcome = rename_key(selector, old, new)
        if outcome == "conflict":
            ctx.error("K8SM-FLD-055", f"{where} has both {old} and {new}, with different values", node)
            return False
        why = f"→ {new}" if outcome == "renamed" else f"dropped beside {new}"
        ctx.info("K8SM-FLD-019", f"{where} {old} (deprecated node label) {why}", node)
        ctx.note(f"{where} {old} → {new}")
    return True


def label_keys(spec: Mapping) -> Iterator[tuple[str, Scalar]]:
    """Every node label key of a pod spec's affinity and spread constraints, with where it is."""
    affinity = spec.mapping("affinity")
    node_affinity = affinity.mapping("nodeAffinity") if affinity is not None else None
    if node_affinity is not None:
        required = node_affinity.mapping(AFFINITY_TERMS[0])
        required_terms = required.sequence("nodeSelectorTerms") if required is not None else None
        terms = [t for _i, t in required_terms.mappings()] if required_terms is not None else []
        preferred = node_affinity.sequence(AFFINITY_TERMS[1])
        for _i, weighted in preferred.mappings() if preferred is not None else ():
            term = weighted.mapping("preference")
            if term is not None:
                terms.append(term)
        for term in terms:
            expressions = term.sequence("matchExpressions")
            for _j, expression in expressions.mappings() if expressions is not None else ():
                key = expression.scalar("key")
                if key is not None:
                    yield "nodeAffinity", key
    for name in ("podAffinity", "podAntiAffinity"):
        pod_affinity = affinity.mapping(name) if affinity is not None else None
        for kind in AFFINITY_TERMS if pod_affinity is not None else ():
            items = pod_affinity.sequence(kind) if pod_affinity is not None else None
            for _i, item in items.mappings() if items is not None else ():
                term = item.mapping("podAffinityTerm") if kind == AFFINITY_TERMS[1] else item
                key = term.scalar("topologyKey") if term is not None else None
                if key is not None:
                    yield f"{name} topologyKey", key
    constraints = spec.sequence("topologySpreadConstraints")
    for _i, constraint in constraints.mappings() if constraints is not None else ():
        key = constraint.scalar("topologyKey")
        if key is not None:
            yield "topologySpreadConstraints topologyKey", key


MIGRATION = Check(
    applies_to={**POD_APIS, "node.k8s.io/v1": ("RuntimeClass",), "node.k8s.io/v1beta1": ("RuntimeClass",)},
    body=body,
    matters_from="1.17",
    opt_in=True,
    # Every old key holds one of these ("failure-domain.beta.kubernetes.io/…" the first).
    trigger="beta.kubernetes.io/",
    category="removed-field",
    edits=True,
    cleanup=True,
    summary="deprecated beta node labels in selectors, affinities and spread constraints → GA labels",
    codes=(
        Code("K8SM-FLD-019", "info", "a deprecated node label key renamed to its GA name"),
        Code("K8SM-FLD-055", "error", "a nodeSelector has both the old and the new label, with different values"),
    ),
)
