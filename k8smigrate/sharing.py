"""YAML aliases and merge keys in the objects that migrations read and edit.

Kubernetes (go-yaml v2) reads ``*b`` as a copy of the node anchored ``&b``, and ``<<: *b``
as the keys of ``&b`` merged into the mapping that holds it. Migration bodies must see that
data, and an edit must never reach a node that another place shares. So, for a document that
has aliases or merge keys, the engine:

1. ``expand``\\ s it before the bodies run: every alias becomes a copy of its anchored node,
   and every mapping with ``<<`` gets the keys the merge brings (its ``<<`` entries are set
   aside). Bodies read and edit plain trees, each place on its own;
2. ``fold``\\ s it back after they ran: a copy whose data is still its anchored node's data
   becomes the alias again (both places were left alone, or got the same edits: the versions
   of a CRD aliasing one schema), merged keys that no edit touched give way to their ``<<``
   again. Anything else would have to be written through an alias or a merge key, or would
   change another place (another ``List`` item, an annotation) that shares the node: it is
   a located problem, and the engine leaves the document unchanged with K8SM-GEN-017.

Copies and merged keys keep the source spans of what they copy, so that they count as
unedited (``pristine``) until a body edits them; they never reach the renderer.
"""

from __future__ import annotations

from dataclasses import field

from .dataclasscode import dataclass
from .scalars import Data, same_data
from .tree import MAX_EXPANDED_NODES, Alias, Entry, Item, Mapping, Node, Scalar, Sequence, TreeError, nodes


@dataclass
class _Copy:
    """A copy standing where an alias stood (``path``: there, in the input)."""

    alias: Alias
    node: Node
    path: str


@dataclass
class _Merge:
    """A mapping whose ``<<`` entries are set aside while the keys they bring are written in."""

    mapping: Mapping
    keys: list[tuple[Entry, Entry | None]]
    """The ``<<`` entries, each with the entry that followed it (None: it was last)."""
    merged: list[Entry]
    path: str


@dataclass
class Expansion:
    """What ``expand`` did to a document, for ``fold`` to undo."""

    copies: dict[int, _Copy] = field(default_factory=dict)
    merges: list[_Merge] = field(default_factory=list)
    anchored: dict[int, str] = field(default_factory=dict)
    """``id`` of each anchored node → its path in the input."""


@dataclass(frozen=True)
class SharedEdit:
    """An edit that would go through an alias or a merge key: where, and what to do."""

    node: Node
    path: str
    message: str


def is_merge_key(key: Scalar) -> bool:
    """``<<`` written plain (or tagged ``!!merge``): go-yaml's ``isMerge``. Quoted, it is a plain key."""
    return key.value == "<<" and key.style is None and (key.tag is None or key.tag.endswith(":merge"))


def expand(root: Node) -> Expansion:
    """Replace every alias below ``root`` by a copy of its anchored node and write merged keys in.

    Raises ``TreeError`` for an alias bomb or a recursive alias (the copies would not end).
    """
    done = Expansion()
    budget = [0]
    stack: list[tuple[str, Node]] = [("", root)]
    while stack:
        path, node = stack.pop()
        if node.anchor:
            done.anchored[id(node)] = path
        if isinstance(node, Mapping):
            if any(is_merge_key(e.key) for e in node.entries):
                _merge(node, path, done, budget)
            for e in node.entries:
                at = f"{path}.{e.name}" if path else e.name
                e.value = _expanded(e.value, at, done, budget)
                stack.append((at, e.value))
        elif isinstance(node, Sequence):
            for i, item in enumerate(node.items):
                item.value = _expanded(item.value, f"{path}[{i}]", done, budget)
                stack.append((f"{path}[{i}]", item.value))
    return done


def _expanded(node: Node, path: str, done: Expansion, budget: list[int]) -> Node:
    if not isinstance(node, Alias) or node.target is None:
        return node
    copy = _clone(node.target, budget)
    copy.src, copy.line = node.src, node.line  # found where the alias stands
    done.copies[id(copy)] = _Copy(node, copy, path)
    return copy


def _clone(node: Node, budget: list[int]) -> Node:
    """A copy of a parsed subtree that counts as unedited; aliases inside stay aliases (expanded next)."""
    budget[0] += 1
    if budget[0] > MAX_EXPANDED_NODES:
        raise TreeError("document expands to more than a million nodes (alias bomb?)")
    copy: Node
    if isinstance(node, Scalar):
        copy = Scalar(node.value, node.style, node.tag)
        if node.has_new_data and not isinstance(node.new_data, (list, dict)):  # a scalar holds a scalar
            copy.set(node.new_data)
    elif isinstance(node, Alias):
        copy = Alias(node.name, node.target)
    elif isinstance(node, Mapping):
        copy = Mapping(node.flow)
        for e in node.entries:
            copy.entries.append(
                Entry(_clone(e.key, budget), _clone(e.value, budget), e.src, renamed=e.renamed)  # type: ignore[arg-type]
            )
    else:
        assert isinstance(node, Sequence)
        copy = Sequence(node.flow)
        copy.items = [Item(_clone(i.value, budget), i.src) for i in node.items]
    copy.tag = node.tag
    copy.src = node.src
    copy.dirty = node.dirty
    return copy


def _merge(mapping: Mapping, path: str, done: Expansion, budget: list[int]) -> None:
    """Set the ``<<`` entries aside and write in the keys they bring that the mapping does not set.

    As ``tree.to_data`` reads them: the mapping's own keys win wherever they stand, and among
    the merged mappings the first one that has a key gives it.
    """
    keys: list[tuple[Entry, Entry | None]] = []
    own: list[Entry] = []
    for e in mapping.entries:
        if is_merge_key(e.key):
            keys.append((e, None))
        else:
            own.append(e)
            keys = [(k, f if f is not None else e) for k, f in keys]
    taken = {e.name for e in own}
    merged: list[Entry] = []
    for key, _follower in keys:
        for e in _brought(key.value, set(), budget):
            if e.name in taken:
                continue
            taken.add(e.name)
            at = f"{path}.{e.name}" if path else e.name
            value = _expanded(e.value, at, done, budget) if isinstance(e.value, Alias) else _clone(e.value, budget)
            value.line = value.line or key.key.line
            merged.append(Entry(_clone(e.key, budget), value, e.src))  # type: ignore[arg-type]
    mapping.entries = own + merged  # the bookkeeping is this module's: no edit, nothing dirty
    done.merges.append(_Merge(mapping, keys, merged, path))


def _brought(value: Node, seen: set[int], budget: list[int]) -> list[Entry]:
    """The entries the mappings of a ``<<`` value give, theirs first, then what their own merges give."""
    out: list[Entry] = []
    names: set[str] = set()
    for source in _sources(value):
        if id(source) in seen:
            raise TreeError("a merge key that merges the mapping holding it (a recursive alias)")
        budget[0] += len(source.entries)
        if budget[0] > MAX_EXPANDED_NODES:
            raise TreeError("document expands to more than a million nodes (alias bomb?)")
        found = [e for e in source.entries if not is_merge_key(e.key)]
        for e in source.entries:
            if is_merge_key(e.key):
                found += _brought(e.value, seen | {id(source)}, budget)
        for e in found:
            if e.name not in names:
                names.add(e.name)
                out.append(e)
    return out


def _sources(value: Node) -> list[Mapping]:
    """The mappings a ``<<`` value brings, in the order they take precedence."""
    value = value.target if isinstance(value, Alias) and value.target is not None else value
    if isinstance(value, Mapping):
        return [value]
    if isinstance(value, Sequence):
        out = []
        for item in value:
            target = item.target if isinstance(item, Alias) else item
            if isinstance(target, Mapping):
                out.append(target)
        return out
    return []


def fold(done: Expansion, root: Node) -> list[SharedEdit]:
    """Undo ``expand`` where no shared node was edited apart; the rest as problems.

    Problems are located where the input has them (its lines and paths). A tree with problems
    is half folded: the engine does not render it.
    """
    in_tree = {id(node) for node in nodes(root)}
    merges = [m for m in done.merges if id(m.mapping) in in_tree]
    problems = [p for m in merges for p in _merge_problems(m)]
    if problems:
        return problems
    edited = {id(m.mapping): m.mapping.to_data() for m in merges}
    for m in done.merges:
        _unmerge(m)
    problems = [p for m in merges for p in _shadow_problems(m, edited[id(m.mapping)])]
    if problems:
        return problems
    places: list[tuple[Node, Entry | Item]] = []
    seen: set[int] = set()  # nodes met so far, in document order
    for node, holder in _walk_copies(root, done):
        if holder is None:
            seen.add(id(node))
            continue
        copy = done.copies[id(node)]
        target = copy.alias.target
        assert target is not None
        if id(target) not in seen or node.anchor:
            problems.append(_lost_anchor(copy))
        elif not _same(node, target):
            problems.append(_edited(copy, target, done.anchored))
        places.append((node, holder))
    if problems:
        return problems
    for node, holder in places:
        holder.value = done.copies[id(node)].alias
    return []


def _merge_problems(m: _Merge) -> list[SharedEdit]:
    present = {id(e) for e in m.mapping.entries}
    now = _merged_now(m)
    edited = [
        e.name
        for e in m.merged
        if id(e) not in present or e.renamed or e.name not in now or not _same_data(e.value.to_data(), now[e.name])
    ]
    if not edited:
        return []
    where = m.keys[0][0]
    keys = ", ".join(edited)
    return [
        SharedEdit(
            where.key,
            m.path,
            f"{keys} {'comes' if len(edited) == 1 else 'come'} from the merge key << on line {where.key.line}: "
            "an edit would have to go through it. Write the merged keys out in this mapping and run again",
        )
    ]


def _shadow_problems(m: _Merge, edited: Data) -> list[SharedEdit]:
    """A key the mapping set over a merged one, removed or renamed: the merged value would come back."""
    now = m.mapping.to_data()
    if _same_data(now, edited) or not isinstance(now, dict) or not isinstance(edited, dict):
        return []
    back = sorted(k for k, v in now.items() if k not in edited or not _same_data(v, edited[k]))
    where = m.keys[0][0]
    return [
        SharedEdit(
            where.key,
            m.path,
            f"{', '.join(back)} would come back from the merge key << on line {where.key.line} once an edit "
            "removes or renames the key set over it here. Write the merged keys out in this mapping and run again",
        )
    ]


def _merged_now(m: _Merge) -> dict[str, Data]:
    data: dict[str, Data] = {}
    for key, _f in m.keys:
        for source in _sources(key.value):
            for k, v in _data_of(source).items():
                data.setdefault(k, v)
    return data


def _data_of(mapping: Mapping) -> dict[str, Data]:
    data = mapping.to_data()
    assert isinstance(data, dict)
    return data


def _unmerge(m: _Merge) -> None:
    merged = {id(e) for e in m.merged}
    entries = [e for e in m.mapping.entries if id(e) not in merged]
    for key, follower in m.keys:
        at = next((i for i, e in enumerate(entries) if e is follower), len(entries))
        entries.insert(at, key)
    m.mapping.entries = entries


def _same(copy: Node, target: Node) -> bool:
    return _same_data(copy.to_data(), target.to_data())


def _same_data(a: Data, b: Data) -> bool:
    return a == b or same_data(a, b)


def _edited(copy: _Copy, target: Node, anchored: dict[int, str]) -> SharedEdit:
    name, alias = copy.alias.name, copy.alias
    if not copy.node.pristine():
        return SharedEdit(
            alias,
            copy.path,
            f"an edit would have to go through the YAML alias *{name} (anchored on line {target.line}) and "
            f"change every place that uses &{name}. Write the alias out (a copy of the anchored node) and run again",
        )
    return SharedEdit(
        target,
        anchored.get(id(target), ""),
        f"the node anchored &{name} on line {target.line} is also used on line {alias.line} ({copy.path}: "
        f"*{name}): an edit to it would change it there too. Write the alias out (a copy of the anchored "
        "node) and run again",
    )


def _lost_anchor(copy: _Copy) -> SharedEdit:
    name = copy.alias.name
    target = copy.alias.target
    at = target.line if target is not None else 0
    return SharedEdit(
        copy.alias,
        copy.path,
        f"the YAML alias *{name} would lose its anchor &{name} (line {at}), which an edit removes, moves "
        "after it or replaces. Write the alias out (a copy of the anchored node) and run again",
    )


def _walk_copies(root: Node, done: Expansion) -> list[tuple[Node, Entry | Item | None]]:
    """Every node in document order; a copy with the entry or item holding it (not walked into:
    it becomes an alias again, or is a problem)."""
    out: list[tuple[Node, Entry | Item | None]] = []
    stack: list[tuple[Node, Entry | Item | None]] = [(root, None)]
    while stack:
        node, holder = stack.pop()
        if holder is not None and id(node) in done.copies:
            out.append((node, holder))
            continue
        out.append((node, None))
        if isinstance(node, Mapping):
            stack.extend((e.value, e) for e in reversed(node.entries))
        elif isinstance(node, Sequence):
            stack.extend((item.value, item) for item in reversed(node.items))
    return out
