"""The master node role → control-plane in pod-spec scheduling fields, for any holder of them.

kubeadm stops labelling control-plane nodes ``node-role.kubernetes.io/master`` in 1.24 and
stops tainting them with it in 1.25 (the ``control_plane_role`` check says why and where from).
These rules fix a ``nodeSelector``, a ``nodeAffinity`` and a ``tolerations`` list wherever
they stand: in a pod spec (that check), in ``RuntimeClass.scheduling``, and in a chart's
``values.yaml`` defaults that a template renders into a pod spec (``templating.values_scheduling``).
"""

from __future__ import annotations

from k8smigrate.context import Context
from k8smigrate.tree import Item, Mapping, Sequence, from_data
from k8smigrate.versions import KubeVersion

MASTER = "node-role.kubernetes.io/master"
CONTROL_PLANE = "node-role.kubernetes.io/control-plane"
TAINT_GONE = KubeVersion(1, 25)
TAINT_ADDED = KubeVersion(1, 24)
NEGATIVE = ("NotIn", "DoesNotExist")


def fix_node_selector(spec: Mapping, ctx: Context) -> None:
    selector = spec.mapping("nodeSelector")
    if selector is None or MASTER not in selector:
        return
    if CONTROL_PLANE in selector:
        ctx.info("K8SM-FLD-035", f"nodeSelector {MASTER} dropped beside {CONTROL_PLANE}", selector.get(MASTER))
        selector.pop(MASTER)
    elif ctx.needs_met:
        ctx.info("K8SM-FLD-017", f"nodeSelector {MASTER} → {CONTROL_PLANE} (master label gone from 1.24)", selector)
        selector.rename(MASTER, CONTROL_PLANE)
    else:
        ctx.warn(
            "K8SM-FLD-034",
            f"nodeSelector {MASTER} kept: nodes before 1.20 lack {CONTROL_PLANE} and nodes from 1.24 lack "
            "master; a nodeSelector cannot ask for either (use nodeAffinity)",
            selector.get(MASTER),
        )
        return
    ctx.note(f"nodeSelector {MASTER} → {CONTROL_PLANE}")


def fix_affinity(node_affinity: Mapping, ctx: Context) -> None:
    required = node_affinity.mapping("requiredDuringSchedulingIgnoredDuringExecution")
    terms = required.sequence("nodeSelectorTerms") if required is not None else None
    if terms is not None:
        for item in list(terms.items):
            if isinstance(item.value, Mapping):
                fix_term(terms, item, item.value, ctx)
    preferred = node_affinity.sequence("preferredDuringSchedulingIgnoredDuringExecution")
    if preferred is not None:
        for item in list(preferred.items):
            term = item.value.mapping("preference") if isinstance(item.value, Mapping) else None
            if term is not None:
                fix_term(preferred, item, term, ctx)


def fix_term(terms: Sequence, item: Item, term: Mapping, ctx: Context) -> None:
    """One node selector term: rename, or add the control-plane alternative, for each master expression."""
    expressions = term.sequence("matchExpressions")
    if expressions is None:
        return
    for _i, expression in list(expressions.mappings()):
        key = expression.scalar("key")
        if key is None or key.data != MASTER:
            continue
        if ctx.needs_met:
            key.set(CONTROL_PLANE)
            ctx.info("K8SM-FLD-017", f"node affinity {MASTER} → {CONTROL_PLANE} (master label gone from 1.24)", key)
        elif expression.data("operator") in NEGATIVE:
            twin = from_data(expression.to_data())
            assert isinstance(twin, Mapping)
            twin.set("key", CONTROL_PLANE)
            if any(e.to_data() == twin.to_data() for e in expressions):
                continue  # already there (a second run)
            expressions.append(twin)
            ctx.info("K8SM-FLD-017", f"node affinity: the same expression on {CONTROL_PLANE} added", key)
        else:
            data = item.value.to_data()
            copy = from_data(data)
            assert isinstance(copy, Mapping)
            inner = copy.mapping("preference") or copy
            for _j, twin in (inner.sequence("matchExpressions") or Sequence()).mappings():
                if twin.data("key") == MASTER:
                    twin.set("key", CONTROL_PLANE)
            if any(t.to_data() == copy.to_data() for t in terms):
                return  # already there (a second run)
            terms.insert(copy, after=item)
            ctx.info("K8SM-FLD-017", f"node affinity: an alternative term on {CONTROL_PLANE} added", key)
            ctx.note(f"node affinity {MASTER} + {CONTROL_PLANE}")
            return
        ctx.note(f"node affinity {MASTER} → {CONTROL_PLANE}")


def fix_tolerations(tolerations: Sequence, ctx: Context) -> None:
    def same(a: Mapping, b: Mapping) -> bool:
        return all(a.data(k) == b.data(k) for k in ("operator", "value", "effect"))

    others = [t for _i, t in tolerations.mappings() if t.data("key") == CONTROL_PLANE]
    only_new = ctx.everywhere_from(TAINT_GONE)
    for item in list(tolerations.items):
        toleration = item.value
        if not isinstance(toleration, Mapping):
            continue
        key = toleration.scalar("key")
        if key is None or key.data != MASTER:
            continue
        twin = any(same(toleration, o) for o in others)
        if only_new and twin:
            ctx.info("K8SM-FLD-018", f"toleration of {MASTER} dropped (the taint is gone from 1.25)", key)
            tolerations.remove(item)
        elif only_new:
            ctx.info(
                "K8SM-FLD-018",
                f"toleration {MASTER} → {CONTROL_PLANE} (the master taint is gone from 1.25)",
                key,
            )
            key.set(CONTROL_PLANE)
        elif not twin:
            add_control_plane_twin(tolerations, item, toleration)
            ctx.info(
                "K8SM-FLD-018",
                f"toleration of {CONTROL_PLANE} added beside {MASTER} (1.24 nodes carry both taints)",
                key,
            )
        else:
            continue
        ctx.note(f"tolerations {MASTER} → {CONTROL_PLANE}")


def add_control_plane_twin(items: Sequence, item: Item, entry: Mapping) -> None:
    """A copy of ``entry`` (a toleration, a kubeadm taint) on the control-plane key, right after it."""
    copy = from_data(entry.to_data())
    assert isinstance(copy, Mapping)
    copy.set("key", CONTROL_PLANE)
    items.insert(copy, after=item)
