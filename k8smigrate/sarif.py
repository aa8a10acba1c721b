"""``--format sarif``: findings as a SARIF 2.1.0 log for code-scanning upload (GitHub, GitLab…).

One run, one result per finding (and, for ``scan``, one per document on a deprecated or
removed API: ``K8SM-GEN-007`` removed at the target, ``K8SM-GEN-008`` deprecated). Rules
carry the level and meaning of each code as declared (``codes.GENERAL`` or the migration's
``codes``).
Locations are relative to the working directory (``%SRCROOT%``) with 1-based lines; levels
map ``info`` to SARIF ``note``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from .quoting import name_bytes
from .registry import Registry
from .report import Run, json_text, report_findings
from .runtime_typing import Any

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


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
            return "file://" + quote(name_bytes(path.resolve().as_posix()))
    return quote(name_bytes(path.as_posix()))  # the name's own bytes, so an undecodable name survives


def _rule(code: str, registry: Registry) -> dict[str, Any]:
    declared = registry.code(code)
    level, text = (declared.level, declared.summary) if declared is not None else ("warning", code)
    return {
        "id": code,
        "shortDescription": {"text": text},
        "defaultConfiguration": {"level": _LEVELS[level]},
    }


def sarif_data(run: Run, version: str, registry: Registry, cwd: Path | None = None) -> dict[str, Any]:
    findings = report_findings(run)
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
    return json_text(sarif_data(run, version, registry, cwd))
