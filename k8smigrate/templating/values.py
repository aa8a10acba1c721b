"""What a template action stands for, when a migration must know its value.

A migration sometimes needs the value behind an action: an Ingress ``servicePort`` is a port
number or a port name, and ``servicePort: {{ .Values.service.port }}`` says neither. The
templating layer puts a ``Scope`` in place while the engine migrates a skeleton; a body asks
``action_value(scalar_text)``. An action that is a plain ``.Values`` path (``.Values.a.b``,
``$.Values.a.b``, or a variable declared once in the file as one, ``$port := .Values.a.b``)
is resolved from the chart's own ``values.yaml`` default; any other action is unknown, and
the body asks the user through a named decision instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field

from ..dataclasscode import dataclass
from ..lazyre import lazy
from ..runtime_typing import TYPE_CHECKING, Any
from . import placeholders as ph

if TYPE_CHECKING:
    from ..tree import Entry


@dataclass(frozen=True)
class ActionValue:
    """The value behind an action: ``known`` with ``value`` from values.yaml, or unknown."""

    action: str
    known: bool
    value: Any = None
    source: str = ""
    """Where the value comes from (``values.yaml: service.port``), for messages."""


@dataclass
class Scope:
    """The actions of the template being migrated, and how to resolve one of them."""

    actions: dict[int, str] = field(default_factory=dict)
    """Region number → the action's text (regions that are one whole action)."""
    resolve: Callable[[str], ActionValue] | None = None
    selector_first: frozenset[int] = frozenset()
    """Documents (by index) whose added selector must go before the pod template: after it,
    it would follow a tag that trims the line break (``{{- end -}}`` ending the template)."""


_SCOPE: ContextVar[Scope | None] = ContextVar("k8smigrate_template_scope", default=None)


@contextmanager
def scope(current: Scope) -> Iterator[None]:
    """Make ``current`` the scope of the migration run inside the ``with`` block."""
    token = _SCOPE.set(current)
    try:
        yield
    finally:
        _SCOPE.reset(token)


def action_value(text: str) -> ActionValue | None:
    """None when ``text`` holds no masked action; otherwise what the action stands for.

    Text that is more than one whole action (``{{ .a }}-{{ .b }}``) is unknown. Raw markers in
    a plain file (a string that only looks templated) are not actions here.
    """
    if ph.START not in text:
        return None
    current = _SCOPE.get()
    match = ph.CODE.fullmatch(text)
    if current is None or match is None:
        return ActionValue(text, False)
    action = current.actions.get(ph.index_of(match.group()))
    if action is None:
        return ActionValue(text, False)
    if current.resolve is None:
        return ActionValue(action, False)
    return current.resolve(action)


def selector_first(document: int) -> bool:
    """Whether the selector a migration adds to ``document`` must go before its pod template."""
    current = _SCOPE.get()
    return current is not None and document in current.selector_first


def lookup(values: Any, path: list[str]) -> tuple[bool, Any]:
    """(found, value) of a dotted path in parsed values."""
    node = values
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node


def rendered_text(text: str) -> tuple[str, tuple[str, ...]] | None:
    """``text`` with every masked action replaced by its ``values.yaml`` default, and where
    each came from; None when some action does not resolve to a string or an integer.

    For a field a check reads as text, such as ``image: "{{ .Values.image.repository }}:{{
    .Values.image.tag }}"``: the check then judges what the chart renders with its defaults.
    """
    current = _SCOPE.get()
    if current is None or current.resolve is None:
        return None
    sources: list[str] = []
    parts: list[str] = []
    at = 0
    for match in ph.CODE.finditer(text):
        action = current.actions.get(ph.index_of(match.group()))
        found = current.resolve(action) if action is not None else None
        value = found.value if found is not None and found.known else None
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            return None
        parts += [text[at : match.start()], str(value)]
        sources.append(found.source if found is not None else "")
        at = match.end()
    parts.append(text[at:])
    out = "".join(parts)
    return (out, tuple(sources)) if sources and ph.START not in out else None


_OPENER = lazy(r"^\{\{-?\s*(?:if|with)\b|^\{%[-+]?\s*if\b")
_BY_RELEASE = lazy(r"\.Capabilities\b|\bsemverCompare\b|\bKubeVersion\b")


def written_under(entry: Entry | None) -> str | None:
    """The ``if``/``with`` action on the line right above ``entry`` (comments aside), when a
    template writes the entry only under it (linkerd's ``{{- if not
    .Values.omitWebhookSideEffects }}`` above ``sideEffects: None``); None for any other entry,
    and always outside templates.

    A condition on the cluster (``.Capabilities``, ``semverCompare``) does not count: charts use
    it to write a field where the API has it, which is where the migrated object goes (cert-
    manager writes ``sideEffects`` under ``semverCompare ">=1.12-0"``). The line of actions is a
    head comment of the entry in the skeleton; its action is read back from the masking scope.
    """
    if entry is None:
        return None
    for comment in reversed(entry.head_comments):
        found = ph.CODE.search(comment)
        if found is None:
            continue  # a comment of the chart's own between the condition and the key
        action = action_value(found.group())
        text = action.action.strip() if action is not None else ""
        return text if _OPENER.search(text) and not _BY_RELEASE.search(text) else None
    return None
