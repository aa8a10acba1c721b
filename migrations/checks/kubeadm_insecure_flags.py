"""Insecure-serving flags in kubeadm ``extraArgs``: no-ops, then refused when not zero.

kube-apiserver stopped serving its insecure port in 1.20 (PR #95856),
kube-controller-manager in 1.22 (PR #96216) and kube-scheduler in 1.23 (PR #96345); the
kube-apiserver flags were removed in 1.24 (PR #106859), after which even ``insecure-port: "0"``
stops it from starting (``k8smigrate.kube.insecure_serving``). From those releases
k8smigrate looks at kubeadm ``ClusterConfiguration`` (map form up to v1beta3, ``{name,
value}`` list form in v1beta4); the same flags on a static pod's command line are the
``control_plane_flags`` check's:

- ``apiServer.extraArgs``: ``insecure-port`` and ``insecure-bind-address`` (and their older
  names ``port`` and ``address``, which kube-apiserver kept as deprecated aliases until 1.24);
- ``controllerManager.extraArgs`` and ``scheduler.extraArgs``: ``port`` and ``address``.

A port of ``0`` (what kubeadm itself wrote from 1.19 on) and the bind addresses do nothing
any more: deleted (K8SM-KADM-007, an info; K8SM-KADM-008, a warning, for an address that is not a
loopback one, as someone meant to reach the component from off the node: that is
``bind-address``, serving HTTPS on 10259/10257). Any other port is refused ("only zero is
allowed", PR #102121): an error, K8SM-KADM-009, kept (serve metrics and health on the secure port
instead, as the ``insecure_ports`` check says).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.insecure_serving import COMPONENTS, verdict
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4, drop, flags
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Sequence


def body(config: Mapping, ctx: Context) -> None:
    for serving in COMPONENTS:
        key, component, gone = serving.section, serving.program, serving.gone
        holder = config.mapping(key)
        args = holder.get("extraArgs") if holder is not None else None
        if holder is None or not ctx.target_from(gone) or not isinstance(args, (Mapping, Sequence)):
            continue
        where = f"{key}.extraArgs"
        for name, node, item in list(flags(args)):
            value = "" if node is None or node.data is None else str(node.data).strip()
            found = verdict(serving, name, value)
            if found == "port":
                ctx.error(
                    "K8SM-KADM-009",
                    f"{where}.{name}: {value}: {component} has no insecure port from {gone} and refuses any value "
                    "but 0; delete it and use the secure port (HTTPS, with authentication)",
                    node,
                )
            elif found == "no-op" and name in serving.ports:
                ctx.info(
                    "K8SM-KADM-007", f"{where}.{name}: {component} has no insecure port from {gone}; deleted", node
                )
                drop(args, name, item, ctx, where)
            elif found == "no-op":
                ctx.info("K8SM-KADM-007", f"{where}.{name}: insecure serving is gone from {gone}; deleted", node)
                drop(args, name, item, ctx, where)
            elif found == "public":
                ctx.warn(
                    "K8SM-KADM-008",
                    f"{where}.{name}: {value} bound the insecure port, gone from {gone}; deleted. To reach "
                    f"{component} from off the node, set bind-address (the secure port) instead",
                    node,
                )
                drop(args, name, item, ctx, where)
        if args.emptied:
            holder.drop_emptied("extraArgs")
            config.drop_emptied(key)


MIGRATION = Check(
    applies_to=dict.fromkeys((V1BETA1, V1BETA2, V1BETA3, V1BETA4), ("ClusterConfiguration",)),
    body=body,
    component="kubeadm",
    matters_from="1.20",
    trigger=("port", "address"),
    category="port",
    edits=True,
    summary="insecure-serving flags in kubeadm extraArgs: deleted when no-ops, errors when a port is set",
    codes=(
        Code("K8SM-KADM-007", "info", "an insecure-serving flag that does nothing any more deleted"),
        Code("K8SM-KADM-008", "warning", "an insecure bind address that was not a loopback one deleted"),
        Code("K8SM-KADM-009", "error", "a non-zero insecure port, which the component refuses"),
    ),
)
