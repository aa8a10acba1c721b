"""The API server's NodePort range against the nodes' ephemeral ports.

kube-proxy used to hold every NodePort open on every node (a listening socket per port), so
the kernel never handed one out as a local ephemeral port. Kubernetes PR #108496 "kube-proxy:
remove port opener" dropped that in 1.24 and, as cherry-picks with an empty release note (so
absent from the changelogs), in 1.23.7, **1.22.10** (#108888) and 1.21.13: from then on a node's
own outgoing connection may get a NodePort number as its source port, and the NodePort rules
(or IPVS) take its replies, so connections fail now and then (kubernetes issue #111682). The
API server's flag help says it since 1.25 (PR #111697): the range "must not overlap with the
ephemeral port range on nodes".

The defaults do not overlap: ``--service-node-port-range`` is ``30000-32767``
(``pkg/kubeapiserver/options`` ``DefaultServiceNodePortRange``) and Linux's
``net.ipv4.ip_local_port_range`` is ``32768 60999`` (``net/ipv4/af_inet.c`` ``inet_init_net``).
Widening either does. Read, for targets from 1.22:

- the range: ``--service-node-port-range`` of kube-apiserver containers (static pods; both flag
  forms; ``min-max``, ``min+offset`` or one port, as apimachinery ``PortRange.Set``) and kubeadm
  ``ClusterConfiguration.apiServer.extraArgs`` (map or v1beta4 ``{name, value}`` list);
- the nodes' ephemeral ports: ``net.ipv4.ip_local_port_range`` set by a container that runs in
  the node's network namespace (``hostNetwork: true``, or ``nsenter``) with ``sysctl -w``,
  ``sysctl.conf`` syntax or ``echo … > /proc/sys/net/ipv4/ip_local_port_range``, and in
  ConfigMap values in ``sysctl.conf`` syntax (applied to nodes by something else);
  ``net.ipv4.ip_local_reserved_ports`` set beside it removes its ports from the clash.

Findings, each naming both ranges, the ports they share and where the other range was set (the
run's files are joined: ``k8smigrate.facts``; without a setting in the run, the default):

- K8SM-NP-001, a warning on the API server flag whose range overlaps the nodes' ephemeral ports;
- K8SM-NP-002, a warning on a node-level ``ip_local_port_range`` that overlaps the NodePort range;
- K8SM-NP-003, an info on a pod's ``securityContext.sysctls`` ``net.ipv4.ip_local_port_range``
  that overlaps: it applies to the pod's own network namespace only (the kubelet refuses
  ``net.*`` sysctls with ``hostNetwork``, ``pkg/kubelet/sysctl`` ``validateSysctl``), not to the
  node where NodePorts are taken.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.dataclasscode import dataclass
from k8smigrate.facts import Collector, Located, Object
from k8smigrate.kube.flags import command_line, extra_args_data, find_flag, line_nodes, program
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4, flags
from k8smigrate.kube.podspec import POD_APIS, POD_KINDS, container_data, containers, pod_spec_data, pod_specs
from k8smigrate.model import Check
from k8smigrate.regexcode import regex
from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping, Node, Scalar, Sequence

FLAG = "service-node-port-range"
SYSCTL = "net.ipv4.ip_local_port_range"
_SET = regex(r"net[./]ipv4[./]ip_local_port_range\s*=\s*[\"']?\s*(\d+)\s+(\d+)")
_ECHO = regex(r"(\d+)\s+(\d+)[\"']?\s*>+\s*/proc/sys/net/ipv4/ip_local_port_range")
_NSENTER = regex(r"(?:^|[\s/;&|])nsenter\b")
_RESERVED = regex(r"net[./]ipv4[./]ip_local_reserved_ports\s*=\s*[\"']?([\d,\s-]+)")


@dataclass(frozen=True)
class Ports:
    """An inclusive port range, and where it comes from (for the message)."""

    low: int
    high: int
    origin: str
    reserved: tuple[tuple[int, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def shared(self, other: Ports) -> tuple[int, int] | None:
        """The ports both ranges hold that neither side reserves, as one span (None: no clash)."""
        low, high = max(self.low, other.low), min(self.high, other.high)
        free = [p for p in _spans(low, high, self.reserved + other.reserved)]
        return (free[0][0], free[-1][1]) if free else None


def _spans(low: int, high: int, reserved: tuple[tuple[int, int], ...]) -> Iterator[tuple[int, int]]:
    """``low..high`` without the reserved spans."""
    start = low
    for r_low, r_high in sorted(reserved):
        if r_high < start or r_low > high:
            continue
        if r_low > start:
            yield start, r_low - 1
        start = max(start, r_high + 1)
    if start <= high:
        yield start, high


DEFAULT_NODE_PORTS = Ports(30000, 32767, "the kube-apiserver default")
DEFAULT_EPHEMERAL = Ports(32768, 60999, "the Linux default")


def node_port_range(text: str | None) -> tuple[int, int] | None:
    """apimachinery ``PortRange.Set``: ``min-max``, ``min+offset`` or one port; None when invalid."""
    value = (text or "").strip()
    m = re.fullmatch(r"(\d+)(?:([-+])(\d+))?", value)
    if m is None:
        return None
    low = int(m.group(1))
    high = low if m.group(2) is None else int(m.group(3)) + (low if m.group(2) == "+" else 0)
    return (low, high) if low <= high else None


def ephemeral_settings(text: str) -> list[tuple[int, int]]:
    """Every ``ip_local_port_range`` a shell line or sysctl.conf text sets, in order."""
    found = [(m.start(), int(m.group(1)), int(m.group(2))) for m in _SET.finditer(text)]
    found += [(m.start(), int(m.group(1)), int(m.group(2))) for m in _ECHO.finditer(text)]
    return [(low, high) for _at, low, high in sorted(found) if low <= high]


def reserved_settings(text: str) -> tuple[tuple[int, int], ...]:
    """The spans ``ip_local_reserved_ports`` settings of ``text`` reserve (``30000-32767,40000``)."""
    spans: list[tuple[int, int]] = []
    for m in _RESERVED.finditer(text):
        for part in m.group(1).replace(" ", "").split(","):
            found = node_port_range(part)
            if found is not None:
                spans.append(found)
    return tuple(spans)


# ------------------------------------------------------------------ facts


def _is_apiserver(container: dict[str, Data]) -> bool:
    return program(container) in ("kube-apiserver", "apiserver")


def _api_ranges(obj: Object) -> Iterator[Ports]:
    if obj.kind == "ClusterConfiguration":
        api_server = obj.data.get("apiServer")
        args = api_server.get("extraArgs") if isinstance(api_server, dict) else None
        for name, value in extra_args_data(args):
            found = node_port_range(value) if name == FLAG else None
            if found is not None:
                yield Ports(*found, "kubeadm apiServer.extraArgs")
        return
    pod = pod_spec_data(obj.data)
    for container in container_data(pod[1]) if pod is not None else []:
        flag = find_flag(command_line(container), FLAG) if _is_apiserver(container) else None
        found = node_port_range(flag[1]) if flag is not None else None
        if found is not None:
            yield Ports(*found, f"kube-apiserver --{FLAG}")


def on_node(pod_spec: dict[str, Data], line: list[str]) -> bool:
    """Whether a container's sysctl settings reach the node's network namespace."""
    return pod_spec.get("hostNetwork") is True or any(_NSENTER.search(item) for item in line)


def _node_ranges(obj: Object) -> Iterator[Ports]:
    if obj.kind == "ConfigMap":
        data = obj.data.get("data")
        for _key, value in sorted(data.items()) if isinstance(data, dict) else []:
            if isinstance(value, str):
                reserved = reserved_settings(value)
                for low, high in ephemeral_settings(value):
                    yield Ports(low, high, workload(obj), reserved)
        return
    pod = pod_spec_data(obj.data)
    if pod is None:
        return
    for container in container_data(pod[1]):
        line = command_line(container)
        if not on_node(pod[1], line):
            continue
        text = "\n".join(line)
        reserved = reserved_settings(text)
        for low, high in ephemeral_settings(text):
            yield Ports(low, high, workload(obj), reserved)


def workload(obj: Object) -> str:
    return f"{obj.kind} {obj.name}" if obj.name else str(obj.kind)


API_RANGES = Collector("nodeport-ranges", (FLAG,), _api_ranges, POD_KINDS | {"ClusterConfiguration"})
NODE_RANGES = Collector("node-ephemeral-ranges", ("ip_local_port_range",), _node_ranges, POD_KINDS | {"ConfigMap"})


# ------------------------------------------------------------------ checks


def against(mine: Ports, others: list[Located[Ports]], default: Ports) -> Iterator[tuple[Ports, str, tuple[int, int]]]:
    """``(other range, where it was set, shared span)`` for each other range that clashes with ``mine``."""
    if not others:
        span = mine.shared(default)
        if span is not None:
            yield default, "", span
        return
    seen: set[tuple[int, int]] = set()
    for other in others:
        key = (other.value.low, other.value.high)
        span = mine.shared(other.value)
        if span is not None and key not in seen:
            seen.add(key)
            yield other.value, f" in {other.where}", span


def shared_text(span: tuple[int, int]) -> str:
    return f"{span[0]}-{span[1]}" if span[0] != span[1] else str(span[0])


WHY = (
    "from 1.22.10 kube-proxy no longer holds NodePorts open, so a node's own connections can be given a NodePort as "
    "source port and fail"
)


def check_flag(mine: Ports, node: Node, ctx: Context) -> None:
    for other, where, span in against(mine, ctx.facts(NODE_RANGES), DEFAULT_EPHEMERAL):
        ctx.warn(
            "K8SM-NP-001",
            f"--{FLAG} {mine} overlaps the nodes' ephemeral ports {other} ({other.origin}{where}) on "
            f"{shared_text(span)}: {WHY}. Keep the NodePort range below the ephemeral range, or reserve it with "
            "net.ipv4.ip_local_reserved_ports on every node",
            node,
        )


def check_node_setting(mine: Ports, node: Node, ctx: Context, pod_only: bool = False) -> None:
    for other, where, span in against(mine, ctx.facts(API_RANGES), DEFAULT_NODE_PORTS):
        overlap = f"{SYSCTL} {mine} overlaps the NodePort range {other} ({other.origin}{where}) on {shared_text(span)}"
        if pod_only:
            ctx.info(
                "K8SM-NP-003",
                f"{overlap}, but a pod's sysctl applies to its own network namespace only, not to the node where "
                "NodePorts are taken: no clash",
                node,
            )
        else:
            ctx.warn(
                "K8SM-NP-002",
                f"{overlap} on the nodes it tunes: {WHY}. Keep the ephemeral range above the NodePort range, or "
                "add the NodePort range to net.ipv4.ip_local_reserved_ports",
                node,
            )


def pod_body(obj: Mapping, ctx: Context) -> None:
    for _metadata, spec in pod_specs(obj):
        data = spec.to_data()
        if not isinstance(data, dict):
            continue
        # the kubelet refuses net.* sysctls beside hostNetwork: such a pod never starts
        for sysctl in [] if data.get("hostNetwork") is True else mappings_at(spec, "securityContext", "sysctls"):
            value = sysctl.scalar("value")
            if sysctl.data("name") in (SYSCTL, SYSCTL.replace(".", "/")) and value is not None:
                for low, high in ephemeral_settings(f"{SYSCTL}={value.data}"):
                    check_node_setting(Ports(low, high, "pod"), value, ctx, pod_only=True)
        for container in containers(spec):
            cdata = container.to_data()
            if not isinstance(cdata, dict):
                continue
            line = command_line(cdata)
            nodes = line_nodes(container)
            if _is_apiserver(cdata):
                flag = find_flag(line, FLAG)
                found = node_port_range(flag[1]) if flag is not None else None
                if flag is not None and found is not None:
                    index = flag[0] + (0 if "=" in line[flag[0]] else 1)
                    check_flag(Ports(*found, "kube-apiserver"), nodes[min(index, len(nodes) - 1)], ctx)
            if on_node(data, line):
                reserved = reserved_settings("\n".join(line))
                for item, node in zip(line, nodes, strict=False):
                    for low, high in ephemeral_settings(item):
                        check_node_setting(Ports(low, high, "node", reserved), node, ctx)


def config_map_body(obj: Mapping, ctx: Context) -> None:
    data = obj.mapping("data")
    for entry in data.entries if data is not None else []:
        value = entry.value
        if isinstance(value, Scalar) and isinstance(value.data, str):
            reserved = reserved_settings(value.data)
            for low, high in ephemeral_settings(value.data):
                check_node_setting(Ports(low, high, "ConfigMap", reserved), value, ctx)


def kubeadm_body(config: Mapping, ctx: Context) -> None:
    api_server = config.mapping("apiServer")
    args = api_server.get("extraArgs") if api_server is not None else None
    for name, node, _item in flags(args) if isinstance(args, (Mapping, Sequence)) else []:
        found = node_port_range(str(node.data)) if name == FLAG and node is not None else None
        if node is not None and found is not None:
            check_flag(Ports(*found, "kubeadm"), node, ctx)


CODES = (
    Code("K8SM-NP-001", "warning", "the API server's NodePort range overlaps the nodes' ephemeral ports"),
    Code("K8SM-NP-002", "warning", "a node's net.ipv4.ip_local_port_range overlaps the NodePort range"),
    Code("K8SM-NP-003", "info", "a pod's own net.ipv4.ip_local_port_range overlaps the NodePort range (no clash)"),
)


def _dispatch(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "ConfigMap":
        config_map_body(obj, ctx)
    else:
        pod_body(obj, ctx)


_PODS = Check(
    applies_to={**POD_APIS, "v1": (*POD_APIS["v1"], "ConfigMap")},
    body=_dispatch,
    trigger=(FLAG, "ip_local_port_range"),
    matters_from="1.22",
    category="node-port",
    summary="NodePort range against the nodes' ephemeral ports (kube-proxy stopped holding NodePorts in 1.22.10)",
    codes=CODES,
    facts=(API_RANGES, NODE_RANGES),
)
MIGRATIONS = [
    _PODS,
    replace(
        _PODS,
        applies_to=dict.fromkeys((V1BETA1, V1BETA2, V1BETA3, V1BETA4), ("ClusterConfiguration",)),
        body=kubeadm_body,
        trigger=FLAG,
        component="kubeadm",
    ),
]
