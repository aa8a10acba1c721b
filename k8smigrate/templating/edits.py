"""Edits of a chart's files: a span of the original text and its replacement.

The library never writes files: it returns edits, character spans of the texts it was given
with the text to put there, so that a caller can show them as a diff, apply them, or check
them with ``helm`` first. Edits of one file never overlap.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from ..dataclasscode import dataclass

__all__ = ["Edit", "apply_edits", "edited_span"]


@dataclass(frozen=True)
class Edit:
    """Replace ``start:end`` of the file at ``path`` (chart-relative) by ``text``."""

    path: str
    start: int
    end: int
    text: str


def apply_edits(texts: Mapping[str, str], edits: Iterable[Edit]) -> dict[str, str]:
    """The new text of every file ``edits`` change (edits must not overlap)."""
    by_path: dict[str, list[Edit]] = defaultdict(list)
    for e in edits:
        by_path[e.path].append(e)
    out: dict[str, str] = {}
    for path, group in by_path.items():
        text = texts[path]
        for e in sorted(group, key=lambda e: e.start, reverse=True):
            text = text[: e.start] + e.text + text[e.end :]
        out[path] = text
    return out


def edited_span(text: str, edits: Iterable[Edit], lo: int, hi: int) -> str:
    """``text[lo:hi]`` with the edits that lie inside it applied."""
    out = text[lo:hi]
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        if lo <= e.start and e.end <= hi:
            out = out[: e.start - lo] + e.text + out[e.end - lo :]
    return out
