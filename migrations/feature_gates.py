"""Removed and locked feature gates in component configs and kubeadm flags.

Every Kubernetes component registers every gate in one process-wide table
(``component-base/featuregate``), so a gate removed from any feature file is unknown to
every component: ``unrecognized feature gate: <name>`` and the component refuses to start;
a locked gate set to the other value fails with ``cannot set feature gate … locked to …``.

Looked at: ``KubeletConfiguration.featureGates`` (kubelet.config.k8s.io/v1beta1),
``KubeProxyConfiguration.featureGates`` (kubeproxy.config.k8s.io/v1alpha1), and the
``feature-gates`` flag string (``"A=true,B=false"``) in kubeadm
``ClusterConfiguration.{apiServer,controllerManager,scheduler}.extraArgs`` and
``{Init,Join}Configuration.nodeRegistration.kubeletExtraArgs``, in map form (v1beta1–v1beta3)
and list form (``{name, value}``, v1beta4). kubeadm's own ``featureGates`` are the
``kubeadm_feature_gates`` pass. Static pod ``--feature-gates`` command lines are not read.

Rules, for a gate ``G=v`` and the target release (table ``data/feature_gates.tsv``):

- ``G`` removed at the target and ``v`` is the behaviour the component now always has (its
  locked value, ``true`` for a GA gate, ``false`` for a feature that went away): deleted
  (K8SM-GATE-001; K8SM-GATE-007 when the window starts before the gate was on by default);
  an ``InTreePlugin*Unregister`` gate is deleted whatever its value (the plugin code is gone);
- ``G`` removed and ``v`` the other value: error, the opt-out is gone (K8SM-GATE-002);
- ``G`` locked at the target: the other value is an error (K8SM-GATE-003), the locked value
  is kept with K8SM-GATE-004 (it only costs a start-up warning);
- a GA gate with a known lock or removal later: K8SM-GATE-005; a gate unknown to the table:
  K8SM-GATE-006; a gate newer than the target: K8SM-GATE-008; a value that is not a
  boolean: K8SM-GATE-009.

A flag string whose gates are all deleted is removed with its flag; an emptied
``featureGates`` map is removed.
"""

from __future__ import annotations

from k8smigrate.context import Context
from k8smigrate.registry import Migration
from k8smigrate.tree import Mapping, Scalar, Sequence
from k8smigrate.versions import KubeVersion

from ._gates import CODES, Gate, judge, parse_bool
from ._kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4

KUBELET = "kubelet.config.k8s.io/v1beta1"
KUBE_PROXY = "kubeproxy.config.k8s.io/v1alpha1"
FLAG = "feature-gates"
COMPONENTS = ("apiServer", "controllerManager", "scheduler")


def body(obj: Mapping, ctx: Context) -> None:
    kind = obj.data("kind")
    if kind in ("KubeletConfiguration", "KubeProxyConfiguration"):
        fix_map(obj, "featureGates", ctx)
    elif kind == "ClusterConfiguration":
        for name in COMPONENTS:
            section = obj.mapping(name)
            if section is not None:
                fix_args(section, "extraArgs", ctx)
        fix_map(obj, "featureGates", ctx, KUBEADM_GATES)
    else:
        registration = obj.mapping("nodeRegistration")
        if registration is not None:
            fix_args(registration, "kubeletExtraArgs", ctx)


def fix_map(parent: Mapping, key: str, ctx: Context, gates_table: dict[str, Gate] | None = None) -> None:
    gates = parent.mapping(key)
    if gates is None:
        return
    for entry in list(gates.entries):
        node = entry.value
        value = node.data if isinstance(node, Scalar) else None
        if not isinstance(value, bool):
            ctx.error("K8SM-GATE-009", f"feature gate {entry.name}: the value is not a boolean", node)
            continue
        if gates_table is not None and entry.name not in gates_table:
            continue  # kubeadm's own table below is partial: say nothing about the others
        verdict = judge(entry.name, value, ctx.settings.window, gates_table)
        if verdict.level is not None:
            ctx.report(verdict.level, verdict.code, verdict.message, node)
        if verdict.delete:
            gates.pop(entry.name)
            ctx.note(f"{key}.{entry.name} removed")
    holder = parent.entry(key)
    if len(gates) == 0 and holder is not None and not holder.head_comments and not holder.eol_comment:
        parent.pop(key)


def fix_args(parent: Mapping, key: str, ctx: Context) -> None:
    args = parent.get(key)
    if isinstance(args, Mapping):
        value = args.scalar(FLAG)
        if value is not None:
            new = fix_string(value, ctx)
            if new == "":
                args.pop(FLAG)
            elif new is not None:
                value.set(new)
    if isinstance(args, Sequence):
        for item in list(args.items):
            pair = item.value
            if not (isinstance(pair, Mapping) and pair.data("name") == FLAG):
                continue
            value = pair.scalar("value")
            new = fix_string(value, ctx) if value is not None else None
            if new == "":
                args.items.remove(item)
                args.dirty = True
            elif new is not None and value is not None:
                value.set(new)
    holder = parent.entry(key)
    emptied = isinstance(args, (Mapping, Sequence)) and len(args) == 0 and not args.pristine()
    if emptied and holder is not None and not holder.head_comments and not holder.eol_comment:
        parent.pop(key)  # emptied here, not written empty by the user


def fix_string(node: Scalar, ctx: Context) -> str | None:
    """The flag value without its deleted gates, or None when nothing changes."""
    text = node.data
    if not isinstance(text, str):
        return None
    kept: list[str] = []
    changed = False
    for piece in text.split(","):
        name, sep, raw = piece.strip().partition("=")
        if not piece.strip():
            kept.append(piece)
            continue
        value = parse_bool(raw.strip()) if sep else None
        if value is None:
            ctx.error("K8SM-GATE-009", f"--{FLAG}: {piece.strip()!r} is not NAME=true|false", node)
            kept.append(piece)
            continue
        verdict = judge(name.strip(), value, ctx.settings.window)
        if verdict.level is not None:
            ctx.report(verdict.level, verdict.code, verdict.message, node)
        if verdict.delete:
            changed = True
            ctx.note(f"--{FLAG} {name.strip()} removed")
        else:
            kept.append(piece)
    if not changed:
        return None
    return ",".join(kept).strip(" ,")


# kubeadm's own gates (``cmd/kubeadm/app/features/features.go``); only the releases that are
# verified (READINESS §5.3, kubeadm-init docs "removed feature gates"). kubeadm rejects an
# unknown name ("unrecognized feature-gate key").
KUBEADM_GATES = {
    "IPv6DualStack": Gate("IPv6DualStack", None, KubeVersion(1, 23), None, None, None, KubeVersion(1, 24)),
    "UnversionedKubeletConfigMap": Gate(
        "UnversionedKubeletConfigMap", None, KubeVersion(1, 25), None, None, None, KubeVersion(1, 26)
    ),
}

_KUBEADM_KINDS = ("ClusterConfiguration", "InitConfiguration", "JoinConfiguration")

MIGRATIONS = [
    Migration(
        kinds=kinds,
        from_api=api,
        to_api=api,
        available_in="1.17",
        body=body,
        component=component,
        fixer=True,
        category="feature-gate",
        summary="removed and locked feature gates: deleted when harmless, errors otherwise",
        codes=CODES,
    )
    for api, kinds, component in (
        (KUBELET, ("KubeletConfiguration",), "kubelet"),
        (KUBE_PROXY, ("KubeProxyConfiguration",), "kube-proxy"),
        *((api, _KUBEADM_KINDS, "kubeadm") for api in (V1BETA1, V1BETA2, V1BETA3, V1BETA4)),
    )
]
