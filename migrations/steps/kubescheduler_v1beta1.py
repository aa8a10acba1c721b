"""KubeSchedulerConfiguration ``kubescheduler.config.k8s.io/v1beta1`` → ``v1beta2``.

Resource scoring (RESTRUCTURE). The score plugins ``NodeResourcesLeastAllocated``,
``NodeResourcesMostAllocated`` and ``RequestedToCapacityRatio`` are merged into
``NodeResourcesFit``, whose args choose the strategy (upstream ``v1beta2/types_pluginargs.go``
``NodeResourcesFitArgs.scoringStrategy``; v1beta2 ``validation.go`` rejects the old names).
In each profile, the one of them that scores (enabled in ``score.enabled``, or the default
``NodeResourcesLeastAllocated`` when not disabled):

- its ``score.enabled`` entry is renamed ``NodeResourcesFit`` (the weight stays; v1beta2
  replaces the default entry with it); a ``score.disabled`` entry for
  ``NodeResourcesLeastAllocated`` that made room for it is removed;
- its ``pluginConfig`` becomes ``NodeResourcesFit`` args ``scoringStrategy: {type:
  LeastAllocated|MostAllocated|RequestedToCapacityRatio, resources: …,
  requestedToCapacityRatio: {shape: …}}`` (merged into an existing ``NodeResourcesFit``
  config, whose ``ignoredResources`` stay); a strategy other than ``LeastAllocated`` is
  written even without args (K8SM-SCHED-012).

``NodeResourcesLeastAllocated`` in ``score.disabled`` without a replacement (no resource
scoring) becomes ``NodeResourcesFit`` there. Args for one of the three that does not score
were never used and are dropped (K8SM-SCHED-013). Two of them scoring at once, or one of
them beside ``NodeResourcesFit`` in ``score.enabled`` or outside ``score`` is an error
(K8SM-SCHED-011): one strategy has to be chosen by hand.

Removed plugins without a replacement (MANUAL, K8SM-SCHED-010, an error): ``NodeLabel``
(use node affinity), ``ServiceAffinity`` (use inter-pod affinity) and
``NodePreferAvoidPods`` (use taints) in an ``enabled`` list or ``pluginConfig``. The
v1beta1 default ``NodePreferAvoidPods`` (weight 10000, the
``scheduler.alpha.kubernetes.io/preferAvoidPods`` node annotation) is not in v1beta2's
defaults (``v1beta1/default_plugins.go``, ``v1beta2/default_plugins.go``); the other default
weights are unchanged.

Typed plugin args that repeat ``apiVersion: kubescheduler.config.k8s.io/v1beta1`` follow the
config to v1beta2.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.kubescheduler import (
    COMPONENT,
    KIND,
    V1BETA1,
    V1BETA2,
    bump_args_api,
    named,
    names_in,
    plugin_configs,
    plugin_sets,
    profiles,
    remove_item,
)
from k8smigrate.model import Step
from k8smigrate.tree import Entry, Item, Mapping, Scalar, Sequence

FIT = "NodeResourcesFit"
LEAST = "NodeResourcesLeastAllocated"
MERGED = {
    LEAST: "LeastAllocated",
    "NodeResourcesMostAllocated": "MostAllocated",
    "RequestedToCapacityRatio": "RequestedToCapacityRatio",
}
NO_REPLACEMENT = {
    "NodeLabel": "use node affinity (NodeAffinity) instead",
    "ServiceAffinity": "use inter-pod affinity (InterPodAffinity) instead",
    "NodePreferAvoidPods": "use node taints (TaintToleration) instead",
}


def body(obj: Mapping, ctx: Context) -> None:
    for profile in profiles(obj):
        check(profile, ctx)
    if ctx.failed:
        return
    bump_args_api(obj, V1BETA1, V1BETA2, ctx)
    for profile in profiles(obj):
        merge_scoring(profile, ctx)


def check(profile: Mapping, ctx: Context) -> None:
    for point, plugin_set in plugin_sets(profile):
        for item in named(plugin_set, "enabled", NO_REPLACEMENT):
            assert isinstance(item.value, Mapping)
            name = str(item.value.data("name"))
            ctx.error("K8SM-SCHED-010", f"plugin {name} is removed in v1beta2: {NO_REPLACEMENT[name]}", item.value)
        merged = named(plugin_set, "enabled", MERGED)
        if merged and point != "score":
            ctx.error(
                "K8SM-SCHED-011", f"{point}.enabled lists a resource scoring plugin outside score", merged[0].value
            )
    for item in plugin_configs(profile, NO_REPLACEMENT):
        assert isinstance(item.value, Mapping)
        name = str(item.value.data("name"))
        ctx.error(
            "K8SM-SCHED-010",
            f"pluginConfig of {name}: the plugin is removed in v1beta2: {NO_REPLACEMENT[name]}",
            item.value,
        )
    score = score_set(profile)
    merged = named(score, "enabled", MERGED)
    if len(merged) > 1 or (merged and FIT in names_in(score, "enabled")):
        found = [str(i.value.data("name")) for i in merged if isinstance(i.value, Mapping)]
        ctx.error(
            "K8SM-SCHED-011",
            f"score.enabled lists {', '.join(found + ([FIT] if len(merged) == 1 else []))}: v1beta2 has one "
            f"NodeResourcesFit scoring strategy; keep one of them by hand",
            merged[0].value,
        )


def score_set(profile: Mapping) -> Mapping | None:
    plugins = profile.mapping("plugins")
    return plugins.mapping("score") if plugins is not None else None


def merge_scoring(profile: Mapping, ctx: Context) -> None:
    score = score_set(profile)
    enabled = named(score, "enabled", MERGED)
    disabled = names_in(score, "disabled")
    active: str | None = None
    if enabled:
        assert isinstance(enabled[0].value, Mapping)
        active = str(enabled[0].value.data("name"))
        enabled[0].value.set("name", FIT)
        ctx.note(f"plugins.score.enabled: {active} → {FIT}")
    elif LEAST not in disabled and "*" not in disabled:
        active = LEAST  # the v1beta1 default
    assert score is not None or not enabled
    for item in named(score, "disabled", [LEAST]):
        assert score is not None and isinstance(item.value, Mapping)
        if enabled:
            seq = score.sequence("disabled")
            assert seq is not None
            remove_item(seq, item)
            if len(seq) == 0:
                score.pop("disabled")
        else:
            item.value.set("name", FIT)
        ctx.note(f"plugins.score.disabled: {LEAST} → {FIT}")
    found = False
    for item in plugin_configs(profile, MERGED):
        assert isinstance(item.value, Mapping)
        name = str(item.value.data("name"))
        if name == active:
            found = True
            convert_config(profile, item, name, ctx)
        else:
            ctx.warn(
                "K8SM-SCHED-013",
                f"pluginConfig of {name} dropped: the plugin does not score in this profile, so its args were "
                "never used, and v1beta2 rejects the name",
                item.value.get("name"),
            )
            seq = profile.sequence("pluginConfig")
            assert seq is not None
            remove_item(seq, item)
            ctx.note(f"pluginConfig: {name} removed")
    if active is not None and active != LEAST and not found:
        strategy = Mapping.of({"type": MERGED[active]})
        attach(profile, strategy, ctx)
        ctx.info("K8SM-SCHED-012", f"{active} → {FIT} with scoringStrategy.type {MERGED[active]}", strategy)
    seq = profile.sequence("pluginConfig")
    if seq is not None and len(seq) == 0:
        profile.pop("pluginConfig")


def convert_config(profile: Mapping, item: Item, name: str, ctx: Context) -> None:
    """The args of the scoring plugin become ``NodeResourcesFit`` ``scoringStrategy``."""
    config = item.value
    assert isinstance(config, Mapping)
    args = config.mapping("args")
    strategy = Mapping.of({"type": MERGED[name]})
    at: int | None = None
    if args is not None:
        positions = [i for k in ("resources", "shape") if (i := args.index(k)) is not None]
        at = min(positions) if positions else None
        resources = args.pop("resources")
        if resources is not None:
            strategy.insert(resources)
        shape = args.pop("shape")
        if shape is not None:
            ratio = Mapping.of({})
            ratio.insert(shape)
            strategy.set("requestedToCapacityRatio", ratio)
    ctx.info("K8SM-SCHED-012", f"pluginConfig {name} → {FIT} args scoringStrategy.type {MERGED[name]}", config)
    ctx.note(f"pluginConfig: {name} args → {FIT} scoringStrategy")
    if plugin_configs(profile, [FIT]):
        seq = profile.sequence("pluginConfig")
        assert seq is not None
        remove_item(seq, item)
        attach(profile, strategy, ctx)
        return
    config.set("name", FIT)
    if args is None:
        config.set("args", Mapping.of({"scoringStrategy": strategy}))
        return
    if "kind" in args:
        args.set("kind", "NodeResourcesFitArgs")
    args.insert(Entry(Scalar("scoringStrategy"), strategy), at=at if at is not None else len(args.entries))


def attach(profile: Mapping, strategy: Mapping, ctx: Context) -> None:
    """Put ``scoringStrategy`` into the profile's ``NodeResourcesFit`` args, adding them when absent."""
    existing = plugin_configs(profile, [FIT])
    if existing:
        config = existing[0].value
        assert isinstance(config, Mapping)
        args = config.mapping("args")
        if args is None:
            config.set("args", Mapping.of({"scoringStrategy": strategy}))
        elif "scoringStrategy" in args:
            ctx.error("K8SM-SCHED-011", f"{FIT} args already have a scoringStrategy", args.get("scoringStrategy"))
        else:
            args.set("scoringStrategy", strategy)
        return
    new = Mapping.of({"name": FIT, "args": Mapping.of({"scoringStrategy": strategy})})
    seq = profile.sequence("pluginConfig")
    if seq is None:
        profile.set("pluginConfig", Sequence.of([new]))
    else:
        seq.append(new)


MIGRATION = Step(
    kinds=(KIND,),
    from_api=V1BETA1,
    to_api=V1BETA2,
    available_in="1.22",
    body=body,
    component=COMPONENT,
    summary="kube-scheduler v1beta1 → v1beta2: resource scoring plugins merged into NodeResourcesFit",
    codes=(
        Code(
            "K8SM-SCHED-010", "error", ("NodeLabel, ServiceAffinity or NodePreferAvoidPods is used; removed in v1beta2")
        ),
        Code("K8SM-SCHED-011", "error", "resource scoring strategies cannot be merged into one NodeResourcesFit"),
        Code("K8SM-SCHED-012", "info", "a resource scoring plugin became a NodeResourcesFit scoringStrategy"),
        Code("K8SM-SCHED-013", "warning", "args of a resource scoring plugin that did not score dropped"),
    ),
)
