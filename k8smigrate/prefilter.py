"""The raw-text pre-filter: could any enabled migration need this document's tree?

Most documents of a real repository need nothing. Before any round-trip parse, the text of
each document is searched for the ``apiVersion`` values that an enabled step accepts, and
for a check's ``trigger`` next to an ``apiVersion`` that check applies to. Only the
documents that pass are parsed into trees (``yamlio.read_stream(text, wanted=…)``); the
others are copied through untouched. The search also answers for a whole stream (true when
one of its documents would be wanted), which lets ``scan`` skip files in one look.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from .facts import Collector
from .model import ANY, Check, Migration, Trigger, holds
from .plan import window_of
from .registry import Registry
from .settings import Settings
from .versions import Window

# No optional quote before the key: a pattern that starts with a literal is searched for with
# a fast scan of the text (about 15x faster per file), and the captured values are the same.
_RAW_API = re.compile(r"""apiVersion["']?[ \t]*:[ \t]*["']?([\w./-]+)""")
_RAW_KIND = re.compile(r"""kind["']?[ \t]*:[ \t]*["']?(\w+)""")


def raw_api_versions(piece: str) -> list[str]:
    """Every apiVersion value a document's text names, at any depth, in YAML or JSON."""
    return _RAW_API.findall(piece)


def raw_kinds(piece: str) -> list[str]:
    """Every kind value a document's text names, at any depth."""
    return _RAW_KIND.findall(piece)


def wanted_by(registry: Registry, enabled: Callable[[Migration], bool]) -> Callable[[str], bool]:
    """A predicate over a document's raw text: could any enabled migration need its tree?

    True when the text names an apiVersion some enabled step accepts, or an apiVersion of an
    enabled check together with that check's ``trigger`` (a check without one wants every
    document of its apiVersions; a check for every object wants every document that holds
    its trigger, and every document when it has none).
    """
    apis = {s.from_api for s in registry.steps if enabled(s)}
    anywhere: set[Trigger] = set()  # triggers of checks for every apiVersion
    by_api: dict[str, set[Trigger]] = {}
    for check in registry.checks:
        if not enabled(check):
            continue
        everywhere = ANY in check.applies_to
        if not check.triggers:
            if everywhere:
                return lambda _piece: True  # a check of every object that looks at every document
            apis.update(check.applies_to)
            continue
        if everywhere:
            anywhere.update(check.triggers)
        for api in check.applies_to:
            if api != ANY:
                by_api.setdefault(api, set()).update(check.triggers)
    ordered = {api: _cheap_first(ts) for api, ts in by_api.items() if api not in apis}
    everywhere_first = _cheap_first(anywhere)

    def wanted(piece: str) -> bool:
        if holds(piece, everywhere_first):
            return True
        # a set: a stream names apps/v1 a hundred times
        found = set(raw_api_versions(piece))
        return any(api in apis or (api in ordered and holds(piece, ordered[api])) for api in found)

    return wanted


def _cheap_first(triggers: Iterable[Trigger]) -> tuple[Trigger, ...]:
    """Substrings before patterns: they are the cheap test."""
    return tuple(sorted(triggers, key=lambda t: (not isinstance(t, str), str(t))))


def runs_in(settings: Settings, window: Window) -> Callable[[Migration], bool]:
    """Whether a migration is enabled by the settings and, for a check, matters at the target."""

    def enabled(m: Migration) -> bool:
        if not settings.enabled(m.name, m.opt_in):
            return False
        return (
            not isinstance(m, Check)
            or m.matters is None
            or m.matters <= window_of(m.component, settings, window).target
        )

    return enabled


_WANTED: dict[tuple[object, ...], tuple[Registry, Callable[[str], bool]]] = {}
"""Keyed by ``id(registry)`` (and the component releases); the entry holds the registry, so that no other
registry can get its id."""


def prefilter(registry: Registry, settings: Settings, window: Window) -> Callable[[str], bool]:
    """The pre-filter for these settings (built once: a run asks for it per file)."""
    key = (id(registry), settings.only, settings.skip, window, tuple(sorted(settings.components.items())))
    if key not in _WANTED:
        if len(_WANTED) > 16:
            _WANTED.clear()
        _WANTED[key] = (registry, wanted_by(registry, runs_in(settings, window)))
    return _WANTED[key][1]


_COLLECTORS: dict[tuple[int, tuple[str, ...], tuple[str, ...], Window], tuple[Registry, list[Collector[Any]]]] = {}
"""Keyed like ``_WANTED``, holding the registry for the same reason."""


def collectors_for(settings: Settings, registry: Registry) -> list[Collector[Any]]:
    """The fact collectors of the checks these settings run (a run gathers them first; built once)."""
    window = settings.window
    key = (id(registry), settings.only, settings.skip, window)
    if key not in _COLLECTORS:
        if len(_COLLECTORS) > 16:
            _COLLECTORS.clear()
        _COLLECTORS[key] = (registry, registry.collectors(runs_in(settings, window)))
    return _COLLECTORS[key][1]
