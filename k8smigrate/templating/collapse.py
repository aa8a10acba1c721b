"""Replace an ``if`` block by one of its arms without changing what the template renders.

Once every release of the window takes one arm (or every arm prints the same thing), the
``if``/``else``/``end`` can go. Trim markers make that delicate: ``{{- if … }}`` trims the
whitespace before it and ``{{- else }}`` the end of the arm, so deleting the action lines is
only right when no trimming is lost. Each candidate replacement (the arm's own lines in place
of the block's lines, then the arm's text with the trims applied in place of the block) is
accepted only if the neighbourhood, from the action before the block to the action after
it, renders to the same text with every other action taken as an opaque token.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..dataclasscode import dataclass
from .gotmpl import SPACE, Action, Block, TemplateSyntaxError, lex

__all__ = ["arms_alike", "collapse_block"]

Token = tuple[str, str]


def _render(text: str, lead_trim: bool, tail_trim: bool) -> list[Token]:
    """Text chunks (trimmed as Go trims them) and actions of ``text``, in order.

    ``lead_trim``: the action before ``text`` ends with `` -}}``; ``tail_trim``: the action
    after it starts with ``{{- ``.
    """
    actions = lex(text)
    out: list[Token] = []
    pos = 0
    trim_next = lead_trim
    for action in [*actions, None]:
        end = len(text) if action is None else action.start
        chunk = text[pos:end]
        if trim_next:
            chunk = chunk.lstrip(SPACE)
        if (action.trim_left if action is not None else tail_trim) and chunk:
            chunk = chunk.rstrip(SPACE)
        if chunk:
            if out and out[-1][0] == "text":
                out[-1] = ("text", out[-1][1] + chunk)
            else:
                out.append(("text", chunk))
        if action is None:
            break
        if not action.comment:
            out.append(("action", text[action.inner_start : action.inner_end].strip(SPACE)))
        trim_next = action.trim_right
        pos = action.end
    return out


@dataclass(frozen=True)
class _Neighbourhood:
    """From the action before a block to the action after it."""

    lo: int
    hi: int
    lead_trim: bool
    tail_trim: bool
    silent_before: bool


def _neighbourhood(text: str, block: Block) -> _Neighbourhood:
    actions = lex(text)
    before = [a for a in actions if a.end <= block.start]
    after = [a for a in actions if a.start >= block.end]
    return _Neighbourhood(
        before[-1].end if before else 0,
        after[0].start if after else len(text),
        bool(before) and before[-1].trim_right,
        bool(after) and after[0].trim_left,
        not before or _prints_nothing(text, before[-1]),
    )


def _with_arm(
    text: str, block: Block, arm: int, edited: Callable[[int, int], str], near: _Neighbourhood
) -> list[Token]:
    """What the neighbourhood prints when the block takes arm ``arm``."""
    first = block.branches[0].action
    opener = block.branches[arm].action
    closer = block.branches[arm + 1].action if arm + 1 < len(block.branches) else block.end_action
    return _merge(
        _render(edited(near.lo, block.start), near.lead_trim, first.trim_left)
        + _render(edited(opener.end, closer.start), opener.trim_right, closer.trim_left)
        + _render(edited(block.end, near.hi), block.end_action.trim_right, near.tail_trim)
    )


def arms_alike(text: str, block: Block, edited: Callable[[int, int], str], loose_lines: bool = False) -> bool:
    """Whether every arm of ``block`` makes its neighbourhood print the same (see ``collapse_block``
    for ``loose_lines``); a block without a final ``else`` never is (no arm may be taken)."""
    if block.branches[-1].pipe is not None:
        return False
    near = _neighbourhood(text, block)
    renders = [_with_arm(text, block, i, edited, near) for i in range(len(block.branches))]
    if loose_lines:
        renders = [_loose(r, near.silent_before) for r in renders]
    return all(r == renders[0] for r in renders)


def collapse_block(
    text: str, block: Block, arm: int, edited: Callable[[int, int], str], loose_lines: bool = False
) -> tuple[int, int, str] | None:
    """An edit ``(start, end, replacement)`` of ``text`` putting arm ``arm`` in place of ``block``.

    ``edited(lo, hi)`` gives ``text[lo:hi]`` with the edits already planned inside it (arms
    already rewritten). With ``loose_lines`` (a block that stands on lines of its own between
    mapping keys), blank lines and the newlines that start the neighbourhood after an action
    that prints nothing may differ: YAML reads them the same. None when no candidate keeps
    the rendering.
    """
    near = _neighbourhood(text, block)
    old = _with_arm(text, block, arm, edited, near)
    opener = block.branches[arm].action
    closer = block.branches[arm + 1].action if arm + 1 < len(block.branches) else block.end_action
    for start, end, replacement in _candidates(text, block, opener, closer, edited):
        if start < near.lo or end > near.hi:
            continue
        try:
            new = _render(edited(near.lo, start) + replacement + edited(end, near.hi), near.lead_trim, near.tail_trim)
        except TemplateSyntaxError:
            continue
        new = _merge(new)
        if new == old or (loose_lines and _loose(new, near.silent_before) == _loose(old, near.silent_before)):
            return start, end, replacement
    return None


_CONTROL = ("if", "else", "end", "range", "with", "define", "block", "template")


def _prints_nothing(text: str, action: Action) -> bool:
    """A comment, a declaration or a control action: nothing it prints can end a line."""
    inner = text[action.inner_start : action.inner_end].strip(SPACE)
    word = inner.split(None, 1)[0] if inner else ""
    return action.comment or word in _CONTROL[:-1] or (inner.startswith("$") and ":=" in inner)


def _merge(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    for token in tokens:
        if token[0] == "text" and out and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + token[1])
        elif token != ("text", ""):
            out.append(token)
    return out


def _loose(tokens: list[Token], strip_start: bool) -> list[Token]:
    out: list[Token] = []
    for i, (kind, value) in enumerate(tokens):
        if kind == "text":
            value = re.sub(r"\n(?:[ \t]*\n)+", "\n", value)
            if i == 0 and strip_start:
                value = value.lstrip("\n")
        out.append((kind, value))
    return _merge(out)


def _candidates(
    text: str, block: Block, opener: Action, closer: Action, edited: Callable[[int, int], str]
) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    # the arm's lines in place of the block's lines
    line_start = text.rfind("\n", 0, block.start) + 1
    line_end = text.find("\n", block.end)
    alone_before = not text[line_start : block.start].strip(" \t")
    alone_after = line_end >= 0 and not text[block.end : line_end].strip(" \t\r")
    body_start = text.find("\n", opener.end)
    body_end = text.rfind("\n", 0, closer.start) + 1
    if (
        alone_before
        and alone_after
        and body_start >= 0
        and not text[opener.end : body_start].strip(" \t\r")
        and not text[body_end : closer.start].strip(" \t")
        and body_start < body_end
    ):
        out.append((line_start, line_end + 1, edited(body_start + 1, body_end)))
    # the arm's text with its trims applied, in place of the block and the space it trimmed
    body = edited(opener.end, closer.start)
    if opener.trim_right:
        body = body.lstrip(SPACE)
    if closer.trim_left:
        body = body.rstrip(SPACE)
    start, end = block.start, block.end
    if block.branches[0].action.trim_left:
        while start > 0 and text[start - 1] in SPACE:
            start -= 1
    if block.end_action.trim_right:
        while end < len(text) and text[end] in SPACE:
            end += 1
    out.append((start, end, body))
    out.append((block.start, block.end, body))
    return out
