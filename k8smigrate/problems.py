"""Why a document cannot be migrated as read: invalid YAML, YAML the tree cannot hold, duplicate keys.

One answer for ``migrate`` and ``scan`` alike: the engine's gate stops the document with
these findings, and ``scan`` lists them as the file's problems.
"""

from __future__ import annotations

from .codes import DUPLICATE_KEY, INVALID_YAML, UNREADABLE, Code
from .results import Finding
from .yamlio import Document


def input_problems(doc: Document) -> list[tuple[Code, str, int]]:
    """``(code, message, line)`` of what stops a document: its read problem, else its duplicate keys."""
    if doc.problem is not None:
        if doc.problem.code == INVALID_YAML.code:
            return [(INVALID_YAML, f"invalid YAML: {doc.problem.message}", doc.problem.line)]
        return [(UNREADABLE, f"cannot read the document: {doc.problem.message}", doc.problem.line)]
    return [
        (
            DUPLICATE_KEY,
            f"{dup.message} (also on line {dup.other_line}); which one the API server keeps is undefined",
            dup.line,
        )
        for dup in doc.duplicates
    ]


def problem_findings(doc: Document, filename: str) -> list[Finding]:
    """The problems of a document as findings (none for a templated one: it is not read)."""
    if doc.templated:
        return []
    return [
        Finding(code.level, code.code, message, None, filename, doc.index, line or doc.line)
        for code, message, line in input_problems(doc)
    ]
