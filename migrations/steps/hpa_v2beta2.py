"""HorizontalPodAutoscaler ``autoscaling/v2beta2`` → ``autoscaling/v2``.

The two versions have the same fields and the same defaults
(``pkg/apis/autoscaling/v2beta2/defaults.go`` and ``v2/defaults.go``: ``minReplicas: 1``,
CPU utilization 80% without metrics, behavior defaults applied only when ``behavior`` is
set): the spec is kept as it is. (v2 later added ``behavior.scale{Up,Down}.tolerance``,
which is optional.) The step declares ``same_fields``: a chart that picks the apiVersion by
release (``--set api-branches=write``) may write ``v2``'s body under ``autoscaling/v2beta2``.

``status`` is dropped (K8SM-HPA-005), as for v2beta1 sources: the API server ignores it on
create and rebuilds it, and a status captured from an older server is the part of an
exported manifest that most often fails the v2 schema. A ``scaleTargetRef.apiVersion`` whose
group no longer serves the kind is reported (K8SM-HPA-006), as in ``hpa_v2beta1``.
"""

from __future__ import annotations

from k8smigrate.context import Context
from k8smigrate.kube.autoscaling import STATUS_DROPPED, TARGET_REMOVED, check_scale_target
from k8smigrate.model import Step
from k8smigrate.tree import Mapping


def body(hpa: Mapping, ctx: Context) -> None:
    check_scale_target(hpa.mapping("spec"), ctx)
    if "status" in hpa:
        ctx.info(
            "K8SM-HPA-005",
            "status dropped: the API server ignores it on create and rebuilds it",
            hpa.get("status"),
        )
        hpa.pop("status")


MIGRATION = Step(
    kinds=("HorizontalPodAutoscaler",),
    from_api="autoscaling/v2beta2",
    to_api="autoscaling/v2",
    available_in="1.23",
    body=body,
    same_fields=True,
    summary="HPA autoscaling/v2beta2 → v2 (spec unchanged, status dropped)",
    codes=(
        STATUS_DROPPED,
        TARGET_REMOVED,
    ),
)
