"""Turning results into what people and programs read: diffs, summaries, JSON reports.

The unified diff has ``a/`` and ``b/`` headers so that ``git apply`` accepts it; the JSON
report carries one RFC 6902 patch per changed document and every finding, with stable keys
(documented in docs/report-format.md).
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .results import LEVELS, FileResult, Finding
from .scan import ScanEntry

REPORT_VERSION = 1


def unified_diff(old: str, new: str, filename: str) -> str:
    """A ``git apply``-able unified diff of one file ("" when unchanged)."""
    if old == new:
        return ""
    name = filename.lstrip("/") if filename not in ("-", "<string>", "<stdin>") else "stdin"
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"a/{name}",
        tofile=f"b/{name}",
    )
    out: list[str] = []
    for line in lines:
        if line.endswith("\n"):
            out.append(line)
        else:  # the last line of a file without a final newline
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def change_summary(result: FileResult) -> list[str]:
    """One line per changed document: ``doc 0 Ingress web: extensions/v1beta1 → networking.k8s.io/v1; …``."""
    out: list[str] = []
    for doc in result.documents:
        if not doc.applied:
            continue
        what = f"doc {doc.index} {doc.kind or '?'}" + (f" {doc.name}" if doc.name else "")
        parts = [f"{doc.api_version} → {doc.new_api_version}", *doc.summary]
        out.append(f"{what}: " + "; ".join(parts))
    return out


def count_levels(findings: Iterable[Finding]) -> Counter[str]:
    return Counter(f.level for f in findings)


def summary_line(files: int, changed: int, findings: list[Finding], verb: str = "changed") -> str:
    """``3 files, 2 changed, 1 error, 0 warnings, 4 info`` for the end of a run."""
    levels = count_levels(findings)
    counts = ", ".join(
        f"{levels.get(level, 0)} {_plural(level, levels.get(level, 0))}" for level in reversed(LEVELS)
    )
    return f"{files} file{'s' if files != 1 else ''}, {changed} {verb}, {counts}"


def _plural(level: str, n: int) -> str:
    if level == "info":
        return "info"
    return level + ("s" if n != 1 else "")


def json_report(
    results: list[FileResult],
    errors: list[Finding],
    settings: dict[str, Any],
    scan: list[ScanEntry] | None = None,
) -> str:
    """The ``--format json`` report (schema: docs/report-format.md)."""
    files = [r.as_dict() for r in results]
    for r, entry in zip(results, files, strict=True):
        entry["diff"] = r.diff
    all_findings = [f for r in results for f in r.findings] + errors
    report: dict[str, Any] = {
        "version": REPORT_VERSION,
        "settings": settings,
        "files": files,
        "errors": [e.as_dict() for e in errors],
        "summary": {
            "files": len(results) + len(errors),
            "changed": sum(1 for r in results if r.changed),
            "findings": {level: count_levels(all_findings).get(level, 0) for level in LEVELS},
        },
    }
    if scan is not None:
        report["scan"] = [s.as_dict() for s in scan]
    return json.dumps(report, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
