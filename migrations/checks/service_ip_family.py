"""Service ``spec.ipFamily`` removed in 1.20 → ``spec.ipFamilies`` and ``spec.ipFamilyPolicy``.

The singular ``ipFamily`` of the alpha dual-stack design (1.16–1.19) was removed from
``core/v1`` in 1.20 (``ipFamilies`` and ``ipFamilyPolicy`` added); strict field validation
then rejects it. For targets from 1.20 on, ``ipFamily: X`` becomes ``ipFamilies: [X]`` and
``ipFamilyPolicy: SingleStack`` (K8SM-FLD-006). Where ``ipFamilies`` is already set, the
old field is only deleted when it agrees with the first family (an error otherwise,
K8SM-FLD-038). An ExternalName Service may not set ``ipFamilies``: there the field is only
deleted. When the window starts before 1.20, the new fields are unknown at its start: the
field is deleted only (K8SM-FLD-039).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Sequence

FAMILIES = ("IPv4", "IPv6")


def body(service: Mapping, ctx: Context) -> None:
    spec = service.mapping("spec")
    node = spec.get("ipFamily") if spec is not None else None
    if spec is None or node is None:
        return
    family = node.to_data()
    if family not in FAMILIES:
        ctx.error("K8SM-FLD-038", f"spec.ipFamily {family!r} is neither IPv4 nor IPv6", node)
        return
    existing = spec.get("ipFamilies")
    if existing is not None:
        data = existing.to_data()
        if not (isinstance(data, list) and data and data[0] == family):
            ctx.error("K8SM-FLD-038", f"spec.ipFamily {family} disagrees with spec.ipFamilies {data}", node)
            return
        ctx.info("K8SM-FLD-006", "spec.ipFamily (removed in 1.20) deleted; spec.ipFamilies says the same", node)
    elif spec.data("type") == "ExternalName":
        ctx.info(
            "K8SM-FLD-006",
            "spec.ipFamily (removed in 1.20) deleted; an ExternalName Service has no IPs",
            node,
        )
    elif not ctx.needs_met:
        ctx.warn(
            "K8SM-FLD-039",
            "spec.ipFamily (removed in 1.20) deleted; ipFamilies is unknown before 1.20, so the family "
            "falls back to the cluster's primary one there",
            node,
        )
    else:
        ctx.info(
            "K8SM-FLD-006",
            f"spec.ipFamily: {family} → ipFamilies: [{family}], ipFamilyPolicy: SingleStack",
            node,
        )
        index = spec.index("ipFamily")
        spec.set("ipFamilies", Sequence.of([family]), after="ipFamily")
        if "ipFamilyPolicy" not in spec:
            spec.set("ipFamilyPolicy", "SingleStack", after="ipFamilies")
        assert index is not None
    spec.pop("ipFamily")
    ctx.note("spec.ipFamily → spec.ipFamilies")


MIGRATION = Check(
    applies_to={"v1": ("Service",)},
    body=body,
    matters_from="1.20",
    needs="1.20",
    trigger="ipFamily",
    category="removed-field",
    edits=True,
    summary="Service spec.ipFamily (gone in 1.20) → ipFamilies + ipFamilyPolicy: SingleStack",
    codes=(
        Code("K8SM-FLD-006", "info", "spec.ipFamily → ipFamilies/ipFamilyPolicy, or deleted where redundant"),
        Code("K8SM-FLD-038", "error", "spec.ipFamily with an unknown value, or disagreeing with ipFamilies"),
        Code("K8SM-FLD-039", "warning", "spec.ipFamily deleted only; the window starts before ipFamilies exists"),
    ),
)
