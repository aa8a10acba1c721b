"""Jinja2 templates (Ansible, kubespray): the tags of a template, for masking.

Follows the default environment of ``jinja2/lexer.py`` (``Lexer.__init__``'s rules and
``tokeniter``): the earliest of ``{{``, ``{%`` and ``{#`` opens a tag, optionally followed by
``-`` or ``+`` (whitespace control); a comment ends at the first ``#}`` (``-#}``); a statement
ends at ``%}`` (``-%}``, ``+%}``) and an expression at ``}}`` (``-}}``) only where brackets are
balanced, and strings (``'…'``, ``"…"``, backslash escapes, newlines allowed) may hold either;
``{% raw %}`` … ``{% endraw %}`` is text. What a tag does where it stands comes from its first
word: ``{{ … }}``, ``include``, ``call``, ``filter`` and ``block`` write; ``if``/``for`` open
blocks with ``elif``/``else`` branches; ``macro`` and block ``set`` bodies are written
elsewhere, so they are hidden. Jinja's ``indent`` filter leaves the first line where it is,
so a writing tag's entry stays at its own column.
"""

from __future__ import annotations

import re

from ..regexcode import regex
from .golex import LexError
from .mask import Tag

_OPEN = regex(r"\{\{|\{%|\{#")
_STRING = regex(r"'([^'\\]*(?:\\.[^'\\]*)*)'|\"([^\"\\]*(?:\\.[^\"\\]*)*)\"", re.S)
_RAW_BEGIN = regex(r"\{%[-+]?\s*raw\s*(?:-%\}\s*|%\})")
_RAW_END = regex(r"\{%[-+]?\s*endraw\s*(?:-%\}\s*|[-+]?%\})")
_NAME = regex(r"\s*([A-Za-z_]\w*)")
_CLOSERS = {"(": ")", "[": "]", "{": "}"}

WRITES = frozenset({"include", "call", "filter", "block"})
ROLES = {
    "if": "if",
    "for": "if",
    "elif": "else",
    "else": "else",
    "macro": "open",
    "call": "open",
    "filter": "open",
    "block": "open",
    "with": "open",
    "autoescape": "open",
    "trans": "open",
}


def tags(text: str) -> tuple[list[Tag], list[tuple[int, int]]]:
    """The tags of ``text`` and the spans of its macro and block-``set`` bodies.

    ``LexError`` where Jinja would raise ``TemplateSyntaxError`` while lexing.
    """
    out: list[Tag] = []
    hidden: list[tuple[int, int]] = []
    opened: list[tuple[str, int]] = []
    pos = 0
    while True:
        m = _OPEN.search(text, pos)
        if m is None:
            return out, hidden
        start = m.start()
        kind = m.group()
        if kind == "{%":
            raw = _RAW_BEGIN.match(text, start)
            if raw is not None:
                end_raw = _RAW_END.search(text, raw.end())
                if end_raw is None:
                    raise LexError("Missing end of raw directive", start, text.count("\n", 0, start) + 1)
                out.append(Tag(start, raw.end(), False))
                out.append(Tag(end_raw.start(), end_raw.end(), False))
                pos = end_raw.end()
                continue
        inner = start + 2
        if text.startswith(("-", "+"), inner):
            inner += 1
        if kind == "{#":
            close = text.find("#}", inner)
            if close < 0:
                raise LexError("Missing end of comment tag", start, text.count("\n", 0, start) + 1)
            end = close + 2
            out.append(Tag(start, end, False))
            pos = end
            continue
        end = _tag_end(text, inner, "}}" if kind == "{{" else "%}", start)
        if kind == "{{":
            out.append(Tag(start, end, True))
        else:
            word = _NAME.match(text, inner)
            name = word.group(1) if word else ""
            role = ROLES.get(name) or ("end" if name.startswith("end") else None)
            if name == "set" and "=" not in text[inner:end]:
                role = "open"  # {% set x %}…{% endset %}: a captured block
            out.append(Tag(start, end, name in WRITES, role=role))
            if role == "open":
                opened.append((name, start))
            elif role == "end" and opened and name == "end" + opened[-1][0]:
                opener, at = opened.pop()
                if opener in ("macro", "set"):
                    hidden.append((at, end))
            if role == "if":
                opened.append((name, start))
            elif role == "end" and opened and opened[-1][0] in ("if", "for") and name == "end" + opened[-1][0]:
                opened.pop()
        pos = end


def _tag_end(text: str, pos: int, close: str, start: int) -> int:
    """Where a ``{{``/``{%`` tag (opened at ``start``) whose words start at ``pos`` ends."""
    stack: list[str] = []
    n = len(text)
    while pos < n:
        if not stack:
            if text.startswith("-" + close, pos) or (close == "%}" and text.startswith("+%}", pos)):
                return pos + 1 + len(close)
            if text.startswith(close, pos):
                return pos + len(close)
        c = text[pos]
        if c in "'\"":
            m = _STRING.match(text, pos)
            if m is None:
                raise LexError(f"unexpected char {c!r} at {pos}", pos, text.count("\n", 0, pos) + 1)
            pos = m.end()
            continue
        if c in _CLOSERS:
            stack.append(_CLOSERS[c])
        elif c in ")]}":
            if not stack:
                raise LexError(f"unexpected '{c}'", pos, text.count("\n", 0, pos) + 1)
            expected = stack.pop()
            if expected != c:
                raise LexError(f"unexpected '{c}', expected '{expected}'", pos, text.count("\n", 0, pos) + 1)
        pos += 1
    raise LexError("unexpected end of template (a tag is not closed)", start, text.count("\n", 0, start) + 1)
