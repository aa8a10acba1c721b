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
from typing import TYPE_CHECKING, Any

from ..prefilter import may_need, prefilter
from ..registry import Registry
from ..results import Finding
from ..scan import ScanEntry, scan_stream
from ..settings import Settings
from ..versions import Window
from .apiversions import ComputedApiVersion
from .golex import LexError
from .mask import unmask_message
from .migrate import (
    _blank,
    _chunks,
    _finding,
    _skeleton,
    _tags,
    dialect_of,
    on_removed_apis,
    removed_documents,
    skeleton_scope,
    version_gated,
)
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
) -> list[ScanEntry]:
    """The rows of a template, read through its skeleton; lex errors and unreadable documents go to ``problems``.

    ``values``: the chart's values.yaml data, which resolves ``.Values`` paths as in ``apply``;
    ``gates``: the chart's version conditions in this file (``chart_gates``): a document they
    keep from every release without its API is not a row (K8SM-TPL-008, as in ``apply``).
    """
    dialect = dialect_of(text, filename) or "go"
    try:
        tags, hidden, _actions, resolve = _tags(text, dialect, values)
    except LexError as exc:
        line = text.count("\n", 0, exc.pos) + 1
        problems.append(
            Finding("error", "K8SM-TPL-001", f"not a valid template: {exc.message}", None, filename, 0, line)
        )
        return []
    wanted = prefilter(registry, settings, settings.window)
    skeleton = _skeleton(
        text, tags, hidden, lambda piece: wanted(piece) and may_need(piece, registry, settings)
    ).skeleton
    found: list[Finding] = []
    chunks = _chunks(skeleton.text)
    gated = version_gated(text, chunks, gates or [], settings, filename)
    read = "".join(
        "".join(_blank(skeleton.text[start:end])) if n in gated else skeleton.text[start:end]
        for n, (start, end) in enumerate(chunks)
    )
    problems.extend(gated.values())
    with scope(skeleton_scope(skeleton, resolve)):
        entries = scan_stream(read, settings, filename, registry, found)
    for f in found:
        f = _finding(f, skeleton)
        if f.code == "K8SM-TPL-002" and not wanted(_document_text(text, f.line)):
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
                decisions=e.decisions + _unserved_decision(e, dialect, settings),
                of_component=e.component,
            )
        )
    return out


def _unserved_decision(entry: ScanEntry, dialect: str, settings: Settings) -> tuple[str, ...]:
    """``unserved-kinds=gate`` for a row of a kind that no apiVersion serves from some release
    of the window on, which that decision settles in a Go template (``unserved``; its other
    value, ``keep``, leaves the error, so it is not offered)."""
    from .unserved import DECISION, gate_release

    if dialect != "go" or entry.status != "removed" or entry.migration is not None:
        return ()
    if gate_release(entry.api_version, entry.kind, settings.window) is None:
        return ()
    return (f"{DECISION}=gate",)


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
            )
        )
    return out


def chart_gates(root: Path, rel: str, text: str, window: Window) -> list[Gate]:
    """The version conditions of one template of the chart at ``root`` (``gates.gates``), when
    ``text`` writes a document on an API removed in the window (else none matter)."""
    if not any(removed_documents(text, _chunks(text), window)):
        return []
    return _gates(str(root.resolve()), window).get(rel, [])


@lru_cache(maxsize=8)
def _gates(root_text: str, window: Window) -> dict[str, list[Gate]]:
    from .chartplan import sources_of
    from .gates import gates

    sources = sources_of(Path(root_text))
    return gates(sources, window, on_removed_apis(sources.templates, window))


@lru_cache(maxsize=8)
def _rows(root_text: str, window: Window) -> list[ComputedApiVersion]:
    from .apiversions import scan_rows
    from .chartplan import sources_of

    return list(scan_rows(sources_of(Path(root_text)), window))
