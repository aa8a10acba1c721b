"""JSON pointers (RFC 6901) and RFC 6902 operations on the editable tree, keeping node identity.

A kustomize JSON patch is migrated by applying its operations to a copy of the object it
targets, running the object's migration on the result, and reading where each operation's
node went (``locate``): a value moved with its field keeps its identity, so its new path is
found without a table of field moves. ``apply`` is the tree-level twin of what ``jsonpatch``
does on data; the data-level library checks the result afterwards.
"""

from __future__ import annotations

from ..dataclasscode import dataclass
from ..tree import Mapping, Node, Scalar, Sequence, from_data

Path = tuple[str | int, ...]
"""A concrete path in a tree: mapping keys and sequence indexes."""


class PointerError(ValueError):
    """A pointer that does not parse, or that does not resolve where it must."""


def parse(pointer: str) -> list[str]:
    """``/spec/rules/0/host`` → ``["spec", "rules", "0", "host"]`` (``~1`` and ``~0`` unescaped)."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PointerError(f"JSON pointer {pointer!r} does not start with /")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def format_pointer(path: Path) -> str:
    """A concrete path as a JSON pointer."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _index(seq: Sequence, token: str, *, end_ok: bool) -> int:
    if token == "-" and end_ok:
        return len(seq)
    if not token.isdigit() or (len(token) > 1 and token.startswith("0")):
        raise PointerError(f"{token!r} is not an array index")
    index = int(token)
    if index > len(seq) or (index == len(seq) and not end_ok):
        raise PointerError(f"index {index} is out of range")
    return index


def resolve(root: Node, tokens: list[str]) -> tuple[Node, Path]:
    """The node at ``tokens`` and its concrete path; ``PointerError`` when it is not there."""
    node = root
    path: list[str | int] = []
    for token in tokens:
        if isinstance(node, Mapping):
            child = node.get(token)
            if child is None:
                raise PointerError(f"no key {token!r} at {format_pointer(tuple(path)) or '/'}")
            node = child
            path.append(token)
        elif isinstance(node, Sequence):
            index = _index(node, token, end_ok=False)
            node = node[index]
            path.append(index)
        else:
            raise PointerError(f"{format_pointer(tuple(path)) or '/'} is not a mapping or a sequence")
    return node, tuple(path)


@dataclass
class Op:
    """One operation of a JSON patch, as read from the patch's tree."""

    op: str
    path: list[str]
    value: Node | None = None
    source: list[str] | None = None  # ``from`` of move and copy


def _parent(root: Node, tokens: list[str]) -> tuple[Node, str]:
    if not tokens:
        raise PointerError("the operation targets the whole document")
    parent, _path = resolve(root, tokens[:-1])
    return parent, tokens[-1]


def _put(parent: Node, key: str, value: Node, *, replace: bool) -> None:
    if isinstance(parent, Mapping):
        if replace and key not in parent:
            raise PointerError(f"no key {key!r} to replace")
        parent.set(key, value)
        entry = parent.entry(key)
        if entry is not None and entry.value is not value:  # Mapping.set edits a scalar in place
            entry.value = value
    elif isinstance(parent, Sequence):
        index = _index(parent, key, end_ok=not replace)
        if replace:
            parent.items[index].value = value
        else:
            parent.append(value)
            item = parent.items.pop()
            parent.items.insert(index, item)
        parent.dirty = True
    else:
        raise PointerError("the parent is not a mapping or a sequence")


def _remove(parent: Node, key: str) -> Node:
    if isinstance(parent, Mapping):
        entry = parent.pop(key)
        if entry is None:
            raise PointerError(f"no key {key!r} to remove")
        return entry.value
    if isinstance(parent, Sequence):
        index = _index(parent, key, end_ok=False)
        item = parent.items.pop(index)
        parent.dirty = True
        return item.value
    raise PointerError("the parent is not a mapping or a sequence")


def apply(root: Node, op: Op) -> Node | None:
    """Apply one operation to the tree; the node it leaves at ``op.path`` (None after a remove).

    ``add`` and ``replace`` insert ``op.value`` itself (not a copy), so that it can be found
    again after a migration ran on the tree.
    """
    if op.op in ("add", "replace"):
        if op.value is None:
            raise PointerError(f"{op.op} without a value")
        parent, key = _parent(root, op.path)
        _put(parent, key, op.value, replace=op.op == "replace")
        return op.value
    if op.op == "remove":
        parent, key = _parent(root, op.path)
        _remove(parent, key)
        return None
    if op.op == "test":
        node, _path = resolve(root, op.path)
        if op.value is None or node.to_data() != op.value.to_data():
            raise PointerError("test failed")
        return node
    if op.op in ("move", "copy"):
        if op.source is None:
            raise PointerError(f"{op.op} without from")
        if op.op == "move":
            parent, key = _parent(root, op.source)
            moved = _remove(parent, key)
        else:
            found, _path = resolve(root, op.source)
            moved = from_data(found.to_data())
        parent, key = _parent(root, op.path)
        _put(parent, key, moved, replace=False)
        return moved
    raise PointerError(f"unknown operation {op.op!r}")


def locate(root: Node, target: Node) -> Path | None:
    """The concrete path of ``target`` (by identity) in the tree, or None when it is not there."""
    stack: list[tuple[Path, Node]] = [((), root)]
    while stack:
        path, node = stack.pop()
        if node is target:
            return path
        if isinstance(node, Mapping):
            stack.extend(((*path, e.name), e.value) for e in node.entries)
        elif isinstance(node, Sequence):
            stack.extend(((*path, i), item.value) for i, item in enumerate(node.items))
    return None


def ensure(root: Node, tokens: list[str]) -> Node:
    """The node at ``tokens``, created as an empty mapping chain where missing (for probing a path
    that the object does not have yet); ``PointerError`` where a sequence is in the way."""
    node = root
    for token in tokens:
        if isinstance(node, Mapping):
            child = node.get(token)
            if child is None:
                child = node.set(token, Scalar.of(None) if token == tokens[-1] else Mapping())
            node = child
        elif isinstance(node, Sequence):
            node = node[_index(node, token, end_ok=False)]
        else:
            raise PointerError("a scalar is in the way")
    return node
