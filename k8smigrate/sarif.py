"""``--format sarif``: findings as a SARIF 2.1.0 log for code-scanning upload (GitHub, GitLab…).

One run, one result per finding (and, for ``scan``, one per document on a deprecated or
removed API: ``K8SM-GEN-007`` removed at the target, ``K8SM-GEN-008`` deprecated). Rules
carry the meaning of each code, from the migration's ``codes`` or from ``GENERAL_CODES``.
Locations are relative to the working directory (``%SRCROOT%``) with 1-based lines; levels
map ``info`` to SARIF ``note``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .registry import Registry
from .report import Run
from .results import Finding
from .scan import ScanEntry
from .templating.codes import TEMPLATE_CODES

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

GENERAL_CODES = {
    "K8SM-GEN-001": "warning: templated document (Helm/Jinja markers) skipped",
    "K8SM-GEN-002": "info: --adopt-new-defaults: an old default left unset, the new default applies",
    "K8SM-GEN-003": "error: a field is set in both its old and its new form",
    "K8SM-GEN-004": "warning: a comment was dropped with a removed field",
    "K8SM-GEN-005": "error: invalid YAML",
    "K8SM-GEN-006": "error: duplicate key",
    "K8SM-GEN-007": "error: API removed at the target release and left in place",
    "K8SM-GEN-008": "warning: API deprecated at the target release",
    "K8SM-GEN-009": "error: API removed and its replacement is not served across the window",
    "K8SM-GEN-010": "error: a decision is needed (--set NAME=VALUE)",
    "K8SM-GEN-011": "error: the document cannot be read",
    "K8SM-GEN-012": "error: internal error, document left unchanged",
    "K8SM-GEN-013": "error: the file cannot be read (missing, binary, not UTF-8) or written",
    "K8SM-GEN-014": "warning: the file does not parse as a whole (a template?); left unchanged",
    **TEMPLATE_CODES,
}

_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def scan_finding(entry: ScanEntry) -> Finding:
    """A scan row as the finding that ``diff`` would give for it."""
    assert entry.level is not None  # set by ScanEntry itself
    text = f"{entry.subject()}: {entry.message}" if entry.readiness else f"{entry.subject()} {entry.message}"
    return Finding(entry.level, entry.code, text, entry.migration, entry.filename, entry.document, entry.line, "")


def artifact_uri(filename: str, cwd: Path | None = None) -> str | None:
    """A URI reference for a file: relative (to ``%SRCROOT%``) when under the working directory."""
    if filename in ("-", "<stdin>", "<string>"):
        return None
    path = Path(filename)
    base = (cwd or Path.cwd()).resolve()
    if path.is_absolute():
        try:
            path = path.resolve().relative_to(base)
        except ValueError:
            return path.resolve().as_uri()
    return quote(path.as_posix())


def _rule(code: str, registry: Registry) -> dict[str, Any]:
    meaning = GENERAL_CODES.get(code)
    if meaning is None:
        meaning = next((m.codes[code] for m in registry.migrations if code in m.codes), code)
    level, sep, text = meaning.partition(": ")
    if not sep or level not in _LEVELS:
        level, text = "warning", meaning
    return {
        "id": code,
        "shortDescription": {"text": text},
        "defaultConfiguration": {"level": _LEVELS[level]},
    }


def sarif_data(run: Run, version: str, registry: Registry, cwd: Path | None = None) -> dict[str, Any]:
    findings = list(run.findings)
    if run.scan is not None:
        findings += [scan_finding(e) for e in run.scan]
    codes = sorted({f.code for f in findings})
    rules = [_rule(code, registry) for code in codes]
    results: list[dict[str, Any]] = []
    for f in findings:
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": codes.index(f.code),
            "level": _LEVELS[f.level],
            "message": {"text": f.message + (f" (at {f.path})" if f.path else "")},
        }
        uri = artifact_uri(f.filename, cwd)
        if uri is not None:
            location: dict[str, Any] = {"artifactLocation": {"uri": uri}}
            if not uri.startswith("file:"):
                location["artifactLocation"]["uriBaseId"] = "%SRCROOT%"
            if f.line >= 1:
                location["region"] = {"startLine": f.line}
            result["locations"] = [{"physicalLocation": location}]
        if f.migration:
            result["properties"] = {"migration": f.migration, "document": f.document}
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "k8smigrate",
                        "version": version,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": (cwd or Path.cwd()).resolve().as_uri() + "/"}},
                "results": results,
            }
        ],
    }


def sarif_report(run: Run, version: str, registry: Registry, cwd: Path | None = None) -> str:
    return json.dumps(sarif_data(run, version, registry, cwd), indent=2, ensure_ascii=False) + "\n"
