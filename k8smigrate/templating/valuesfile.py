"""A chart's ``values.yaml`` (and ``ci/*.yaml``): read its data, find a key, rewrite one scalar.

``apiVersion: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}`` takes its version
from ``values.yaml``; the fix is the default there, written the way the file writes it. The
file is read with the project's own tree (``yamlio.read_stream``) and the change is rendered
by the project's splicing renderer (``render.Renderer``), so the quotes, comments and every
other byte of the file stay; the edit returned is the smallest span that changed.

Values files are merged as Helm coalesces them (``pkg/chart/common/util/coalesce.go``): a
later file's maps merge into the earlier's key by key, anything else replaces, and ``null``
deletes the key.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..dataclasscode import dataclass
from ..render import Renderer, detect_style
from ..tree import Mapping as TreeMapping
from ..tree import Scalar, TreeError
from ..yamlio import EVERY, line_of, read_stream

__all__ = ["ValuesError", "coalesce", "find_scalar", "load", "set_scalar"]


class ValuesError(ValueError):
    """A values file that cannot be read as one YAML mapping."""


def _root(text: str) -> TreeMapping | None:
    stream = read_stream(text, EVERY)
    docs = [d for d in stream.documents if d.root is not None or d.problem is not None]
    if not docs:
        return None
    first = docs[0]
    if first.problem is not None:
        raise ValuesError(f"line {first.problem.line}: {first.problem.message}")
    if not isinstance(first.root, TreeMapping):
        raise ValuesError("the values file is not a mapping")
    return first.root


def load(text: str) -> dict[str, object]:
    """The data of a values file (empty when it holds nothing).

    Read without a tree first (``chart.load_values``: the data as the tree reads it, at a
    fraction of the cost; Bitnami's values files run to thousands of lines); the tree reads a
    file that does not give one mapping that way, for its located error.
    """
    from .chart import load_values

    data = load_values(text)
    if isinstance(data, dict):
        return dict(data)
    try:
        root = _root(text)
        data = root.to_data() if root is not None else {}
    except TreeError as exc:
        raise ValuesError(str(exc)) from exc
    if not isinstance(data, dict):
        raise ValuesError("the values file is not a mapping")
    return dict(data)


def coalesce(base: Mapping[str, object], override: Mapping[str, object]) -> dict[str, object]:
    """``override`` merged over ``base`` as Helm merges ``-f`` files."""
    out = dict(base)
    for key, value in override.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            below = out[key]
            assert isinstance(below, dict)
            out[key] = coalesce(below, value)
        else:
            out[key] = value
    return out


@dataclass(frozen=True)
class ScalarAt:
    """A scalar of a values file: its value, span and 1-based line."""

    value: str
    start: int
    end: int
    line: int


def find_scalar(text: str, key: tuple[str, ...]) -> ScalarAt | None:
    """The scalar at ``key`` (None when the file does not set it to a scalar)."""
    node = _scalar_node(text, key)
    if node is None:
        return None
    scalar, stream_text, bom = node
    assert scalar.src is not None
    start, end = scalar.src.start + bom, scalar.src.end + bom
    return ScalarAt(str(scalar.value), start, end, line_of(stream_text, scalar.src.start))


def _scalar_node(text: str, key: tuple[str, ...]) -> tuple[Scalar, str, int] | None:
    stream = read_stream(text, EVERY)
    docs = [d for d in stream.documents if d.root is not None]
    if not docs or not isinstance(docs[0].root, TreeMapping):
        return None
    node: object = docs[0].root
    for name in key:
        if not isinstance(node, TreeMapping):
            return None
        node = node.get(name)
    if not isinstance(node, Scalar) or node.src is None:
        return None
    return node, stream.text, 1 if stream.bom else 0


def set_scalar(text: str, key: tuple[str, ...], value: str) -> tuple[int, int, str] | None:
    """The smallest edit ``(start, end, replacement)`` of ``text`` that sets ``key`` to the string
    ``value`` in the scalar's own quoting style (None when the key holds no scalar)."""
    stream = read_stream(text, EVERY)
    docs = [d for d in stream.documents if d.root is not None]
    if not docs or not isinstance(docs[0].root, TreeMapping):
        return None
    root = docs[0].root
    node: object = root
    for name in key:
        if not isinstance(node, TreeMapping):
            return None
        node = node.get(name)
    if not isinstance(node, Scalar) or root.src is None or node.src is None:
        return None
    scalar_start, scalar_end = node.src.start - root.src.start, node.src.end - root.src.start
    node.set(value)
    new = Renderer(stream.text, detect_style(stream.text, root)).document(root)
    old = stream.text[root.src.start : root.src.end]
    lo = 0
    while lo < min(len(old), len(new)) and old[lo] == new[lo]:
        lo += 1
    hi = 0
    while hi < min(len(old), len(new)) - lo and old[-1 - hi] == new[-1 - hi]:
        hi += 1
    lo = min(lo, scalar_start)  # the whole scalar, as a reader of the diff expects
    hi = min(hi, len(old) - scalar_end)
    bom = 1 if stream.bom else 0
    start = root.src.start + lo + bom
    return start, root.src.end - hi + bom, new[lo : len(new) - hi]
