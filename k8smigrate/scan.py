"""Detection only: which documents use an API that is deprecated or removed in the window.

This is what ``k8smigrate scan`` prints. It reads ``apiVersion`` and ``kind`` of every
document (templated ones too, from their raw text) and looks them up in the lifecycle
table, saying for each whether k8smigrate can migrate it inside the window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .engine import element_kind, plan
from .registry import Registry
from .results import Finding
from .settings import Settings
from .versions import lifecycle
from .yamlio import Document, raw_api_versions, raw_kinds, read_stream

Status = Literal["removed", "deprecated"]


@dataclass(frozen=True)
class ScanEntry:
    """One document on a deprecated or removed API."""

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
    templated: bool
    namespace: str | None = None
    replacement_served: bool | None = None
    """Whether every release of the window serves the replacement (None: not known)."""
    category: str = ""
    """``removed-api`` or ``deprecated-api`` (from ``status`` when not given). Scan reads
    documents as text only, so the upgrade-readiness findings (fields, gates, runtime) are
    not scan entries: ``k8smigrate --check`` reports them."""

    def __post_init__(self) -> None:
        if not self.category:
            object.__setattr__(self, "category", f"{self.status}-api")  # frozen

    def format(self) -> str:
        where = f"{self.filename}:{self.line}"
        when = f"removed in {self.removed_in}" if self.status == "removed" else f"deprecated in {self.deprecated_in}"
        name = f" {self.name}" if self.name else ""
        if self.name and self.namespace:
            name = f" {self.namespace}/{self.name}"
        repl = f" -> {self.replacement}" if self.replacement else " (no replacement)"
        if self.replacement and self.replacement_served is False:
            repl += " (not served by every release of the window)"
        how = f" [k8smigrate: {self.migration}]" if self.migration else " [manual]"
        tmpl = " (templated)" if self.templated else ""
        return f"{where}: {self.kind}{name} {self.api_version} {when}{repl}{how}{tmpl}"

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
        }


def scan_stream(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding] | None = None,
) -> list[ScanEntry]:
    """The documents on deprecated or removed APIs; invalid YAML and duplicate keys go to ``problems``."""
    window = settings.window
    out: list[ScanEntry] = []

    def wanted(piece: str) -> bool:
        # Block YAML is read by a look at its text; JSON (and flow) documents need the parser.
        head = piece.lstrip(" \t\r\n-")
        return head.startswith(("{", "[")) and any(lifecycle(api, kind) for api, kind in _api_kinds(piece))

    for doc in read_stream(text, wanted=wanted).documents:
        if problems is not None:
            problems += _problems(doc, filename)
        api, kind = doc.api_version, doc.kind
        if api is None or kind is None:
            continue
        life = lifecycle(api, kind)
        element = element_kind(kind)
        if life is None:
            life = lifecycle(api, element)
        if life is None:
            continue
        status: Status
        if life.removed_in is not None and life.removed_in <= window.target:
            status = "removed"
        elif life.deprecated_in is not None and life.deprecated_in <= window.target:
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
            )
        )
    return out


def _problems(doc: Document, filename: str) -> list[Finding]:
    """What makes a document unreadable, as the engine reports it (templates are not read)."""
    if doc.templated:
        return []
    found = []
    if doc.problem is not None:
        message = f"invalid YAML: {doc.problem.message}"
        found.append(Finding("error", "K8SM-GEN-005", message, None, filename, doc.index, doc.problem.line))
    for dup in doc.duplicates:
        message = f"{dup.message} (also on line {dup.other_line})"
        found.append(Finding("error", "K8SM-GEN-006", message, None, filename, doc.index, dup.line))
    return found


def _api_kinds(piece: str) -> list[tuple[str, str]]:
    """Every (apiVersion, kind) pair a document's text could mean (List items included)."""
    return [(api, kind) for api in set(raw_api_versions(piece)) for kind in set(raw_kinds(piece))]
