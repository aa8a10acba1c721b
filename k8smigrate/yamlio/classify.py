"""Classification: is a document templated, and what are its apiVersion, kind, name and namespace?

Read from its tree when it has one, else from a look at its raw text (``scan`` reports
templated and unparsed documents too).
"""

from __future__ import annotations

import re

from ..lazyre import lazy
from ..regexcode import regex
from ..tree import Mapping, Node, Scalar, Sequence, resolve
from .documents import Document

TEMPLATE_MARKERS = regex(r"\{\{|\{%|\{#")


def classify(text: str, doc: Document) -> None:
    """Decide whether a document is templated, and read its apiVersion and kind."""
    body = text[doc.start : doc.end]
    if TEMPLATE_MARKERS.search(body):
        doc.templated = doc.root is None or not _markers_inside_safe_scalars(text, doc)
    if doc.root is not None and not doc.templated and isinstance(doc.root, Mapping):
        doc.api_version = text_at(doc.root, "apiVersion")
        doc.kind = text_at(doc.root, "kind")
        meta = doc.root.get("metadata")
        meta = resolve(meta) if meta is not None else None
        doc.name = text_at(meta, "name") if isinstance(meta, Mapping) else None
        doc.namespace = text_at(meta, "namespace") if isinstance(meta, Mapping) else None
    else:
        doc.api_version, doc.kind = raw_api_kind(body)
        doc.name, doc.namespace = _regex_metadata(body)


def text_at(mapping: Mapping, key: str) -> str | None:
    """The string a key holds, as written (an alias followed to its anchored scalar); None for a collection."""
    node = mapping.get(key)
    node = resolve(node) if node is not None else None
    return node.value if isinstance(node, Scalar) else None


_METADATA = lazy(r"^metadata:[ \t]*(?:#[^\n]*)?\r?\n", re.M)
_TOP_LEVEL = lazy(r"\n(?=[^ \t\r\n#])")


def _regex_metadata(body: str) -> tuple[str | None, str | None]:
    """metadata.name and .namespace of a block-style document read without parsing it (for scan)."""
    m = _METADATA.search(body)
    if m is None:
        return None, None
    end = _TOP_LEVEL.search(body, m.end())
    block = body[m.end() : end.start() if end else len(body)]
    found: dict[str, str] = {}
    indent = -1
    for line in block.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        width = len(line) - len(line.lstrip(" "))
        indent = width if indent < 0 else indent
        if width != indent:
            continue
        key, sep, value = stripped.partition(":")
        if sep and key in ("name", "namespace"):
            value = value.split(" #", 1)[0].strip().strip("'\"")
            found[key] = value
    return found.get("name"), found.get("namespace")


_API_KIND = lazy(r"^(apiVersion|kind):[ \t]*['\"]?([\w./-]+)['\"]?[ \t]*(?:#.*)?\r?$", re.M)


def raw_api_kind(body: str) -> tuple[str | None, str | None]:
    """The first top-level ``apiVersion:`` and ``kind:`` values, in one pass over the text: what
    a document without a tree is classified by."""
    found: dict[str, str] = {}
    for m in _API_KIND.finditer(body):
        found.setdefault(m.group(1), m.group(2))
        if len(found) == 2:
            break
    return found.get("apiVersion"), found.get("kind")


def _markers_inside_safe_scalars(text: str, doc: Document) -> bool:
    """True when every template marker sits inside a quoted or plain string scalar (still valid YAML)."""
    spans: list[tuple[int, int]] = []
    if doc.root is None:
        return False
    stack: list[Node] = [doc.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            for e in node.entries:
                stack.extend((e.key, e.value))
        elif isinstance(node, Sequence):
            stack.extend(node)
        elif isinstance(node, Scalar) and node.src is not None and node.src.start >= 0:
            raw = text[node.src.start : node.src.end]
            if not raw.lstrip().startswith("{"):
                spans.append((node.src.start, node.src.end))
    spans.sort()
    markers = TEMPLATE_MARKERS.finditer(text, doc.start, doc.end)
    return all(any(a <= m.start() < b for a, b in spans) for m in markers)
