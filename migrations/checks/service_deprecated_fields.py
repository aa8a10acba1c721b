"""Service ``spec.loadBalancerIP`` (deprecated in 1.24) and ``spec.externalIPs`` (deprecated in 1.36): report only.

Neither field is removed and there is no field to move them to, so nothing is rewritten:

- ``spec.loadBalancerIP``: deprecated in 1.24 (``core/v1`` type comment from v0.24.0 on: the
  field is under-specified and cannot do dual-stack; use your load balancer implementation's
  annotation). Still works where the implementation supports it; the API server ignores it,
  with a warning, on headless Services (``pkg/api/service/warnings.go``). For targets from
  1.24 on: K8SM-FLD-021, info.
- ``spec.externalIPs``: the API server warns "spec.externalIPs is deprecated and may no longer
  be implemented in some clusters" (``pkg/api/service/warnings.go``) on Services that are
  neither headless nor ``ExternalName`` (those ignore the field anyway). The first release is
  1.36: KEP-5707 (kubernetes/enhancements ``keps/sig-network/5707-deprecate-service-externalips``)
  schedules the warning, the API deprecation and the kube-proxy gate
  ``AllowServiceExternalIPs`` (default true) for 1.36, the gate to default to false about four
  releases later, then to be locked. For targets from 1.36 on: K8SM-FLD-022, warning.
"""

from __future__ import annotations

from dataclasses import replace

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar


def headless(spec: Mapping) -> bool:
    """``type: ClusterIP`` (the default) with ``clusterIP: None``, as ``isHeadlessService`` reads it."""
    return spec.data("type") in (None, "ClusterIP") and spec.data("clusterIP") == "None"


def check_load_balancer_ip(service: Mapping, ctx: Context) -> None:
    spec = service.mapping("spec")
    node = spec.get("loadBalancerIP") if spec is not None else None
    if spec is None or not isinstance(node, Scalar) or node.data in (None, ""):
        return
    ignored = " (and ignored on this headless Service)" if headless(spec) else ""
    ctx.info(
        "K8SM-FLD-021",
        f"spec.loadBalancerIP is deprecated since 1.24{ignored}: under-specified and no dual-stack; "
        "use your load balancer's annotation",
        node,
    )


def check_external_ips(service: Mapping, ctx: Context) -> None:
    spec = service.mapping("spec")
    node = spec.sequence("externalIPs") if spec is not None else None
    if spec is None or node is None or len(node) == 0:
        return
    if headless(spec) or spec.data("type") == "ExternalName":
        return  # ignored there, and upstream does not warn about the deprecation
    ctx.warn(
        "K8SM-FLD-022",
        "spec.externalIPs is deprecated (1.36) and may no longer be implemented in some clusters "
        "(kube-proxy gate AllowServiceExternalIPs); use a LoadBalancer Service, Ingress or Gateway",
        node,
    )


_BASE = Check(
    applies_to={"v1": ("Service",)},
    body=check_load_balancer_ip,
    category="removed-field",
    summary="Service spec.loadBalancerIP (deprecated 1.24) and spec.externalIPs (deprecated 1.36): reported",
    codes=(
        Code("K8SM-FLD-021", "info", "spec.loadBalancerIP is deprecated (1.24); use the load balancer's annotation"),
        Code("K8SM-FLD-022", "warning", "spec.externalIPs is deprecated (1.36) and may no longer be implemented"),
    ),
)

MIGRATIONS = [
    replace(_BASE, matters_from="1.24", trigger="loadBalancerIP", body=check_load_balancer_ip),
    replace(_BASE, matters_from="1.36", trigger="externalIPs", body=check_external_ips),
]
