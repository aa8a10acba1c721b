"""Traefik 3: ``syntax: v2`` pinned on routes whose rule only the v2 parser reads as written.

Traefik 3 parses ``routes[].match`` of IngressRoute and IngressRouteTCP with its new matcher syntax unless
the route (``routes[].syntax``, new in v3.0) or the static configuration (``core.defaultRuleSyntax``) says
``v2``; "the v2 rule matchers syntax is deprecated and its support will be removed in the next major
version" (``docs/content/migration/v2-to-v3.md`` at v3.0.0, "Router Rule Matchers"). A v2 rule that the v3
parser reads differently or not at all:

- ``Headers``, ``HeadersRegexp`` (v3: ``Header``, ``HeaderRegexp``) and ``HostHeader`` (v3: ``Host``);
- a matcher given several values, such as ``Host(`a`, `b`)`` (v3 takes one and combines with ``||``);
- ``HostRegexp`` (v2: ``{name:regexp}`` placeholders; v3: a Go regular expression) and ``Query`` (v2:
  ``key=value``; v3: two arguments);
- ``Path``, ``PathPrefix`` or ``Host`` with a ``{…}`` placeholder (v3: ``PathRegexp``).

Such a route gets ``syntax: v2`` right after its ``match`` (K8SM-TRF-004: behaviour kept; the warning says
why and asks for a rewrite before the v2 syntax goes). A rule that means the same in both syntaxes is left
alone, as is a route that already says its syntax. ``--adopt-new-defaults`` reports instead of pinning.
"""

from __future__ import annotations

from k8smigrate.addons import traefik
from k8smigrate.model import Check

KINDS = ("IngressRoute", "IngressRouteTCP")

MIGRATION = Check(
    applies_to={"traefik.io/v1alpha1": KINDS, "traefik.containo.us/v1alpha1": KINDS},
    body=traefik.rule_syntax,
    matters_from="3.0",
    component="traefik",
    trigger="match",
    category="removed-field",
    edits=True,
    summary="Traefik 3 router rules: syntax: v2 pinned where the rule only parses as v2",
    codes=(traefik.RULE_SYNTAX,),
)
