"""The editable document tree that migrations work on.

A migrated document is not re-dumped: ``render`` splices only what changed back into the
original text. For that every node parsed from a file remembers where it came from
(``Source``), and every edit marks its node ``dirty``. New nodes have no source and are
rendered fresh, in the document's indentation and quoting style.

Edits go through the methods of ``Mapping`` and ``Sequence`` (``set``, ``insert``, ``remove``,
``pop``, ``move``, ``rename``, ``to_block``…), which do the bookkeeping: a migration never
touches ``entries``/``items`` lists or the ``dirty`` flag itself. ``emptied`` says whether a
collection is empty because of an edit (as opposed to written empty).

The tree is plain Python with no ruamel types, so migrations are typed end to end and
``yamlio`` stays the one module that talks to the parser.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field

from .dataclasscode import dataclass
from .scalars import Data, resolve_plain

MAX_EXPANDED_NODES = 1_000_000


class TreeError(Exception):
    """A tree that cannot be turned into data (alias bomb, unknown anchor)."""


@dataclass(slots=True)
class Source:
    """Where a parsed node stands in the original text (character indices)."""

    start: int
    end: int
    col: int
    open_end: int = -1
    close_start: int = -1
    sep: str = ""


@dataclass(slots=True)
class EntrySource:
    """Where a mapping entry or sequence item stands: its head comments, key or dash, and line end."""

    parent_id: int
    index: int
    head_start: int
    line_start: int
    key_start: int
    key_end: int
    value_start: int
    value_end: int
    end: int


class Node:
    """Base of every tree node.

    Nodes, entries and sources have ``__slots__``: a CRD is tens of thousands of them, and the
    C builder fills a slot directly where an instance dictionary costs a keyed store per field.
    """

    __slots__ = ("anchor", "dirty", "line", "src", "tag")

    src: Source | None
    anchor: str | None
    tag: str | None
    dirty: bool

    def __init__(self) -> None:
        self.src = None
        self.anchor = None
        self.tag = None
        self.dirty = True
        self.line = 0

    def pristine(self) -> bool:
        """True when this node and everything below it can be copied from the source unchanged.

        Iterative, for every kind of node: the engine asks it of whole documents around each
        step, and a recursion of generators cost a large CRD its depth times its size.
        """
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            if node.src is None or node.dirty:
                return False
            if isinstance(node, Mapping):
                for e in node.entries:
                    if e.src is None or e.renamed:
                        return False
                    stack.append(e.value)
            elif isinstance(node, Sequence):
                for item in node.items:
                    if item.src is None:
                        return False
                    stack.append(item.value)
        return True

    def to_data(self, anchors: dict[str, Node] | None = None) -> Data:
        return _to_data(self, anchors or {}, [0])

    def set_anchor(self, name: str) -> None:
        """Give the node an anchor (``&name``) for an alias to refer to; it is written where
        the node stands (a block collection's by its key: ``labels: &name``)."""
        self.anchor = name
        self.dirty = True


class Scalar(Node):
    """A scalar: ``value`` is the parsed string, ``style`` is None (plain), quote or block char."""

    __slots__ = ("has_new_data", "new_data", "style", "value")

    def __init__(self, value: str, style: str | None = None, tag: str | None = None) -> None:
        super().__init__()
        self.value = value
        self.style = style
        self.tag = tag
        self.new_data: Data = None
        self.has_new_data = False

    @classmethod
    def parsed(
        cls, value: str, style: str | None, tag: str | None, anchor: str | None, src: Source, line: int
    ) -> Scalar:
        """A scalar read from a file, as the tree builder makes one for each scalar event.

        The same attributes as ``Scalar(value, style, tag)`` followed by the builder setting
        anchor, source, line and ``dirty``, in one call instead of three ``__init__`` frames:
        scalars are most of the nodes of a run.
        """
        node = cls.__new__(cls)
        node.src = src
        node.anchor = anchor
        node.tag = tag
        node.dirty = False
        node.line = line
        node.value = value
        node.style = style
        node.new_data = None
        node.has_new_data = False
        return node

    @classmethod
    def of(cls, data: bool | int | float | str | None, style: str | None = None) -> Scalar:
        node = cls("", style)
        node.set(data)
        return node

    @property
    def data(self) -> Data:
        if self.has_new_data:
            return self.new_data
        if self.style is not None or (self.tag is not None and self.tag.endswith(":str")):
            return self.value
        if self.tag is not None and self.tag.endswith(":int"):
            resolved = resolve_plain(self.value)
            return resolved if isinstance(resolved, int) else self.value
        return resolve_plain(self.value)

    @property
    def is_string(self) -> bool:
        return isinstance(self.data, str)

    def set(self, data: bool | int | float | str | None) -> None:
        """Give the scalar a new value; it keeps its quote style where the value is a string."""
        self.new_data = data
        self.has_new_data = True
        if isinstance(data, str):
            self.value = data
        self.dirty = True


class Alias(Node):
    """``*name``: kept as written; its data is the anchored node's data."""

    __slots__ = ("name", "target")

    def __init__(self, name: str, target: Node | None = None) -> None:
        super().__init__()
        self.name = name
        self.target = target


@dataclass(eq=False, slots=True)
class Entry:
    """One ``key: value`` pair. ``comments`` travel with the entry when it is moved or renamed."""

    key: Scalar
    value: Node
    src: EntrySource | None = None
    head_comments: list[str] = field(default_factory=list)
    eol_comment: str | None = None
    renamed: bool = False
    carried: bool = False
    """Its comments are written elsewhere now: it moved into another mapping, or a new entry took
    them (``set(..., comments_from=)``)."""

    @property
    def name(self) -> str:
        return str(self.key.value)


@dataclass(eq=False, slots=True)
class Item:
    """One sequence item with its source position and comments."""

    value: Node
    src: EntrySource | None = None
    head_comments: list[str] = field(default_factory=list)
    eol_comment: str | None = None


class Mapping(Node):
    """A mapping whose entries keep their order, source positions and comments."""

    __slots__ = ("entries", "first", "flow")

    def __init__(self, flow: bool = False) -> None:
        super().__init__()
        self.entries: list[Entry] = []
        self.flow = flow
        self.first: Entry | None = None
        """The entry that was first when the mapping was parsed: the comment lines between the
        parent's key and it are its head comments, written by whoever writes that gap."""

    @classmethod
    def of(cls, pairs: dict[str, Node | Data], flow: bool = False) -> Mapping:
        node = cls(flow)
        for key, value in pairs.items():
            node.set(key, value)
        return node

    def keys(self) -> list[str]:
        return [e.name for e in self.entries]

    def __contains__(self, key: str) -> bool:
        return self.entry(key) is not None

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def entry(self, key: str) -> Entry | None:
        for e in self.entries:
            if e.key.value == key:  # ``e.name`` without a call: this is the hottest lookup of a run
                return e
        return None

    def get(self, key: str) -> Node | None:
        e = self.entry(key)
        return e.value if e is not None else None

    def mapping(self, key: str) -> Mapping | None:
        node = self.get(key)
        return node if isinstance(node, Mapping) else None

    def sequence(self, key: str) -> Sequence | None:
        node = self.get(key)
        return node if isinstance(node, Sequence) else None

    def scalar(self, key: str) -> Scalar | None:
        node = self.get(key)
        return node if isinstance(node, Scalar) else None

    def data(self, key: str) -> Data:
        node = self.get(key)
        return node.to_data() if node is not None else None

    def set(
        self,
        key: str,
        value: Node | Data,
        *,
        after: str | None = None,
        before: str | None = None,
        comments_from: Entry | Item | None = None,
    ) -> Node:
        """Set ``key`` to ``value``: a scalar changes in place, anything else is inserted or replaced."""
        node = value if isinstance(value, Node) else from_data(value)
        existing = self.entry(key)
        if existing is not None:
            old = existing.value
            if isinstance(old, Scalar) and isinstance(node, Scalar) and node.src is None:
                data = node.data
                assert not isinstance(data, (list, dict))
                old.set(data)
                return old
            existing.value = node
            self.dirty = True
            return node
        entry = Entry(Scalar.of(key), node)
        if comments_from is not None:
            entry.head_comments = list(comments_from.head_comments)
            entry.eol_comment = comments_from.eol_comment
            if isinstance(comments_from, Entry):
                comments_from.carried = True
        self.insert(entry, after=after, before=before)
        return node

    def insert(
        self, entry: Entry, *, after: str | None = None, before: str | None = None, at: int | None = None
    ) -> None:
        """Insert a (new or popped) entry at an index, after or before a sibling, or at the end."""
        sibling = self.index(after) if after is not None else None
        if at is None and sibling is not None:
            at = sibling + 1
        elif at is None and before is not None:
            at = self.index(before)
        if at is None:
            self.entries.append(entry)
        else:
            self.entries.insert(at, entry)
        if entry.src is not None and entry.src.parent_id != id(self):
            entry.carried = True
        self.dirty = True

    def index(self, key: str) -> int | None:
        """Position of ``key`` among the entries, or None."""
        for i, e in enumerate(self.entries):
            if e.name == key:
                return i
        return None

    def pop(self, key: str) -> Entry | None:
        """Remove ``key``; the returned entry carries its comments so they can be re-attached."""
        e = self.entry(key)
        if e is None:
            return None
        self.entries.remove(e)
        self.dirty = True
        return e

    def rename(self, old: str, new: str) -> None:
        """Rename a key in place; its value, position and comments stay."""
        e = self.entry(old)
        if e is None:
            raise KeyError(old)
        e.key = Scalar.of(new, e.key.style if e.key.style in ("'", '"') else None)
        e.renamed = True

    def remove(self, key: str) -> None:
        """Remove ``key`` (``KeyError`` when absent); ``pop`` returns the entry instead."""
        if self.pop(key) is None:
            raise KeyError(key)

    def move(
        self,
        key: str,
        target: Mapping | None = None,
        new_key: str | None = None,
        *,
        after: str | None = None,
        before: str | None = None,
        at: int | None = None,
    ) -> Entry:
        """Move an entry, with its comments, to another place of this mapping or into ``target``.

        ``new_key`` renames it on the way; ``after``/``before``/``at`` say where it lands (the end
        by default).
        """
        e = self.pop(key)
        if e is None:
            raise KeyError(key)
        if new_key is not None and new_key != e.name:
            e.key = Scalar.of(new_key)
            e.renamed = True
        (target if target is not None else self).insert(e, after=after, before=before, at=at)
        return e

    def move_to(self, key: str, target: Mapping, new_key: str | None = None, **where: str | None) -> Entry:
        """``move`` into another mapping (the older name)."""
        return self.move(key, target, new_key, after=where.get("after"), before=where.get("before"))

    @property
    def emptied(self) -> bool:
        """Whether no entry is left and that is an edit's doing (it was not written empty)."""
        return not self.entries and (self.src is None or self.dirty)

    def drop_emptied(self, key: str) -> bool:
        """Delete ``key`` when its value is a mapping or sequence that an edit emptied (one written
        empty stays), whatever comments sit on it: the output's data must not depend on whether
        the source had comments. The engine reports the comments it drops (K8SM-GEN-004)."""
        value = self.get(key)
        if isinstance(value, (Mapping, Sequence)) and value.emptied:
            self.pop(key)
            return True
        return False

    def to_block(self) -> None:
        """Write this mapping in block style (``a: 1`` lines) rather than flow style (``{a: 1}``)."""
        if self.flow:
            self.flow = False
            self.dirty = True


class Sequence(Node):
    """A sequence whose items keep their source positions and comments."""

    __slots__ = ("flow", "items")

    def __init__(self, flow: bool = False) -> None:
        super().__init__()
        self.items: list[Item] = []
        self.flow = flow

    @classmethod
    def of(cls, values: list[Node | Data], flow: bool = False) -> Sequence:
        node = cls(flow)
        for v in values:
            node.append(v)
        return node

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Node]:
        return (i.value for i in self.items)

    def __getitem__(self, index: int) -> Node:
        return self.items[index].value

    def append(self, value: Node | Data) -> Node:
        node = value if isinstance(value, Node) else from_data(value)
        self.items.append(Item(node))
        self.dirty = True
        return node

    def index(self, value: Node | Item) -> int:
        """The position of an item (given as its ``Item`` or its value node); ``ValueError`` when absent."""
        for i, item in enumerate(self.items):
            if item is value or item.value is value:
                return i
        raise ValueError("not an item of this sequence")

    def insert(self, value: Node | Data | Item, at: int | None = None, *, after: Node | Item | None = None) -> Node:
        """Insert a value, or an ``Item`` with its comments, at an index, after an item, or at the end."""
        item = value if isinstance(value, Item) else Item(value if isinstance(value, Node) else from_data(value))
        if after is not None:
            at = self.index(after) + 1
        if at is None:
            self.items.append(item)
        else:
            self.items.insert(at, item)
        self.dirty = True
        return item.value

    def pop(self, at: int | Node | Item = -1) -> Item:
        """Remove an item (by index, item or value node) and return it with its comments."""
        index = at if isinstance(at, int) else self.index(at)
        item = self.items.pop(index)
        self.dirty = True
        return item

    def remove(self, value: Node | Item, *, keep_comments: bool = False) -> None:
        """Remove an item; with ``keep_comments`` its head comments move to the item that follows."""
        index = self.index(value)
        item = self.pop(index)
        if keep_comments and item.head_comments and index < len(self.items):
            self.items[index].head_comments[:0] = item.head_comments

    def move(self, value: Node | Item | int, to: int, target: Sequence | None = None) -> Item:
        """Move an item, with its comments, to index ``to`` of this sequence or of ``target``."""
        item = self.pop(value)
        (target if target is not None else self).insert(item, to)
        return item

    @property
    def emptied(self) -> bool:
        """Whether no item is left and that is an edit's doing (it was not written empty)."""
        return not self.items and (self.src is None or self.dirty)

    def to_block(self) -> None:
        """Write this sequence in block style (``- a`` lines) rather than flow style (``[a]``)."""
        if self.flow:
            self.flow = False
            self.dirty = True

    def mappings(self) -> Iterator[tuple[int, Mapping]]:
        """The items that are mappings, with their index."""
        for i, item in enumerate(self.items):
            if isinstance(item.value, Mapping):
                yield i, item.value


def resolve(node: Node) -> Node:
    """The node an alias stands for (the node itself otherwise)."""
    seen = 0
    while isinstance(node, Alias) and node.target is not None and seen < 100:
        node, seen = node.target, seen + 1
    return node


def from_data(data: Node | Data, flow: bool = False) -> Node:
    """A new node for plain data (strings are quoted on output when YAML 1.1 would misread them)."""
    if isinstance(data, Node):
        return data
    if isinstance(data, dict):
        return Mapping.of(dict(data.items()), flow=flow)
    if isinstance(data, list):
        return Sequence.of(list(data), flow=flow)
    return Scalar.of(data)


def _to_data(node: Node, anchors: dict[str, Node], budget: list[int]) -> Data:
    # One call per node and a comprehension per sequence, on purpose: how deep a document may
    # nest before this refuses it (RecursionError: "cannot read the document") is part of the
    # output, so reading a collection's scalars in its own loop, though faster, is not done.
    budget[0] += 1
    if budget[0] > MAX_EXPANDED_NODES:
        raise TreeError("document expands to more than a million nodes (alias bomb?)")
    if node.anchor:
        anchors[node.anchor] = node
    if isinstance(node, Scalar):
        return node.data
    if isinstance(node, Alias):
        target = anchors.get(node.name, node.target)  # the parser's target: the anchor may be above ``node``
        if target is None:
            raise TreeError(f"unknown alias *{node.name}")
        return _to_data(target, anchors, budget)
    if isinstance(node, Sequence):
        return [_to_data(v, anchors, budget) for v in node]
    assert isinstance(node, Mapping)
    out: dict[str, Data] = {}
    for e in node.entries:
        value = _to_data(e.value, anchors, budget)
        if e.key.value == "<<" and e.key.style is None:  # ``e.name`` without a call
            merged = value if isinstance(value, list) else [value]
            for m in merged:
                if isinstance(m, dict):
                    for k, v in m.items():
                        out.setdefault(k, v)
            continue
        out[_key_text(e.key)] = value
    return out


def _key_text(key: Scalar) -> str:
    data = key.data
    if isinstance(data, bool):
        return "true" if data else "false"
    return "null" if data is None else str(data)


def walk(node: Node, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Node]]:
    """Every node below ``node`` (included) with its path, parents first.

    Iterative: nested generators passed every node up through one frame per level, which
    made walking a deep CRD schema cost its depth times its size. A node's children are
    taken when the walk moves past it, as the recursive walk did.
    """
    stack: list[tuple[tuple[str | int, ...], Node]] = [(path, node)]
    while stack:
        path, node = stack.pop()
        yield path, node
        if isinstance(node, Mapping):
            stack.extend(((*path, e.name), e.value) for e in reversed(node.entries))
        elif isinstance(node, Sequence):
            stack.extend(((*path, i), item.value) for i, item in reversed(list(enumerate(node.items))))


def mappings_at_key(node: Node, key: str) -> list[tuple[tuple[str | int, ...], Mapping]]:
    """Every mapping below ``node`` that is the value of an entry named ``key``, with its path,
    in ``walk``'s order: ``[(p, n) for p, n in walk(node) if p and p[-1] == key and isinstance(n,
    Mapping)]``, without a path for every node of the tree (each object's ``metadata`` is looked
    for in every document of a repository exported with ``selfLink``): only collections are
    visited, and only theirs are built."""
    found: list[tuple[tuple[str | int, ...], Mapping]] = []
    stack: list[tuple[Node, tuple[str | int, ...]]] = [(node, ())]
    while stack:
        current, path = stack.pop()
        if isinstance(current, Mapping):
            if path and path[-1] == key:
                found.append((path, current))
            stack.extend(
                [
                    (e.value, (*path, e.name))
                    for e in reversed(current.entries)
                    if isinstance(e.value, (Mapping, Sequence))
                ]
            )
        elif isinstance(current, Sequence):
            stack.extend(
                [
                    (item.value, (*path, i))
                    for i, item in reversed(list(enumerate(current.items)))
                    if isinstance(item.value, (Mapping, Sequence))
                ]
            )
    return found


def unique_anchor(name: str, taken: set[str]) -> str:
    """``name``, or ``name2``, ``name3``… when ``taken`` (a document's anchors) has it already
    (YAML readers refuse, or silently rebind, a repeated anchor); the one returned is taken too."""
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}{n}"
    taken.add(candidate)
    return candidate


def nodes(node: Node) -> Iterator[Node]:
    """Every node below ``node`` (included), parents first: ``walk`` without building paths."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Mapping):
            stack.extend(e.value for e in reversed(node.entries))
        elif isinstance(node, Sequence):
            stack.extend(item.value for item in reversed(node.items))


def format_path(path: tuple[str | int, ...]) -> str:
    """``('spec', 'rules', 0, 'http')`` → ``spec.rules[0].http``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out
