"""The Python readers over ruamel.yaml's parser events: the tree builder, and the data reader.

The builder makes a ``tree`` whose every node knows its span.

Every node records where it stands (``Source``: start, end, column; for entries and items also
their head comments, key or dash, and line end), so that ``render`` can splice edits into the
original text and leave every other byte alone. Valid YAML the tree cannot hold (complex keys,
deep nesting) becomes the document's ``Problem``, never an exception.

``build.parse_documents`` asks the C builder first, which makes the same tree, and
``readback.read_data`` the C reader; this module (and ruamel.yaml with it) is imported only
when those decline a text or are not installed.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from ..comments import comment_lines, eol_comment
from ..runtime_typing import Any
from ..scalars import Data, resolve_plain
from ..tree import Alias, Entry, EntrySource, Item, Mapping, Node, Scalar, Sequence, Source
from .documents import MAX_DEPTH, Document, Problem
from .events import (
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
    events,
)
from .lines import column_of, line_of, newline_offsets
from .spans import content_end, entry_end


def parse_with_events(text: str, offset: int, first_index: int, fast: bool, end: int | None) -> Iterator[Document]:
    source = text[offset:end] if offset or end is not None else text
    builder = _Builder(text, offset)
    feed = builder.feed
    index = first_index
    doc: Document | None = None
    for event in events(source, libyaml=fast):
        if type(event) in _NODE_EVENTS:  # most events: one set lookup instead of a chain of isinstance
            feed(event)
            continue
        if isinstance(event, (StreamStartEvent, StreamEndEvent)):
            continue
        if isinstance(event, DocumentStartEvent):
            start = event.start_mark.index + offset
            doc = Document(index, start, start, line_of(text, start))
            builder.reset()
            continue
        if isinstance(event, DocumentEndEvent):
            assert doc is not None
            doc.end = event.end_mark.index + offset
            doc.root = builder.root if builder.problem is None else None
            doc.problem = builder.problem
            doc.duplicates = builder.duplicates
            doc.shares = builder.shares
            if doc.root is not None and doc.root.src is not None:
                doc.line = line_of(text, doc.root.src.start)
            yield doc
            index += 1
            doc = None
            continue
        feed(event)


_NODE_EVENTS = frozenset(
    (ScalarEvent, MappingStartEvent, MappingEndEvent, SequenceStartEvent, SequenceEndEvent, AliasEvent)
)
"""The event classes that build nodes (exact classes: a subclass takes the ``isinstance`` path)."""


class _Unsupported(Exception):
    """Valid YAML that the tree cannot hold (complex or explicit keys, deep nesting): one document's problem."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class _Builder:
    """Turns parser events into a tree with source spans.

    This is the hottest loop of a run (every node of every wanted document passes here), so
    scalars and block-mapping entries, most of the events, take a path written out in full:
    one call per event where the general path makes several.
    """

    def __init__(self, text: str, offset: int) -> None:
        self.text = text
        self.offset = offset
        self.newlines = newline_offsets(text)  # line numbers by bisection, without a call per node
        self.root: Node | None = None
        self.duplicates: list[Problem] = []
        self.anchors: dict[str, Node] = {}
        self.problem: Problem | None = None
        self.shares = False
        self.stack: list[Any] = []

    def reset(self) -> None:
        self.root = None
        self.duplicates = []
        self.anchors = {}
        self.problem = None
        self.shares = False
        self.stack = []

    def feed(self, event: Any) -> None:
        """Build from one event; a construct the tree cannot hold stops this document only."""
        if self.problem is not None:
            return  # the rest of the document is skipped; the parser still checks its syntax
        try:
            if type(event) is ScalarEvent:
                self._scalar(event)
            else:
                self._feed(event, self.stack)
        except _Unsupported as exc:
            self.problem = Problem(f"{exc}; the document is left unchanged", exc.line, code="K8SM-GEN-011")

    def _scalar(self, event: Any) -> None:
        """``_feed`` for a scalar, with ``_attach`` written out for the usual key and value."""
        stack = self.stack
        text = self.text
        start = event.start_mark.index + self.offset
        if len(stack) > MAX_DEPTH:
            raise _Unsupported(f"nesting deeper than {MAX_DEPTH} levels", line_of(text, start))
        end = event.end_mark.index + self.offset
        value = str(event.value)
        style = event.style or None  # libyaml says "" for plain
        tag = event.tag
        anchor = event.anchor
        if start == end and style is None and value == "":
            start = end = -1  # an empty value: placed after its key's colon below
            line, col = 0, 0
        else:
            before = bisect_left(self.newlines, start)  # newlines before it: its line, and where that starts
            line = before + 1
            col = start - (self.newlines[before - 1] + 1 if before else 0)
        node = Scalar.parsed(
            value, style, tag if tag not in (None, "!") else None, anchor, Source(start, end, col), line
        )
        if anchor:
            self.anchors[anchor] = node
        if not stack:
            self.root = node
            return
        top = stack[-1]
        parent = top[0]
        if parent.__class__ is Sequence:
            parent.items.append(Item(node))
            return
        if parent.__class__ is not Mapping or start < 0:
            self._attach(node, stack)  # an empty key or value, or a subclass
            return
        pending: Scalar | None = top[1]
        if pending is None:  # a key: it waits for its value
            if value == "<<" and style is None:
                self.shares = True  # a merge key
            top[1] = node
            return
        key_lines = top[2]
        key_line = pending.line
        earlier = key_lines.get(pending.value)
        if earlier is None:
            key_lines[pending.value] = [key_line]
        else:  # a dict of the keys seen so far: scanning the entries for each key made large mappings quadratic
            for other_line in earlier:
                self.duplicates.append(Problem(f"duplicate key {pending.value!r}", key_line, other_line=other_line))
            earlier.append(key_line)
        parent.entries.append(Entry(pending, node))
        top[1] = None

    def _feed(self, event: Any, stack: list[Any]) -> None:
        if isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            done, _pending, _keys = stack.pop()
            self._finish(done, event, nested=bool(stack))
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
            self.shares = True
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
            if node.value == "<<" and node.style is None:
                self.shares = True  # a merge key
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

    def _finish(self, node: Node, event: Any, nested: bool) -> None:
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
            self._finish_mapping(node, nested)
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

    def _finish_mapping(self, node: Mapping, nested: bool) -> None:
        text = self.text
        src = node.src
        assert src is not None
        entries = node.entries
        if not entries:
            return
        first = entries[0].key
        assert first.src is not None
        node.first = entries[0]
        if nested:
            node.first.head_comments = _lead_comments(text, first.src.start)
        start = src.start = _explicit_indicator(text, first.src.start)
        src.col = first.src.col if start == first.src.start else column_of(text, start)
        node.line = first.line
        parent_id, size, find = id(node), len(text), text.find
        prev_end = start
        for i, e in enumerate(entries):
            ks = e.key.src
            value = e.value
            vs = value.src
            assert ks is not None and vs is not None
            if i:
                head_start, line_start = prev_end, text.rfind("\n", 0, ks.start) + 1
            else:
                head_start = line_start = start
            if value.__class__ is Scalar and value.style != "|" and value.style != ">":  # most values
                content, inline = vs.end, True
            else:
                content, inline = content_end(text, value), _inline(value)
            nl = find("\n", content)
            end = size if nl < 0 else nl + 1  # entry_end, written out
            e.src = EntrySource(parent_id, i, head_start, line_start, ks.start, ks.end, vs.start, vs.end, end)
            if find("#", head_start, line_start) >= 0:  # find: no slice for the common case
                e.head_comments = comment_lines(text[head_start:line_start])
            a, b = (vs.end, end) if inline else (ks.end, vs.start)
            if find("#", a, b) >= 0:
                e.eol_comment = eol_comment(text[a:b])
            prev_end = end
        src.end = prev_end

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
            if vs.start < 0:  # "- " with nothing after it: placed before its end is looked for
                vs.start = vs.end = dash + 1
            end = entry_end(text, item.value)
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


def _lead_comments(text: str, key_start: int) -> list[str]:
    """The comment lines right above a nested mapping's first key (below its parent's key or dash).

    They are written in the gap between the parent and the mapping, but belong to the first
    key: when it moves to another parent, they go with it. None when the key does not start
    its line (``- key:``, ``? key``).
    """
    line_start = text.rfind("\n", 0, key_start) + 1
    if text[line_start:key_start].strip(" \t"):
        return []
    found: list[str] = []
    end = line_start
    while end > 0:
        begin = text.rfind("\n", 0, end - 1) + 1
        line = text[begin:end].strip()
        if line and not line.startswith("#"):
            break
        if line:
            found.append(line)
        end = begin
    return found[::-1]


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


# ------------------------------------------------------------------ the data alone (read-back)


def data_with_events(text: str, libyaml: bool) -> list[Data]:
    """The data of every document of ``text`` from ruamel's parser events (libyaml's with
    ``libyaml``): what ``readback.read_data`` reads when the C reader is not there or declines."""
    docs: list[Data] = []
    stack: list[list[Any]] = []  # [container, pending key] per open collection
    anchors: dict[str, Data] = {}
    for event in events(text, libyaml):
        kind = type(event)
        if kind is ScalarEvent and not event.anchor:  # most events: a plain or quoted scalar
            value: Data = _scalar_data(event)
        elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
            container: Any = {} if isinstance(event, MappingStartEvent) else []
            if event.anchor:
                anchors[str(event.anchor)] = container
            stack.append([container, _NO_KEY, []])
            continue
        elif isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            container, _key, merges = stack.pop()
            for merged in merges:  # explicit keys win over merged ones, wherever they stand
                for k, v in merged.items():
                    container.setdefault(k, v)
            value = container
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
        if top[0].__class__ is list:
            top[0].append(value)
        elif top[1] is _NO_KEY:
            top[1] = (event, value)
        else:
            key_event, key = top[1]
            top[1] = _NO_KEY
            if key == "<<" and isinstance(key_event, ScalarEvent) and key_event.value == "<<" and not key_event.style:
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
