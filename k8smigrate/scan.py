"""Detection only: which documents use an API that is deprecated or removed in the window,
and what else breaks at the target inside APIs that are still served.

This is what ``k8smigrate scan`` prints, one row per finding, each with a category.
``removed-api`` and ``deprecated-api`` rows come from the ``apiVersion`` and ``kind`` of
every document (templated ones too, from their raw text), looked up in the lifecycle table.
The upgrade-readiness rows (removed fields, silent annotations, feature gates, runtime,
component configs, ports, volumes, cloud providers: ``model.CATEGORIES``) are the
findings of the checks, run as ``diff`` would run them but only on the documents whose
text holds what a check looks for, so a scan stays a read of the text for everything else.
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, replace
from typing import Any, Literal

from .codes import DEPRECATED_API, INTERNAL_ERROR, REMOVED_API
from .components import is_addon
from .engine import migrate_stream
from .facts import Facts
from .model import Check
from .plan import element_kind, plan, window_of
from .prefilter import prefilter, raw_api_versions, raw_kinds
from .problems import last_wins, problem_findings
from .quoting import quote_path
from .registry import Registry
from .results import DocumentResult, Finding, Level
from .settings import Settings
from .yamlio import read_stream

Status = Literal["removed", "deprecated", "breaking", "warning", "info"]
"""``removed``/``deprecated``: an API at the target. For readiness rows: ``breaking`` (an error,
or something ``apply`` changes because the target needs it: a check that is not a clean-up),
``warning`` or ``info``."""

FAIL_ON: dict[str, frozenset[str]] = {
    "removed": frozenset({"removed", "breaking"}),
    "deprecated": frozenset({"removed", "breaking", "deprecated", "warning"}),
    "never": frozenset(),
}
"""``--fail-on`` threshold → the statuses that fail a scan."""

READINESS = "readiness"
"""The category of a check that declares none (a third-party one)."""


@dataclass(frozen=True)
class ScanEntry:
    """One row of a scan: a document on a deprecated or removed API, or a readiness finding."""

    filename: str
    document: int
    line: int
    api_version: str
    kind: str
    name: str | None
    status: Status
    deprecated_in: str | None
    removed_in: str | None
    replacement: str | None
    migration: str | None
    """The migrations that fix it (``" -> "``-joined), or None when a human must."""
    templated: bool
    namespace: str | None = None
    replacement_served: bool | None = None
    """Whether every release of the window serves the replacement (None: not known)."""
    category: str = ""
    """``removed-api``, ``deprecated-api`` (from ``status`` when not given) or a readiness category."""
    level: Level | None = None
    """The level ``diff`` gives it (derived for API rows: removed is an error)."""
    code: str = ""
    message: str = ""
    of_component: InitVar[str] = "kubernetes"
    """Whose release the row is about (``component``): Kubernetes', or an add-on's."""

    def __post_init__(self, of_component: str) -> None:
        object.__setattr__(self, "_component", of_component)  # not a field: rows stay plain data
        if not self.category:
            object.__setattr__(self, "category", f"{self.status}-api")  # frozen
        if self.level is None:
            object.__setattr__(self, "level", "error" if self.status == "removed" else "warning")
        if not self.code:
            object.__setattr__(self, "code", (REMOVED_API if self.status == "removed" else DEPRECATED_API).code)
        if not self.message:
            object.__setattr__(self, "message", self._api_text())

    @property
    def component(self) -> str:
        """``kubernetes``, or the add-on whose release the row is about (``cert-manager``…)."""
        return str(getattr(self, "_component", "kubernetes"))

    @property
    def readiness(self) -> bool:
        return self.status not in ("removed", "deprecated")

    def _api_text(self) -> str:
        prefix = f"{self.component} " if is_addon(self.component) else ""
        when = (
            f"removed in {prefix}{self.removed_in}"
            if self.status == "removed"
            else f"deprecated in {prefix}{self.deprecated_in}"
        )
        repl = f" -> {self.replacement}" if self.replacement else " (no replacement)"
        if self.replacement and self.replacement_served is False:
            repl += " (not served by every release of the window)"
        return f"{self.api_version} {when}{repl}"

    def subject(self) -> str:
        """``Kind namespace/name``, or the kind alone."""
        name = f" {self.name}" if self.name else ""
        if self.name and self.namespace:
            name = f" {self.namespace}/{self.name}"
        return f"{self.kind}{name}"

    def format(self) -> str:
        """``file:line: category  Kind name what [how]``: the ``scan`` line."""
        where = f"{quote_path(self.filename)}:{self.line}"
        if self.readiness:
            how = f" [k8smigrate: {self.migration}]" if self.migration else " [manual]" if self.level != "info" else ""
            return f"{where}: {self.category:<16} {self.subject()}: {self.level} {self.code} {self.message}{how}"
        how = f" [k8smigrate: {self.migration}]" if self.migration else " [manual]"
        tmpl = " (templated)" if self.templated else ""
        return f"{where}: {self.category:<16} {self.subject()} {self.message}{how}{tmpl}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "filename": self.filename,
            "document": self.document,
            "line": self.line,
            "apiVersion": self.api_version,
            "kind": self.kind,
            "name": self.name,
            "namespace": self.namespace,
            "status": self.status,
            "deprecatedIn": self.deprecated_in,
            "removedIn": self.removed_in,
            "replacement": self.replacement,
            "migration": self.migration,
            "templated": self.templated,
            "replacementServed": self.replacement_served,
            "category": self.category,
            "level": self.level,
            "code": self.code,
            "message": self.message,
            "component": self.component,
        }


def failing(entries: list[ScanEntry], fail_on: str) -> bool:
    """Whether any row is at or above the ``--fail-on`` threshold."""
    statuses = FAIL_ON[fail_on]
    return any(e.status in statuses for e in entries)


def scan_stream(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding] | None = None,
    facts: Facts | None = None,
) -> list[ScanEntry]:
    """The rows of one stream; invalid YAML and duplicate keys go to ``problems``; ``facts``: a run's."""
    entries = api_entries(text, settings, filename, registry, problems)
    ready = readiness_entries(text, settings, filename, registry, problems, facts)
    if not ready:
        return entries
    return sorted([*entries, *ready], key=lambda e: (e.document, e.line, e.readiness))


def api_entries(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding] | None = None,
) -> list[ScanEntry]:
    """The documents on deprecated or removed APIs, read from their text.

    Each is judged at the release of its component (Kubernetes' target, or an add-on's
    release; the newest one k8smigrate knows for an add-on the run names no release of).
    """
    window = settings.window
    out: list[ScanEntry] = []

    def wanted(piece: str) -> bool:
        # Block YAML is read by a look at its text; JSON (and flow) documents need the parser.
        head = piece.lstrip(" \t\r\n-")
        return head.startswith(("{", "[")) and any(registry.lifecycle(api, kind) for api, kind in _api_kinds(piece))

    for doc in read_stream(text, wanted=wanted).documents:
        if problems is not None:
            problems += problem_findings(doc, filename, last_wins(doc, registry, settings))
        api, kind = doc.api_version, doc.kind
        if api is None or kind is None:
            continue
        life = registry.lifecycle(api, kind)
        element = element_kind(kind)
        if life is None:
            life = registry.lifecycle(api, element)
        if life is None:
            continue
        status: Status
        at = window_of(life.component, settings, window).target
        if life.removed_in is not None and life.removed_in <= at:
            status = "removed"
        elif life.deprecated_in is not None and life.deprecated_in <= at:
            status = "deprecated"
        else:
            continue
        found = plan(api, element, settings, registry, window)
        steps = found.steps
        # Served across [--min-version, --target-version]: known where a migration gets there;
        # a manual replacement's availability is not in the table (None).
        served: bool | None = True if steps else (False if found.blocked or not life.replacement else None)
        out.append(
            ScanEntry(
                filename,
                doc.index,
                doc.line,
                api,
                kind,
                doc.name,
                status,
                str(life.deprecated_in) if life.deprecated_in else None,
                str(life.removed_in) if life.removed_in else None,
                steps[-1].to_api if steps else life.replacement,
                " -> ".join(s.name for s in steps) or None,
                doc.templated,
                namespace=doc.namespace,
                replacement_served=served,
                of_component=life.component,
            )
        )
    return out


def readiness_entries(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding] | None = None,
    facts: Facts | None = None,
) -> list[ScanEntry]:
    """The findings of the enabled checks, as rows; the version steps do not run.

    An internal error (K8SM-GEN-012) goes to ``problems``: the document's rows would be missing.
    """
    checks, only = _check_settings(registry, settings)
    if not checks:
        return []
    if not prefilter(registry, only, only.window)(text):
        return []  # most files: nothing any check looks for, so no second read of the stream
    result = migrate_stream(text, only, filename, registry, report_only=True, facts=facts)
    docs = {d.index: d for d in result.documents}
    out: list[ScanEntry] = []
    for f in result.findings:
        check = checks.get(f.migration or "")
        doc = docs.get(f.document)
        if f.code == INTERNAL_ERROR.code and problems is not None:
            problems.append(f)
        if check is None or doc is None:
            continue  # the core's own findings: scan reports invalid input through ``problems``
        out.append(_readiness_entry(f, check, doc))
    return out


_CHECKS: dict[tuple[int, tuple[str, ...], tuple[str, ...]], tuple[Registry, dict[str, Check], tuple[str, ...]]] = {}


def _check_settings(registry: Registry, settings: Settings) -> tuple[dict[str, Check], Settings]:
    """The enabled checks by name (found once per run, not per file), and settings that run only them."""
    key = (id(registry), settings.only, settings.skip)
    cached = _CHECKS.get(key)
    if cached is None or cached[0] is not registry:
        if len(_CHECKS) > 16:
            _CHECKS.clear()
        enabled = {c.name: c for c in registry.checks if settings.enabled(c.name, c.opt_in)}
        cached = _CHECKS[key] = (registry, enabled, tuple(sorted(enabled)))
    return cached[1], replace(settings, only=cached[2], raise_errors=False)


def _readiness_entry(f: Finding, check: Check, doc: DocumentResult) -> ScanEntry:
    fixed = check.name in doc.applied
    status: Status = "breaking" if f.level == "error" or (fixed and not check.cleanup) else f.level
    return ScanEntry(
        f.filename,
        f.document,
        f.line,
        doc.api_version or "",
        doc.kind or "",
        doc.name,
        status,
        None,
        str(check.matters) if check.matters else None,
        None,
        check.name if fixed else None,
        False,
        namespace=doc.namespace,
        category=check.category or READINESS,
        level=f.level,
        code=f.code,
        message=(f"{check.component}: " if is_addon(check.component) else "")
        + f.message
        + (f" at {f.path}" if f.path else ""),
        of_component=check.component,
    )


def _api_kinds(piece: str) -> list[tuple[str, str]]:
    """Every (apiVersion, kind) pair a document's text could mean (List items included)."""
    return [(api, kind) for api in set(raw_api_versions(piece)) for kind in set(raw_kinds(piece))]
