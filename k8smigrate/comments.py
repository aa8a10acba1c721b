"""Reading comments out of source text: the head comments of an entry, and an end-of-line comment.

The tree builder attaches them to entries and items as it reads; the renderer reads them again
where it rewrites a line. One definition for both, so that a comment read is a comment written.
"""

from __future__ import annotations


def comment_lines(chunk: str) -> list[str]:
    """The comment lines (``# ...``, stripped) of a head region."""
    return [ln.strip() for ln in chunk.splitlines() if ln.strip().startswith("#")]


def eol_comment(chunk: str) -> str | None:
    """The ``# ...`` comment on the first line of ``chunk`` (text after a value), if any."""
    first = chunk.split("\n", 1)[0]
    pos = first.find("#")
    if pos < 0:
        return None
    gap = len(first[:pos]) - len(first[:pos].rstrip(" \t"))
    return first[pos - gap :].rstrip()
