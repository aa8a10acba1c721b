"""Shared pieces of the kube-scheduler configuration migrations (``kubescheduler.config.k8s.io``).

Profiles, plugin sets and plugin configs as upstream ``types.go`` of ``k8s.io/kube-scheduler``
config v1beta1–v1 names them: ``profiles[].plugins.<extension point>.enabled|disabled[].name``
and ``profiles[].pluginConfig[].{name, args}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from k8smigrate.context import Context
from k8smigrate.tree import Item, Mapping, Scalar, Sequence

GROUP = "kubescheduler.config.k8s.io"
V1BETA1, V1BETA2, V1BETA3, V1 = (f"{GROUP}/{v}" for v in ("v1beta1", "v1beta2", "v1beta3", "v1"))
KIND = "KubeSchedulerConfiguration"
COMPONENT = "kube-scheduler"
DEFAULT_SCHEDULER = "default-scheduler"


def profiles(obj: Mapping) -> list[Mapping]:
    seq = obj.sequence("profiles")
    return [m for _i, m in seq.mappings()] if seq is not None else []


def plugin_sets(profile: Mapping) -> Iterator[tuple[str, Mapping]]:
    """``(extension point, plugin set)`` of every plugin set a profile configures."""
    plugins = profile.mapping("plugins")
    if plugins is None:
        return
    for point in plugins:
        found = plugins.mapping(point)
        if found is not None:
            yield point, found


def named(plugin_set: Mapping | None, key: str, names: Iterable[str]) -> list[Item]:
    """The items of ``plugin_set.<key>`` (``enabled``/``disabled``) whose ``name`` is one of ``names``."""
    seq = plugin_set.sequence(key) if plugin_set is not None else None
    if seq is None:
        return []
    wanted = set(names)
    return [i for i in seq.items if isinstance(i.value, Mapping) and i.value.data("name") in wanted]


def names_in(plugin_set: Mapping | None, key: str) -> set[str]:
    seq = plugin_set.sequence(key) if plugin_set is not None else None
    if seq is None:
        return set()
    return {str(m.data("name")) for _i, m in seq.mappings()}


def plugin_configs(profile: Mapping, names: Iterable[str]) -> list[Item]:
    """The ``pluginConfig`` items of a profile for the plugins ``names``."""
    seq = profile.sequence("pluginConfig")
    if seq is None:
        return []
    wanted = set(names)
    return [i for i in seq.items if isinstance(i.value, Mapping) and i.value.data("name") in wanted]


def remove_item(seq: Sequence, item: Item) -> None:
    """Remove an item; its head comments move to the next item (the core reports any other lost comment)."""
    seq.remove(item, keep_comments=True)


def drop_plugins(obj: Mapping, names: dict[str, str], code: str, ctx: Context) -> None:
    """Remove the plugins ``names`` (name → why) from every enabled list and their plugin configs."""
    for profile in profiles(obj):
        for point, plugin_set in plugin_sets(profile):
            enabled = plugin_set.sequence("enabled")
            for item in named(plugin_set, "enabled", names):
                assert enabled is not None and isinstance(item.value, Mapping)
                name = str(item.value.data("name"))
                ctx.warn(code, f"plugin {name} dropped from {point}.enabled: {names[name]}", item.value.get("name"))
                remove_item(enabled, item)
                ctx.note(f"plugins.{point}: {name} removed")
            prune(profile, point)
        seq = profile.sequence("pluginConfig")
        for item in plugin_configs(profile, names):
            assert seq is not None and isinstance(item.value, Mapping)
            name = str(item.value.data("name"))
            ctx.warn(code, f"pluginConfig of {name} dropped: {names[name]}", item.value.get("name"))
            remove_item(seq, item)
            ctx.note(f"pluginConfig: {name} removed")
        if seq is not None and len(seq) == 0:
            profile.pop("pluginConfig")


def prune(profile: Mapping, point: str) -> None:
    """Remove an ``enabled`` list left empty, then the plugin set and ``plugins`` left empty."""
    plugins = profile.mapping("plugins")
    plugin_set = plugins.mapping(point) if plugins is not None else None
    if plugins is None or plugin_set is None:
        return
    enabled = plugin_set.sequence("enabled")
    if enabled is not None and len(enabled) == 0:
        plugin_set.pop("enabled")
    if not plugin_set.entries:
        plugins.pop(point)
    if not plugins.entries:
        profile.pop("plugins")


def bump_args_api(obj: Mapping, old: str, new: str, ctx: Context) -> None:
    """Typed plugin args may repeat the config's ``apiVersion``; they follow it to the new version."""
    for profile in profiles(obj):
        for _i, config in (profile.sequence("pluginConfig") or Sequence()).mappings():
            args = config.mapping("args")
            api = args.scalar("apiVersion") if args is not None else None
            if isinstance(api, Scalar) and api.data == old:
                api.set(new)
                ctx.note(f"pluginConfig {config.data('name')}: args apiVersion → {new}")
