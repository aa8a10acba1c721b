"""Finding codes as data: each code has one level and one summary, declared once.

A migration lists the codes it emits in its ``codes`` (``Code("K8SM-ING-001", "info", "…")``);
the codes of the core (``K8SM-GEN-*``: templates, invalid YAML, lifecycle findings…) are
declared here. ``sarif``, the generated docs and ``explain`` read levels and summaries from
these declarations, and ``Context.report`` checks every finding against them: a code
reported at another level than declared, or never declared, is a programming error in
``raise_errors`` mode and in the test-suite (``K8SMIGRATE_CHECK_CODES=1``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace

from .results import LEVELS, Level


class CodeError(AssertionError):
    """A finding code reported at another level than declared, or not declared at all (a bug)."""


@dataclass(frozen=True)
class Code:
    """One finding code: ``K8SM-<AREA>-<NNN>``, the level it is always reported at, and what it means."""

    code: str
    level: Level
    summary: str

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"{self.code}: level {self.level!r} is not one of {', '.join(LEVELS)}")

    def with_summary(self, summary: str) -> Code:
        """The same code at the same level, described for one migration (a general code in context)."""
        return replace(self, summary=summary)


TEMPLATED = Code("K8SM-GEN-001", "warning", "templated document (Helm/Jinja markers) skipped")
NEW_DEFAULT = Code("K8SM-GEN-002", "info", "--adopt-new-defaults: an old default left unset, the new default applies")
BOTH_FORMS = Code("K8SM-GEN-003", "error", "a field is set in both its old and its new form")
COMMENT_DROPPED = Code("K8SM-GEN-004", "warning", "a comment was dropped with a removed field")
INVALID_YAML = Code("K8SM-GEN-005", "error", "invalid YAML")
DUPLICATE_KEY = Code("K8SM-GEN-006", "error", "duplicate key")
REMOVED_API = Code("K8SM-GEN-007", "error", "API removed at the target release and left in place")
DEPRECATED_API = Code("K8SM-GEN-008", "warning", "API deprecated at the target release")
REPLACEMENT_UNAVAILABLE = Code(
    "K8SM-GEN-009", "error", "API removed and its replacement is not served across the window"
)
DECISION_NEEDED = Code("K8SM-GEN-010", "error", "a decision is needed (--set NAME=VALUE)")
UNREADABLE = Code("K8SM-GEN-011", "error", "the document cannot be read")
INTERNAL_ERROR = Code("K8SM-GEN-012", "error", "internal error, document left unchanged")
FILE_ERROR = Code(
    "K8SM-GEN-013",
    "error",
    "the file cannot be read (missing, binary, not UTF-8, too large, not a regular file) "
    "or written (hard links, read-only)",
)
NOT_WHOLE = Code("K8SM-GEN-014", "warning", "the file does not parse as a whole (a template?); left unchanged")
TEMPLATED_UNTOUCHED = Code(
    "K8SM-GEN-015", "info", "templated document skipped; its API has no version step and is not removed or deprecated"
)
RELEASE_NEEDED = Code(
    "K8SM-GEN-016", "error", "an add-on's release is needed (--component NAME=VERSION) to migrate this document"
)
OWNER_NOT_KEPT = Code("K8SM-GEN-018", "warning", "the file was written but its owner or group could not be kept")

GENERAL: dict[str, Code] = {
    c.code: c
    for c in (
        TEMPLATED,
        NEW_DEFAULT,
        BOTH_FORMS,
        COMMENT_DROPPED,
        INVALID_YAML,
        DUPLICATE_KEY,
        REMOVED_API,
        DEPRECATED_API,
        REPLACEMENT_UNAVAILABLE,
        DECISION_NEEDED,
        UNREADABLE,
        INTERNAL_ERROR,
        FILE_ERROR,
        NOT_WHOLE,
        TEMPLATED_UNTOUCHED,
        RELEASE_NEEDED,
        OWNER_NOT_KEPT,
    )
}
"""The codes of the core, by code: any migration may report them, at these levels."""


def declared(codes: Iterable[Code], code: str) -> Code | None:
    """The declaration of ``code`` among a migration's ``codes``, or the general one, or None."""
    for c in codes:
        if c.code == code:
            return c
    return GENERAL.get(code)


def checking() -> bool:
    """Whether code levels are enforced outside ``raise_errors`` (the test-suite sets the variable)."""
    return os.environ.get("K8SMIGRATE_CHECK_CODES") == "1"
