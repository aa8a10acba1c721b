"""Kubernetes objects that a chart's values files hold: migrated where they are written.

Charts render whole objects from values: ``extraObjects``, ``extraDeploy``, the ``raw``
chart's ``resources:`` list (``{{ range .Values.resources }} --- {{ toYaml . }}``). An object
on a removed API can then sit in ``values.yaml`` or a ``ci/*.yaml`` values file, where no
migration of the templates sees it; rendered, the chart gives the plain migration that object.
This step gives it the same migration where it is written:

- an object is a block mapping of a values file with a string ``apiVersion``, a string
  ``kind`` and a ``metadata`` mapping (the outermost one: a Deployment's pod template is part
  of its Deployment). A reference such as ``scaleTargetRef: {apiVersion, kind, name}`` has no
  ``metadata`` and is not one;
- its lines are cut out at its indentation (the ``- `` of a list item included), migrated as a
  document of its own by the engine (the same migrations, decisions and findings), and the
  lines the migration changed are put back at that indentation; every other byte stays;
- findings are at the object's lines in the values file. An object whose lines cannot be cut
  out (a line of it less indented than the object, a flow mapping) is left as it is.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from ..engine import migrate_stream
from ..registry import Registry
from ..results import DocumentResult, Finding
from ..settings import Settings
from ..tree import Mapping, Node, Scalar, Sequence
from ..yamlio import EVERY, read_data, read_stream

if TYPE_CHECKING:
    from ..scan import ScanEntry


class Cut(NamedTuple):
    """One object's lines: where they stand, the text before it on its first line, the text."""

    start: int
    end: int
    first_line: int
    prefix: str
    text: str


def objects(text: str) -> list[Cut]:
    """The objects of a values file's text, in order, each cut out at its indentation."""
    if "apiVersion" not in text or "metadata" not in text or not _may_hold_objects(text):
        return []  # most values files: no object to look for
    docs = [d for d in read_stream(text, EVERY).documents if isinstance(d.root, Mapping)]
    if len(docs) != 1:
        return []
    root = docs[0].root
    assert isinstance(root, Mapping)
    if _is_object(root) or "kind" in root:
        return []  # a manifest, not values
    out: list[Cut] = []
    for node in _outermost_objects(root):
        cut = _cut(text, node)
        if cut is not None:
            out.append(cut)
    return out


def migrate_objects(
    text: str, settings: Settings, filename: str, registry: Registry
) -> tuple[str, list[Finding], list[DocumentResult]]:
    """``text`` with the objects it holds migrated, the findings (at their lines), and the
    objects that changed (numbered in the file's order, at their lines)."""
    findings: list[Finding] = []
    documents: list[DocumentResult] = []
    pieces: list[str] = []
    at = 0
    for n, cut in enumerate(objects(text)):
        result = migrate_stream(cut.text, settings, filename, registry)
        findings += [replace(f, line=f.line + cut.first_line - 1, document=n) for f in result.findings]
        documents += [replace(d, index=n, line=d.line + cut.first_line - 1) for d in result.documents if d.changed]
        pieces += [text[at : cut.start], _put_back(text[cut.start : cut.end], cut, result.text)]
        at = cut.end
    if not pieces:
        return text, findings, documents
    return "".join(pieces) + text[at:], findings, documents


def scan_rows(text: str, settings: Settings, filename: str, registry: Registry) -> list[ScanEntry]:
    """``scan``'s rows for the objects a values file holds, at their lines."""
    from ..scan import scan_stream

    rows: list[ScanEntry] = []
    for cut in objects(text):
        found = scan_stream(cut.text, settings, filename, registry)
        rows += [replace(e, line=e.line + cut.first_line - 1) for e in found]
    return rows


def _may_hold_objects(text: str) -> bool:
    """Whether the data of ``text`` holds an object below its root (read without a tree, which
    costs a fraction of one: the tree is built only for the values files that may hold one)."""
    try:
        docs = read_data(text)
    except Exception:  # the tree reads it, and decides
        return True
    stack: list[object] = [child for d in docs if isinstance(d, dict) for child in d.values()]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            if (
                "apiVersion" in current
                and not isinstance(current["apiVersion"], (dict, list))
                and "kind" in current
                and not isinstance(current["kind"], (dict, list))
                and isinstance(current.get("metadata"), dict)
            ):
                return True
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return False


def _is_object(node: Node) -> bool:
    return (
        isinstance(node, Mapping)
        and isinstance(node.get("apiVersion"), Scalar)
        and isinstance(node.get("kind"), Scalar)
        and isinstance(node.get("metadata"), Mapping)
    )


def _outermost_objects(node: Node) -> Iterator[Mapping]:
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        if current is not node and _is_object(current):
            assert isinstance(current, Mapping)
            yield current
            continue
        if isinstance(current, Mapping):
            stack.extend(e.value for e in reversed(current.entries))
        elif isinstance(current, Sequence):
            stack.extend(item.value for item in reversed(current.items))


def _cut(text: str, node: Mapping) -> Cut | None:
    """The object's lines, dedented to column 0 (None: they cannot be cut out cleanly)."""
    src = node.src
    if src is None or node.flow:
        return None
    line_start = text.rfind("\n", 0, src.start) + 1
    prefix = text[line_start : src.start]
    if prefix.strip() not in ("", "-") or "\t" in prefix:
        return None
    end = text.find("\n", max(src.end - 1, src.start))
    end = len(text) if end < 0 else end + 1
    lines = text[line_start:end].splitlines(keepends=True)
    indent = len(prefix)
    dedented = [lines[0][indent:]]
    for line in lines[1:]:
        if not line.strip():
            dedented.append(line[min(indent, len(line) - len(line.lstrip(" "))) :])
        elif line[:indent].strip(" ") or len(line) - len(line.lstrip(" ")) < indent:
            return None  # a comment or a line less indented than the object: not its own block
        else:
            dedented.append(line[indent:])
    first_line = text.count("\n", 0, line_start) + 1
    return Cut(line_start, end, first_line, prefix, "".join(dedented))


def _put_back(original: str, cut: Cut, migrated: str) -> str:
    """The object's original lines where the migration kept them; its new lines at its indentation."""
    if migrated == cut.text:
        return original
    old_lines = original.splitlines(keepends=True)
    cut_lines = cut.text.splitlines(keepends=True)
    new_lines = migrated.splitlines(keepends=True)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=cut_lines, b=new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out += old_lines[i1:i2]
            continue
        for j in range(j1, j2):
            line = new_lines[j]
            lead = cut.prefix if j == 0 else " " * len(cut.prefix)
            out.append(lead + line if line.strip() else line)
    return "".join(out)
