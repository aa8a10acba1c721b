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
from collections.abc import Callable
from functools import lru_cache

from .facts import Collector
from .lazyre import lazy
from .model import ANY, Check, Migration
from .plan import window_of
from .regexcode import regex
from .registry import Registry
from .runtime_typing import Any
from .settings import Settings
from .textsearch import matches_from, pair_in
from .triggers import Trigger, Triggers
from .versions import Window

# No optional quote before the key: a pattern that starts with a literal is searched for with
# a fast scan of the text (about 15x faster per file), and the captured values are the same.
_RAW_API = regex(r"""apiVersion["']?[ \t]*:[ \t]*["']?([\w./-]+)""")
_RAW_KIND = regex(r"""kind["']?[ \t]*:[ \t]*["']?(\w+)""")
_ODD_VALUE = [
    (key, lazy(key + r"""["']?[ \t]*:[ \t]*(?:[&!*|>]|"[^"\n]*\\|(?P<end>(?:#[^\n]*)?\r?$))""", re.M))
    for key in ("apiVersion", "kind")
]
"""An apiVersion or kind with an anchor, tag, alias, block scalar or escape, or its value on the next line."""
_ESCAPED_KEY = lazy(r'"(?:[^"\\\n]|\\.)*\\.(?:[^"\\\n]|\\.)*"[ \t]*:')
"""A double-quoted key with an escape in it (``"api\\u0056ersion":``)."""
_EXPLICIT_KEY = lazy(r"""^[ \t-]*\?[ \t\r\n]|[{,][ \t]*\?[ \t]""", re.M)
"""An explicit key (``? apiVersion``)."""
_KEY_OR_ITEM = lazy(
    r"""(?:-[ \t]|-$|[^\s#'"{\[][^\n]*?:(?:[ \t]|$)"""
    r"""|"(?:[^"\\\n]|\\.)*"[ \t]*:(?:[ \t]|$)|'(?:[^'\n]|'')*'[ \t]*:(?:[ \t]|$))"""
)
"""A line that starts a mapping (``key:``, a quoted key being one whole string) or a sequence
(``- ``): no string value on it (``"v1beta1", "kind":`` is a value, then another key)."""


def raw_api_versions(piece: str) -> list[str]:
    """Every apiVersion value a document's text names, at any depth, in YAML or JSON."""
    return [m.group(1) for m in matches_from("apiVersion", _RAW_API, piece)]


def raw_kinds(piece: str) -> list[str]:
    """Every kind value a document's text names, at any depth."""
    return [m.group(1) for m in matches_from("kind", _RAW_KIND, piece)]


@lru_cache(maxsize=4)
def unsure(piece: str) -> bool:
    """Whether the text may spell an apiVersion or kind that the raw patterns cannot read.

    YAML allows a value on the next line, an anchor, a tag, an alias, a block scalar, escapes
    in double quotes (``"extensions\\/v1beta1"``, ``"api\\u0056ersion"``) and explicit keys.
    Such a document is parsed rather than skipped: the pre-filter may skip a document only
    when it is sure. The common spellings cost a regular-expression search or two. The last
    answers are kept: a scan asks it of each document twice (its API rows, then its checks).
    """
    if "\\" in piece and _ESCAPED_KEY.search(piece):
        return True
    if pair_in(piece, "?", " \n\t\r") and _EXPLICIT_KEY.search(piece):
        return True
    for key, pattern in _ODD_VALUE:
        for m in matches_from(key, pattern, piece):
            if m.group("end") is None or _scalar_below(piece, m.end()):
                return True
    return False


def _scalar_below(piece: str, pos: int) -> bool:
    """Whether the first content line after ``pos`` holds a scalar (not a ``key:`` or a ``- `` item)."""
    start = piece.find("\n", pos) + 1
    while 0 < start < len(piece):
        end = piece.find("\n", start)
        content = piece[start : end if end >= 0 else len(piece)].strip()
        if content and not content.startswith("#"):
            return not _KEY_OR_ITEM.match(content)
        start = end + 1
    return False


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
    by_api = {api: ts for api, ts in by_api.items() if api not in apis}
    of_any_api = Triggers(anywhere)
    of_apis: dict[frozenset[str], Triggers] = {}
    """The triggers of a set of apiVersions, each once: a stream of Deployments and Services
    would otherwise be searched twice for the thirty triggers their checks share."""

    def wanted(piece: str) -> bool:
        if of_any_api.found_in(piece):
            return True
        found = frozenset(raw_api_versions(piece))  # a set: a stream names apps/v1 a hundred times
        if not apis.isdisjoint(found):
            return True
        triggers = of_apis.get(found)
        if triggers is None:
            if len(of_apis) > 256:
                of_apis.clear()
            triggers = of_apis[found] = Triggers(t for api in found for t in by_api.get(api, ()))
        return triggers.found_in(piece) or unsure(piece)

    return wanted


_API_KEY = lazy(r"""apiVersion["']?[ \t]*:""")
_KIND_KEY = lazy(r"""kind["']?[ \t]*:""")


def may_need(piece: str, registry: Registry, settings: Settings, *, consequential: bool = False) -> bool:
    """A closer look than ``prefilter``'s, by apiVersion and kind: False only when every
    apiVersion and kind in the text is written out, no enabled step accepts such an object, and
    no enabled check of those kinds (or of every object) finds its trigger in it.

    ``consequential``: only checks that may edit the object or report an error count (a
    document a template hides from the skeleton is an error only where reading it could
    change it or hold it back; a Service's deprecated ``loadBalancerIP`` is only an info).

    The pre-filter goes by apiVersion alone (a NetworkPolicy is wanted because a check reads
    Ingresses of the same networking.k8s.io/v1); this costs a pass over the migrations, for the
    documents whose answer matters more than the time (a template that cannot be read).
    Conservative: a value written by an action, or spelled so that the raw patterns cannot read
    it, may need something.
    """
    written_apis, written_kinds = raw_api_versions(piece), raw_kinds(piece)
    if not written_apis or not written_kinds or unsure(piece):
        return True
    if len(_API_KEY.findall(piece)) != len(written_apis) or len(_KIND_KEY.findall(piece)) != len(written_kinds):
        return True  # an apiVersion or kind that an action writes
    apis, kinds = set(written_apis), set(written_kinds)
    enabled = runs_in(settings, settings.window)
    for m in registry.migrations:
        if not enabled(m):
            continue
        if isinstance(m, Check):
            if consequential and not m.edits and all(code.level != "error" for code in m.codes):
                continue
            looked_at = ANY in m.applies_to or any(
                ANY in m.applies_to.get(api, ()) or kinds & set(m.applies_to.get(api, ())) for api in apis
            )
            if looked_at and m.triggered_by(piece):
                return True
        elif m.from_api in apis and kinds & set(m.kinds):
            return True
    return False


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


_LAST: list[tuple[Registry, Settings, Window, Callable[[str], bool]]] = []
"""``prefilter``'s last answer, for the same objects: a run asks with one registry, settings and
window for every file (building and hashing the key of ``_WANTED`` cost as much as the look)."""


def prefilter(registry: Registry, settings: Settings, window: Window) -> Callable[[str], bool]:
    """The pre-filter for these settings (built once: a run asks for it per file)."""
    if _LAST and _LAST[0][0] is registry and _LAST[0][1] is settings and _LAST[0][2] is window:
        return _LAST[0][3]
    key = (id(registry), settings.only, settings.skip, window, tuple(sorted(settings.components.items())))
    if key not in _WANTED:
        if len(_WANTED) > 16:
            _WANTED.clear()
        _WANTED[key] = (registry, wanted_by(registry, runs_in(settings, window)))
    wanted = _WANTED[key][1]
    _LAST[:] = [(registry, settings, window, wanted)]
    return wanted


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
