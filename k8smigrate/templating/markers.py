"""Whether a text is a template the plain reading cannot migrate: the test every file takes.

Apart from ``migrate`` so that a run over plain manifests asks it without importing the
template machinery (lexers, masking, values), which it never needs.
"""

from __future__ import annotations

import re

from ..regexcode import regex
from ..yamlio import EVERY, not_whole, read_stream

MARKERS = regex(r"\{\{|\{%|\{#")
"""The start of a Go template action or comment, or of a Jinja2 statement or comment."""

TOP_LEVEL = regex(r"^(?![ \t\r\n]|\{\{|\{%|#)[^\r\n]", re.M)
"""A line of a template at column 0 that is not a tag or a comment: a document's top-level key."""


def needs_masking(text: str) -> bool:
    """True when the plain reading would skip a document as templated (K8SM-GEN-001/014)."""
    if not MARKERS.search(text):
        return False
    if not_whole(text):  # most templates: known without building a tree
        return True
    stream = read_stream(text, wanted=EVERY)
    return not stream.whole or any(d.templated for d in stream.documents)
