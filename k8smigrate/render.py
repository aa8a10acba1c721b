"""Write an edited tree back into its document's text by splicing.

Everything the migration did not touch is copied from the original text, byte for byte;
a renamed key or a changed scalar replaces only its own characters; a moved subtree is
copied with its lines shifted to the new indentation; new nodes are written in the
indentation, sequence and quoting style the document already uses. Comments stay with
the entries they belong to.
"""

from __future__ import annotations

import re
from collections import Counter

from .comments import comment_lines, eol_comment
from .dataclasscode import dataclass
from .scalars import render_data_scalar, render_string
from .textsearch import pair_in
from .tree import Alias, Entry, EntrySource, Item, Mapping, Node, Scalar, Sequence, nodes
from .yamlio.fastbuild import original_entry, pristine, style_tallies
from .yamlio.fastbuild import reindent as fast_reindent


@dataclass(frozen=True)
class Style:
    """How a document is laid out: newline, mapping indent step, sequence offset, quote char."""

    newline: str = "\n"
    step: int = 2
    seq_offset: int = 0
    quote: str = '"'
    json: bool = False


STYLE_SAMPLE = 400
"""Nodes looked at to learn a document's layout: enough to outvote oddities, bounded for huge CRDs."""


def detect_style(text: str, root: Node) -> Style:
    """Read the layout conventions of a document from its own tree."""
    found = style_tallies(text, root, STYLE_SAMPLE)  # in C where it can (the same, a test checks)
    if found is None:
        steps, offsets, quotes = tallies(text, root)
    else:
        steps, offsets, quotes = Counter(found[0]), Counter(found[1]), Counter(found[2])
    step = max(steps.most_common(1)[0][0], 1) if steps else 2
    offset = offsets.most_common(1)[0][0] if offsets else 0
    quote = quotes.most_common(1)[0][0] if quotes else '"'
    is_json = isinstance(root, Mapping) and root.flow and all(e.key.style == '"' for e in root.entries)
    start, end = (root.src.start, root.src.end) if root.src is not None else (0, len(text))
    return Style("\r\n" if pair_in(text, "\r", "\n", start, end) else "\n", step, max(offset, 0), quote, is_json)


def tallies(text: str, root: Node, sample: int = STYLE_SAMPLE) -> tuple[Counter[int], Counter[int], Counter[str]]:
    """What a document's layout is read from, over its first ``sample`` nodes: how far
    each block collection stands in from its key (mappings, then sequences), and the quotes
    of its quoted scalars."""
    steps: Counter[int] = Counter()
    offsets: Counter[int] = Counter()
    quotes: Counter[str] = Counter()
    for seen, node in enumerate(nodes(root)):
        if seen >= sample:
            break
        if isinstance(node, Mapping) and not node.flow and node.src is not None:
            for e in node.entries:
                child = e.value
                if child.src is None or child.src.start < 0 or e.key.src is None:
                    continue
                if text.startswith(("{", "["), child.src.start):
                    continue  # written in flow style (and only now, maybe, as a block: to_block)
                if isinstance(child, Mapping) and not child.flow and child.entries:
                    steps[child.src.col - e.key.src.col] += 1
                elif isinstance(child, Sequence) and not child.flow and child.items:
                    offsets[child.src.col - e.key.src.col] += 1
        elif isinstance(node, Scalar) and node.style in ("'", '"'):
            quotes[node.style] += 1
    return steps, offsets, quotes


def python_reindent(chunk: str, delta: int) -> str:
    """Shift every line after the first by ``delta`` columns; blank lines stay as they are.

    ``reindent`` is this, in C where the C module is installed (the same, a test checks).
    """
    if delta == 0 or "\n" not in chunk:
        return chunk
    lines = chunk.split("\n")
    out = [lines[0]]
    last = len(lines) - 1
    for i, line in enumerate(lines[1:], start=1):
        if not line.strip() and (i != last or line == ""):
            out.append(line)
        elif delta > 0:
            out.append(" " * delta + line)
        else:
            strip = min(-delta, len(line) - len(line.lstrip(" ")))
            out.append(line[strip:])
    return "\n".join(out)


reindent = fast_reindent or python_reindent


def _reindent_lines(lines: str, delta: int) -> str:
    """``reindent`` for text that starts a line: its first line is shifted too."""
    return reindent("\n" + lines, delta)[1:]


class Renderer:
    """Renders the nodes of one document against its original text."""

    def __init__(self, text: str, style: Style) -> None:
        self.text = text
        self.style = style
        self.nl = style.newline
        self.new_keys: dict[tuple[str, str | None], str] = {}  # a migration adds one key to many mappings

    def document(self, root: Node) -> str:
        """The new text of the root node's span."""
        assert root.src is not None
        return self.node(root, root.src.col, 0)

    # ------------------------------------------------------------------ dispatch

    def node(self, node: Node, col: int, delta: int) -> str:
        if pristine(node):
            assert node.src is not None
            return self._added_anchor(node) + reindent(self.text[node.src.start : node.src.end], delta)
        if isinstance(node, Scalar):
            return self.scalar(node)
        if isinstance(node, Alias):
            return f"*{node.name}"
        if isinstance(node, (Mapping, Sequence)) and (node.flow or not _children(node)):
            return self.flow(node, col)
        if isinstance(node, Mapping):
            return self.mapping(node, col, self._delta(node, col, delta))
        assert isinstance(node, Sequence)
        return self.sequence(node, col, self._delta(node, col, delta))

    @staticmethod
    def _delta(node: Node, col: int, delta: int) -> int:
        return col - node.src.col if node.src is not None else delta

    def _props(self, node: Node) -> str:
        out = f"&{node.anchor} " if node.anchor else ""
        if node.tag and not node.tag.startswith("tag:yaml.org,2002:"):
            out += f"{node.tag} "
        return out

    def _added_anchor(self, node: Node) -> str:
        """An anchor a migration put on a parsed inline node, whose source text has none to copy.

        A parsed scalar or flow collection with properties starts with them (``&a {…}``); a
        block collection's anchor is written by its parent entry (``key: &a``), never here.
        """
        if not node.anchor or node.src is None or node.src.start < 0 or not _is_scalar_like(node):
            return ""
        return "" if self.text.startswith(("&", "!"), node.src.start) else f"&{node.anchor} "

    def _added_block_anchor(self, value: Node, s: EntrySource) -> str:
        """The anchor a migration put on a block collection that stays in place (``key: &a``),
        when its source does not write it already; empty otherwise."""
        if not value.anchor or not isinstance(value, (Mapping, Sequence)) or value.flow or value.src is None:
            return ""
        written = self.text[s.key_end : max(s.value_start, value.src.start) + len(value.anchor) + 1]
        return "" if re.search(rf"&{re.escape(value.anchor)}(?![^\s,\[\]{{}}])", written) else value.anchor

    def scalar(self, node: Scalar, flow: bool = False) -> str:
        props = self._props(node)
        if node.has_new_data:
            data = node.new_data
            if isinstance(data, str):
                style = node.style if node.style in ("'", '"') else ('"' if self.style.json else None)
                text = render_string(data, style, flow)
                if style is None and text[0] in "'\"" and text[0] != self.style.quote:
                    text = render_string(data, self.style.quote)
                return props + text
            assert not isinstance(data, (list, dict))
            return props + render_data_scalar(data)
        if node.value == "" and node.style is None and node.tag is None:
            return props  # a null written as nothing (``key:``), as it reads back
        return props + render_string(node.value, node.style if node.style in ("'", '"') else None)

    def key(self, key: Scalar) -> str:
        if key.src is not None and not key.dirty:
            return self.text[key.src.start : key.src.end]
        wanted = (key.value, key.style if key.style in ("'", '"') else None)
        written = self.new_keys.get(wanted)
        if written is None:
            written = self.new_keys[wanted] = render_string(*wanted)
        return written

    def flow(self, node: Node, col: int = 0) -> str:
        """A collection written inline: original separators kept, new entries in the same style."""
        if pristine(node) and node.src is not None:
            return self._added_anchor(node) + self.text[node.src.start : node.src.end]
        if isinstance(node, Alias):
            return f"*{node.name}"
        if isinstance(node, Scalar):
            return self.scalar(node, flow=True)
        assert isinstance(node, (Mapping, Sequence))
        children: list[Entry] | list[Item] = node.entries if isinstance(node, Mapping) else node.items
        src = node.src
        if src is None or src.open_end < 0:
            return self._props(node) + self._fresh_flow(node, col)
        text = self.text
        opening = text[src.start : src.open_end]
        multiline = "\n" in (src.sep or opening)
        typical = src.sep or ("," + opening[opening.index("\n") :] if multiline else ", ")
        inner_col = _last_line_width(typical) if multiline else -1
        out = self._added_anchor(node) + opening
        prev: EntrySource | None = None
        ordered: list[Entry | Item] = list(children)
        for i, child in enumerate(ordered):
            s = child.src if child.src is not None and child.src.parent_id == id(node) else None
            if i:
                adjacent = s is not None and prev is not None and s.index == prev.index + 1
                out += text[prev.value_end : prev.end] if adjacent and prev is not None else typical
            out += self._flow_child(child, s, inner_col)
            prev = s
        return out + text[src.close_start : src.end]

    def _flow_child(self, child: Entry | Item, s: EntrySource | None, col: int) -> str:
        value = child.value
        same = s is not None and value.src is not None and value.src.start == s.value_start
        rendered = self.flow(value, col)
        if isinstance(child, Item):
            return rendered
        if s is not None and same and not child.renamed:
            return self.text[s.key_start : s.value_start] + rendered
        return self._flow_key(child.key) + ": " + rendered

    def _flow_key(self, key: Scalar) -> str:
        if key.src is not None and not key.dirty:
            return self.text[key.src.start : key.src.end]
        return render_string(key.value, '"') if self.style.json else self.key(key)

    def _fresh_flow(self, node: Mapping | Sequence, col: int) -> str:
        """A new collection inline; multi-line and indented like its siblings in pretty JSON."""
        pretty = self.style.json and col >= 0 and len(node) > 0
        inner = col + self.style.step if col >= 0 else -1
        if isinstance(node, Mapping):
            parts = [f"{self._flow_key(e.key)}: {self._fresh_value(e.value, inner)}" for e in node.entries]
            opener, closer = "{", "}"
        else:
            parts = [self._fresh_value(v, inner) for v in node]
            opener, closer = "[", "]"
        if not pretty:
            return opener + ", ".join(parts) + closer
        pad = self.nl + " " * inner
        return opener + pad + ("," + pad).join(parts) + self.nl + " " * col + closer

    def _fresh_value(self, node: Node, col: int) -> str:
        if isinstance(node, (Mapping, Sequence)) and node.src is None:
            return self._props(node) + self._fresh_flow(node, col)
        if isinstance(node, Scalar) and self.style.json and (node.src is None or node.dirty):
            data = node.data
            if isinstance(data, str):
                return render_string(data, '"')
        return self.flow(node, col)

    # ------------------------------------------------------------------ block collections

    def mapping(self, node: Mapping, col: int, delta: int) -> str:
        parts: list[str] = []
        for i, e in enumerate(node.entries):
            s = e.src
            if s is not None and s.parent_id == id(node) and s.head_start >= 0:
                # an entry as parsed is written in C (the same, a test checks), the others here
                chunk = original_entry(self.text, e, col, delta, i == 0) or self._original_entry(e, col, delta, i == 0)
            else:
                chunk = self._fresh_entry(self.key(e.key), e, e.value, col, first=i == 0)
            self._append(parts, chunk)
        return self._close(node, "".join(parts))

    def sequence(self, node: Sequence, col: int, delta: int) -> str:
        parts: list[str] = []
        for i, item in enumerate(node.items):
            s = item.src
            if s is not None and s.parent_id == id(node) and s.head_start >= 0:
                chunk = self._original_item(item, col, delta, first=i == 0)
            else:
                chunk = self._fresh_item(item, col, first=i == 0)
            self._append(parts, chunk)
        return self._close(node, "".join(parts))

    def _append(self, parts: list[str], chunk: str) -> None:
        if parts and not parts[-1].endswith("\n"):
            parts.append(self.nl)
        parts.append(chunk)

    def _close(self, node: Node, out: str) -> str:
        """Keep a missing final newline missing when the collection ended the file."""
        if node.src is not None and not self.text.endswith("\n", 0, node.src.end):
            return out[: -len(self.nl)] if out.endswith(self.nl) else out
        return out if out.endswith("\n") else out + self.nl

    def _head(self, s: EntrySource, col: int, delta: int, first: bool) -> str:
        """The comment and blank lines above an entry or item, then the indentation of its line."""
        head = self.text[s.head_start : s.line_start]
        if not first:
            if delta and s.head_start > 0 and self.text[s.head_start - 1] == "\n":
                # it starts a line: its first line (a comment right under the entry before) moves
                # with the block too, where ``reindent`` keeps a chunk's first line in place
                return _reindent_lines(head, delta) + " " * col
            return reindent(head, delta) + " " * col
        stripped = head.lstrip()
        if not stripped:
            return ""
        return reindent(stripped, delta) + " " * col

    def _original_entry(self, e: Entry, col: int, delta: int, first: bool) -> str:
        s = e.src
        assert s is not None
        text = self.text
        head = self._head(s, col, delta, first)
        same_value = _same_value(e.value, s) and not self._made_block(e.value)
        if not same_value:
            kept = eol_comment(text[s.key_end : s.value_start]) or eol_comment(text[s.value_end : s.end])
            fresh = Entry(e.key, e.value, head_comments=[], eol_comment=kept)
            return head + self._fresh_entry(self.key(e.key), fresh, e.value, col, first=True)
        key = self.key(e.key)
        marker = text[s.line_start : s.key_start].lstrip(" ")  # "? " before an explicit key
        sep = _without_carried_lead(text[s.key_end : s.value_start], e.value)
        if s.value_start == s.value_end and isinstance(e.value, Scalar) and e.value.has_new_data:
            sep = ": "
        anchor = self._added_block_anchor(e.value, s)
        if anchor:
            colon = sep.find(":") + 1
            sep = sep[:colon] + f" &{anchor}" + sep[colon:]
        value = self._within_entry(self.node(e.value, self._child_col(e.value, col, delta), delta), s)
        tail = text[s.value_end : s.end] if _is_scalar_like(e.value) else ""
        # one join, not five +: ``value`` is a whole subtree, and each + copied it again
        return "".join((head, marker, key, reindent(sep, delta), value, tail))

    def _original_item(self, item: Item, col: int, delta: int, first: bool) -> str:
        s = item.src
        assert s is not None
        text = self.text
        head = self._head(s, col, delta, first)
        same_value = _same_value(item.value, s)
        if not same_value:
            fresh = Item(item.value, eol_comment=eol_comment(text[s.value_end : s.end]))
            return head + self._fresh_item(fresh, col, first=True)
        sep = _without_carried_lead(text[s.key_end : s.value_start], item.value)
        value = self._within_entry(self.node(item.value, self._child_col(item.value, col + 2, delta), delta), s)
        tail = text[s.value_end : s.end] if _is_scalar_like(item.value) else ""
        return "".join((head, "-", reindent(sep, delta), value, tail))

    def _within_entry(self, value: str, s: EntrySource) -> str:
        """A value copied from its source without the blank lines its source runs on past the
        entry's end: a block scalar's span takes in the blank lines after it, which the next
        entry's head holds too (copied with both, they doubled: ``|+`` then read one more line)."""
        overlap = s.value_end - s.end
        if overlap > 0 and value.endswith(self.text[s.end : s.value_end]):
            return value[:-overlap]
        return value

    def _made_block(self, value: Node) -> bool:
        """A collection written in flow style that is now to be written as a block (``to_block``)."""
        if not isinstance(value, (Mapping, Sequence)) or value.flow or value.src is None or value.src.start < 0:
            return False
        return self.text.startswith(("{", "["), value.src.start)

    def _child_col(self, value: Node, default: int, delta: int) -> int:
        return default if value.src is None else value.src.col + delta

    def _comments(self, comments: list[str], col: int, first: bool) -> str:
        out = ""
        for i, c in enumerate(comments):
            out += ("" if first and i == 0 else " " * col) + c + self.nl
        return out

    def _fresh_entry(self, key: str, e: Entry, value: Node, col: int, first: bool) -> str:
        inner = self._gap_comments(e)  # comment lines between the key and its value where it stood
        block = isinstance(value, (Mapping, Sequence)) and not value.flow and bool(_children(value))
        above = e.head_comments if block else e.head_comments + inner
        out = (not first and self._original_head(e, above, col)) or self._comments(above, col, first)
        if out or not first:
            out += " " * col
        eol = _eol(e.eol_comment)
        if self._moved_block_scalar(value):
            return out + key + ": " + self._block_scalar(value, col)
        literal = self._literal(value, col + self.style.step)
        if literal is not None:
            return out + key + ": " + literal[0] + eol + self.nl + literal[1] + self.nl
        if not block:
            written = self.node(value, col, 0)
            return out + key + (": " + written if written else ":") + eol + self.nl
        props = self._props(value).rstrip()
        head = key + ":" + (" " + props if props else "") + eol + self.nl
        child = col + (self.style.step if isinstance(value, Mapping) else self.style.seq_offset)
        moved_delta = child - value.src.col if value.src is not None else 0
        above = _lead(value) if isinstance(value, Mapping) else inner
        lead = self._original_lead(e, above, moved_delta) or self._comments(above, child, first=False)
        return out + head + lead + " " * child + self._body(value, child, moved_delta)

    def _original_head(self, e: Entry, comments: list[str], col: int) -> str:
        """The lines above a parsed entry written elsewhere (moved), as they stood, shifted to
        ``col`` (see ``_as_they_stood``); "" also when they did not start a line."""
        s = e.src
        if s is None or s.head_start <= 0 or s.head_start == s.line_start or self.text[s.head_start - 1] != "\n":
            return ""
        return _as_they_stood(self.text[s.head_start : s.line_start], comments, col - (s.key_start - s.line_start))

    def _original_lead(self, e: Entry, comments: list[str], delta: int) -> str:
        """The lines between a parsed entry's key and its block value, as they stood, shifted with
        the block (see ``_as_they_stood``); ``comments`` are the ones the value's first key or
        item still owns."""
        gap = self._gap_lines(e)
        return _as_they_stood(gap, comments, delta) if gap else ""

    def _gap_comments(self, e: Entry) -> list[str]:
        """The comment lines between a parsed entry's key line and its value (not its eol comment)."""
        gap = self._gap_lines(e)
        return comment_lines(gap) if "#" in gap else []

    def _gap_lines(self, e: Entry) -> str:
        """The whole lines between a parsed entry's key line and its value's line ("" for none)."""
        s = e.src
        if s is None or s.key_end < 0 or s.value_start <= s.key_end:
            return ""
        gap = self.text[s.key_end : s.value_start]
        first, last = gap.find("\n"), gap.rfind("\n")
        return gap[first + 1 : last + 1] if first < last else ""

    def _fresh_item(self, item: Item, col: int, first: bool) -> str:
        value = item.value
        out = self._comments(item.head_comments + _lead(value), col, first)
        if out or not first:
            out += " " * col
        eol = _eol(item.eol_comment)
        if self._moved_block_scalar(value):
            return out + "- " + self._block_scalar(value, col + 2)
        literal = self._literal(value, col + 2)
        if literal is not None:
            return out + "- " + literal[0] + eol + self.nl + literal[1] + self.nl
        if _is_scalar_like(value) or (isinstance(value, (Mapping, Sequence)) and (value.flow or not _children(value))):
            return out + "- " + self.node(value, col + 2, 0) + eol + self.nl
        moved_delta = col + 2 - value.src.col if value.src is not None else 0
        return out + "- " + self._body(value, col + 2, moved_delta)

    def _moved_block_scalar(self, value: Node) -> bool:
        """A parsed ``|``/``>`` scalar written under a new key or item: its text is copied, re-indented."""
        return isinstance(value, Scalar) and value.style in ("|", ">") and pristine(value) and value.src is not None

    def _block_scalar(self, value: Node, col: int) -> str:
        """A block scalar's own text (header, content lines and the blank lines after them) under a
        key or dash at ``col``: its lines keep their offset from the key they stood under.

        Its span ends at the start of the next line (the blank lines after a ``|`` are part of it,
        and with ``|+`` part of its value), so no newline is added after it.
        """
        assert value.src is not None
        line_start = self.text.rfind("\n", 0, value.src.start) + 1
        owner = _key_column(self.text, line_start)
        if line_start + owner == value.src.start and owner >= 2 and self.text[line_start + owner - 2] == "-":
            owner -= 2  # a sequence item's own value (``- |``): it stood under its dash, not after it
        chunk = reindent(self.text[value.src.start : value.src.end], col - owner)
        return chunk if chunk.endswith("\n") else chunk + self.nl

    def _literal(self, value: Node, indent: int) -> tuple[str, str] | None:
        """``(header, body)`` of a new multi-line string a migration asked to write as ``|`` block."""
        if not isinstance(value, Scalar) or value.src is not None or value.style != "|" or self.style.json:
            return None
        data = value.new_data if value.has_new_data else value.value
        if not isinstance(data, str):
            return None
        lines = literal_lines(data)
        if lines is None:
            return None
        chomp, content = lines
        body = self.nl.join(" " * indent + line if line else "" for line in content)
        return self._props(value) + "|" + chomp, body

    def _body(self, value: Node, col: int, delta: int) -> str:
        if pristine(value):
            assert value.src is not None
            return reindent(self.text[value.src.start : value.src.end], delta)
        if isinstance(value, Mapping):
            return self.mapping(value, col, delta)
        assert isinstance(value, Sequence)
        return self.sequence(value, col, delta)


def _as_they_stood(lines: str, comments: list[str], delta: int) -> str:
    """Whole lines of the source above a moved key or block (blank lines, each comment with its
    own indent) shifted by ``delta``; "" when they hold more than ``comments`` and blank lines,
    and the comments are then written from their list at the key's column."""
    if comment_lines(lines) != comments or any(
        line.strip() and not line.lstrip().startswith("#") for line in lines.split("\n")
    ):
        return ""
    return _reindent_lines(lines, delta)


def _flow_sources(node: Mapping | Sequence) -> list[EntrySource]:
    """The original children's positions of a parsed flow collection, in source order."""
    children: list[Entry] | list[Item] = node.entries if isinstance(node, Mapping) else node.items
    found = [c.src for c in children if c.src is not None and c.src.parent_id == id(node)]
    return sorted(found, key=lambda s: s.index)


def _lead(value: Node) -> list[str]:
    """The head comments of a parsed block mapping's first key, when they are still written
    above the mapping (the key is still in it, or was dropped without a new place for them)."""
    if not isinstance(value, Mapping) or value.flow or value.first is None or not value.first.head_comments:
        return []
    first = value.first
    if first.carried and not any(e is first for e in value.entries):
        return []
    return first.head_comments


def _without_carried_lead(sep: str, value: Node) -> str:
    """The gap between a key (or dash) and its block mapping, without the comment lines of a first
    key that moved away with them."""
    if not isinstance(value, Mapping) or value.first is None or not value.first.head_comments or _lead(value):
        return sep
    lines = sep.split("\n")
    kept = [ln for ln in lines[1:-1] if not ln.strip().startswith("#")]
    return "\n".join([lines[0], *kept, lines[-1]])


def _key_column(text: str, line_start: int) -> int:
    """The column of the first key or value on a line, after its indentation and ``- `` dashes."""
    i = line_start
    while i < len(text):
        if text[i] == " ":
            i += 1
        elif text[i] == "-" and text[i + 1 : i + 2] in (" ", "\t"):
            i += 2
        else:
            break
    return i - line_start


def _last_line_width(sep: str) -> int:
    return len(sep.rsplit("\n", 1)[-1].rstrip("\r"))


def _same_value(value: Node, s: EntrySource) -> bool:
    """The entry still holds its original value, in a shape its original separator fits.

    A block collection that lost every child is written afresh (``key: {}``).
    """
    if value.src is None or value.src.start != s.value_start:
        return False
    return not (isinstance(value, (Mapping, Sequence)) and not value.flow and not _children(value))


def _children(node: Mapping | Sequence) -> list[Entry] | list[Item]:
    return node.entries if isinstance(node, Mapping) else node.items


def _is_scalar_like(node: Node) -> bool:
    return isinstance(node, (Scalar, Alias)) or (isinstance(node, (Mapping, Sequence)) and node.flow)


def _eol(comment: str | None) -> str:
    """An end-of-line comment with its original gap, or one space before a new one."""
    if not comment:
        return ""
    return comment if comment[0] in " \t" else " " + comment


def literal_lines(text: str) -> tuple[str, list[str]] | None:
    """The chomping indicator and content lines of ``text`` as a literal block, or None when it cannot
    be one without an indentation indicator (a first line starting with a space, a line of blanks,
    a character YAML refuses raw)."""
    if "\n" not in text.rstrip("\n") and not text.endswith("\n"):
        return None
    if any(not (ch.isprintable() or ch in "\n\t") for ch in text) or "\r" in text:
        return None
    if text.endswith("\n\n"):
        chomp, body = "+", text[:-1]
    elif text.endswith("\n"):
        chomp, body = "", text[:-1]
    else:
        chomp, body = "-", text
    content = body.split("\n")
    if not content[0] or content[0][0] in " \t":
        return None
    if any(line.strip(" \t") == "" and line for line in content):
        return None
    return chomp, content
