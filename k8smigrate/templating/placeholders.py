"""Placeholders: unique, reversible stand-ins of a template's actions, of the same length.

Each masked region of a template (an action, or a line that an action owns) becomes text
of exactly its own length built from Unicode private-use characters: a start character,
three digits of base 4096 that number the region, and padding. They read as plain YAML
scalar text, never occur in real manifests, and can be found again in any output, so
that line numbers, columns and spans stay those of the template and every region can be
mapped back to its original text (or found missing or doubled).
"""

from __future__ import annotations

from ..lazyre import lazy
from ..runtime_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..tree import Entry

START = "\ue000"
PAD = "\ue001"
_DIGIT0 = 0xE100
_BASE = 4096
_DIGITS = 3
MIN_LENGTH = 1 + _DIGITS
"""The shortest placeholder: a Go action is at least ``{{}}``, a Jinja one ``{{}}`` too."""
MAX_REGIONS = _BASE**_DIGITS

CODE = lazy(f"{START}[{chr(_DIGIT0)}-{chr(_DIGIT0 + _BASE - 1)}]{{{_DIGITS}}}{PAD}*")
"""One placeholder in any text (padding included)."""

ANY_CHAR = lazy(f"[{START}{PAD}{chr(_DIGIT0)}-{chr(_DIGIT0 + _BASE - 1)}]")


def code(index: int, length: int) -> str:
    """The placeholder of region ``index``, ``length`` characters long (at least ``MIN_LENGTH``)."""
    if length < MIN_LENGTH:
        raise ValueError(f"a placeholder needs {MIN_LENGTH} characters, got {length}")
    if not 0 <= index < MAX_REGIONS:
        raise ValueError(f"too many template regions ({index})")
    digits = []
    for _ in range(_DIGITS):
        index, digit = divmod(index, _BASE)
        digits.append(chr(_DIGIT0 + digit))
    return START + "".join(reversed(digits)) + PAD * (length - MIN_LENGTH)


def index_of(found: str) -> int:
    """The region number of a placeholder matched by ``CODE``."""
    value = 0
    for ch in found[1 : 1 + _DIGITS]:
        value = value * _BASE + ord(ch) - _DIGIT0
    return value


def holds_placeholder(text: str) -> bool:
    return START in text


def opened_by_action(entry: Entry | None) -> bool:
    """Whether an action on the entry's key line writes the first entries (or items) of its value.

    ``labels: {{- include "x.labels" . | nindent 4 }}`` with more labels below is masked as a
    comment after the key (``mask.block_value``): the value the tree shows is only the lines
    below, so a migration must not take it for the whole (copy it, or convert it in part).
    """
    return entry is not None and entry.eol_comment is not None and START in entry.eol_comment
