"""Ports 10251 and 10252: the scheduler's and controller-manager's insecure ports, gone.

kube-scheduler served plain HTTP on 10251 and kube-controller-manager on 10252; the secure
ports are 10259 and 10257 (HTTPS, with authentication and authorization). kubeadm turned
the insecure ports off in 1.19 (``--port=0``, PR #92720); every cluster lost them in 1.22
(controller-manager, PR #96216) and 1.23 (scheduler, PR #96345). Reported, never rewritten
(the new port also needs HTTPS, a bearer token, a CA or ``insecureSkipVerify``, and RBAC
allowing ``nonResourceURLs: ["/metrics"]``), for targets from 1.19 on:

- Service ``spec.ports[].port``/``targetPort``, Prometheus Operator ServiceMonitor
  ``spec.endpoints[].targetPort`` and PodMonitor ``spec.podMetricsEndpoints[].targetPort``
  (``monitoring.coreos.com/v1``): K8SM-ADM-001, a warning; K8SM-ADM-007, an info, before the
  release that removed the port from every cluster (only kubeadm clusters are hit);
- NetworkPolicy ``spec.{ingress,egress}[].ports[].port``: K8SM-ADM-002, an info (allow the
  new port too);
- ``httpGet``/``tcpSocket`` probes of every container of a PodSpec: K8SM-ADM-003, an info
  (``port: 10259``/``10257`` with ``scheme: HTTPS``).
"""

from __future__ import annotations

from collections.abc import Iterator

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.dataclasscode import dataclass
from k8smigrate.kube.podspec import POD_APIS, containers, pod_specs
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Node, Scalar
from k8smigrate.versions import KubeVersion

PROBES = ("livenessProbe", "readinessProbe", "startupProbe")


@dataclass(frozen=True)
class Port:
    """A component's insecure port, its secure replacement, and the release it is gone from."""

    number: str
    secure: str
    component: str
    gone: KubeVersion


PORTS = (
    Port("10251", "10259", "kube-scheduler", KubeVersion(1, 23)),
    Port("10252", "10257", "kube-controller-manager", KubeVersion(1, 22)),
)


def matches(node: Node | None, port: Port) -> bool:
    return isinstance(node, Scalar) and node.style not in ("|", ">") and str(node.data) == port.number


def places(obj: Mapping, port: Port) -> Iterator[tuple[str, Node]]:
    """``(code, node)`` for every place ``obj`` names the port."""
    kind = obj.data("kind")
    if kind == "Service":
        for item in mappings_at(obj, "spec", "ports"):
            for key in ("port", "targetPort"):
                if matches(item.get(key), port):
                    yield "K8SM-ADM-001", item
                    break
    elif kind in ("ServiceMonitor", "PodMonitor"):
        key = "endpoints" if kind == "ServiceMonitor" else "podMetricsEndpoints"
        for item in mappings_at(obj, "spec", key):
            if matches(item.get("targetPort"), port):
                yield "K8SM-ADM-001", item
    elif kind == "NetworkPolicy":
        for way in ("ingress", "egress"):
            for item in mappings_at(obj, "spec", way, "ports"):
                if matches(item.get("port"), port):
                    yield "K8SM-ADM-002", item
    else:
        for _metadata, spec in pod_specs(obj):
            for container in containers(spec):
                for probe in PROBES:
                    for action in ("httpGet", "tcpSocket"):
                        for handler in mappings_at(container, probe, action):
                            if matches(handler.get("port"), port):
                                yield "K8SM-ADM-003", handler


def check(obj: Mapping, ctx: Context, port: Port) -> None:
    for code, node in places(obj, port):
        everywhere = ctx.target_from(port.gone)
        scope = (
            f"gone in {port.gone}" if everywhere else f"off in kubeadm clusters since 1.19, everywhere in {port.gone}"
        )
        message = (
            f"port {port.number} is the insecure HTTP port of {port.component} ({scope}): "
            f"use {port.secure} over HTTPS, with a bearer token, the serving CA and RBAC for /metrics"
        )
        if code == "K8SM-ADM-001" and everywhere:
            ctx.warn(code, message, node)
        elif code == "K8SM-ADM-001":
            ctx.info("K8SM-ADM-007", message, node)
        else:
            ctx.info(code, message, node)


_APIS: dict[str, tuple[str, ...]] = {
    **POD_APIS,
    "v1": (*POD_APIS["v1"], "Service"),
    "networking.k8s.io/v1": ("NetworkPolicy",),
    "extensions/v1beta1": (*POD_APIS["extensions/v1beta1"], "NetworkPolicy"),
    "monitoring.coreos.com/v1": ("ServiceMonitor", "PodMonitor"),
}


def for_port(port: Port) -> Check:
    """The check of one port: its number is its trigger (10250, the kubelet's, must not wake it up)."""

    def body(obj: Mapping, ctx: Context) -> None:
        check(obj, ctx, port)

    return Check(
        applies_to=_APIS,
        body=body,
        matters_from="1.19",
        trigger=port.number,
        category="port",
        summary="ports 10251/10252 (insecure scheduler and controller-manager) in Services, monitors, policies, probes",
        codes=(
            Code("K8SM-ADM-001", "warning", "a Service or Prometheus monitor on 10251/10252, gone at the target"),
            Code("K8SM-ADM-002", "info", "a NetworkPolicy port 10251/10252; allow 10259/10257"),
            Code("K8SM-ADM-003", "info", "a probe on 10251/10252; use 10259/10257 with scheme HTTPS"),
            Code(
                "K8SM-ADM-007",
                "info",
                "a Service or Prometheus monitor on 10251/10252, off at the target only in kubeadm clusters",
            ),
        ),
    )


MIGRATIONS = [for_port(port) for port in PORTS]
