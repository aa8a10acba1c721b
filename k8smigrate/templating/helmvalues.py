"""Resolving a Helm action to the chart's ``values.yaml`` default (see ``values``).

Only an action whose whole pipeline is a ``.Values`` path is resolved (``{{ .Values.a.b }}``,
``{{ $.Values.a.b }}``), or a variable that the file declares once as such a path
(``{{- $port := .Values.service.port -}}``), or a field of one (bitwardenrs'
``{{ $websockets.port }}`` after ``{{- $websockets := .Values.bitwardenrs.websockets }}``).
A variable declared once as anything below resolves as that; ``ternary A B C`` resolves to
``A`` or ``B`` as ``C`` (a path) reads with the chart's values (argo-cd's ``$servicePort``).
A ``default`` over such a path (elastic's ``{{ .servicePort | default $httpPort }}``, ``{{
default 80 .Values.port }}``) is resolved as Sprig's ``default`` renders it with the chart's
values: the first operand when values.yaml gives it a non-empty value, else the fallback (a
path, a variable or a literal). A first operand that is a field of a ``range``/``with`` item
(``.servicePort``) counts as unset when no mapping anywhere in values.yaml has that key.
Anything else with a function or a pipe (``| quote``) changes the value and stays unknown.
"""

from __future__ import annotations

from collections.abc import Callable

from ..runtime_typing import Any
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


def declarations(
    actions: list[Action],
) -> tuple[dict[str, list[str] | None], dict[str, tuple[Any, ...] | None], frozenset[str]]:
    """``$name`` → its ``.Values`` path, for variables declared as one (None when declared
    otherwise or twice); ``$name`` → the words it is declared as (None when declared twice);
    and the variables declared as the top-level dot (``$dot := .``)."""
    found: dict[str, list[str] | None] = {}
    words: dict[str, tuple[Any, ...] | None] = {}
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
            words[name] = tuple(w[2:]) if name not in words else None
    return found, words, frozenset(roots)


def resolver(actions: list[Action], values: Any) -> Callable[[str], ActionValue]:
    """A resolver for the actions of one template, against the chart's parsed values."""
    declared, declared_words, roots = declarations(actions)

    def path_of(words: tuple[Any, ...]) -> list[str] | None:
        path = values_path(words, roots)
        if path is None and words and words[0].typ is ItemType.VARIABLE:
            base = declared.get(words[0].val)
            if base is not None and all(w.typ is ItemType.FIELD for w in words[1:]):
                path = [*base, *(w.val[1:] for w in words[1:])]
        return path

    def value_of(words: tuple[Any, ...], depth: int = 0) -> tuple[bool, Any, str]:
        """(known, value, source) of an action's words with the chart's values."""
        state, value, source = _value_of(list(words), path_of, values)
        if state == "known":
            return True, value, source
        if len(words) == 1 and words[0].typ is ItemType.VARIABLE and depth < 4:
            declared_as = declared_words.get(words[0].val)  # ``$servicePort := ternary …``
            return value_of(declared_as, depth + 1) if declared_as else _NOT_KNOWN
        picked = _ternary_operands(words)
        if picked is not None:  # argo-cd: ``ternary .Values.httpsPort .Values.httpPort .Values.https``
            when_true, when_false, condition = picked
            state, test, _source = _value_of(condition, path_of, values)
            if state == "unknown":
                return _NOT_KNOWN
            return value_of(tuple(when_false if state == "unset" or _empty(test) else when_true), depth + 1)
        operands = _default_operands(words)
        if operands is None:
            return _NOT_KNOWN
        given, fallback = operands
        state, value, source = _value_of(given, path_of, values)
        if state == "unknown":
            return _NOT_KNOWN
        if state == "known" and not _empty(value):
            return True, value, source
        state, value, source = _value_of(fallback, path_of, values)
        if state != "known":
            return _NOT_KNOWN
        unset = f"{_text(given)} is unset"
        return True, value, f"{source}, as {unset}" if source else unset

    def resolve(action_text: str) -> ActionValue:
        try:
            words = lex_actions(action_text)[0].words
        except (LexError, IndexError):
            return ActionValue(action_text, False)
        if values is None:
            return ActionValue(action_text, False)
        known, value, source = value_of(words)
        return ActionValue(action_text, True, value, source) if known else ActionValue(action_text, False)

    return resolve


_NOT_KNOWN: tuple[bool, Any, str] = (False, None, "")


def _ternary_operands(words: tuple[Any, ...]) -> tuple[list[Any], list[Any], list[Any]] | None:
    """(if true, if false, condition) of ``ternary A B C``, each one operand; else None."""
    items = list(words)
    if not items or items[0].typ is not ItemType.IDENTIFIER or items[0].val != "ternary":
        return None
    if any(w.typ is ItemType.PIPE for w in items):
        return None
    rest = _operands(items[1:])
    return (rest[0], rest[1], rest[2]) if len(rest) == 3 else None


def _default_operands(words: tuple[Any, ...]) -> tuple[list[Any], list[Any]] | None:
    """(given, fallback) of ``given | default fallback`` or ``default fallback given``, each
    one operand; else None."""
    items = list(words)
    pipes = [i for i, w in enumerate(items) if w.typ is ItemType.PIPE]
    if len(pipes) == 1:
        given, call = items[: pipes[0]], items[pipes[0] + 1 :]
        if call and call[0].typ is ItemType.IDENTIFIER and call[0].val == "default":
            rest = _operands(call[1:])
            if len(rest) == 1 and _operands(given) == [given]:
                return given, rest[0]
        return None
    if not pipes and items and items[0].typ is ItemType.IDENTIFIER and items[0].val == "default":
        rest = _operands(items[1:])
        if len(rest) == 2:
            return rest[1], rest[0]
    return None


def _operands(items: list[Any]) -> list[list[Any]]:
    """Items grouped into operands: a field chain goes on while its fields touch."""
    out: list[list[Any]] = []
    for item in items:
        if out and item.typ is ItemType.FIELD:
            last = out[-1][-1]
            if last.typ in (ItemType.FIELD, ItemType.VARIABLE) and last.pos + len(last.val) == item.pos:
                out[-1].append(item)
                continue
        out.append([item])
    return out


def _value_of(
    operand: list[Any], path_of: Callable[[tuple[Any, ...]], list[str] | None], values: Any
) -> tuple[str, Any, str]:
    """(state, value, source) of one operand with the chart's values: ``known``, ``unset``
    (values.yaml does not set it) or ``unknown`` (it cannot be told)."""
    if len(operand) == 1 and operand[0].typ is ItemType.NUMBER:
        text = operand[0].val
        return ("known", int(text), "") if text.isdigit() else ("unknown", None, "")
    if len(operand) == 1 and operand[0].typ is ItemType.STRING:
        return "known", operand[0].val[1:-1], ""
    path = path_of(tuple(operand))
    if path is not None:
        found, value = lookup(values, path)
        return (
            ("known", value, f"values.yaml: {'.'.join(path)}") if found and value is not None else ("unset", None, "")
        )
    if len(operand) == 1 and operand[0].typ is ItemType.FIELD:
        # a field of a range or with item: unset where no mapping of values.yaml has the key
        return ("unknown", None, "") if _has_key(values, operand[0].val[1:]) else ("unset", None, "")
    return "unknown", None, ""


def _has_key(node: Any, key: str) -> bool:
    if isinstance(node, dict):
        return key in node or any(_has_key(v, key) for v in node.values())
    if isinstance(node, list):
        return any(_has_key(v, key) for v in node)
    return False


def _empty(value: Any) -> bool:
    """Sprig's ``empty``: what ``default`` replaces."""
    return value is None or value is False or value == 0 or (isinstance(value, (str, list, dict)) and not value)


def _text(operand: list[Any]) -> str:
    return "".join(w.val for w in operand)
