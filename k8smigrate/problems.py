"""Why a document cannot be migrated as read: invalid YAML, YAML the tree cannot hold, duplicate keys.

One answer for ``migrate`` and ``scan`` alike: the engine's gate stops the document with
these findings, and ``scan`` lists them as the file's problems. Repeated keys in a map that
an enabled check declares ``last_wins`` (kubeadm's ``extraArgs``: kubeadm keeps the last)
are that check's to report, not a stop.
"""

from __future__ import annotations

from collections.abc import Collection

from .codes import DUPLICATE_KEY, INVALID_YAML, UNREADABLE, Code
from .registry import Registry
from .results import Finding
from .settings import Settings
from .tree import Mapping, Node
from .yamlio import Document


def last_wins(doc: Document, registry: Registry, settings: Settings) -> tuple[str, ...]:
    """The ``last_wins`` paths of the enabled checks of the document's (apiVersion, kind), when it repeats keys."""
    if not doc.duplicates or doc.api_version is None or doc.kind is None:
        return ()
    return tuple(
        path
        for check in registry.checks_for(doc.api_version, doc.kind)
        if settings.enabled(check.name, check.opt_in)
        for path in check.last_wins
    )


def repeated_lines(root: Node | None, paths: Collection[str]) -> set[int]:
    """The lines of the second and later occurrences of each key repeated in the maps at ``paths``."""
    lines: set[int] = set()
    for path in paths:
        node = root
        for part in path.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        if not isinstance(node, Mapping):
            continue
        seen: set[str] = set()
        for e in node.entries:
            if e.name in seen:
                lines.add(e.key.line)
            seen.add(e.name)
    return lines


def input_problems(doc: Document, last_wins: Collection[str] = ()) -> list[tuple[Code, str, int]]:
    """``(code, message, line)`` of what stops a document: its read problem, else its duplicate keys.

    Keys repeated in a map at one of the ``last_wins`` paths are left to the check that declared it.
    """
    if doc.problem is not None:
        if doc.problem.code == INVALID_YAML.code:
            return [(INVALID_YAML, f"invalid YAML: {doc.problem.message}", doc.problem.line)]
        return [(UNREADABLE, f"cannot read the document: {doc.problem.message}", doc.problem.line)]
    resolved = repeated_lines(doc.root, last_wins) if last_wins and doc.duplicates else set()
    return [
        (
            DUPLICATE_KEY,
            f"{dup.message} (also on line {dup.other_line}); which one the API server keeps is undefined",
            dup.line,
        )
        for dup in doc.duplicates
        if dup.line not in resolved
    ]


def problem_findings(doc: Document, filename: str, last_wins: Collection[str] = ()) -> list[Finding]:
    """The problems of a document as findings (none for a templated one: it is not read)."""
    if doc.templated:
        return []
    return [
        Finding(code.level, code.code, message, None, filename, doc.index, line or doc.line)
        for code, message, line in input_problems(doc, last_wins)
    ]
