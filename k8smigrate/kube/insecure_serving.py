"""The insecure HTTP ports of the control-plane components, and the flags that set them.

kube-apiserver stopped serving its insecure port in 1.20 (kubernetes PR #95856: the address
flags have no effect, the port flags may only be ``0``), kube-controller-manager in 1.22
(PR #96216) and kube-scheduler in 1.23 (PR #96345). The kube-apiserver flags themselves
(``--insecure-port``, ``--port``, ``--insecure-bind-address``, ``--address``) were removed
in 1.24 (PR #106859), so from 1.24 even ``--insecure-port=0`` stops kube-apiserver from
starting (``unknown flag``); from 1.20 any other port does ("invalid port value N: only zero
is allowed"). Shared by the kubeadm ``extraArgs`` check and the command-line check.
"""

from __future__ import annotations

from k8smigrate.versions import KubeVersion

from ..dataclasscode import dataclass
from ..runtime_typing import Literal

Verdict = Literal["port", "no-op", "public"]
"""``port``: a non-zero insecure port (refused); ``no-op``: a zero port or a loopback address
(does nothing, delete it); ``public``: a bind address that is not a loopback one (does
nothing either, but someone meant to reach the component from off the node)."""


@dataclass(frozen=True)
class InsecureServing:
    """A component's insecure port: its settings, and the release from which it serves none."""

    program: str
    section: str
    """Its key in kubeadm's ``ClusterConfiguration``."""
    gone: KubeVersion
    """The release from which it serves no insecure port."""
    ports: tuple[str, ...]
    addresses: tuple[str, ...]
    flags_gone: KubeVersion | None = None
    """The release from which the flags themselves are unknown (the component then refuses to
    start even with a zero port); None where it is not verified."""


COMPONENTS = (
    InsecureServing(
        "kube-apiserver",
        "apiServer",
        KubeVersion(1, 20),
        ("insecure-port", "port"),
        ("insecure-bind-address", "address"),
        KubeVersion(1, 24),
    ),
    InsecureServing("kube-controller-manager", "controllerManager", KubeVersion(1, 22), ("port",), ("address",)),
    InsecureServing("kube-scheduler", "scheduler", KubeVersion(1, 23), ("port",), ("address",)),
)
LOOPBACK = ("", "127.0.0.1", "localhost", "::1")


def verdict(serving: InsecureServing, flag: str, value: str) -> Verdict | None:
    """What an insecure-serving flag of ``serving`` with ``value`` amounts to, or None for another flag."""
    if flag in serving.ports:
        return "no-op" if value.strip() in ("0", "") else "port"
    if flag in serving.addresses:
        return "no-op" if value.strip() in LOOPBACK else "public"
    return None
