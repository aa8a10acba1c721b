"""KubeProxyConfiguration (``kubeproxy.config.k8s.io/v1alpha1``): removed modes and fields.

kube-proxy decodes its config strictly first and, for v1alpha1, falls back to a lenient
decode with only a warning (``using lenient decoding as strict decoding failed``, PR
#84143): an unknown field does not stop it, but whatever it set is silently lost. From
the field diff of ``kube-proxy/config/v1alpha1/types.go`` and the release notes:

- ``mode: userspace`` was removed in 1.26 (PR #112133; deprecated 1.23, PR #104631) and
  kube-proxy refuses to start with it. For targets from 1.26 on it becomes ``iptables``
  (``kernelspace`` when the document configures ``winkernel``, the Windows proxier), the
  default of each platform; a warning, as the proxying behaviour changes (K8SM-CC-010);
- ``udpIdleTimeout`` (userspace only) is gone from the type in 1.26: deleted (K8SM-CC-011);
- ``portRange`` (userspace only) stays in the type but does nothing from 1.26: reported,
  kept (K8SM-CC-012);
- ``mode: ipvs`` is deprecated from 1.35 (KEP-5495): a warning suggesting ``nftables``
  (GA 1.33) or ``iptables`` (K8SM-CC-013).

Unknown fields, top-level and nested (``conntrack.max``…), are the
``component_config_fields`` check (its CC-014 warning); feature gates are the ``feature_gates`` check.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping
from k8smigrate.versions import KubeVersion

V1_26, V1_35 = KubeVersion(1, 26), KubeVersion(1, 35)


def body(config: Mapping, ctx: Context) -> None:
    mode = config.scalar("mode")
    if mode is not None and mode.data == "userspace" and ctx.target_from(V1_26):
        new = "kernelspace" if "winkernel" in config else "iptables"
        mode.set(new)
        ctx.warn(
            "K8SM-CC-010",
            f"mode: userspace was removed in 1.26 and kube-proxy refuses it; now {new} (the platform default): "
            "Services are proxied by the kernel from now on",
            mode,
        )
        ctx.note(f"mode: userspace → {new}")
    if mode is not None and mode.data == "ipvs" and ctx.target_from(V1_35):
        ctx.warn("K8SM-CC-013", "mode: ipvs is deprecated from 1.35; plan a move to nftables or iptables", mode)
    if not ctx.target_from(V1_26):
        return
    if "udpIdleTimeout" in config:
        ctx.info(
            "K8SM-CC-011",
            "udpIdleTimeout (userspace mode only) is gone in 1.26; deleted",
            config.get("udpIdleTimeout"),
        )
        config.pop("udpIdleTimeout")
        ctx.note("udpIdleTimeout removed")
    port_range = config.get("portRange")
    if port_range is not None and config.data("portRange") not in (None, ""):
        ctx.info("K8SM-CC-012", "portRange only served userspace mode (removed in 1.26): it does nothing", port_range)


MIGRATION = Check(
    applies_to={"kubeproxy.config.k8s.io/v1alpha1": ("KubeProxyConfiguration",)},
    body=body,
    component="kube-proxy",
    matters_from="1.26",
    category="component-config",
    edits=True,
    summary="kube-proxy mode: userspace (gone in 1.26) → iptables/kernelspace; userspace-only fields; ipvs deprecation",
    codes=(
        Code("K8SM-CC-010", "warning", "mode: userspace replaced by the platform default (iptables or kernelspace)"),
        Code("K8SM-CC-011", "info", "udpIdleTimeout (gone in 1.26) deleted"),
        Code("K8SM-CC-012", "info", "portRange does nothing without userspace mode"),
        Code("K8SM-CC-013", "warning", "mode: ipvs is deprecated from 1.35"),
    ),
)
