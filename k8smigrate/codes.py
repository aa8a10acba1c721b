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
from dataclasses import replace

from .dataclasscode import dataclass
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
SHARED_EDIT = Code(
    "K8SM-GEN-017",
    "error",
    "an edit would have to go through a YAML alias or merge key, or change another place that shares the node",
)

RELEASE_NEEDED = Code(
    "K8SM-GEN-016", "error", "an add-on's release is needed (--component NAME=VERSION) to migrate this document"
)
OWNER_NOT_KEPT = Code("K8SM-GEN-018", "warning", "the file was written but its owner or group could not be kept")

# Templated manifests (Helm charts, Jinja2): the template I/O, computed apiVersions, --verify-render.
TEMPLATE_UNLEXED = Code(
    "K8SM-TPL-001",
    "error",
    "the template does not lex (a Go text/template or Jinja2 syntax error); file left unchanged",
)
TEMPLATE_SKELETON = Code("K8SM-TPL-002", "error", "a document the YAML skeleton cannot represent; left unchanged")
TEMPLATE_TEXT_KEPT = Code(
    "K8SM-TPL-003", "error", "the migration would lose, copy or re-indent template text; document left unchanged"
)
TEMPLATE_KEY_TWICE = Code(
    "K8SM-TPL-004", "error", "the template writes one key twice outside an if/else; document left unchanged"
)
TEMPLATE_REMOVED_API = Code(
    "K8SM-TPL-005",
    "error",
    "a document whose apiVersion or kind the template computes can render an API removed at the target",
)
TEMPLATE_COMPUTED_API = Code(
    "K8SM-TPL-006", "info", "scan: an apiVersion the chart computes, per range of releases, and where it comes from"
)
TEMPLATE_SKELETON_IDLE = Code(
    "K8SM-TPL-007",
    "info",
    "a document the YAML skeleton cannot represent (or that writes a key twice) and nothing in it would be migrated",
)
TEMPLATE_VERSION_GATED = Code(
    "K8SM-TPL-008",
    "info",
    "a document on a removed API written only under a version condition that no release without the API meets",
)
TEMPLATE_UNSERVED_GATED = Code(
    "K8SM-TPL-009",
    "warning",
    "a document of a kind nothing serves from a release of the window on, now written only for the releases before",
)
TEMPLATE_BLOCK_UNREAD = Code(
    "K8SM-TPL-014",
    "warning",
    "a template block whose lines do not read as YAML with its document: left out of the migration, kept as written",
)
VALUES_POD_ANNOTATION = Code(
    "K8SM-TPL-015",
    "error",
    "values.yaml sets an annotation Kubernetes no longer reads (seccomp, tolerate-unready-endpoints): set the field "
    "that replaces it instead",
)
CONDITIONAL_DEFAULT = Code(
    "K8SM-TPL-016",
    "warning",
    "a field whose old default a migration pins is written only under a template condition: "
    "where the condition is false, the new API's default applies",
)
CONDITIONAL_REQUIRED = Code(
    "K8SM-TPL-017",
    "error",
    "a field the new API requires is written only under a template condition; document left unchanged",
)
DEFINE_REMOVED_API = Code(
    "K8SM-TPL-018",
    "error",
    "a define that a template includes writes a whole object on an API removed at the target; not migrated",
)
REMOVED_API_CONDITION = Code(
    "K8SM-TPL-019",
    "warning",
    "a template condition asks .Capabilities.APIVersions.Has for an API removed at the target: what it alone writes "
    "is left out from that release",
)
RENDER_FAILS = Code("K8SM-TPL-010", "error", "--verify-render: the migrated chart does not render")
RENDER_REMOVED = Code(
    "K8SM-TPL-011", "error", "--verify-render: a rendered document is on an API its release no longer serves"
)
RENDER_DIFFERS = Code(
    "K8SM-TPL-012", "error", "--verify-render: a rendered document differs from migrating the rendered output"
)
RENDER_PROVEN = Code(
    "K8SM-TPL-013", "info", "--verify-render: every rendered document equals migrating the rendered output"
)
API_REWRITTEN = Code(
    "K8SM-TPL-101", "info", "a computed apiVersion was rewritten so that every release of the window serves it"
)
API_DEAD_BRANCH = Code("K8SM-TPL-102", "info", "an arm that picks an apiVersion is taken by no release of the window")
API_BODY_PER_BRANCH = Code(
    "K8SM-TPL-103", "error", "no one apiVersion serves every release of the window: the body would differ per branch"
)
API_NOT_SERVED = Code("K8SM-TPL-104", "error", "no apiVersion of the kind is served at some release of the window")
API_NOT_EVALUATED = Code("K8SM-TPL-105", "warning", "a computed apiVersion could not be evaluated and is left alone")
API_CONFLICT = Code("K8SM-TPL-106", "error", "a helper or values key has uses that need different apiVersions")
API_VENDOR_SUFFIX = Code(
    "K8SM-TPL-107", "warning", "a version constraint without -0 branches otherwise on clusters with a version suffix"
)
API_IN_ACTION = Code(
    "K8SM-TPL-108", "error", "a computed apiVersion is written inside a template action; it is not rewritten"
)
API_BODY_NOT_MIGRATED = Code(
    "K8SM-TPL-109",
    "error",
    "a computed apiVersion is left as it is because the document's body cannot be migrated to the new API",
)
API_BRANCHED = Code(
    "K8SM-TPL-110",
    "info",
    "a literal apiVersion that no one API serves across the window is now picked by release (an if on the version)",
)
TEMPLATE: tuple[Code, ...] = (
    TEMPLATE_UNLEXED,
    TEMPLATE_SKELETON,
    TEMPLATE_TEXT_KEPT,
    TEMPLATE_KEY_TWICE,
    TEMPLATE_REMOVED_API,
    TEMPLATE_COMPUTED_API,
    TEMPLATE_SKELETON_IDLE,
    TEMPLATE_VERSION_GATED,
    TEMPLATE_UNSERVED_GATED,
    RENDER_FAILS,
    RENDER_REMOVED,
    RENDER_DIFFERS,
    RENDER_PROVEN,
    TEMPLATE_BLOCK_UNREAD,
    VALUES_POD_ANNOTATION,
    CONDITIONAL_DEFAULT,
    CONDITIONAL_REQUIRED,
    DEFINE_REMOVED_API,
    REMOVED_API_CONDITION,
    API_REWRITTEN,
    API_DEAD_BRANCH,
    API_BODY_PER_BRANCH,
    API_NOT_SERVED,
    API_NOT_EVALUATED,
    API_CONFLICT,
    API_VENDOR_SUFFIX,
    API_IN_ACTION,
    API_BODY_NOT_MIGRATED,
    API_BRANCHED,
)
"""The codes of templated manifests (``K8SM-TPL-*``); ``docs/templates.md`` explains them."""

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
        SHARED_EDIT,
        RELEASE_NEEDED,
        OWNER_NOT_KEPT,
        *TEMPLATE,
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
