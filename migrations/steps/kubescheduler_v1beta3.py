"""KubeSchedulerConfiguration ``kubescheduler.config.k8s.io/v1beta3`` → ``v1``.

The default plugins and score weights are the same (upstream
``pkg/scheduler/apis/config/v1beta3/default_plugins.go`` and ``v1/default_plugins.go``), so
nothing is pinned. Plugins that v1 kube-schedulers no longer run are removed from every
``enabled`` list (``multiPoint`` included) and from ``pluginConfig``, each with a warning:

- ``SelectorSpread`` (K8SM-SCHED-005): removed from kube-scheduler (1.27); the system default
  constraints of ``PodTopologySpread`` (``defaultingType: System``) spread the pods of a
  Service, ReplicaSet or StatefulSet instead.
- ``AzureDiskLimits``, ``CinderLimits``, ``EBSLimits``, ``GCEPDLimits`` (K8SM-SCHED-006):
  invalid in v1 (``validation.go`` ``invalidPluginsByVersion``); with CSI migration,
  ``NodeVolumeLimits`` counts these volumes.

An ``enabled`` list, plugin set, ``plugins`` or ``pluginConfig`` left empty is removed; a
removed item's comments move to the next item (the core reports any other dropped
comment, K8SM-GEN-004). Typed plugin args that repeat
``apiVersion: kubescheduler.config.k8s.io/v1beta3`` follow the config to v1. New optional
fields only: ``profiles[].percentageOfNodesToScore`` and ``delayCacheUntilActive``.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.kubescheduler import COMPONENT, KIND, V1, V1BETA3, bump_args_api, drop_plugins
from k8smigrate.model import Step
from k8smigrate.tree import Mapping

SPREAD = {
    "SelectorSpread": "removed from kube-scheduler 1.27; PodTopologySpread's system default constraints "
    "spread pods by Service, ReplicaSet and StatefulSet instead"
}
VOLUME_LIMITS = dict.fromkeys(
    ("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"),
    "invalid in kubescheduler.config.k8s.io/v1; NodeVolumeLimits counts these volumes through CSI migration",
)


def body(obj: Mapping, ctx: Context) -> None:
    bump_args_api(obj, V1BETA3, V1, ctx)
    drop_plugins(obj, SPREAD, "K8SM-SCHED-005", ctx)
    drop_plugins(obj, VOLUME_LIMITS, "K8SM-SCHED-006", ctx)


MIGRATION = Step(
    kinds=(KIND,),
    from_api=V1BETA3,
    to_api=V1,
    available_in="1.25",
    body=body,
    component=COMPONENT,
    summary="kube-scheduler v1beta3 → v1: SelectorSpread and in-tree volume limit plugins removed",
    codes=(
        Code("K8SM-SCHED-005", "warning", "the SelectorSpread plugin (removed) dropped; PodTopologySpread covers it"),
        Code("K8SM-SCHED-006", "warning", "an in-tree volume limits plugin (invalid in v1) dropped"),
    ),
)
