"""Renaming a deprecated key to its replacement in one mapping, for the readiness checks."""

from __future__ import annotations

from k8smigrate.tree import Mapping, Scalar

from ..runtime_typing import Literal

Outcome = Literal["renamed", "dropped", "conflict", "absent"]


def rename_key(mapping: Mapping, old: str, new: str) -> Outcome:
    """Rename ``old`` to ``new`` in place (value and comments stay).

    When ``new`` is already there with the same scalar value, one of the two entries goes:
    the old one, unless only it carries comments (then the new entry goes and the old one is
    renamed in its place, so no comment is lost). A different value is a ``"conflict"`` and
    changes nothing; so is a value that is not a scalar.
    """
    old_entry = mapping.entry(old)
    if old_entry is None:
        return "absent"
    new_entry = mapping.entry(new)
    if new_entry is None:
        mapping.rename(old, new)
        return "renamed"
    same = isinstance(old_entry.value, Scalar) and isinstance(new_entry.value, Scalar)
    if not same or old_entry.value.to_data() != new_entry.value.to_data():
        return "conflict"
    commented = bool(old_entry.head_comments or old_entry.eol_comment)
    if commented and not (new_entry.head_comments or new_entry.eol_comment):
        mapping.pop(new)
        mapping.rename(old, new)
    else:
        mapping.pop(old)
    return "dropped"
