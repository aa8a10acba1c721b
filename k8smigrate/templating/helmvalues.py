"""Resolving a Helm action to the chart's ``values.yaml`` default (see ``values``).

Only an action whose whole pipeline is a ``.Values`` path is resolved (``{{ .Values.a.b }}``,
``{{ $.Values.a.b }}``), or a variable that the file declares once as such a path
(``{{- $port := .Values.service.port -}}``), or a field of one (bitwardenrs'
``{{ $websockets.port }}`` after ``{{- $websockets := .Values.bitwardenrs.websockets }}``).
Anything with a function or a pipe (``| quote``, ``default 80 …``) changes the value and stays
unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .golex import Action, ItemType, LexError, lex_actions
from .values import ActionValue, lookup


def values_path(words: tuple[Any, ...], roots: frozenset[str] = frozenset({"$"})) -> list[str] | None:
    """``["a", "b"]`` for the words of ``.Values.a.b`` or ``$.Values.a.b``, else None.

    ``roots``: the variables that hold the top-level dot (``$``, and ``$dot`` after ``$dot := .``).
    """
    items = list(words)
    if items and items[0].typ is ItemType.VARIABLE and items[0].val in roots:
        items = items[1:]
    if not items or any(i.typ is not ItemType.FIELD for i in items) or items[0].val != ".Values":
        return None
    path = [i.val[1:] for i in items[1:]]
    return path or None


def declarations(actions: list[Action]) -> tuple[dict[str, list[str] | None], frozenset[str]]:
    """``$name`` → its ``.Values`` path, for variables declared as one (None when declared
    otherwise or twice); and the variables declared as the top-level dot (``$dot := .``)."""
    found: dict[str, list[str] | None] = {}
    roots = {"$"}
    for a in actions:
        w = a.words
        if len(w) >= 3 and w[0].typ is ItemType.VARIABLE and w[1].typ in (ItemType.DECLARE, ItemType.ASSIGN):
            name = w[0].val
            if len(w) == 3 and w[2].typ is ItemType.DOT and a.words[0].line == a.words[2].line:
                roots.add(name)
                continue
            path = values_path(w[2:])
            found[name] = path if name not in found else None
    return found, frozenset(roots)


def resolver(actions: list[Action], values: Any) -> Callable[[str], ActionValue]:
    """A resolver for the actions of one template, against the chart's parsed values."""
    declared, roots = declarations(actions)

    def resolve(action_text: str) -> ActionValue:
        try:
            words = lex_actions(action_text)[0].words
        except (LexError, IndexError):
            return ActionValue(action_text, False)
        path = values_path(words, roots)
        if path is None and words and words[0].typ is ItemType.VARIABLE:
            base = declared.get(words[0].val)
            if base is not None and all(w.typ is ItemType.FIELD for w in words[1:]):
                path = [*base, *(w.val[1:] for w in words[1:])]
        if path is None or values is None:
            return ActionValue(action_text, False)
        found, value = lookup(values, path)
        if not found or value is None:
            return ActionValue(action_text, False)
        return ActionValue(action_text, True, value, f"values.yaml: {'.'.join(path)}")

    return resolve
