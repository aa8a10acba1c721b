"""Traefik 3: the dynamic configuration its CRDs carry, changed or ignored since v2.

Sources (traefik/traefik): ``docs/content/migration/v2-to-v3.md`` at v3.0.0 ("IPWhiteList",
"Deprecated Options Removal", "TCP LoadBalancer terminationDelay option", "Router Rule Matchers",
"Content-Type Auto-Detection"), and what the code does with the old options at v3.0.0 and HEAD
(fd5a576d):

- ``ipWhiteList`` (Middleware, MiddlewareTCP) was renamed ``ipAllowList`` "without changing anything
  to the configuration" (``pkg/config/dynamic/middlewares.go`` · ``IPWhiteList``/``IPAllowList``); v3
  still honours the old name, deprecated.
- Headers ``sslRedirect``, ``sslTemporaryRedirect``, ``sslHost``, ``sslForceHost`` and ``featurePolicy``
  are accepted but read nowhere in v3 (``Headers.HasSecureHeadersDefined`` only): the redirects they
  did in v2 (``pkg/middlewares/headers/secure.go`` at v2.11.0) silently stop.
- StripPrefix ``forceSlash``, ContentType ``autoDetect``, TLSOption ``preferServerCipherSuites``,
  ForwardAuth ``tls.caOptional`` and IngressRouteTCP ``services[].terminationDelay`` still parse and
  are deprecated (``pkg/middlewares/stripprefix/strip_prefix.go``, ``pkg/middlewares/contenttype/
  content_type.go``, ``pkg/tls/tlsmanager.go``, ``pkg/provider/kubernetes/crd/kubernetes_tcp.go``).
- Router rules: v3 parses ``routes[].match`` with the v3 matcher syntax unless the route says
  ``syntax: v2`` (``routes[].syntax`` of IngressRoute and IngressRouteTCP, new in v3.0).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.tree import Mapping, Scalar

from ..regexcode import regex
from .edits import rename, text

IP_ALLOW_LIST = Code("K8SM-TRF-001", "info", "ipWhiteList → ipAllowList")
IGNORED_OPTION = Code("K8SM-TRF-002", "warning", "a Headers option Traefik 3 ignores (its redirect stops)")
DEPRECATED_OPTION = Code("K8SM-TRF-003", "info", "an option Traefik 3 still honours but deprecated")
RULE_SYNTAX = Code("K8SM-TRF-004", "warning", "a v2 rule pinned with syntax: v2")
BOTH = Code("K8SM-TRF-005", "error", "ipWhiteList beside ipAllowList")

_IGNORED_HEADERS = {
    "sslRedirect": "redirect with a RedirectScheme middleware (scheme: https) or the entry point's redirection",
    "sslTemporaryRedirect": "use a RedirectScheme middleware with permanent: false",
    "sslHost": "redirect to another host with a RedirectRegex middleware",
    "sslForceHost": "redirect to another host with a RedirectRegex middleware",
    "featurePolicy": "write a permissionsPolicy (another header syntax) instead",
}


def middleware_v3(obj: Mapping, ctx: Context) -> None:
    """The Middleware / MiddlewareTCP options Traefik 3 renamed, ignores or deprecates."""
    spec = obj.mapping("spec")
    if spec is None:
        return
    if rename(spec, "ipWhiteList", "ipAllowList", ctx, BOTH.code, "spec."):
        ctx.info("K8SM-TRF-001", "spec.ipWhiteList → spec.ipAllowList (renamed in Traefik 3, same fields)", spec)
    for headers in mappings_at(spec, "headers"):
        for key, instead in _IGNORED_HEADERS.items():
            if key in headers and headers.data(key) not in (None, False, ""):
                ctx.warn(
                    "K8SM-TRF-002",
                    f"spec.headers.{key} is ignored by Traefik 3 (removed option): {instead}",
                    headers.get(key),
                )
    for strip in mappings_at(spec, "stripPrefix"):
        if "forceSlash" in strip:
            ctx.info("K8SM-TRF-003", "spec.stripPrefix.forceSlash is deprecated in Traefik 3", strip.get("forceSlash"))
    for content in mappings_at(spec, "contentType"):
        if "autoDetect" in content:
            ctx.info(
                "K8SM-TRF-003",
                "spec.contentType.autoDetect is deprecated in Traefik 3, where Content-Type is detected only "
                "for routers that use a ContentType middleware (autoDetect: false makes this one do nothing)",
                content.get("autoDetect"),
            )
    for tls in mappings_at(spec, "forwardAuth", "tls"):
        if "caOptional" in tls:
            ctx.info("K8SM-TRF-003", "spec.forwardAuth.tls.caOptional was removed in Traefik 3", tls.get("caOptional"))


def tls_option_v3(obj: Mapping, ctx: Context) -> None:
    spec = obj.mapping("spec")
    if spec is not None and "preferServerCipherSuites" in spec:
        ctx.info(
            "K8SM-TRF-003",
            "spec.preferServerCipherSuites has no effect in Traefik 3 (Go ignores it); it can go",
            spec.get("preferServerCipherSuites"),
        )


def ingress_route_tcp_v3(obj: Mapping, ctx: Context) -> None:
    for service in mappings_at(obj, "spec", "routes", "services"):
        if "terminationDelay" in service:
            ctx.info(
                "K8SM-TRF-003",
                "services[].terminationDelay is deprecated in Traefik 3: set terminationDelay on a "
                "ServersTransportTCP and name it in services[].serversTransport",
                service.get("terminationDelay"),
            )


# ------------------------------------------------------------------ rule syntax

_CALL = regex(r"([A-Za-z]+)\s*\(")
_V2_ONLY = {"Headers": "Header", "HeadersRegexp": "HeaderRegexp", "HostHeader": "Host"}
_TWO_ARGS = frozenset({"Header", "HeaderRegexp", "QueryRegexp"})


def matchers(rule: str) -> list[tuple[str, list[str]]] | None:
    """``[(name, [arguments])]`` of a rule, or None when it does not parse as matcher calls."""
    out: list[tuple[str, list[str]]] = []
    pos = 0
    while (m := _CALL.search(rule, pos)) is not None:
        args: list[str] = []
        i = m.end()
        while True:
            while i < len(rule) and rule[i] in " \t,":
                i += 1
            if i >= len(rule):
                return None
            if rule[i] == ")":
                i += 1
                break
            quote = rule[i]
            if quote not in "`\"'":
                return None
            end = rule.find(quote, i + 1)
            if end < 0:
                return None
            args.append(rule[i + 1 : end])
            i = end + 1
        out.append((m.group(1), args))
        pos = i
    return out


def v2_only(rule: str) -> list[str]:
    """Why ``rule`` means something else (or nothing) to the v3 parser; empty when it does not."""
    calls = matchers(rule)
    if calls is None:
        return ["the rule does not parse as matcher calls"]
    why: list[str] = []
    for name, args in calls:
        if name in _V2_ONLY:
            why.append(f"{name} is {_V2_ONLY[name]} in v3")
        elif name == "HostRegexp" or name == "Query":
            why.append(
                f"{name} takes v2 arguments ({'{name:regexp} placeholders' if name == 'HostRegexp' else 'key=value'})"
            )
        elif len(args) > 1 and name not in _TWO_ARGS:
            why.append(f"{name} with {len(args)} values (v3 takes one; combine with ||)")
        elif name in ("Path", "PathPrefix", "Host") and any("{" in a for a in args):
            why.append(f"{name} with a {{…}} placeholder (v3 uses PathRegexp/HostRegexp)")
    return list(dict.fromkeys(why))


def rule_syntax(obj: Mapping, ctx: Context) -> None:
    """Pin ``syntax: v2`` on the routes whose rule only the v2 parser reads as written.

    Traefik 3 reads every rule with the v3 syntax unless the route (or the static configuration,
    ``core.defaultRuleSyntax``) says v2; a v2-only rule then fails to parse or matches
    differently. Pinning keeps behaviour; the warning says what to rewrite before v2 syntax goes.
    """
    for route in mappings_at(obj, "spec", "routes"):
        rule = text(route.get("match"))
        if rule is None or "syntax" in route:
            continue
        why = v2_only(rule)
        if not why:
            continue
        if ctx.adopt_new_defaults:
            ctx.warn("K8SM-TRF-004", f"rule {rule!r} needs the v2 syntax ({'; '.join(why)}); rewrite it for v3", route)
            continue
        route.set("syntax", Scalar.of("v2"), after="match")
        ctx.note("routes[].syntax: v2 pinned")
        ctx.warn(
            "K8SM-TRF-004",
            f"syntax: v2 pinned: Traefik 3 reads rules with the v3 syntax and {rule!r} is v2 ({'; '.join(why)}); "
            "rewrite it (docs/content/migration/v2-to-v3.md) and drop the pin before v2 syntax is removed",
            route.get("syntax"),
        )
