"""KubeSchedulerConfiguration ``kubescheduler.config.k8s.io/v1beta2`` → ``v1beta3``.

Score weights (DEFAULT-CHANGED). v1beta2 enables the score plugins ``InterPodAffinity``,
``NodeAffinity`` and ``TaintToleration`` with weight 1 (upstream
``pkg/scheduler/apis/config/v1beta2/default_plugins.go``); v1beta3 enables them through
``multiPoint`` with weights 2, 2 and 3 (``v1beta3/default_plugins.go``). To keep v1beta2
scoring, every profile that relied on those defaults gets them pinned in
``plugins.score.enabled`` with ``weight: 1`` (K8SM-SCHED-001). A plugin set for a specific
extension point overrides ``multiPoint`` for that plugin, weights included (``framework.go``
``expandMultiPointPlugins``: "MultiPoint plugin is explicitly re-configured; overriding").
A plugin is not pinned when the profile already lists it in ``score.enabled`` (an entry
without weight means 1 in every version), disables it in ``score.disabled``, or disables all
score plugins (``"*"``). A config without ``profiles`` gets the one profile v1beta2 defaults
to (``schedulerName: default-scheduler``). ``--adopt-new-defaults`` takes the new weights
(K8SM-GEN-002 instead).

Removed fields: ``healthzBindAddress`` and ``metricsBindAddress`` are gone from v1beta3;
kube-scheduler serves health and metrics on its secure port (``--bind-address``,
``--secure-port``). They are dropped with K8SM-SCHED-002 (a comment on them: K8SM-GEN-004).

Typed plugin args that repeat ``apiVersion: kubescheduler.config.k8s.io/v1beta2`` follow the
config to v1beta3. New optional field: ``plugins.multiPoint``.
"""

from __future__ import annotations

from k8smigrate.codes import NEW_DEFAULT, Code
from k8smigrate.context import Context
from k8smigrate.kube.kubescheduler import (
    COMPONENT,
    DEFAULT_SCHEDULER,
    KIND,
    V1BETA2,
    V1BETA3,
    bump_args_api,
    names_in,
    profiles,
)
from k8smigrate.model import Step
from k8smigrate.tree import Mapping, Sequence

OLD_WEIGHTS = {"InterPodAffinity": 1, "NodeAffinity": 1, "TaintToleration": 1}
NEW_WEIGHTS = {"InterPodAffinity": 2, "NodeAffinity": 2, "TaintToleration": 3}
REMOVED_FIELDS = ("healthzBindAddress", "metricsBindAddress")


def body(obj: Mapping, ctx: Context) -> None:
    bump_args_api(obj, V1BETA2, V1BETA3, ctx)
    for key in REMOVED_FIELDS:
        drop_field(obj, key, ctx)
    pin_weights(obj, ctx)


def drop_field(obj: Mapping, key: str, ctx: Context) -> None:
    entry = obj.entry(key)
    if entry is None:
        return
    # a comment on the field is reported by the core (K8SM-GEN-004)
    ctx.warn(
        "K8SM-SCHED-002",
        f"{key}: {entry.value.to_data()!r} dropped: v1beta3 has no such field; kube-scheduler serves "
        "health and metrics on its secure port (--bind-address, --secure-port)",
        entry.key,
    )
    obj.pop(key)
    ctx.note(f"{key} removed")


def pin_weights(obj: Mapping, ctx: Context) -> None:
    seq = obj.sequence("profiles")
    if seq is None or len(seq) == 0:
        # v1beta2 defaulting adds the one profile "default-scheduler" (SetDefaults_KubeSchedulerConfiguration)
        if ctx.adopt_new_defaults:
            adopt(obj, list(OLD_WEIGHTS), ctx)
            return
        profile = Mapping.of({"schedulerName": DEFAULT_SCHEDULER, "plugins": {"score": {"enabled": []}}})
        obj.set("profiles", Sequence.of([profile]))
        pin(profile, list(OLD_WEIGHTS), ctx)
        return
    for profile in profiles(obj):
        missing = relied_on(profile)
        if not missing:
            continue
        if ctx.adopt_new_defaults:
            adopt(profile, missing, ctx)
        else:
            pin(profile, missing, ctx)


def relied_on(profile: Mapping) -> list[str]:
    """The plugins whose score weight this profile takes from the v1beta2 defaults."""
    plugins = profile.mapping("plugins")
    score = plugins.mapping("score") if plugins is not None else None
    disabled = names_in(score, "disabled")
    if "*" in disabled:
        return []
    listed = names_in(score, "enabled") | disabled
    return [name for name in OLD_WEIGHTS if name not in listed]


def pin(profile: Mapping, names: list[str], ctx: Context) -> None:
    plugins = profile.mapping("plugins")
    if plugins is None:
        plugins = Mapping.of({})
        profile.set("plugins", plugins, after="schedulerName")
    score = plugins.mapping("score")
    if score is None:
        score = Mapping.of({})
        plugins.set("score", score)
    enabled = score.sequence("enabled")
    if enabled is None:
        enabled = Sequence()
        score.set("enabled", enabled, before="disabled")
    for name in names:
        enabled.append(Mapping.of({"name": name, "weight": OLD_WEIGHTS[name]}, flow=enabled.flow))
    pinned = ", ".join(f"{n} {OLD_WEIGHTS[n]} (v1beta3 default {NEW_WEIGHTS[n]})" for n in names)
    ctx.warn(
        "K8SM-SCHED-001",
        f"profile {profile.data('schedulerName') or DEFAULT_SCHEDULER}: score weights pinned to the v1beta2 "
        f"defaults: {pinned}",
        enabled,
    )
    ctx.note("plugins.score.enabled: v1beta2 score weights pinned")


def adopt(node: Mapping, names: list[str], ctx: Context) -> None:
    changed = ", ".join(f"{n} {OLD_WEIGHTS[n]} → {NEW_WEIGHTS[n]}" for n in names)
    ctx.info("K8SM-GEN-002", f"score weights left to the v1beta3 defaults: {changed}", node)


MIGRATION = Step(
    kinds=(KIND,),
    from_api=V1BETA2,
    to_api=V1BETA3,
    available_in="1.23",
    body=body,
    component=COMPONENT,
    summary="kube-scheduler v1beta2 → v1beta3: score weights pinned, healthz/metrics bind addresses removed",
    codes=(
        Code("K8SM-SCHED-001", "warning", "InterPodAffinity/NodeAffinity/TaintToleration score weights pinned to 1"),
        Code("K8SM-SCHED-002", "warning", "healthzBindAddress or metricsBindAddress dropped (removed in v1beta3)"),
        NEW_DEFAULT.with_summary("with --adopt-new-defaults, the v1beta3 score weights are taken"),
    ),
)
