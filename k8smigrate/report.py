"""Turning results into what people and programs read: diffs, summaries, the JSON report.

The unified diff has ``a/`` and ``b/`` headers so that ``git apply`` accepts it; the JSON
report carries one RFC 6902 patch per changed document and every finding, with stable keys
(documented in docs/report-format.md, schema in docs/report.schema.json). A ``Run`` is
what one CLI command did; every output format (text, JSON, Markdown, SARIF) is built from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import field

from .api import FileOutcome
from .dataclasscode import dataclass
from .diffs import unified_diff as unified_diff  # its home is diffs; kept importable from here
from .lazyre import lazy
from .quoting import quote_path
from .results import LEVELS, FileResult, Finding
from .runtime_typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .scan import ScanEntry

REPORT_VERSION = 1
"""Bumped only when a key of the JSON report changes meaning or disappears (never for additions)."""


@dataclass
class Run:
    """What one command did: its settings, one outcome per file, scan entries, the exit code."""

    command: str
    target_version: str
    min_version: str
    config_file: str | None = None
    outcomes: list[FileOutcome] = field(default_factory=list)
    scan: list[ScanEntry] | None = None
    exit_code: int = 0
    files: int | None = None
    """How many files the run looked at, when ``outcomes`` does not list them all (a text ``scan``
    keeps only the files that report something); None: one outcome per file."""
    counts: ScanCounts | None = None
    """A scan's counts of all its rows, when ``scan`` holds only the rows a human must act on (a
    text ``scan`` prints the others as they come, so that its memory stays flat)."""

    @property
    def file_count(self) -> int:
        """How many files the run looked at."""
        return len(self.outcomes) if self.files is None else self.files

    @property
    def results(self) -> list[FileResult]:
        return [o.result for o in self.outcomes if o.result is not None]

    @property
    def errors(self) -> list[Finding]:
        """Input errors: files that could not be read, or written, at all."""
        return [o.error for o in self.outcomes if o.error is not None]

    @property
    def findings(self) -> list[Finding]:
        """Every finding of the run, input errors included, in file order."""
        return [f for o in self.outcomes for f in outcome_findings(o)]

    @property
    def changed(self) -> int:
        return sum(1 for r in self.results if r.changed)

    @property
    def written(self) -> int:
        return sum(1 for o in self.outcomes if o.written)


def outcome_findings(outcome: FileOutcome) -> list[Finding]:
    """The findings of a file, and the input error that stopped it (unlike ``FileOutcome.findings``,
    a write failure does not hide the findings of the migration before it)."""
    found = list(outcome.result.findings) if outcome.result is not None else []
    return found + ([outcome.error] if outcome.error is not None else [])


def document_label(kind: str | None, name: str | None, index: int) -> str:
    return f"doc {index} {kind or '?'}" + (f" {name}" if name else "")


def change_summary(result: FileResult) -> list[str]:
    """One line per changed document: ``doc 0 Ingress web: extensions/v1beta1 → networking.k8s.io/v1; …``."""
    out: list[str] = []
    for doc in result.documents:
        if not doc.applied:
            continue
        moved = doc.new_api_version not in (None, doc.api_version)
        parts = [f"{doc.api_version} → {doc.new_api_version}"] if moved else []
        parts += doc.summary
        out.append(f"{document_label(doc.kind, doc.name, doc.index)}: " + "; ".join(parts))
    return out


def count_levels(findings: Iterable[Finding]) -> Counter[str]:
    return Counter(f.level for f in findings)


def levels_text(findings: Iterable[Finding]) -> str:
    """``1 error, 0 warnings, 4 info``."""
    return _levels(count_levels(findings))


def _levels(levels: Counter[str]) -> str:
    return ", ".join(f"{levels[level]} {_plural(level, levels[level])}" for level in reversed(LEVELS))


def summary_line(files: int, changed: int, findings: list[Finding], verb: str = "changed") -> str:
    """``3 files, 2 changed, 1 error, 0 warnings, 4 info`` for the end of a run."""
    return f"{_count(files, 'file')}, {changed} {verb}, {levels_text(findings)}"


@dataclass
class ScanCounts:
    """What a scan's summary line and exit code count of its rows, kept without the rows."""

    removed: int = 0
    deprecated: int = 0
    readiness: int = 0
    fixable: int = 0
    """Rows ``apply`` migrates."""
    human: int = 0
    """Rows a human must act on."""
    warnings: int = 0
    """Rows at level warning (the exit code's ``--fail-on deprecated``)."""
    levels: Counter[str] = field(default_factory=Counter)
    """Rows by the level they are printed with (a row without one is a warning)."""

    def add(self, e: ScanEntry) -> None:
        self.removed += e.status == "removed"
        self.deprecated += e.status == "deprecated"
        self.readiness += bool(e.readiness)
        self.fixable += e.action == "apply"
        self.human += e.action == "human"
        self.warnings += e.level == "warning"
        self.levels[e.level or "warning"] += 1

    @classmethod
    def of(cls, entries: Iterable[ScanEntry]) -> ScanCounts:
        counts = cls()
        for e in entries:
            counts.add(e)
        return counts


def scan_summary_line(files: int, entries: list[ScanEntry] | ScanCounts, findings: list[Finding]) -> str:
    """``3 files scanned: 2 documents on removed APIs, 1 on deprecated APIs, 4 readiness findings;
    2 errors, 3 warnings, 2 info; 3 fixable by apply, 1 needs a human``.

    Every row (``entries``, or their counts) and every finding of the run (unreadable input) is
    counted once, at the level it is printed with: the levels add up to the lines above and to
    the SARIF results.
    """
    counts = entries if isinstance(entries, ScanCounts) else ScanCounts.of(entries)
    human = counts.human + sum(1 for f in findings if f.level == "error")
    levels = count_levels(findings) + counts.levels
    needs = "needs" if human == 1 else "need"
    return (
        f"{_count(files, 'file')} scanned: {_count(counts.removed, 'document')} on removed APIs, "
        f"{counts.deprecated} on deprecated APIs, {_count(counts.readiness, 'readiness finding')}; "
        f"{_levels(levels)}; {counts.fixable} fixable by apply, {human} {needs} a human"
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _plural(level: str, n: int) -> str:
    if level == "info":
        return "info"
    return level + ("s" if n != 1 else "")


def report_data(run: Run, version: str) -> dict[str, Any]:
    """The ``--format json`` report as plain data (schema: docs/report.schema.json)."""
    files: list[dict[str, Any]] = []
    for o in run.outcomes:
        if o.result is None:
            continue
        entry = _quoted(o.result.as_dict())
        entry["findings"] = [_quoted(f) for f in entry["findings"]]
        if o.error is not None:  # migrated but not written (read-only, hard link…): the file says why too,
            # once for each document that stays as it was because of it
            changed = [d["index"] for d in entry["documents"] if d.get("patch")] or [o.error.document]
            entry["findings"] += [_quoted({**o.error.as_dict(), "document": i}) for i in changed]
        entry["written"] = o.written
        entry["diff"] = o.result.diff
        files.append(entry)
    report: dict[str, Any] = {
        "version": REPORT_VERSION,
        "tool": {"name": "k8smigrate", "version": version},
        "command": run.command,
        "settings": {
            "targetVersion": run.target_version,
            "minVersion": run.min_version,
            "configFile": run.config_file,
        },
        "files": files,
        "errors": [_quoted(e.as_dict()) for e in run.errors],
        "summary": {
            "files": len(run.outcomes),
            "changed": run.changed,
            "written": run.written,
            "findings": {level: count_levels(report_findings(run))[level] for level in LEVELS},
            "exitCode": run.exit_code,
        },
    }
    if run.scan is not None:
        report["scan"] = [_quoted(s.as_dict()) for s in run.scan]
    return report


def scan_finding(entry: ScanEntry) -> Finding:
    """A scan row as the finding that ``diff`` would give for it."""
    assert entry.level is not None  # set by ScanEntry itself
    text = f"{entry.subject()}: {entry.message}" if entry.readiness else f"{entry.subject()} {entry.message}"
    return Finding(entry.level, entry.code, text, entry.migration, entry.filename, entry.document, entry.line, "")


def report_findings(run: Run) -> list[Finding]:
    """Every finding a report lists: the run's, and for ``scan`` each row as a finding (SARIF results)."""
    return [*run.findings, *(scan_finding(e) for e in run.scan or [])]


def _quoted(entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with its file name as people see it (``quoting``): valid Unicode, one line."""
    return {**entry, "filename": quote_path(entry["filename"])}


_SURROGATE = lazy("[\ud800-\udfff]")


def json_text(data: Any) -> str:
    """``data`` as indented JSON that any UTF-8 output can hold: a lone surrogate (a YAML ``"\\ud800"``
    escape) is written as its ``\\uXXXX`` escape, not as a character no encoder accepts."""
    import json  # only reports and list --format json are JSON: not imported by every run

    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def json_report(run: Run, version: str) -> str:
    """The ``--format json`` report as text."""
    return json_text(report_data(run, version))
