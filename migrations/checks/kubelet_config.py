"""KubeletConfiguration (``kubelet.config.k8s.io/v1beta1``): changed defaults, dropped values, no-op fields.

No field was removed from ``KubeletConfiguration`` from 1.17 to 1.36 (the field diff of
``staging/src/k8s.io/kubelet/config/v1beta1/types.go``), but some settings changed under
it. Unknown fields are the ``component_config_fields`` check, feature gates the
``feature_gates`` check.

- ``failCgroupV1`` (added in 1.31, default ``false``) defaults to ``true`` from 1.35: the
  kubelet then refuses to start on a cgroup v1 host. For targets from 1.35, when the field is
  absent, ``failCgroupV1: false`` is written to keep the old behaviour (the keep-behaviour
  pin of the other changed defaults), with a warning: cgroup v1 is in maintenance mode, move
  the nodes to cgroup v2 and then delete the pin (K8SM-CC-001). With ``--adopt-new-defaults``
  nothing is written, only the warning. When ``--min-version`` is below 1.31 the field is not
  written either (kubelets older than 1.31 do not know it and would only log a lenient-decode
  warning, but the window rule stands): a warning says to set it once every kubelet is at
  1.31 or newer. READINESS.md lists this rule twice, as CC-001 (§4.2) and as CRI-007
  (§3, cgroup v1 nodes): it is reported once, as K8SM-CC-001.
- ``memorySwap.swapBehavior`` (K8SM-CC-002), from 1.30 (kubernetes PR #122745, NodeSwap
  beta 2): ``UnlimitedSwap`` was dropped and the kubelet refuses to start (``memorySwap.
  swapBehavior "UnlimitedSwap" must be one of: "", "LimitedSwap" or "NoSwap"``): an error,
  there is no equivalent, choose ``LimitedSwap`` or ``NoSwap``. ``LimitedSwap`` stays valid
  but its meaning changed: only Burstable pods swap, with a limit proportional to the
  container's memory request (the v1beta1 field comment): a warning (K8SM-CC-006).
- Fields that no longer do anything (K8SM-CC-003, info; the v1beta1 field comments say
  "Deprecated: no longer has any effect"): ``iptablesMasqueradeBit`` and ``iptablesDropBit``
  since 1.28, when ``IPTablesOwnershipCleanup`` went GA and the kubelet stopped creating the
  ``KUBE-MARK-MASQ``/``KUBE-MARK-DROP`` chains (PR #119374; the gate is locked on in 1.28):
  reported for targets from 1.28 and kept: the fields are still in the type, so strict
  decoding accepts them, and deleting them would change bytes for no behaviour.
  ``streamingConnectionIdleTimeout`` is marked deprecated in 1.34 (PR #131992: the streams
  are served by the container runtime, whose own idle timeout applies, e.g. containerd's
  ``stream_idle_timeout``); the release from which the kubelet stopped reading it is not
  established upstream, so for targets from 1.34 it is only reported, never deleted.
- ``cgroupDriver`` (K8SM-CC-004, info), for targets from 1.34: ``KubeletCgroupDriverFromCRI``
  is locked on, the kubelet takes the cgroup driver from the container runtime when the
  runtime reports it (the CRI ``RuntimeConfig`` call), and the configured value is only the
  fallback for runtimes that do not.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping
from k8smigrate.versions import KubeVersion

V1_28, V1_30, V1_31 = KubeVersion(1, 28), KubeVersion(1, 30), KubeVersion(1, 31)
V1_34, V1_35 = KubeVersion(1, 34), KubeVersion(1, 35)
IPTABLES_BITS = ("iptablesMasqueradeBit", "iptablesDropBit")


def body(config: Mapping, ctx: Context) -> None:
    if ctx.target_from(V1_35):
        fail_cgroup_v1(config, ctx)
    if ctx.target_from(V1_30):
        swap_behavior(config, ctx)
    if ctx.target_from(V1_28):
        iptables_bits(config, ctx)
    if ctx.target_from(V1_34):
        timeout = config.get("streamingConnectionIdleTimeout")
        if timeout is not None:
            ctx.info(
                "K8SM-CC-003",
                "streamingConnectionIdleTimeout is deprecated (1.34) and has no effect: exec, attach and "
                "port-forward streams are served by the container runtime, whose own idle timeout applies "
                "(containerd: stream_idle_timeout); kept",
                timeout,
            )
        driver = config.get("cgroupDriver")
        if driver is not None:
            ctx.info(
                "K8SM-CC-004",
                "cgroupDriver is only a fallback from 1.34 (KubeletCgroupDriverFromCRI locked on): the kubelet "
                "uses the cgroup driver the container runtime reports; check that the runtime's driver is this one",
                driver,
            )


def fail_cgroup_v1(config: Mapping, ctx: Context) -> None:
    if "failCgroupV1" in config:
        return
    if not ctx.everywhere_from(V1_31):
        ctx.warn(
            "K8SM-CC-001",
            f"from 1.35 the kubelet refuses to start on cgroup v1 hosts (failCgroupV1 defaults to true); the field "
            f"only exists from 1.31, so it is not written for a window from {ctx.oldest}: set failCgroupV1: false once "
            "every kubelet is 1.31 or newer, or move the nodes to cgroup v2",
            config,
        )
        return
    if ctx.adopt_new_defaults:
        ctx.warn(
            "K8SM-CC-001",
            "failCgroupV1 left unset (--adopt-new-defaults): from 1.35 the kubelet refuses to start on cgroup v1 "
            "hosts; make sure every node runs cgroup v2",
            config,
        )
        return
    config.set("failCgroupV1", False)
    ctx.warn(
        "K8SM-CC-001",
        "pinned failCgroupV1: false (the default is true from 1.35: the kubelet would refuse to start on cgroup v1 "
        "hosts); cgroup v1 is in maintenance mode: move the nodes to cgroup v2, then delete this line",
        config.get("failCgroupV1"),
    )
    ctx.note("failCgroupV1: false pinned")


def swap_behavior(config: Mapping, ctx: Context) -> None:
    swap = config.mapping("memorySwap")
    node = swap.scalar("swapBehavior") if swap is not None else None
    if node is None:
        return
    if node.data == "UnlimitedSwap":
        ctx.error(
            "K8SM-CC-002",
            "memorySwap.swapBehavior: UnlimitedSwap was dropped in 1.30 and the kubelet refuses to start with it "
            '(must be one of "", "LimitedSwap" or "NoSwap"); there is no equivalent: choose LimitedSwap (swap '
            "limited in proportion to the memory request) or NoSwap",
            node,
        )
    elif node.data == "LimitedSwap":
        ctx.warn(
            "K8SM-CC-006",
            "memorySwap.swapBehavior: LimitedSwap changed meaning in 1.30: only Burstable pods may swap, each "
            "container up to a limit proportional to its memory request",
            node,
        )


def iptables_bits(config: Mapping, ctx: Context) -> None:
    for key in IPTABLES_BITS:
        node = config.get(key)
        if node is not None:
            ctx.info(
                "K8SM-CC-003",
                f"{key} has no effect from 1.28 (IPTablesOwnershipCleanup GA); kept (the kubelet still accepts "
                "it): delete it once no kubelet older than 1.28 reads this file",
                node,
            )


MIGRATION = Check(
    applies_to={"kubelet.config.k8s.io/v1beta1": ("KubeletConfiguration",)},
    body=body,
    component="kubelet",
    category="component-config",
    edits=True,
    summary="kubelet: failCgroupV1 default (1.35) pinned, UnlimitedSwap (1.30), no-op fields, cgroupDriver fallback",
    codes=(
        Code(
            "K8SM-CC-001", "warning", "failCgroupV1 defaults to true from 1.35: false pinned (also READINESS CRI-007)"
        ),
        Code("K8SM-CC-002", "error", "memorySwap.swapBehavior UnlimitedSwap dropped in 1.30"),
        Code(
            "K8SM-CC-003",
            "info",
            "a field with no effect, kept (iptables bits from 1.28; streamingConnectionIdleTimeout)",
        ),
        Code("K8SM-CC-004", "info", "cgroupDriver is only a fallback from 1.34 (the driver comes from the runtime)"),
        Code("K8SM-CC-006", "warning", "memorySwap.swapBehavior LimitedSwap changed meaning in 1.30"),
    ),
)
