"""Small tree edits that several add-on conversions share: a key renamed where its new name may
already be taken, a list of renames, and a key's value read as text."""

from __future__ import annotations

from k8smigrate.context import Context
from k8smigrate.tree import Entry, Mapping, Node, Scalar, resolve


def rename(mapping: Mapping, old: str, new: str, ctx: Context, code: str, where: str = "") -> bool:
    """``old`` → ``new`` in place (value, position and comments stay); True when renamed.

    When ``new`` is already there the document cannot be converted without a guess: an error
    finding with ``code`` names both keys and nothing changes.
    """
    if old not in mapping:
        return False
    if new in mapping:
        ctx.error(code, f"{where}{old} and {where}{new} are both set; keep one of them", mapping.get(old))
        return False
    mapping.rename(old, new)
    ctx.note(f"{where}{old} → {where}{new}")
    return True


def rename_all(mapping: Mapping, names: dict[str, str], ctx: Context, code: str, where: str = "") -> None:
    """Every ``old → new`` of ``names`` that applies to ``mapping``."""
    for old, new in names.items():
        rename(mapping, old, new, ctx, code, where)


def text(node: Node | None) -> str | None:
    """The string a scalar holds (None for anything else, a number included)."""
    node = resolve(node) if node is not None else None
    if isinstance(node, Scalar) and isinstance(node.data, str):
        return node.data
    return None


def is_empty(node: Node | None) -> bool:
    """A value Go's ``omitempty`` would leave out: null, "", 0, false, [] or {}."""
    if node is None:
        return True
    data = resolve(node).to_data()
    return data in (None, "", 0, False, [], {})


def move(source: Mapping, key: str, target: Mapping, new_key: str) -> Entry:
    """Move ``source[key]`` into ``target`` as ``new_key``, replacing what was there (comments travel)."""
    target.pop(new_key)
    return source.move_to(key, target, new_key)
