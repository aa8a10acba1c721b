"""KubeSchedulerConfiguration: unknown fields, removed fields and removed plugins (the scheduler fails on them).

kube-scheduler decodes its ``--config`` strictly in every supported version (the lenient
fallback existed only for v1alpha1, gone in 1.19; PRs #83030, #84129): an unknown or
duplicate field makes it refuse to start. Duplicate keys are reported by the core for every
document (K8SM-GEN-006); this check looks, for ``kubescheduler.config.k8s.io``
``v1beta2``, ``v1beta3`` and ``v1`` (targets from 1.22, the first release serving v1beta2):

- unknown fields of the configuration, its profiles and their ``plugins`` (K8SM-CC-020, an
  error, with the line); the field table is the union of the releases that read each
  version (``kube-scheduler/config/*/types.go``), so that no field a supported scheduler
  accepts is reported;
- ``metricsBindAddress`` and ``healthzBindAddress`` (in v1beta1 and v1beta2 only; no-ops from
  1.23, PR #96345): in a v1beta3 or v1 document, where the scheduler refuses them, deleted;
  metrics and health are served on the secure port 10259 (K8SM-CC-021);
- plugins removed from the version: ``NodeLabel`` and ``ServiceAffinity`` (use
  NodeAffinity / InterPodAffinity), ``NodeResourcesLeastAllocated``,
  ``NodeResourcesMostAllocated`` and ``RequestedToCapacityRatio`` (use ``NodeResourcesFit``
  with ``args.scoringStrategy.type``) and ``NodePreferAvoidPods`` (use taints), none of
  them in v1beta2 or later; in ``v1`` also ``SelectorSpread`` (use PodTopologySpread):
  errors, not rewritten (K8SM-CC-022). Documents in an older version are converted by the
  ``kubescheduler_*`` steps, which handle these plugins; this check only reports a document
  already written in a version that lacks them.

The scheduler has no ``featureGates`` field: its gates go through kubeadm
``scheduler.extraArgs`` (the ``feature_gates`` check).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

GROUP = "kubescheduler.config.k8s.io"
TOP = frozenset(
    {
        "apiVersion",
        "kind",
        "parallelism",
        "leaderElection",
        "clientConnection",
        "enableProfiling",
        "enableContentionProfiling",
        "percentageOfNodesToScore",
        "percentageOfPlacementsToScore",
        "podInitialBackoffSeconds",
        "podMaxBackoffSeconds",
        "profiles",
        "extenders",
        "delayCacheUntilActive",
    }
)
PROFILE = frozenset(
    {"schedulerName", "percentageOfNodesToScore", "percentageOfPlacementsToScore", "plugins", "pluginConfig"}
)
EXTENSION_POINTS = frozenset(
    {
        "preEnqueue",
        "queueSort",
        "preFilter",
        "filter",
        "postFilter",
        "preScore",
        "score",
        "reserve",
        "permit",
        "preBind",
        "bind",
        "postBind",
        "multiPoint",
        "placementGenerate",
        "placementScore",
        "placementFeasible",
        "podGroupPostFilter",
    }
)
GONE_FIELDS = ("metricsBindAddress", "healthzBindAddress")
GONE_V1BETA2 = {
    "NodeLabel": "NodeAffinity",
    "ServiceAffinity": "InterPodAffinity",
    "NodeResourcesLeastAllocated": "NodeResourcesFit with args.scoringStrategy.type: LeastAllocated",
    "NodeResourcesMostAllocated": "NodeResourcesFit with args.scoringStrategy.type: MostAllocated",
    "RequestedToCapacityRatio": "NodeResourcesFit with args.scoringStrategy.type: RequestedToCapacityRatio",
    "NodePreferAvoidPods": "node taints (TaintToleration)",
}
GONE_V1 = {**GONE_V1BETA2, "SelectorSpread": "PodTopologySpread (its system default constraints)"}


def body(config: Mapping, ctx: Context) -> None:
    version = str(config.data("apiVersion")).rsplit("/", 1)[-1]
    # v1beta2 still has both fields (kube-scheduler/config/v1beta2/types.go); the v1beta2 → v1beta3
    # step drops them. Here they are reported only where the version lacks them.
    for name in GONE_FIELDS if version != "v1beta2" else ():
        if name in config:
            ctx.warn(
                "K8SM-CC-021",
                f"{name} is not in {version} (the scheduler refuses to start); deleted: metrics and health are "
                "served on the secure port 10259",
                config.get(name),
            )
            config.pop(name)
            ctx.note(f"{name} removed")
    unknown(config, TOP | frozenset(GONE_FIELDS) if version == "v1beta2" else TOP, "", ctx)
    gone = GONE_V1 if version == "v1" else GONE_V1BETA2
    profiles = config.sequence("profiles")
    for i, profile in profiles.mappings() if profiles is not None else ():
        where = f"profiles[{i}]"
        unknown(profile, PROFILE, where, ctx)
        plugins = profile.mapping("plugins")
        if plugins is not None:
            unknown(plugins, EXTENSION_POINTS, f"{where}.plugins", ctx)
        named = [
            *(p for point in EXTENSION_POINTS for p in mappings_at(plugins, point, "enabled")),
            *(p for point in EXTENSION_POINTS for p in mappings_at(plugins, point, "disabled")),
            *mappings_at(profile, "pluginConfig"),
        ]
        for plugin in named:
            plugin_name = plugin.data("name")
            if isinstance(plugin_name, str) and plugin_name in gone:
                ctx.error(
                    "K8SM-CC-022",
                    f"{where}: plugin {plugin_name} does not exist in {version} (the scheduler refuses to start); "
                    f"use {gone[plugin_name]}",
                    plugin,
                )


def unknown(node: Mapping, fields: frozenset[str], where: str, ctx: Context) -> None:
    for entry in node.entries:
        if entry.name not in fields:
            path = f"{where}.{entry.name}" if where else entry.name
            ctx.error(
                "K8SM-CC-020",
                f"{path}: unknown field; kube-scheduler decodes its config strictly and refuses to start",
                entry.key,
            )


MIGRATION = Check(
    applies_to={f"{GROUP}/{version}": ("KubeSchedulerConfiguration",) for version in ("v1beta2", "v1beta3", "v1")},
    body=body,
    component="kube-scheduler",
    matters_from="1.22",
    category="component-config",
    edits=True,
    summary="scheduler configs: unknown fields and removed plugins (errors), removed bind addresses (deleted)",
    codes=(
        Code("K8SM-CC-020", "error", "an unknown field in a scheduler config; kube-scheduler refuses to start"),
        Code("K8SM-CC-021", "warning", "metricsBindAddress/healthzBindAddress deleted (served on 10259)"),
        Code("K8SM-CC-022", "error", "a scheduler plugin that does not exist in this config version"),
    ),
)
