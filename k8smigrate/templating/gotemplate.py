"""Go templates (Helm): the tags of a template, for masking, from ``golex``'s actions.

What masking needs to know of each action: whether it writes text where it stands, and
the indentation a trailing ``indent N``/``nindent N`` gives what it writes. ``define``
bodies are written elsewhere (where they are included), so they are hidden.
"""

from __future__ import annotations

from .golex import Action, ItemType, lex_actions
from .mask import Tag

_OPENERS = frozenset({ItemType.IF, ItemType.RANGE, ItemType.WITH, ItemType.DEFINE, ItemType.BLOCK})


def tags(
    text: str, newline_defines: frozenset[str] = frozenset()
) -> tuple[list[Tag], list[tuple[int, int]], list[Action]]:
    """The tags of ``text``, the spans of its ``define`` blocks, and the actions themselves.

    ``newline_defines``: the chart's defines whose output starts with a line break
    (``define_output``): ``include`` of one of them piped to ``indent N`` starts a new line.
    ``LexError`` when Go would not lex it.
    """
    actions = lex_actions(text)
    out = [
        Tag(a.start, a.end, a.writes, *_indent(a, newline_defines), role=_ROLES.get(a.keyword) if a.keyword else None)
        for a in actions
    ]
    return out, _defines(actions), actions


_ROLES = {
    ItemType.IF: "if",
    ItemType.WITH: "if",
    ItemType.RANGE: "if",
    ItemType.DEFINE: "open",
    ItemType.BLOCK: "open",
    ItemType.ELSE: "else",
    ItemType.END: "end",
}


def _indent(action: Action, newline_defines: frozenset[str]) -> tuple[int | None, bool]:
    """(N, newline) of a pipeline's last command ``indent N`` or ``nindent N``."""
    words = action.words
    if len(words) >= 2 and words[-1].typ is ItemType.NUMBER and words[-2].typ is ItemType.IDENTIFIER:
        name = words[-2].val
        if name in ("indent", "nindent") and words[-1].val.isdigit():
            return int(words[-1].val), name == "nindent" or _includes_newline_first(action, newline_defines)
    return None, False


def _includes_newline_first(action: Action, newline_defines: frozenset[str]) -> bool:
    """Whether the action is ``include "NAME" … | indent N`` (one pipe, nothing between) of a
    define whose output starts with a line break."""
    words = action.words
    if len(words) < 2 or words[0].typ is not ItemType.IDENTIFIER or words[0].val != "include":
        return False
    if words[1].typ is not ItemType.STRING or words[1].val[1:-1] not in newline_defines:
        return False
    depth, pipes = 0, 0
    for word in words:
        depth += 1 if word.typ is ItemType.LEFT_PAREN else -1 if word.typ is ItemType.RIGHT_PAREN else 0
        pipes += depth == 0 and word.typ is ItemType.PIPE
    return pipes == 1


def _defines(actions: list[Action]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    stack: list[tuple[ItemType, int]] = []
    for a in actions:
        keyword = a.keyword
        if keyword in _OPENERS:
            assert keyword is not None
            stack.append((keyword, a.start))
        elif keyword is ItemType.END and stack:
            opener, start = stack.pop()
            if opener is ItemType.DEFINE and not any(k is ItemType.DEFINE for k, _s in stack):
                spans.append((start, a.end))
    return spans
