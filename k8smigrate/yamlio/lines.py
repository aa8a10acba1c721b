"""Line and column numbers of character indices, fast for many lookups in one text."""

from __future__ import annotations

import bisect
import re

_NEWLINES: dict[int, tuple[str, list[int]]] = {}


def line_of(text: str, index: int) -> int:
    """1-based line number of a character index.

    Called once per node: counting from the start each time made parsing quadratic in the
    file size, so the newline offsets of the last few texts are kept and searched.
    """
    return bisect.bisect_left(newline_offsets(text), index) + 1


def newline_offsets(text: str) -> list[int]:
    """The indices of the newlines of ``text``, sorted: ``line_of`` is a bisection of them.

    The tables of the last few texts are kept (a file's documents are parsed one by one with
    the whole text); the tree builder holds its text's table and bisects it itself.
    """
    cached = _NEWLINES.get(id(text))
    if cached is None or cached[0] is not text:
        if len(_NEWLINES) >= 4:
            _NEWLINES.clear()
        cached = (text, [m.start() for m in re.finditer("\n", text)])
        _NEWLINES[id(text)] = cached
    return cached[1]


def column_of(text: str, index: int) -> int:
    """0-based column of a character index, from the same table as ``line_of``: a scan back to
    the line's start cost each node its column, and a one-line JSON document of n keys n times
    its length."""
    offsets = newline_offsets(text)
    before = bisect.bisect_left(offsets, index)
    return index - (offsets[before - 1] + 1 if before else 0)
