"""Searches over a whole document's text, written around where CPython's own are slow.

A run searches every file it reads several times (the pre-filter, the checks' triggers, the
newline style), and a CRD is 100 KB. Two of CPython's searches cost far more than the rest:

- ``re`` looks for a pattern's literal prefix one character at a time, where ``str.find``
  skips ahead: ``matches_from`` finds each place with ``str.find`` and tries the pattern only
  there (2–3x faster on a CRD);
- ``str.find`` of one character uses ``memchr``, but of two characters it costs about a
  nanosecond per character: ``pair_in`` finds the first character and looks at the next.

And one copy: ``lines_with`` cuts out only the lines that hold a character (the comments of a
CRD's thousands of lines), where ``splitlines`` copies every line.

A yes-or-no question about one literal-led pattern that most texts fail at once (a check's
trigger, ``Triggers``) stays ``literal in text and pattern.search(text)``: there the
generator ``matches_from`` costs more than it saves (measured: +0.5 % of a small ``scan``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

from .lazyre import LazyPattern

MANY = 64
"""How many places of the first character ``pair_in`` looks at before it leaves the text to
``in`` (a text full of that character: one pass per pair is then cheaper)."""


def matches_from(literal: str, pattern: re.Pattern[str] | LazyPattern, text: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern that starts with ``literal`` and never matches
    empty: each place of the literal is found with ``str.find``, and only there is the pattern
    tried."""
    at = text.find(literal)
    while at >= 0:
        found = pattern.match(text, at)
        if found is None:
            at = text.find(literal, at + 1)
        else:
            yield found
            at = text.find(literal, found.end())


def pair_in(text: str, first: str, seconds: str, start: int = 0, end: int = sys.maxsize) -> bool:
    """Whether ``text[start:end]`` holds ``first`` followed by one of the characters ``seconds``:
    ``any(first + s in text[start:end] for s in seconds)``, without the copy."""
    end = min(end, len(text))
    at = text.find(first, start, end)
    for _ in range(MANY):
        if at < 0:
            return False
        if at + 1 < end and text[at + 1] in seconds:
            return True
        at = text.find(first, at + 1, end)
    piece = text[start:end]
    return any(first + s in piece for s in seconds)


_RARE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What ``str.splitlines`` breaks lines at besides ``\n``."""


def lines_with(text: str, char: str) -> list[str]:
    """``[line for line in text.splitlines() if char in line]``, for a ``char`` that breaks no line.

    Each place of ``char`` is found with ``str.find`` and only its line is cut out. A text that
    breaks lines at anything but ``\n`` (CRLF, a form feed…) is split the usual way.
    """
    if char not in text:
        return []
    if any(rare in text for rare in _RARE_BREAKS):
        return [line for line in text.splitlines() if char in line]
    lines: list[str] = []
    at = text.find(char)
    while at >= 0:
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        lines.append(text[text.rfind("\n", 0, at) + 1 : end])
        at = text.find(char, end)
    return lines
