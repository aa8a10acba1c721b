"""prometheus-operator AlertmanagerConfig ``monitoring.coreos.com/v1alpha1`` → ``v1beta1``.

v1alpha1 is the hub of the operator's conversion webhook; this follows its converter,
prometheus-operator/prometheus-operator ``pkg/apis/monitoring/v1beta1/conversion_from.go`` ·
``(*AlertmanagerConfig).ConvertFrom`` (commit 6adcebc5) and the CHANGELOG of 0.57.0:

- ``spec.muteTimeIntervals`` → ``spec.timeIntervals`` (same items; ``convertTimeIntervalsFrom``);
- every matcher (``spec.route.matchers``, the nested ``spec.route.routes[]`` at any depth,
  ``spec.inhibitRules[].sourceMatch``/``targetMatch``): ``regex`` is gone; a matcher without
  ``matchType`` gets ``=~`` when ``regex`` was true (``convertMatchersFrom``: a ``matchType`` wins, an
  absent one means ``=``);
- the Secret key selectors of the receivers that v1beta1 retyped lose ``optional`` and need both
  ``name`` and ``key`` (``convertSecretKeySelectorFrom``);
- ``opsgenieConfigs[].updateAlerts`` has no v1beta1 field: the converter drops it.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.tree import Entry, Mapping, Scalar, Sequence, resolve

from .edits import rename, text

MATCHER_REGEX = Code("K8SM-AMC-001", "info", "a matcher's regex → matchType")
OPTIONAL_DROPPED = Code("K8SM-AMC-002", "warning", "a Secret key selector's optional removed")
LOSSY = Code("K8SM-AMC-003", "warning", "a field v1beta1 does not have, dropped as the converter does")
BOTH = Code("K8SM-AMC-004", "error", "muteTimeIntervals beside timeIntervals")
SELECTOR_INCOMPLETE = Code("K8SM-AMC-005", "error", "a Secret key selector without name or key")
MATCH_CONFLICT = Code("K8SM-AMC-006", "warning", "regex and a matchType that disagree (matchType wins)")

SECRET_SELECTORS: dict[str, tuple[str, ...]] = {
    "emailConfigs": ("authPassword", "authSecret"),
    "opsgenieConfigs": ("apiKey",),
    "pagerdutyConfigs": ("routingKey", "serviceKey"),
    "pushoverConfigs": ("token", "userKey"),
    "slackConfigs": ("apiURL",),
    "telegramConfigs": ("botToken",),
    "victoropsConfigs": ("apiKey",),
    "wechatConfigs": ("apiSecret",),
    "webhookConfigs": ("urlSecret",),
}
"""The receiver fields v1beta1 types as its own ``SecretKeySelector`` (``convertSecretKeySelectorFrom``
callers); Discord, MS Teams and Rocket.Chat kept ``corev1.SecretKeySelector`` and keep ``optional``."""


def alertmanager_config_v1beta1(obj: Mapping, ctx: Context) -> None:
    spec = obj.mapping("spec")
    if spec is None:
        return
    rename(spec, "muteTimeIntervals", "timeIntervals", ctx, BOTH.code, "spec.")
    route = spec.mapping("route")
    if route is not None:
        _route(route, ctx, "spec.route")
    for rule in mappings_at(spec, "inhibitRules"):
        for key in ("sourceMatch", "targetMatch"):
            _matchers(rule.get(key), ctx, f"spec.inhibitRules[].{key}")
    for receiver in mappings_at(spec, "receivers"):
        _receiver(receiver, ctx)


def _route(route: Mapping, ctx: Context, where: str) -> None:
    """``convertRouteFrom``: the route's matchers, then its child routes, recursively."""
    _matchers(route.get("matchers"), ctx, f"{where}.matchers")
    routes = route.get("routes")
    routes = resolve(routes) if routes is not None else None
    if isinstance(routes, Sequence):
        for _i, child in routes.mappings():
            _route(child, ctx, f"{where}.routes[]")


def _matchers(node: object, ctx: Context, where: str) -> None:
    matchers = resolve(node) if node is not None else None  # type: ignore[arg-type]
    if not isinstance(matchers, Sequence):
        return
    for _i, matcher in matchers.mappings():
        if "regex" not in matcher:
            continue
        regex = matcher.data("regex") is True
        match_type = text(matcher.get("matchType"))
        at = matcher.index("regex")
        regex_entry = matcher.pop("regex")
        if match_type:
            if regex != (match_type in ("=~", "!~")):
                ctx.warn(
                    "K8SM-AMC-006",
                    f"{where}: regex {str(regex).lower()} and matchType {match_type!r} disagree; "
                    f"matchType wins (as in v1alpha1)",
                    matcher,
                )
            ctx.note(f"{where}[].regex removed (matchType set)")
            continue
        if regex:
            assert regex_entry is not None
            match = Entry(
                Scalar("matchType"),
                Scalar.of("=~", style='"'),
                head_comments=regex_entry.head_comments,
                eol_comment=regex_entry.eol_comment,
            )
            matcher.insert(match, at=at)
            ctx.note(f'{where}[].regex: true → matchType: "=~"')
            ctx.info("K8SM-AMC-001", f'{where}: regex: true → matchType: "=~"', matcher)
        else:
            ctx.note(f"{where}[].regex: false removed (= is the default)")


def _receiver(receiver: Mapping, ctx: Context) -> None:
    name = text(receiver.get("name")) or "?"
    for configs, fields in SECRET_SELECTORS.items():
        for config in mappings_at(receiver, configs):
            for field in fields:
                _secret_selector(config.get(field), ctx, f"receiver {name} {configs}[].{field}")
            if configs == "opsgenieConfigs" and "updateAlerts" in config:
                node = config.get("updateAlerts")
                config.pop("updateAlerts")
                ctx.note(f"receiver {name} opsgenieConfigs[].updateAlerts removed")
                ctx.warn(
                    "K8SM-AMC-003",
                    f"receiver {name} opsgenieConfigs[].updateAlerts removed: v1beta1 has no such field and the "
                    "operator's converter drops it; keep the object on v1alpha1 if you need it",
                    node if node is not None and node.line else config,
                )
    for configs in [e.name for e in receiver.entries if e.name.endswith("Configs")]:
        for config in mappings_at(receiver, configs):
            for http in mappings_at(config, "httpConfig"):
                _secret_selector(
                    http.get("bearerTokenSecret"), ctx, f"receiver {name} {configs}[].httpConfig.bearerTokenSecret"
                )


def _secret_selector(node: object, ctx: Context, where: str) -> None:
    selector = resolve(node) if node is not None else None  # type: ignore[arg-type]
    if not isinstance(selector, Mapping):
        return
    if "optional" in selector:
        optional = selector.data("optional") is True
        selector.pop("optional")
        ctx.note(f"{where}.optional removed")
        if optional:
            ctx.warn(
                "K8SM-AMC-002",
                f"{where}.optional: true removed: v1beta1 requires the Secret key (the converter drops optional)",
                selector,
            )
    for key in ("name", "key"):
        if not text(selector.get(key)):
            ctx.error("K8SM-AMC-005", f"{where} needs a {key} in v1beta1", selector)
