"""HorizontalPodAutoscaler shapes shared by the ``autoscaling/v2beta1`` and ``v2beta2`` steps.

The HPA controller resolves ``scaleTargetRef`` by **group and kind** only: it parses
``apiVersion``, keeps its group, and asks the REST mapper for every served version of that
group and kind (``reconcileAutoscaler`` in kubernetes ``pkg/controller/podautoscaler/
horizontal.go``: ``schema.GroupKind{Group: targetGV.Group, Kind: …}`` then
``a.mapper.RESTMappings(targetGK)``). A removed version of a group that still serves the
kind (``apps/v1beta1`` or ``apps/v1beta2`` Deployment → ``apps/v1``) keeps working; only a
group that no longer serves the kind at all (``extensions/v1beta1`` Deployment, whose
replacement lives in ``apps``) stops the HPA.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.tree import Mapping

STATUS_DROPPED = Code("K8SM-HPA-005", "info", "status dropped: its shape differs in v2 and the server rebuilds it")
TARGET_REMOVED = Code(
    "K8SM-HPA-006", "warning", "scaleTargetRef names its target through a group that no longer serves its kind"
)


def group_of(api_version: str) -> str:
    """The group of ``group/version`` (``""`` for the core group), as ``schema.ParseGroupVersion`` reads it."""
    return api_version.split("/", 1)[0] if "/" in api_version else ""


def check_scale_target(spec: Mapping | None, ctx: Context) -> None:
    """Warn when ``scaleTargetRef``'s group no longer serves its kind at the target (the HPA stops scaling)."""
    ref = spec.mapping("scaleTargetRef") if spec is not None else None
    api = ref.scalar("apiVersion") if ref is not None else None
    kind = ref.data("kind") if ref is not None else None
    life = ctx.lifecycle(str(api.data), str(kind)) if api is not None and kind is not None else None
    if api is None or life is None or life.removed_in is None or not ctx.target_from(life.removed_in):
        return
    if life.replacement is not None and group_of(life.replacement) == group_of(str(api.data)):
        return  # another version of the same group serves the kind: the controller finds it
    use = f"; use {life.replacement}" if life.replacement else ""
    ctx.warn(
        "K8SM-HPA-006",
        f"scaleTargetRef.apiVersion {api.value} ({kind}): the group no longer serves {kind} from "
        f"{life.removed_in}, and the HPA controller looks its target up by group and kind, so it "
        f"cannot find it{use}",
        api,
    )
