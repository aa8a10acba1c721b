"""kubeadm configuration ``kubeadm.k8s.io/v1beta3`` → ``kubeadm.k8s.io/v1beta4``.

From upstream ``v1beta4/doc.go`` ("A list of changes since v1beta3"), ``v1beta3/conversion.go``
and ``v1beta4/conversion.go``:

- every ``extraArgs`` map (``apiServer``, ``controllerManager``, ``scheduler``,
  ``etcd.local``) and ``nodeRegistration.kubeletExtraArgs`` becomes a list of
  ``{name, value}``, sorted by name then value as ``convertToArgs`` does; values are
  strings (``v: 4`` → ``value: "4"``; K8SM-KADM-005 when YAML 1.1 reads the value as
  something else than what was typed, such as ``yes``). Each flag keeps its comments. A
  repeated key keeps only its last value, the one kubeadm used (K8SM-KADM-013 for each
  earlier one): the list form would put every occurrence on the command line.
- ``ClusterConfiguration.apiServer.timeoutForControlPlane`` moves **across documents** to
  ``timeouts.controlPlaneComponentHealthCheck`` of every InitConfiguration and
  JoinConfiguration of the same file (upstream carries it through a process-global,
  ``SetConversionTimeoutControlPlane``; a zero duration is ignored there and here).
  Without such a document the value is dropped: silently when it is ``4m0s`` (the v1beta4
  default), with K8SM-KADM-010 otherwise (typically the ``kubeadm-config`` ConfigMap copy).
  Several ClusterConfigurations with different values are an error (K8SM-KADM-011).
- ``JoinConfiguration.discovery.timeout`` → ``timeouts.discovery`` (comments move with it).
- New optional fields with defaults equal to the old behaviour are not written
  (``imagePullSerial``, ``encryptionAlgorithm``, certificate validity periods, the other
  ``timeouts``); ``kubeadm config migrate`` writes them all out, k8smigrate does not.
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS, Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.kube.kubeadm import CONFIG_KINDS, V1BETA1, V1BETA2, V1BETA3, V1BETA4, args_to_list, seconds
from k8smigrate.model import Step
from k8smigrate.tree import Mapping

OLDER = (V1BETA1, V1BETA2, V1BETA3)
"""Versions whose documents in the same file are migrated to v1beta4 along with this one."""
CARRIERS = ("InitConfiguration", "JoinConfiguration")
DEFAULT_HEALTH_CHECK = 240.0


def body(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "ClusterConfiguration":
        cluster(obj, ctx)
    else:
        node_config(obj, ctx)


def cluster(obj: Mapping, ctx: Context) -> None:
    for component in ("apiServer", "controllerManager", "scheduler"):
        section = obj.mapping(component)
        if section is not None:
            args_to_list(section, "extraArgs", ctx, component)
    for local in mappings_at(obj, "etcd", "local"):
        args_to_list(local, "extraArgs", ctx, "etcd.local")
    if not ctx.failed:
        move_out_control_plane_timeout(obj, ctx)


def move_out_control_plane_timeout(obj: Mapping, ctx: Context) -> None:
    server = obj.mapping("apiServer")
    entry = server.entry("timeoutForControlPlane") if server is not None else None
    if server is None or entry is None:
        return
    value = entry.value.to_data()
    server.pop("timeoutForControlPlane")
    if not server.entries:
        obj.pop("apiServer")
    secs = seconds(value)
    carried = any(api in OLDER and kind in CARRIERS for api, kind, _data in ctx.siblings)
    if value is None or secs == 0:
        ctx.note("apiServer.timeoutForControlPlane removed (unset: kubeadm ignores it)")
    elif carried:
        ctx.note("apiServer.timeoutForControlPlane → Init/JoinConfiguration timeouts.controlPlaneComponentHealthCheck")
    elif secs == DEFAULT_HEALTH_CHECK:
        ctx.note("apiServer.timeoutForControlPlane removed (4m0s is the v1beta4 default)")
    else:
        ctx.warn(
            "K8SM-KADM-010",
            f"apiServer.timeoutForControlPlane {value} dropped: v1beta4 keeps it in the "
            "Init/JoinConfiguration (timeouts.controlPlaneComponentHealthCheck) and this file has none; "
            "set it there",
            entry.value,
        )


def node_config(obj: Mapping, ctx: Context) -> None:
    registration = obj.mapping("nodeRegistration")
    if registration is not None:
        args_to_list(registration, "kubeletExtraArgs", ctx, "nodeRegistration")
    values = sibling_timeouts(ctx)
    if len(set(values)) > 1:
        ctx.error(
            "K8SM-KADM-011",
            "the ClusterConfiguration documents of this file set different apiServer.timeoutForControlPlane "
            f"values ({', '.join(sorted(set(values)))}); keep one",
            obj.get("kind"),
        )
        return
    if values:
        set_timeout(obj, "controlPlaneComponentHealthCheck", values[0], ctx)
    discovery = obj.mapping("discovery")
    if obj.data("kind") == "JoinConfiguration" and discovery is not None and "timeout" in discovery:
        timeouts = timeouts_of(obj)
        if "discovery" in timeouts:
            if timeouts.data("discovery") != discovery.data("timeout"):
                ctx.error("K8SM-GEN-003", "discovery.timeout and timeouts.discovery differ", timeouts)
                return
            discovery.pop("timeout")
        else:
            discovery.move_to("timeout", timeouts, "discovery")
        ctx.note("discovery.timeout → timeouts.discovery")


def sibling_timeouts(ctx: Context) -> list[str]:
    """The non-zero timeoutForControlPlane of every ClusterConfiguration of the file."""
    out: list[str] = []
    for api, kind, data in ctx.siblings:
        if kind != "ClusterConfiguration" or api not in OLDER or not isinstance(data, dict):
            continue
        server = data.get("apiServer")
        value = server.get("timeoutForControlPlane") if isinstance(server, dict) else None
        if value is not None and seconds(value) != 0:
            out.append(str(value))
    return out


def timeouts_of(obj: Mapping) -> Mapping:
    timeouts = obj.mapping("timeouts")
    if timeouts is None:
        timeouts = Mapping()
        obj.set("timeouts", timeouts)
    return timeouts


def set_timeout(obj: Mapping, key: str, value: str, ctx: Context) -> None:
    timeouts = timeouts_of(obj)
    if key in timeouts:
        if str(timeouts.data(key)) != value:
            ctx.error(
                "K8SM-GEN-003",
                f"timeouts.{key} differs from apiServer.timeoutForControlPlane {value}",
                timeouts,
            )
        return
    timeouts.set(key, value)
    ctx.note(f"timeouts.{key}: {value} (from ClusterConfiguration apiServer.timeoutForControlPlane)")


MIGRATION = Step(
    kinds=CONFIG_KINDS,
    from_api=V1BETA3,
    to_api=V1BETA4,
    available_in="1.31",
    body=body,
    component="kubeadm",
    summary="kubeadm v1beta3 → v1beta4: extraArgs as lists, timeouts moved into Init/JoinConfiguration",
    codes=(
        Code("K8SM-KADM-005", "warning", "a flag value that YAML 1.1 reads differently from how it is written"),
        Code("K8SM-KADM-006", "error", "extraArgs/kubeletExtraArgs that is not a map of scalar values"),
        Code("K8SM-KADM-013", "warning", "a repeated extraArgs key: its last value kept, the earlier ones dropped"),
        Code("K8SM-KADM-010", "warning", "timeoutForControlPlane dropped, no Init/JoinConfiguration in the file"),
        Code("K8SM-KADM-011", "error", "ClusterConfigurations with different timeoutForControlPlane values"),
        BOTH_FORMS.with_summary("the old and the new timeout field are both set and differ"),
    ),
)
