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
and list form (``{name, value}``, v1beta4), and the ``--feature-gates`` flag on the command
line of Kubernetes components run in pods: static pod manifests
(``/etc/kubernetes/manifests/*.yaml``), kube-proxy DaemonSets, cloud controller managers, a
containerised kubelet. In every container (``containers``, ``initContainers``,
``ephemeralContainers``) of every pod spec, ``command`` and ``args`` are read in both forms,
``--feature-gates=A=true,B=false`` as one element and ``--feature-gates`` followed by the value
as the next element. Only containers that run a component are read: the executable
(``command[0]``) or, without a command, the image name is ``kube-apiserver``,
``kube-controller-manager``, ``kube-scheduler``, ``kube-proxy``, ``kubelet``, ``hyperkube`` or
``*cloud-controller-manager``. Other programs (cert-manager, CSI sidecars, autoscalers) take a
``--feature-gates`` flag of their own with their own gates, which the table below does not
describe: deleting one of them could change their behaviour.

kubeadm's own ``ClusterConfiguration.featureGates`` (a separate list, read by kubeadm only)
follow the same rules with kubeadm's table (``KUBEADM_GATES`` below: ``IPv6DualStack``
removed in 1.24, ``UnversionedKubeletConfigMap`` removed in 1.26); a name that table does not
list is kept and not judged (only a non-boolean value is reported, K8SM-GATE-009).

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

A flag string whose gates are all deleted is removed with its flag (on a command line: the
element, or both elements of the two-element form); an emptied ``featureGates`` map is
removed.
"""

from __future__ import annotations

from dataclasses import replace

from k8smigrate.context import Context
from k8smigrate.kube.command_line import program
from k8smigrate.kube.feature_gates import CODES, Gate, judge, parse_bool
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4, flag_value
from k8smigrate.kube.podspec import POD_APIS, containers, pod_specs
from k8smigrate.model import Check
from k8smigrate.templating.placeholders import holds_placeholder
from k8smigrate.tree import Mapping, Scalar, Sequence
from k8smigrate.versions import KubeVersion, Window

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
        if holds_placeholder(entry.name) or (isinstance(node, Scalar) and holds_placeholder(node.value)):
            continue  # written by a template: known only once rendered
        value = node.data if isinstance(node, Scalar) else None
        if not isinstance(value, bool):
            ctx.error("K8SM-GATE-009", f"feature gate {entry.name}: the value is not a boolean", node)
            continue
        if gates_table is not None and entry.name not in gates_table:
            continue  # kubeadm's own table below is partial: say nothing about the others
        verdict = judge(entry.name, value, Window(ctx.oldest, ctx.target), gates_table)
        if verdict.level is not None:
            ctx.report(verdict.level, verdict.code, verdict.message, node)
        if verdict.delete:
            gates.pop(entry.name)
            ctx.note(f"{key}.{entry.name} removed")
    parent.drop_emptied(key)


def fix_args(parent: Mapping, key: str, ctx: Context) -> None:
    args = parent.get(key)
    if isinstance(args, Mapping):
        value = flag_value(args, FLAG)  # the last of a repeated key: the one kubeadm uses
        if value is not None:
            new = fix_string(value, ctx)
            if new == "":
                while args.pop(FLAG) is not None:
                    pass
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
                args.remove(item)
            elif new is not None and value is not None:
                value.set(new)
    parent.drop_emptied(key)


def fix_string(node: Scalar, ctx: Context) -> str | None:
    """The flag value without its deleted gates, or None when nothing changes."""
    text = node.data
    return fix_gates(text, node, ctx) if isinstance(text, str) else None


def fix_gates(text: str, node: Scalar, ctx: Context) -> str | None:
    """``text`` (``"A=true,B=false"``) without its deleted gates, or None when nothing changes;
    findings point at ``node``."""
    kept: list[str] = []
    changed = False
    for piece in text.split(","):
        name, sep, raw = piece.strip().partition("=")
        if not piece.strip() or holds_placeholder(piece):
            kept.append(piece)  # a template action: known only once rendered
            continue
        value = parse_bool(raw.strip()) if sep else None
        if value is None:
            ctx.error("K8SM-GATE-009", f"--{FLAG}: {piece.strip()!r} is not NAME=true|false", node)
            kept.append(piece)
            continue
        verdict = judge(name.strip(), value, Window(ctx.oldest, ctx.target))
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


def pod_body(obj: Mapping, ctx: Context) -> None:
    for _metadata, spec in pod_specs(obj):
        for container in containers(spec):
            if not runs_component(container):
                continue
            for key in ("command", "args"):
                line = container.get(key)
                if isinstance(line, Sequence):
                    fix_command_line(line, ctx)


def runs_component(container: Mapping) -> bool:
    """Whether the container runs a Kubernetes component (whose gates the table describes)."""
    name = program(container)
    return name is not None and (name in COMPONENT_PROGRAMS or name.endswith("cloud-controller-manager"))


def fix_command_line(line: Sequence, ctx: Context) -> None:
    """Fix every ``--feature-gates`` flag of one ``command`` or ``args`` list."""
    flag = "--" + FLAG
    index = 0
    while index < len(line):
        node = line[index]
        text = node.data if isinstance(node, Scalar) else None
        if isinstance(node, Scalar) and isinstance(text, str) and text.startswith(flag + "="):
            new = fix_gates(text[len(flag) + 1 :], node, ctx)
            if new == "":
                line.pop(index)
                continue
            if new is not None:
                node.set(f"{flag}={new}")
        elif text == flag and index + 1 < len(line):
            value = line[index + 1]
            new = fix_string(value, ctx) if isinstance(value, Scalar) else None
            if new == "":
                line.pop(index)  # the flag, then its value
                line.pop(index)
                continue
            if new is not None and isinstance(value, Scalar):
                value.set(new)
            index += 1  # the value is not a flag
        index += 1


COMPONENT_PROGRAMS = (
    "kube-apiserver",
    "kube-controller-manager",
    "kube-scheduler",
    "kube-proxy",
    "kubelet",
    "hyperkube",
)

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

_CONFIGS = Check(
    applies_to={KUBELET: ("KubeletConfiguration",)},
    body=body,
    component="kubelet",
    category="feature-gate",
    edits=True,
    summary="removed and locked feature gates: deleted when harmless, errors otherwise",
    codes=CODES,
)
MIGRATIONS = [
    _CONFIGS,
    replace(_CONFIGS, applies_to={KUBE_PROXY: ("KubeProxyConfiguration",)}, component="kube-proxy"),
    replace(
        _CONFIGS, applies_to=dict.fromkeys((V1BETA1, V1BETA2, V1BETA3, V1BETA4), _KUBEADM_KINDS), component="kubeadm"
    ),
    Check(
        applies_to=POD_APIS,
        body=pod_body,
        trigger="feature-gates",
        category="feature-gate",
        edits=True,
        summary="removed and locked feature gates in components' --feature-gates command-line flags",
        codes=CODES,
    ),
]
