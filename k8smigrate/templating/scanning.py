"""``scan`` of templates: the rows of the YAML skeleton, unmasked, and the computed apiVersions.

A template is scanned through the same skeleton it is migrated through (``mask``), so that
its readiness findings are found too; names and messages are unmasked. For a chart's
template, each apiVersion the chart computes (``apiversions.scan_rows``) is a row of its own,
per range of releases of the window, with the file and line of the helper branch, literal or
values key that produces it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ..prefilter import may_need, prefilter
from ..registry import Registry
from ..results import Finding
from ..runtime_typing import TYPE_CHECKING, Any
from ..scan import ScanEntry, scan_stream
from ..settings import Settings
from ..versions import Window
from .apiversions import ComputedApiVersion
from .golex import LexError
from .mask import Skeleton, Tag, unmask_message
from .migrate import (
    _blank,
    _chunk_at,
    _chunks,
    _finding,
    _skeleton,
    _tags,
    block_opener,
    dialect_of,
    migrate_template,
    outermost,
    skeleton_scope,
    version_gated,
)
from .unserved import DECISION as UNSERVED
from .values import scope

if TYPE_CHECKING:
    from .gates import Gate


def scan_template(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding],
    values: Any = None,
    gates: list[Gate] | None = None,
    newline_defines: frozenset[str] = frozenset(),
) -> list[ScanEntry]:
    """The rows of a template, read through its skeleton; lex errors and unreadable documents go to ``problems``.

    ``values``: the chart's values.yaml data, which resolves ``.Values`` paths as in ``apply``;
    ``gates``: the chart's version conditions in this file (``chart_gates``): a document they
    keep from every release without its API is not a row (K8SM-TPL-008, as in ``apply``);
    ``newline_defines``: the chart's defines whose output starts with a line break (``chart_gates``).
    """
    dialect = dialect_of(text, filename) or "go"
    try:
        tags, hidden, _actions, resolve = _tags(text, dialect, values, gates, settings.window, newline_defines)
    except LexError as exc:
        line = text.count("\n", 0, exc.pos) + 1
        problems.append(
            Finding("error", "K8SM-TPL-001", f"not a valid template: {exc.message}", None, filename, 0, line)
        )
        return []
    wanted = prefilter(registry, settings, settings.window)
    masked = _skeleton(text, tags, hidden, lambda piece: wanted(piece) and may_need(piece, registry, settings))
    skeleton = masked.skeleton
    found: list[Finding] = []
    chunks = _chunks(skeleton.text)
    gated = version_gated(text, chunks, gates or [], settings, filename)
    refused = _unread_blocks(
        outermost(masked.unreadable),
        text,
        tags,
        chunks,
        skeleton,
        problems,
        settings,
        filename,
        values,
        newline_defines,
    )
    read = "".join(
        "".join(_blank(skeleton.text[start:end])) if n in gated or n in refused else skeleton.text[start:end]
        for n, (start, end) in enumerate(chunks)
    )
    problems.extend(gated.values())
    with scope(skeleton_scope(skeleton, resolve)):
        entries = scan_stream(read, settings, filename, registry, found)
    for f in found:
        f = _finding(f, skeleton)
        piece = _document_text(text, f.line)
        if f.code == "K8SM-TPL-002" and not (
            wanted(piece) and may_need(piece, registry, settings, consequential=True)
        ):  # as apply decides (``migrate.idle``)
            f = replace(f, level="info", code="K8SM-TPL-007", message=f"{f.message}; nothing in it to migrate")
        problems.append(f)
    out = []
    for e in entries:
        out.append(
            replace(
                e,
                name=unmask_message(e.name, skeleton) if e.name else e.name,
                namespace=unmask_message(e.namespace, skeleton) if e.namespace else e.namespace,
                message=unmask_message(e.message, skeleton),
                templated=True,
                of_component=e.component,
            )
        )
    if dialect == "go":
        out = _chart_decisions(out, text, settings, filename, registry, values, gates, newline_defines)
    return out


def _unread_blocks(
    spans: list[tuple[int, int]],
    text: str,
    tags: list[Tag],
    chunks: list[tuple[int, int]],
    skeleton: Skeleton,
    problems: list[Finding],
    settings: Settings,
    filename: str,
    values: Any,
    newline_defines: frozenset[str],
) -> set[int]:
    """The blocks the skeleton left out because they do not read, as ``apply`` judges them (it
    must migrate to know whether a block writes a key the migration changes): their warning
    (K8SM-TPL-014) or refusal (K8SM-TPL-002) goes to ``problems``; the refused documents are
    returned, to be read as nothing (``apply`` leaves them as they are)."""
    if not spans:
        return set()
    openers = {block_opener(span, text, tags)[1] for span in spans}
    applied = migrate_template(text, settings, filename, values=values, dialect="go", newline_defines=newline_defines)
    refused: set[int] = set()
    for f in applied.findings:
        if f.line in openers and f.code in ("K8SM-TPL-014", "K8SM-TPL-002"):
            problems.append(f)
            if f.level == "error":
                refused.add(_chunk_at(chunks, skeleton.text, f.line))
    return refused


def _chart_decisions(
    entries: list[ScanEntry],
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    values: Any,
    gates: list[Gate] | None,
    newline_defines: frozenset[str],
) -> list[ScanEntry]:
    """The decisions of the chart-level step that ``apply`` offers for a row of a removed API
    (``unserved-kinds=gate``, ``api-branches=write``): whether one works takes a migration (the
    ``if`` must fit the template, the body must serve both APIs), so ``scan`` asks ``apply``'s,
    for the files that hold such a row only."""
    from . import branching, unserved

    window = settings.window
    asking = [
        e
        for e in entries
        if e.status == "removed"
        and e.migration is None
        and (
            unserved.gate_plan(e.api_version, e.kind, window) is not None
            or branching.branch_plan(e.api_version, e.kind, window) is not None
        )
    ]
    if not asking:
        return entries
    result = migrate_template(
        text,
        settings,
        filename,
        registry,
        values=values,
        report_only=True,
        gates=gates,
        newline_defines=newline_defines,
    )
    offered: dict[int, list[str]] = {}
    for f in result.findings:
        for decision in (f"{unserved.DECISION}=gate", f"{branching.DECISION}=write"):
            if f"--set {decision}" in f.message:
                offered.setdefault(f.line, []).append(decision)
    return [
        replace(e, decisions=(*e.decisions, *offered[e.line]), of_component=e.component)
        if e in asking and e.line in offered
        else e
        for e in entries
    ]


def _document_text(text: str, line: int) -> str:
    """The text of the document (cut at column-0 markers) that holds a 1-based line."""
    lines = text.splitlines(keepends=True)
    start = line - 1
    while start > 0 and not re.match(r"(---|\.\.\.)(\s|$)", lines[start]):
        start -= 1
    end = line
    while end < len(lines) and not re.match(r"(---|\.\.\.)(\s|$)", lines[end]):
        end += 1
    return "".join(lines[start:end])


def computed_rows(root: Path, rel: str, filename: str, settings: Settings) -> list[ScanEntry]:
    """The computed apiVersions of one template of the chart at ``root``, as scan rows."""
    rows = [r for r in _rows(str(root.resolve()), settings.window) if r.path == rel]
    offered = _offered_by_plan(root, rel, settings) if any(r.served is False for r in rows) else set()
    out = []
    for r in rows:
        where = f"{r.source} at {r.source_path}:{r.source_line}"
        api = r.api_version or "?"
        text = f"computed apiVersion {api} for {r.releases} ({where})"
        if r.problem:
            text += f": {r.problem}"
        removed = r.served is False
        out.append(
            ScanEntry(
                filename,
                0,
                r.line,
                api,
                r.kind or "",
                None,
                "breaking" if removed else "info",
                None,
                None,
                None,
                None,
                True,
                category="computed-api",
                level="error" if removed else "info",
                code="K8SM-TPL-005" if removed else "K8SM-TPL-006",
                message=text,
                decisions=(f"{UNSERVED}=gate",) if removed and r.line in offered else (),
            )
        )
    return out


def _offered_by_plan(root: Path, rel: str, settings: Settings) -> set[int]:
    """The lines of ``rel`` where the chart-level step of ``apply`` offers ``unserved-kinds=gate``
    for a computed apiVersion (it gates such a document when that fits the template)."""
    from .chartplan import plan_for

    findings = plan_for(root, settings).findings.get(rel, [])
    return {f.line for f in findings if f"--set {UNSERVED}=gate" in f.message}


def chart_gates(root: Path, rel: str, text: str, window: Window) -> tuple[list[Gate], frozenset[str]]:
    """The version conditions of one template of the chart at ``root`` (``gates.gates``), read
    as ``apply`` reads them (``chartplan.version_conditions``, from the chart as it is), and the
    chart's defines whose output starts with a line break (``define_output``)."""
    gates, newline_defines, _defines = _gates(str(root.resolve()), window)
    return gates.get(rel, []), newline_defines


def define_errors(root: Path, rel: str, window: Window) -> list[Finding]:
    """The findings ``apply`` gives a template from reading the whole chart (``chart_findings``)."""
    return _gates(str(root.resolve()), window)[2].get(rel, [])


@lru_cache(maxsize=8)
def _gates(root_text: str, window: Window) -> tuple[dict[str, list[Gate]], frozenset[str], dict[str, list[Finding]]]:
    from .chart_findings import chart_findings
    from .chartplan import sources_of, version_conditions
    from .sites import parsed

    root = Path(root_text)
    sources = sources_of(root)
    chart = parsed(sources)
    return version_conditions(sources, {}, window), chart.newline_defines, chart_findings(chart, root, window)


@lru_cache(maxsize=8)
def _rows(root_text: str, window: Window) -> list[ComputedApiVersion]:
    from .apiversions import scan_rows
    from .chartplan import sources_of

    return list(scan_rows(sources_of(Path(root_text)), window))
