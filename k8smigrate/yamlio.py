"""The one module that talks to ruamel.yaml: split a stream into documents and build trees.

Documents are found from parser events and their marks, never with a ``^---`` regex, and
every node of the tree records its character span so that ``render`` can splice edits into
the original text. ruamel's loosely typed objects do not leave this module.

When a stream does not parse as a whole (typically a Helm template), it is cut at column-0
document markers and each piece is parsed on its own, so that one broken or templated
document never stops the others from being migrated.
"""

from __future__ import annotations

import bisect
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ruamel.yaml import YAML

try:  # libyaml through ruamel.yaml.clib: the same events and marks, at C speed
    from _ruamel_yaml import CParser
except ImportError:  # pragma: no cover - a Python without the C extension
    CParser = None
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

from .render import comment_lines, eol_comment
from .scalars import Data, resolve_plain
from .tree import Alias, Entry, EntrySource, Item, Mapping, Node, Scalar, Sequence, Source

BOM = "\ufeff"
TEMPLATE_MARKERS = re.compile(r"\{\{|\{%|\{#")
_DOC_MARKER = re.compile(r"^(?:---|\.\.\.)(?=[ \t\r\n]|$)", re.M)
MAX_DEPTH = 500
_PARSE_ERRORS = (YAMLError, RecursionError, ValueError, AssertionError)
"""What reading a stream may raise: ruamel asserts on some directives (``%YAML 1.3``)."""


@dataclass
class Problem:
    """Why a document could not be read: a message and a 1-based line in the file."""

    message: str
    line: int
    other_line: int | None = None
    code: str = "K8SM-GEN-005"
    """K8SM-GEN-005 for invalid YAML; K8SM-GEN-011 for valid YAML this tool does not read."""


@dataclass
class Document:
    """One document of a stream: where it is, and its tree when it could be read."""

    index: int
    start: int
    end: int
    line: int
    root: Node | None = None
    problem: Problem | None = None
    duplicates: list[Problem] = field(default_factory=list)
    templated: bool = False
    api_version: str | None = None
    kind: str | None = None
    name: str | None = None
    namespace: str | None = None


@dataclass
class Stream:
    """A whole file: its text without BOM, and its documents in order."""

    text: str
    bom: bool
    documents: list[Document]
    whole: bool = True
    """False when the stream only parsed piece by piece (a template, or a broken document)."""
    libyaml: bool = False
    """True when libyaml read it; edits are then read back with libyaml too (the two parsers
    disagree on a few corners, such as tabs)."""


_NEWLINES: dict[int, tuple[str, list[int]]] = {}


def line_of(text: str, index: int) -> int:
    """1-based line number of a character index.

    Called once per node: counting from the start each time made parsing quadratic in the
    file size, so the newline offsets of the last few texts are kept and searched.
    """
    cached = _NEWLINES.get(id(text))
    if cached is None or cached[0] is not text:
        if len(_NEWLINES) >= 4:
            _NEWLINES.clear()
        cached = (text, [m.start() for m in re.finditer("\n", text)])
        _NEWLINES[id(text)] = cached
    return bisect.bisect_left(cached[1], index) + 1


def column_of(text: str, index: int) -> int:
    return index - (text.rfind("\n", 0, index) + 1)


def EVERY(_piece: str) -> bool:
    """A ``wanted`` predicate that builds the tree of every document (at libyaml speed)."""
    return True


def read_stream(text: str, wanted: Callable[[str], bool] | None = None) -> Stream:
    """Split ``text`` into documents and build the tree of every document that parses.

    With ``wanted``, a predicate over a document's raw text, only the documents it accepts
    (and those with template markers, to classify them) get a tree: the stream is checked
    by libyaml at C speed, cut at its column-0 document markers, and the wanted pieces are
    parsed on their own. The others keep ``root=None`` and what a look at their text says
    (apiVersion, kind). Without libyaml, or when the fast reading disagrees with itself, the
    whole stream is parsed as below.
    """
    bom = text.startswith(BOM)
    body = text[1:] if bom else text
    if wanted is not None and CParser is not None:
        fast = _read_fast(body, wanted)
        if fast is not None:
            return Stream(body, bom, fast, True, libyaml=True)
    whole = True
    try:
        documents = list(_parse(body, 0, 0))
    except _PARSE_ERRORS:
        documents = _parse_pieces(body)
        whole = False
    for doc in documents:
        _classify(body, doc)
    return Stream(body, bom, documents, whole)


def _read_fast(text: str, wanted: Callable[[str], bool]) -> list[Document] | None:
    """The documents of a stream that libyaml accepts, trees only where wanted; None to fall back."""
    assert CParser is not None
    try:
        parser = CParser(text)
        try:
            parser.raw_parse()
        finally:
            parser.dispose()
    except Exception:  # any complaint: the careful path reports it precisely
        return None
    documents: list[Document] = []
    for start, end, content in _pieces(text):
        index = len(documents)
        piece = text[start:end]
        if wanted(piece) or TEMPLATE_MARKERS.search(piece):
            try:
                found = list(_parse(text, start, index, fast=True, end=end))
            except _PARSE_ERRORS:
                return None
            if len(found) != 1:
                return None
            doc = found[0]
        else:
            doc = Document(index, start, end, line_of(text, content))
        _classify(text, doc)
        documents.append(doc)
    return documents


def _pieces(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, first content index) of every document, cut at column-0 markers.

    A ``---`` line always starts a document (YAML forbids it inside any scalar); text before
    the first marker, or after a ``...``, is a document only when it has content. Directive
    lines stay with the ``---`` they precede.
    """
    marks = [(m.start(), m.group(0)) for m in _DOC_MARKER.finditer(text)]
    cuts: list[tuple[int, bool]] = [(0, False)]
    for pos, marker in marks:
        if marker == "---":
            pos = _directives_start(text, pos)
        cuts.append((pos, marker == "---"))
    bounds = [*cuts, (len(text), False)]
    for (start, explicit), (end, _next) in pairwise(bounds):
        content = _first_content(text, start, end, explicit)
        if explicit or content is not None:
            yield start, end, content if content is not None else start


def _directives_start(text: str, pos: int) -> int:
    """Move a cut before the ``%`` directive lines that belong to the ``---`` at ``pos``."""
    while pos > 0:
        prev = text.rfind("\n", 0, pos - 1) + 1
        if not text.startswith("%", prev):
            break
        pos = prev
    return pos


def _first_content(text: str, start: int, end: int, explicit: bool) -> int | None:
    """Index of the first line that is not blank, a comment, a directive or a marker."""
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        line = text[pos:stop].strip()
        if line.startswith("---") and explicit:
            rest = line[3:].strip()
            if rest and not rest.startswith("#"):
                return pos
        elif line and not line.startswith(("#", "%", "...")):
            return pos
        if nl < 0:
            break
        pos = nl + 1
    return None


def _parse_pieces(text: str) -> list[Document]:
    """Fallback for a stream that does not parse: cut at column-0 markers and parse each piece."""
    cuts = [0] + [m.start() for m in _DOC_MARKER.finditer(text)] + [len(text)]
    documents: list[Document] = []
    for start, end in pairwise(cuts):
        piece = text[start:end]
        if not piece.strip() or _only_comments_and_markers(piece):
            continue
        index = len(documents)
        try:
            found = list(_parse(text, start, index, require_start=start, end=end))
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + line_of(text, start) if mark is not None else line_of(text, start)
            found = [Document(index, start, end, line_of(text, start), problem=Problem(_message(exc), line))]
        except Exception as exc:  # never let one piece stop the file: it becomes a finding
            position = getattr(exc, "position", None)  # a ReaderError (NUL, control character) has no mark
            line = line_of(text, start + position if isinstance(position, int) else start)
            found = [Document(index, start, end, line, problem=Problem(f"{type(exc).__name__}: {exc}", line))]
        for doc in found:
            doc.index = len(documents)
            documents.append(doc)
    return documents


def _only_comments_and_markers(piece: str) -> bool:
    for line in piece.splitlines():
        s = line.strip()
        if s and not s.startswith("#") and not _DOC_MARKER.match(s) and not s.startswith("%"):
            return False
    return True


def _message(exc: MarkedYAMLError) -> str:
    parts = [p for p in (exc.context, exc.problem) if p]
    return ", ".join(str(p) for p in parts) or "invalid YAML"


def _parse(
    text: str,
    offset: int,
    first_index: int,
    require_start: int | None = None,
    fast: bool = False,
    end: int | None = None,
) -> Iterator[Document]:
    """Documents of ``text``, or of the piece ``text[offset:end]`` with indices into ``text``.

    The builder keeps the whole ``text`` (not a slice of it), so that line numbers come from
    one cached table of newlines instead of one per piece, which made large files quadratic.
    """
    source = text[offset:end] if offset or end is not None else text
    events = _c_events(source) if fast and CParser is not None else YAML(typ="rt").parse(io.StringIO(source))
    builder = _Builder(text, offset)
    index = first_index
    doc: Document | None = None
    stack: list[Any] = []
    for event in events:
        if isinstance(event, (StreamStartEvent, StreamEndEvent)):
            continue
        if isinstance(event, DocumentStartEvent):
            start = event.start_mark.index + offset
            doc = Document(index, start, start, line_of(text, start))
            builder.reset()
            stack = []
            continue
        if isinstance(event, DocumentEndEvent):
            assert doc is not None
            doc.end = event.end_mark.index + offset
            doc.root = builder.root if builder.problem is None else None
            doc.problem = builder.problem
            doc.duplicates = builder.duplicates
            if doc.root is not None and doc.root.src is not None:
                doc.line = line_of(text, doc.root.src.start)
            yield doc
            index += 1
            doc = None
            continue
        builder.feed(event, stack)


def _c_events(source: str) -> Iterator[Any]:
    """libyaml's events for ``source`` (same classes and marks as ruamel's own parser)."""
    assert CParser is not None
    parser = CParser(source)
    try:
        while True:
            event = parser.get_event()
            yield event
            if isinstance(event, StreamEndEvent):
                return
    finally:
        parser.dispose()


class _Unsupported(Exception):
    """Valid YAML that the tree cannot hold (complex or explicit keys, deep nesting): one document's problem."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class _Builder:
    """Turns parser events into a tree with source spans."""

    def __init__(self, text: str, offset: int) -> None:
        self.text = text
        self.offset = offset
        self.root: Node | None = None
        self.duplicates: list[Problem] = []
        self.anchors: dict[str, Node] = {}
        self.problem: Problem | None = None

    def reset(self) -> None:
        self.root = None
        self.duplicates = []
        self.anchors = {}
        self.problem = None

    def feed(self, event: Any, stack: list[Any]) -> None:
        """Build from one event; a construct the tree cannot hold stops this document only."""
        if self.problem is not None:
            return  # the rest of the document is skipped; the parser still checks its syntax
        try:
            self._feed(event, stack)
        except _Unsupported as exc:
            self.problem = Problem(f"{exc}; the document is left unchanged", exc.line, code="K8SM-GEN-011")

    def _feed(self, event: Any, stack: list[Any]) -> None:
        if isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            done, _pending, _keys = stack.pop()
            self._finish(done, event)
            self._attach(done, stack)
            return
        start = event.start_mark.index + self.offset
        if len(stack) > MAX_DEPTH:
            raise _Unsupported(f"nesting deeper than {MAX_DEPTH} levels", line_of(self.text, start))
        if isinstance(event, MappingStartEvent):
            m = Mapping(flow=bool(event.flow_style))
            m.src = Source(start, start, 0)
            self._props(m, event)
            stack.append([m, None, {}])  # the mapping, its pending key, and the lines of its keys by name
            return
        if isinstance(event, SequenceStartEvent):
            s = Sequence(flow=bool(event.flow_style))
            s.src = Source(start, start, 0)
            self._props(s, event)
            stack.append([s, None, None])
            return
        end = event.end_mark.index + self.offset
        node: Node
        if isinstance(event, AliasEvent):
            node = Alias(str(event.anchor), self.anchors.get(str(event.anchor)))
        else:
            assert isinstance(event, ScalarEvent)
            style = event.style or None  # libyaml says "" for plain
            node = Scalar(str(event.value), style, event.tag if event.tag not in (None, "!") else None)
            if event.value == "" and style is None and start == end:
                start = end = -1  # an empty value: placed after its key's colon below
        node.anchor = None if isinstance(node, Alias) else event.anchor
        if node.anchor:
            self.anchors[node.anchor] = node
        node.src = Source(start, end, column_of(self.text, start) if start >= 0 else 0)
        node.line = line_of(self.text, start) if start >= 0 else 0
        node.dirty = False
        self._attach(node, stack)

    def _props(self, node: Node, event: Any) -> None:
        node.anchor = event.anchor
        if event.anchor:
            self.anchors[str(event.anchor)] = node
        node.tag = event.tag if event.tag not in (None, "!") else None
        node.dirty = False

    def _attach(self, node: Node, stack: list[Any]) -> None:
        if not stack:
            self.root = node
            return
        parent, pending, key_lines = stack[-1]
        if isinstance(parent, Sequence):
            parent.items.append(Item(node))
        elif pending is None:
            line = node.line or self._line_of_collection(stack)
            if not isinstance(node, Scalar):
                raise _Unsupported("complex mapping keys (a collection or alias as key) are not supported", line)
            if node.src is None or node.src.start < 0:
                raise _Unsupported("an empty mapping key is not supported", line)
            stack[-1][1] = node
        else:
            assert isinstance(parent, Mapping)
            key: Scalar = pending
            if node.src is not None and node.src.start < 0:
                colon = self._colon_after(key)
                if colon >= 0:
                    node.src = Source(colon + 1, colon + 1, 0)
                    node.line = key.line
                elif not parent.flow:  # a flow entry without a value ({a, b}) is placed in _finish_flow
                    raise _Unsupported("a mapping key without ':'", key.line)
            # a dict of the keys seen so far: scanning the entries for each key made large mappings quadratic
            earlier = key_lines.setdefault(key.value, [])
            for other_line in earlier:
                self.duplicates.append(Problem(f"duplicate key {key.value!r}", key.line, other_line=other_line))
            earlier.append(key.line)
            parent.entries.append(Entry(key, node))
            stack[-1][1] = None

    def _line_of_collection(self, stack: list[Any]) -> int:
        parent = stack[-1][0]
        return line_of(self.text, parent.src.start) if parent.src is not None else 0

    def _colon_after(self, key: Scalar) -> int:
        """The ``:`` indicator right after a key (spaces allowed), or -1."""
        if key.src is None:
            return -1
        i, text = key.src.end, self.text
        while i < len(text) and text[i] in " \t":
            i += 1
        return i if i < len(text) and text[i] == ":" else -1

    def _finish(self, node: Node, event: Any) -> None:
        """Fix the span of a finished collection and record where each entry or item stands."""
        assert node.src is not None
        text = self.text
        if isinstance(node, (Mapping, Sequence)) and node.flow:
            node.src.end = event.end_mark.index + self.offset
            node.src.col = column_of(text, node.src.start)
            node.line = line_of(text, node.src.start)
            self._finish_flow(node)
            return
        if isinstance(node, Mapping):
            self._finish_mapping(node)
        elif isinstance(node, Sequence):
            self._finish_sequence(node)

    def _finish_flow(self, node: Mapping | Sequence) -> None:
        """Record each flow entry's key and value span; ``end`` is where the next one starts."""
        spans: list[tuple[int, int, int, int]] = []
        if isinstance(node, Mapping):
            for e in node.entries:
                assert e.key.src is not None and e.value.src is not None
                value_src = e.value.src
                if value_src.start < 0:
                    value_src.start = value_src.end = e.key.src.end
                spans.append((e.key.src.start, e.key.src.end, value_src.start, value_src.end))
        else:
            for item in node.items:
                assert item.value.src is not None
                start, end = item.value.src.start, item.value.src.end
                spans.append((start, start, start, end))
        children: list[Entry] | list[Item] = node.entries if isinstance(node, Mapping) else node.items
        for i, (ks, ke, vs, ve) in enumerate(spans):
            nxt = spans[i + 1][0] if i + 1 < len(spans) else ve
            children[i].src = EntrySource(id(node), i, -1, -1, ks, ke, vs, ve, nxt)
        if spans and node.src is not None:
            node.src.open_end = spans[0][0]
            node.src.close_start = spans[-1][3]
            node.src.sep = self.text[spans[0][3] : spans[1][0]] if len(spans) > 1 else ""

    def _finish_mapping(self, node: Mapping) -> None:
        text = self.text
        assert node.src is not None
        if not node.entries:
            return
        first = node.entries[0].key
        assert first.src is not None
        node.src.start = _explicit_indicator(text, first.src.start)
        node.src.col = first.src.col
        node.line = first.line
        prev_end = node.src.start
        for i, e in enumerate(node.entries):
            ks = e.key.src
            vs = e.value.src
            assert ks is not None and vs is not None
            line_start = text.rfind("\n", 0, ks.start) + 1 if i else node.src.start
            end = entry_end(text, e.value)
            e.src = EntrySource(
                id(node), i, prev_end if i else node.src.start, line_start, ks.start, ks.end, vs.start, vs.end, end
            )
            if text.find("#", e.src.head_start, line_start) >= 0:  # find: no slice for the common case
                e.head_comments = comment_lines(text[e.src.head_start : line_start])
            a, b = (vs.end, end) if _inline(e.value) else (ks.end, vs.start)
            if text.find("#", a, b) >= 0:
                e.eol_comment = eol_comment(text[a:b])
            prev_end = end
        node.src.end = prev_end

    def _finish_sequence(self, node: Sequence) -> None:
        text = self.text
        assert node.src is not None
        if not node.items:
            return
        prev_end = node.src.start
        for i, item in enumerate(node.items):
            vs = item.value.src
            assert vs is not None
            dash = _find_dash(text, prev_end if i else node.src.start)
            line_start = text.rfind("\n", 0, dash) + 1 if i else dash
            end = entry_end(text, item.value)
            if vs.start < 0:  # "- " with nothing after it
                vs.start = vs.end = dash + 1
            item.src = EntrySource(
                id(node), i, prev_end if i else dash, line_start, dash, dash + 1, vs.start, vs.end, end
            )
            if text.find("#", item.src.head_start, line_start) >= 0:
                item.head_comments = comment_lines(text[item.src.head_start : line_start])
            a, b = (vs.end, end) if _inline(item.value) else (dash + 1, vs.start)
            if text.find("#", a, b) >= 0:
                item.eol_comment = eol_comment(text[a:b])
            prev_end = end
        node.src.start = node.items[0].src.key_start if node.items[0].src else node.src.start
        node.src.col = column_of(text, node.src.start)
        node.line = line_of(text, node.src.start)
        node.src.end = prev_end


def _explicit_indicator(text: str, key_start: int) -> int:
    """Where a key's entry starts: at its ``?`` indicator when it is an explicit key on that line."""
    line_start = text.rfind("\n", 0, key_start) + 1
    prefix = text[line_start:key_start]
    q = prefix.rfind("?")
    if q >= 0 and not prefix[q + 1 :].strip() and (q == 0 or prefix[q - 1] in " \t-"):
        return line_start + q
    return key_start


def _inline(node: Node) -> bool:
    return isinstance(node, (Scalar, Alias)) or (isinstance(node, (Mapping, Sequence)) and node.flow)


def _find_dash(text: str, pos: int) -> int:
    """The next ``-`` indicator at or after ``pos``, skipping blank and comment lines."""
    i = pos
    n = len(text)
    while i < n:
        c = text[i]
        if c == "-":
            return i
        if c == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl + 1
            continue
        i += 1
    raise ValueError("sequence item without a dash")


def content_end(text: str, node: Node) -> int:
    """Index just after the last character that belongs to ``node``'s value."""
    assert node.src is not None
    if isinstance(node, Mapping) and not node.flow and node.entries:
        return content_end(text, node.entries[-1].value)
    if isinstance(node, Sequence) and not node.flow and node.items:
        return content_end(text, node.items[-1].value)
    if isinstance(node, Scalar) and node.style in ("|", ">"):
        return node.src.start + len(text[node.src.start : node.src.end].rstrip())
    return node.src.end


def entry_end(text: str, value: Node) -> int:
    """Index just after the newline that ends the line where ``value`` ends (or end of text)."""
    end = content_end(text, value)
    nl = text.find("\n", end)
    return len(text) if nl < 0 else nl + 1


def _classify(text: str, doc: Document) -> None:
    """Decide whether a document is templated, and read its apiVersion and kind."""
    body = text[doc.start : doc.end]
    if TEMPLATE_MARKERS.search(body):
        doc.templated = doc.root is None or not _markers_inside_safe_scalars(text, doc)
    if doc.root is not None and not doc.templated and isinstance(doc.root, Mapping):
        api = doc.root.get("apiVersion")
        kind = doc.root.get("kind")
        doc.api_version = api.value if isinstance(api, Scalar) else None
        doc.kind = kind.value if isinstance(kind, Scalar) else None
        meta = doc.root.get("metadata")
        name = meta.get("name") if isinstance(meta, Mapping) else None
        doc.name = name.value if isinstance(name, Scalar) else None
        namespace = meta.get("namespace") if isinstance(meta, Mapping) else None
        doc.namespace = namespace.value if isinstance(namespace, Scalar) else None
    else:
        doc.api_version = _regex_field(body, "apiVersion")
        doc.kind = _regex_field(body, "kind")
        doc.name, doc.namespace = _regex_metadata(body)


_METADATA = re.compile(r"^metadata:[ \t]*(?:#[^\n]*)?\r?\n", re.M)
_TOP_LEVEL = re.compile(r"\n(?=[^ \t\r\n#])")


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


_RAW_API = re.compile(r"""["']?apiVersion["']?[ \t]*:[ \t]*["']?([\w./-]+)""")
_RAW_KIND = re.compile(r"""["']?kind["']?[ \t]*:[ \t]*["']?(\w+)""")


def raw_api_versions(piece: str) -> list[str]:
    """Every apiVersion value a document's text names, at any depth, in YAML or JSON (a pre-filter)."""
    return _RAW_API.findall(piece)


def raw_kinds(piece: str) -> list[str]:
    """Every kind value a document's text names, at any depth (a pre-filter)."""
    return _RAW_KIND.findall(piece)


def _regex_field(body: str, name: str) -> str | None:
    m = re.search(rf"^{name}:[ \t]*['\"]?([\w./-]+)['\"]?[ \t]*(?:#.*)?\r?$", body, re.M)
    return m.group(1) if m else None


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


def directives(text: str, start: int) -> str:
    """The ``%`` directive lines above a document's root at ``start``, with a ``---`` after them.

    A root's own text does not parse without them when it uses a ``%TAG`` handle, so a root
    read back alone is prefixed with this ("" when there are none). Walks up over blank,
    comment and marker lines only: bounded by the document's head, never the whole file.
    """
    found: list[str] = []
    end = start
    while end > 0:
        begin = text.rfind("\n", 0, end - 1) + 1
        line = text[begin:end]
        stripped = line.strip()
        marker = _DOC_MARKER.match(stripped) is not None
        if stripped.startswith("%"):
            found.append(line.rstrip("\r\n") + "\n")
        elif (marker and found) or (stripped and not marker and not stripped.startswith("#")):
            break  # the previous document's marker, or content: no more directives above
        end = begin
    return "".join(reversed(found)) + "---\n" if found else ""


def read_data(text: str, libyaml: bool = True) -> list[Data]:
    """The data of every document of ``text``, read as the tree reads it, without building one.

    The engine checks every edited document by reading its new text back; this does that at
    a fraction of the cost of a tree (no spans, no comments), with libyaml when present.
    Text that does not parse raises ``ValueError``.
    """
    try:
        return _read_data(text, libyaml)
    except YAMLError as exc:
        raise ValueError(str(exc)) from exc


def _read_data(text: str, libyaml: bool) -> list[Data]:
    if CParser is not None and libyaml:
        events: Iterator[Any] = _c_events(text)
    else:
        events = YAML(typ="rt").parse(io.StringIO(text))
    docs: list[Data] = []
    stack: list[list[Any]] = []  # [container, pending key] per open collection
    anchors: dict[str, Data] = {}
    for event in events:
        if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
            container: Any = {} if isinstance(event, MappingStartEvent) else []
            if event.anchor:
                anchors[str(event.anchor)] = container
            stack.append([container, _NO_KEY, []])
            continue
        if isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            container, _key, merges = stack.pop()
            for merged in merges:  # explicit keys win over merged ones, wherever they stand
                for k, v in merged.items():
                    container.setdefault(k, v)
            value: Data = container
        elif isinstance(event, ScalarEvent):
            value = _scalar_data(event)
            if event.anchor:
                anchors[str(event.anchor)] = value
        elif isinstance(event, AliasEvent):
            if str(event.anchor) not in anchors:
                raise ValueError(f"unknown alias *{event.anchor}")
            value = anchors[str(event.anchor)]
        elif isinstance(event, DocumentStartEvent):
            anchors = {}
            continue
        else:
            continue
        if not stack:
            docs.append(value)
            continue
        top = stack[-1]
        if isinstance(top[0], list):
            top[0].append(value)
        elif top[1] is _NO_KEY:
            top[1] = (event, value)
        else:
            key_event, key = top[1]
            top[1] = _NO_KEY
            if isinstance(key_event, ScalarEvent) and key_event.value == "<<" and not key_event.style:
                top[2].extend(m for m in (value if isinstance(value, list) else [value]) if isinstance(m, dict))
                continue
            if isinstance(key, (dict, list)):
                raise ValueError("complex mapping keys are not supported")
            top[0][_key_string(key)] = value
    return docs


_NO_KEY = object()


def _scalar_data(event: Any) -> Data:
    """What ``Scalar.data`` says for the node the builder makes of this event."""
    style = event.style or None
    tag = event.tag if event.tag not in (None, "!") else None
    value = str(event.value)
    if style is not None or (tag is not None and tag.endswith(":str")):
        return value
    resolved = resolve_plain(value)
    if tag is not None and tag.endswith(":int"):
        return resolved if isinstance(resolved, int) else value
    return resolved


def _key_string(key: Data) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return "null" if key is None else str(key)
