"""Service ``spec.trafficDistribution: PreferClose`` → ``PreferSameZone`` (1.35).

``PreferClose`` (``spec.trafficDistribution``, GA in 1.33) was renamed ``PreferSameZone`` by
KEP-3015: ``core/v1/types.go`` marks ``ServiceTrafficDistributionPreferClose`` "Deprecated:
use PreferSameZone" and says the two mean the same; the API server warns on the old value.
``PreferSameZone`` came with the ``PreferSameTrafficDistribution`` gate: alpha and off in
1.33, beta and on in 1.34, GA and locked in 1.35. An API server with the gate off rejects the
new value, so:

- for targets from 1.35 on, with ``--min-version`` 1.34 or later, the value is set to
  ``PreferSameZone`` (quote style and comments kept) (K8SM-FLD-003);
- when the window starts before 1.34 ``PreferClose`` is kept (K8SM-FLD-052, info).

``service.kubernetes.io/topology-mode: Auto`` is not converted: its algorithm (endpoints
allocated by the CPU share of each zone, with safeguards) differs from ``PreferSameZone``.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

OLD = "PreferClose"
NEW = "PreferSameZone"


def body(service: Mapping, ctx: Context) -> None:
    spec = service.mapping("spec")
    node = spec.scalar("trafficDistribution") if spec is not None else None
    if node is None or node.data != OLD:
        return
    if not ctx.needs_met:
        ctx.info(
            "K8SM-FLD-052",
            f"spec.trafficDistribution {OLD} kept: {NEW} is off by default before 1.34 (--min-version {ctx.oldest})",
            node,
        )
        return
    ctx.info("K8SM-FLD-003", f"spec.trafficDistribution {OLD} (deprecated) → {NEW}, the same behaviour", node)
    node.set(NEW)
    ctx.note(f"spec.trafficDistribution {OLD} → {NEW}")


MIGRATION = Check(
    applies_to={"v1": ("Service",)},
    body=body,
    matters_from="1.35",
    needs="1.34",  # PreferSameTrafficDistribution on by default
    trigger=OLD,
    category="removed-field",
    edits=True,
    cleanup=True,
    summary="Service spec.trafficDistribution PreferClose (deprecated) → PreferSameZone (targets from 1.35)",
    codes=(
        Code("K8SM-FLD-003", "info", "trafficDistribution PreferClose renamed PreferSameZone"),
        Code(
            "K8SM-FLD-052", "info", "PreferClose kept: the window starts before PreferSameZone is on by default (1.34)"
        ),
    ),
)
