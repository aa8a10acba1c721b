"""A strict field check for KubeSchedulerConfiguration documents (kubernetes-validate has no schema).

The field names are the ``json`` tags of ``k8s.io/kube-scheduler`` ``config/<version>/types.go``
and ``types_pluginargs.go``; the invalid plugins are those upstream ``validation.go`` rejects
(``removedPluginsByVersion`` / ``invalidPluginsByVersion``) or kube-scheduler no longer has.
"""

from __future__ import annotations

from typing import Any

import yaml

_TOP = {
    "apiVersion", "kind", "parallelism", "leaderElection", "clientConnection", "healthzBindAddress",
    "metricsBindAddress", "enableProfiling", "enableContentionProfiling", "percentageOfNodesToScore",
    "podInitialBackoffSeconds", "podMaxBackoffSeconds", "profiles", "extenders",
}  # fmt: skip
_POINTS = {
    "queueSort", "preFilter", "filter", "postFilter", "preScore", "score", "reserve", "permit", "preBind",
    "bind", "postBind",
}  # fmt: skip
_REMOVED_V1BETA2 = {
    "NodeLabel", "ServiceAffinity", "NodePreferAvoidPods", "NodeResourcesLeastAllocated",
    "NodeResourcesMostAllocated", "RequestedToCapacityRatio",
}  # fmt: skip
_REMOVED_V1 = _REMOVED_V1BETA2 | {"SelectorSpread", "AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"}
_FIT_ARGS = {"apiVersion", "kind", "ignoredResources", "ignoredResourceGroups"}

G = "kubescheduler.config.k8s.io/"
TABLE: dict[str, dict[str, Any]] = {
    G + "v1beta1": {"top": _TOP, "profile": {"schedulerName", "plugins", "pluginConfig"}, "points": _POINTS,
                    "invalid": set(), "fit": _FIT_ARGS},
    G + "v1beta2": {"top": _TOP, "profile": {"schedulerName", "plugins", "pluginConfig"}, "points": _POINTS,
                    "invalid": _REMOVED_V1BETA2, "fit": _FIT_ARGS | {"scoringStrategy"}},
    G + "v1beta3": {"top": _TOP - {"healthzBindAddress", "metricsBindAddress"},
                    "profile": {"schedulerName", "plugins", "pluginConfig"},
                    "points": _POINTS | {"multiPoint", "preEnqueue"}, "invalid": _REMOVED_V1BETA2,
                    "fit": _FIT_ARGS | {"scoringStrategy"}},
    G + "v1": {"top": (_TOP - {"healthzBindAddress", "metricsBindAddress"}) | {"delayCacheUntilActive"},
               "profile": {"schedulerName", "plugins", "pluginConfig", "percentageOfNodesToScore"},
               "points": _POINTS | {"multiPoint", "preEnqueue"}, "invalid": _REMOVED_V1,
               "fit": _FIT_ARGS | {"scoringStrategy"}},
}  # fmt: skip


def validate_scheduler(text: str, api: str = G + "v1") -> None:
    """Every KubeSchedulerConfiguration of ``text`` is on ``api`` and uses only its fields and plugins."""
    docs = [
        d for d in yaml.safe_load_all(text) if isinstance(d, dict) and d.get("kind") == "KubeSchedulerConfiguration"
    ]
    assert docs
    for doc in docs:
        assert doc["apiVersion"] == api
        table = TABLE[api]
        assert set(doc) <= table["top"], set(doc) - table["top"]
        for profile in doc.get("profiles") or []:
            assert set(profile) <= table["profile"], set(profile) - table["profile"]
            assert profile.get("schedulerName")
            for point, plugin_set in (profile.get("plugins") or {}).items():
                assert point in table["points"], point
                assert set(plugin_set) <= {"enabled", "disabled"}
                for plugin in plugin_set.get("enabled") or []:
                    assert set(plugin) <= {"name", "weight"} and plugin["name"] not in table["invalid"], plugin
            names = [c["name"] for c in profile.get("pluginConfig") or []]
            assert len(names) == len(set(names)), names
            for config in profile.get("pluginConfig") or []:
                assert config["name"] not in table["invalid"], config
                args = config.get("args") or {}
                if config["name"] == "NodeResourcesFit":
                    assert set(args) <= table["fit"], args
                if "apiVersion" in args:
                    assert args["apiVersion"] == api
