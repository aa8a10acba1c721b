"""What a run says about one file (``FileOutcome``), and the pieces every runner shares.

Apart from ``api`` so that the runners it drives (the kustomize trees) can use them without
importing ``api`` back.
"""

from __future__ import annotations

from dataclasses import field, replace
from pathlib import Path

from .codes import DUPLICATE_KEY, FILE_ERROR, INTERNAL_ERROR, INVALID_YAML, UNREADABLE
from .dataclasscode import dataclass
from .facts import Facts
from .registry import default_registry
from .results import FileResult, Finding
from .runtime_typing import TYPE_CHECKING
from .settings import Settings
from .templating.chart import chart_root, chart_values, is_values_file
from .templating.markers import needs_masking

if TYPE_CHECKING:
    from .scan import ScanEntry

__all__ = ["UNREADABLE_CODES", "FileOutcome", "input_error", "scanned"]


@dataclass
class FileOutcome:
    """One file of a run: its result, or the input error that stopped it, and whether it was written."""

    path: Path
    result: FileResult | None = None
    error: Finding | None = None
    written: bool = False
    scan: list[ScanEntry] = field(default_factory=list)
    """The rows of ``scan_file``."""

    @property
    def findings(self) -> list[Finding]:
        if self.error is not None:
            return [self.error]
        return self.result.findings if self.result is not None else []


UNREADABLE_CODES = frozenset(c.code for c in (INVALID_YAML, DUPLICATE_KEY, UNREADABLE, INTERNAL_ERROR))
"""Findings that make a whole file failed: it is never written, even where other documents migrated."""


def input_error(name: Path | str, message: str) -> Finding:
    """An unreadable file as a finding; ``line N: …`` messages give the finding its line."""
    line = 0
    head, sep, rest = message.partition(": ")
    if sep and head.startswith("line ") and head[5:].isdigit():
        line, message = int(head[5:]), rest
    return Finding(FILE_ERROR.level, FILE_ERROR.code, message, None, str(name), 0, line, "")


def scanned(path: Path, text: str, name: str, settings: Settings, facts: Facts | None = None) -> FileOutcome:
    """The scan outcome of a text read from ``path`` (reported as ``name``); templates are read
    through their YAML skeleton, and a chart's computed apiVersions are rows too."""
    problems: list[Finding] = []
    if needs_masking(text):
        from .templating.scanning import chart_gates, computed_rows, define_errors, scan_template

        root = chart_root(path) if path.name != "-" else None
        rel = path.resolve().relative_to(root.resolve()).as_posix() if root is not None else ""
        gates = None
        newline_defines: frozenset[str] = frozenset()
        if root is not None:
            try:
                gates, newline_defines = chart_gates(root, rel, text, settings.window)
            except Exception as exc:  # the chart-level step must cost its findings, never the scan
                message = f"internal error reading version conditions: {type(exc).__name__}: {exc}"
                problems.append(Finding(INTERNAL_ERROR.level, INTERNAL_ERROR.code, message, None, name))
        entries = scan_template(
            text, settings, name, default_registry(), problems, chart_values(root), gates, newline_defines
        )
        if root is not None:
            try:
                entries += computed_rows(root, rel, name, settings)
                problems += [replace(f, filename=name) for f in define_errors(root, rel, settings.window)]
            except Exception as exc:  # the chart-level step must cost its rows, never the scan
                message = f"internal error reading computed apiVersions: {type(exc).__name__}: {exc}"
                problems.append(Finding(INTERNAL_ERROR.level, INTERNAL_ERROR.code, message, None, name))
            entries.sort(key=lambda e: (e.line, e.readiness))
    else:
        from .scan import scan_stream  # scan's module: not imported by apply and diff

        entries = scan_stream(text, settings, name, default_registry(), problems, facts)
        # only a values.yaml or a ci/ file can be a chart's values: most files ask nothing more
        maybe_values = path.name == "values.yaml" or path.parts[-2:-1] == ("ci",)
        root = chart_root(path) if maybe_values else None
        if root is not None and path.name == "values.yaml" and root == path.resolve().parent:
            from .templating import values_annotations, values_scheduling

            for rows in (values_scheduling.scan_rows, values_annotations.scan_rows):
                entries += rows(text, settings, name, default_registry())
        if root is not None and is_values_file(path, root):
            from .templating.values_objects import scan_rows as object_rows

            entries += object_rows(text, settings, name, default_registry())
            entries.sort(key=lambda e: (e.line, e.readiness))
    result = FileResult(name, text, text, problems)
    result.slim(keep_diff=False)  # findings only: memory follows one file
    return FileOutcome(path, result, scan=entries)
