"""Field paths of kustomize (``replacements``, ``vars``, transformer configurations), read,
resolved on a tree and rewritten after a migration moved the fields they point at.

Two spellings exist (``kyaml/utils/pathsplitter.go``): dotted (``spec.template.spec.
containers.[name=app].image``, ``[a.b]`` for a key holding dots, ``*`` for every item, as in
``replacements`` and ``vars``' ``fieldref.fieldpath``) and slashed (``spec/rules/host``, ``\\/``
inside a key, as in ``configurations``' field specs), where a sequence on the way is walked
through without a segment of its own.

A path is rewritten from where the migration put the nodes it reached (by identity, as for
JSON patches): each key of the new concrete path becomes a segment, and each sequence index
takes back the segment that selected it (an index, ``[k=v]``, ``*``, or nothing when walked
through).
"""

from __future__ import annotations

from ..dataclasscode import dataclass
from ..regexcode import regex
from ..tree import Mapping, Node, Scalar, Sequence
from .pointer import Path

DOTTED, SLASHED = ".", "/"
_SUFFIX_INDEX = regex(r"^(.+?)\[([^\]=]+(?:=[^\]]*)?)\]$")


class FieldPathError(ValueError):
    """A field path that does not parse, or cannot be written for the migrated object."""


@dataclass(frozen=True)
class Segment:
    """``key`` (a mapping key), ``index`` (a position), ``match`` (``[k=v]``) or ``any`` (``*``)."""

    kind: str
    key: str = ""
    value: str = ""
    index: int = 0


def split(path: str, style: str) -> list[Segment]:
    """The segments of a field path in one of the two spellings."""
    if not path:
        return []
    raw = _split_escaped(path.lstrip("/") if style == SLASHED else path, style)
    out: list[Segment] = []
    for part in _join_brackets(raw, style):
        out.extend(_segments(part, style))
    return out


def _split_escaped(path: str, delimiter: str) -> list[str]:
    res: list[str] = []
    for piece in path.split(delimiter):
        if res and res[-1].endswith("\\"):
            res[-1] = res[-1][:-1] + delimiter + piece
        else:
            res.append(piece)
    return res


def _join_brackets(parts: list[str], delimiter: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        if part.startswith("[") and not part.endswith("]"):
            group = [part]
            while i < len(parts) - 1:
                i += 1
                group.append(parts[i])
                if parts[i].endswith("]"):
                    break
            part = delimiter.join(group)
        out.append(part)
        i += 1
    return out


def _segments(part: str, style: str) -> list[Segment]:
    if part == "*":
        return [Segment("any")]
    if part.startswith("[") and part.endswith("]"):
        inner = part[1:-1]
        if "=" in inner:
            k, _, v = inner.partition("=")
            return [Segment("match", k, v)]
        return [Segment("index", index=int(inner))] if inner.isdigit() else [Segment("key", inner)]
    if part.isdigit():
        return [Segment("index", index=int(part))]
    m = _SUFFIX_INDEX.match(part) if style == DOTTED else None
    if m:
        return [Segment("key", m.group(1)), *_segments(f"[{m.group(2)}]", style)]
    return [Segment("key", part)]


def join(segments: list[Segment], style: str) -> str:
    """The path text of ``segments`` in the given spelling."""
    out: list[str] = []
    for s in segments:
        if s.kind == "any":
            out.append("*")
        elif s.kind == "match":
            out.append(f"[{s.key}={s.value}]")
        elif s.kind == "index":
            out.append(str(s.index))
        elif style == DOTTED:
            out.append(f"[{s.key}]" if "." in s.key else s.key)
        else:
            out.append(s.key.replace("/", "\\/"))
    return style.join(out)


@dataclass
class Hit:
    """A node a field path reaches, its concrete path, and which segment chose each index on it."""

    node: Node
    path: Path
    choosers: list[Segment | None]


def resolve(root: Node, segments: list[Segment], style: str) -> list[Hit]:
    """Every node the path reaches (slashed paths walk through sequences on their own)."""
    hits = [Hit(root, (), [])]
    for seg in segments:
        nxt: list[Hit] = []
        for hit in hits:
            nxt.extend(_step(hit, seg, style))
        hits = nxt
    return hits


def _step(hit: Hit, seg: Segment, style: str) -> list[Hit]:
    node = hit.node
    if isinstance(node, Sequence):
        if seg.kind == "key":
            if style != SLASHED:
                return []
            out: list[Hit] = []
            for i, item in enumerate(node):
                out.extend(_step(Hit(item, (*hit.path, i), [*hit.choosers, None]), seg, style))
            return out
        picked = [
            (i, item)
            for i, item in enumerate(node)
            if seg.kind == "any"
            or (seg.kind == "index" and i == seg.index)
            or (seg.kind == "match" and _matches(item, seg))
        ]
        return [Hit(item, (*hit.path, i), [*hit.choosers, seg]) for i, item in picked]
    if isinstance(node, Mapping):
        if seg.kind == "key":
            child = node.get(seg.key)
            return [] if child is None else [Hit(child, (*hit.path, seg.key), hit.choosers)]
        if seg.kind == "any":
            return [Hit(e.value, (*hit.path, e.name), hit.choosers) for e in node.entries]
    return []


def _matches(item: Node, seg: Segment) -> bool:
    if not isinstance(item, Mapping):
        return False
    value = item.get(seg.key)
    return isinstance(value, Scalar) and str(value.value) == seg.value


def rewrite(old: Hit, new_path: Path, segments: list[Segment], style: str) -> list[Segment]:
    """The segments that reach ``new_path`` the way ``segments`` reached ``old.path``."""
    if new_path == old.path:
        return segments
    old_indexes = sum(1 for p in old.path if isinstance(p, int))
    new_indexes = [p for p in new_path if isinstance(p, int)]
    if len(new_indexes) != old_indexes:
        raise FieldPathError("the field moved into a different number of lists")
    out: list[Segment] = []
    k = 0
    for part in new_path:
        if isinstance(part, int):
            chooser = old.choosers[k]
            k += 1
            if chooser is None:
                continue
            out.append(Segment("index", index=part) if chooser.kind == "index" else chooser)
        else:
            out.append(Segment("key", part))
    if any(s.kind == "any" for s in segments if s.kind == "any") and not any(s.kind == "any" for s in out):
        raise FieldPathError("a * segment has no place in the migrated path")
    return out
