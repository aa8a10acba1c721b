"""``--format markdown``: a report to paste as a pull-request comment (GitHub-flavoured Markdown).

A heading with the counts, a table of changed documents with their human summary, a table
of findings, a "Needs a human" table (every error and decision with the action or ``--set``
to take), then the unified diff folded in a ``<details>`` block. For ``scan``: a table of
the rows (documents on deprecated or removed APIs, readiness findings) instead. ``shown``
leaves findings and rows below ``--min-level`` out of the tables (never out of the counts).
Table cells are escaped so that no value (a file name, a message) can break the table or
start a code span.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .needs import Need
from .quoting import quote_path
from .report import Run, document_label, levels_text, report_findings
from .scan import ScanEntry

Shown = Callable[[str | None], bool]
"""Whether a finding or row of this level is listed (``--min-level``, ``--quiet``)."""


def _every(level: str | None) -> bool:
    return True


_VERBS = {"diff": "would change", "apply": "changed", "scan": "scanned"}


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _code(text: str) -> str:
    """An inline code span that survives backticks inside ``text``."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{_cell(text)}{pad}{fence}"


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    return "`" * (longest + 1)


def markdown_report(
    run: Run, *, verb: str | None = None, needs: list[Need] | None = None, shown: Shown = _every
) -> str:
    """The whole report; ``verb`` says what happened to changed files ("written", "would change");
    ``needs``: the "Needs a human" table (``needs.needs``)."""
    if run.scan is not None:
        return _scan_report(run, run.scan, needs or [], shown)
    verb = verb or _VERBS.get(run.command, "changed")
    window = _window(run)
    lines = [
        f"### k8smigrate {run.command}: {run.changed} of {len(run.outcomes)} "
        f"file{'' if len(run.outcomes) == 1 else 's'} {verb}",
        "",
        f"Target Kubernetes {window}. Findings: {levels_text(run.findings)}.",
        "",
    ]
    rows = [
        f"| {_code(quote_path(r.filename))} | {_cell(document_label(d.kind, d.name, d.index))} | "
        + _cell("; ".join([f"{d.api_version} → {d.new_api_version}", *d.summary]))
        + " |"
        for r in run.results
        for d in r.documents
        if d.applied
    ]
    if rows:
        lines += ["| File | Document | Change |", "| --- | --- | --- |", *rows, ""]
    lines += _findings(run, shown)
    lines += _needs(needs or [])
    diffs = "".join(r.diff for r in run.results)
    if diffs:
        fence = _fence(diffs)
        lines += [
            "<details><summary>Diff</summary>",
            "",
            f"{fence}diff",
            diffs.rstrip("\n"),
            fence,
            "",
            "</details>",
            "",
        ]
    return "\n".join(lines)


def _window(run: Run) -> str:
    if run.min_version == run.target_version:
        return run.target_version
    return f"{run.target_version} (and back to {run.min_version})"


def _needs(items: list[Need]) -> list[str]:
    if not items:
        return []
    lines = ["#### Needs a human", "", "| Where | Document | Code | What to do |", "| --- | --- | --- | --- |"]
    for n in items:
        lines.append(f"| {_code(n.where)} | {_cell(n.subject)} | {n.code} | {_cell(n.action)} |")
    return [*lines, ""]


def _findings(run: Run, shown: Shown) -> list[str]:
    findings = [f for f in run.findings if shown(f.level)]
    if not findings:
        return []
    lines = ["#### Findings", "", "| Level | Where | Code | Message |", "| --- | --- | --- | --- |"]
    for f in findings:
        name = quote_path(f.filename)
        where = f"{name}:{f.line}" if f.line else name
        message = f.message + (f" (at {f.path})" if f.path else "")
        origin = f" [{f.migration}]" if f.migration else ""
        lines.append(f"| {f.level} | {_code(where)} | {f.code}{_cell(origin)} | {_cell(message)} |")
    return [*lines, ""]


def _scan_report(run: Run, entries: list[ScanEntry], needs: list[Need], shown: Shown) -> str:
    removed = sum(1 for e in entries if e.status == "removed")
    apis = sum(1 for e in entries if not e.readiness)
    ready = len(entries) - apis
    fixable = sum(1 for e in entries if e.action == "apply")
    lines = [
        f"### k8smigrate scan: {apis} document{'' if apis == 1 else 's'} on deprecated "
        f"or removed APIs ({removed} removed), {ready} readiness finding{'' if ready == 1 else 's'} in "
        f"{len(run.outcomes)} file{'' if len(run.outcomes) == 1 else 's'}",
        "",
        f"Target Kubernetes {_window(run)}. Findings: {levels_text(report_findings(run))}; "
        f"{fixable} fixable by apply, {len(needs)} need{'s' if len(needs) == 1 else ''} a human.",
        "",
    ]
    listed = [e for e in entries if shown(e.level)]
    if listed:
        lines += [
            "| File | Category | Kind | Name | apiVersion | Status | Replacement | Migration |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for e in listed:
            if e.readiness:
                status = f"{e.level} {_code(e.code)}: {_cell(e.message)}"
                repl = ""
            else:
                status = f"removed in {e.removed_in}" if e.status == "removed" else f"deprecated in {e.deprecated_in}"
                repl = _cell(e.replacement or "none")
            how = e.how().strip().removeprefix("[").removesuffix("]").removeprefix("k8smigrate: ")
            how += " (templated)" if e.templated else ""
            where = _code(f"{quote_path(e.filename)}:{e.line}")
            lines.append(
                f"| {where} | {e.category} | {_cell(e.kind)} | {_cell(e.name or '')} | "
                f"{_code(e.api_version)} | {status} | {repl} | {_cell(how)} |"
            )
        lines.append("")
    lines += _findings(run, shown)
    lines += _needs(needs)
    return "\n".join(lines)
