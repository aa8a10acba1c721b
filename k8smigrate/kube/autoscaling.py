"""HorizontalPodAutoscaler shapes shared by the ``autoscaling/v2beta1`` and ``v2beta2`` steps."""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.tree import Mapping

STATUS_DROPPED = Code("K8SM-HPA-005", "info", "status dropped: its shape differs in v2 and the server rebuilds it")
TARGET_REMOVED = Code("K8SM-HPA-006", "warning", "scaleTargetRef names its target through a removed API version")


def check_scale_target(spec: Mapping | None, ctx: Context) -> None:
    """Warn when ``scaleTargetRef`` names its target through a removed API (the HPA stops scaling)."""
    ref = spec.mapping("scaleTargetRef") if spec is not None else None
    api = ref.scalar("apiVersion") if ref is not None else None
    kind = ref.data("kind") if ref is not None else None
    life = ctx.lifecycle(str(api.data), str(kind)) if api is not None and kind is not None else None
    if api is not None and life is not None and life.removed_in is not None:
        use = f"; use {life.replacement}" if life.replacement else ""
        ctx.warn(
            "K8SM-HPA-006",
            f"scaleTargetRef.apiVersion {api.value} ({kind}) is removed in {life.removed_in}: the HPA cannot "
            f"find its target on clusters that no longer serve it{use}",
            api,
        )
