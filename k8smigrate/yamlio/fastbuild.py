"""The C tree builder, when installed: the tree ``pybuild.py`` makes, made several times faster.

Building trees is most of a run's time on real repositories (a 100 KB CustomResourceDefinition
takes about 12 ms in Python). ``_fastbuild`` (``_fastbuild.c``, compiled at install time where
libyaml's header is there) reads libyaml's events in C and makes the same objects, attribute
for attribute. It answers only when it is sure: for text libyaml rejects, or anything
``pybuild.py`` reports as a problem, ``build`` returns None and the Python builder builds the tree
(and words the problem). A test builds every document of the corpus and of generated YAML both
ways and compares the trees.

Its libyaml is ruamel.yaml.clib's own, found in that extension's shared object without
importing it (``_fastbuild.bind``): the C builder, the C reader, ``accepts`` and ruamel's
CParser are one parser, so what a file means does not depend on the libyaml a system has.
Where that object cannot be found or used, the module stays off and the Python builder runs.

``K8SMIGRATE_PURE=1`` in the environment turns it off (to compare, or to rule it out).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib.machinery import PathFinder

from ..comments import comment_lines, eol_comment
from ..scalars import RESOLVE_MAP, Data, resolve_plain
from ..tree import MAX_EXPANDED_NODES, Alias, Entry, EntrySource, Item, Mapping, Node, Scalar, Sequence, Source
from .documents import Document

Built = list[tuple[int, int, int, Node | None, bool]]
"""What the C builder returns: (start, end, line, root, shares) per document."""


def _no_build(text: str, offset: int, end: int) -> Built | None:
    return None


def _no_data(text: str) -> list[Data] | None:
    return None


def _no_tree(node: Node, budget: int) -> list[Data] | None:
    return None


def _no_pristine(node: Node) -> bool | None:
    return None


def _no_tallies(text: str, root: Node, sample: int) -> None:
    return None


def _no_entry(text: str, entry: Entry, col: int, delta: int, first: bool) -> None:
    return None


def _no_accepts(text: str) -> bool:
    return False


def _no_accepts_each(texts: list[bytes], verdicts: bytearray) -> None:
    return None


def _needle_set(needles: tuple[str, ...]) -> object:
    return needles


def _holds_any(text: str, needles: object) -> bool:
    assert isinstance(needles, tuple)
    return any(map(text.__contains__, needles))


def _holds_which(text: str, needles: object) -> list[str]:
    assert isinstance(needles, tuple)
    return [needle for needle in needles if needle in text]


def _load() -> tuple[
    Callable[[str, int, int], Built | None],
    Callable[[str], list[Data] | None],
    Callable[[str], bool],
    Callable[[list[bytes], bytearray], None],
    str | None,
    Callable[[tuple[str, ...]], object],
    Callable[[str, object], bool],
    Callable[[str, object], list[str]],
    Callable[[str, int], str] | None,
    Callable[[Node, int], list[Data] | None],
    Callable[[Node], bool | None],
    Callable[[str, Node, int], tuple[dict[int, int], dict[int, int], dict[str, int]] | None],
    Callable[[str, Entry, int, int, bool], str | None],
]:
    off = (
        *(_no_build, _no_data, _no_accepts, _no_accepts_each, None),
        *(_needle_set, _holds_any, _holds_which, None, _no_tree, _no_pristine, _no_tallies, _no_entry),
    )
    if os.environ.get("K8SMIGRATE_PURE", "") not in ("", "0"):
        return off
    try:
        from ._fastbuild import (
            accepts,
            accepts_each,
            bind,
            build,
            configure,
            holds_any,
            holds_which,
            needle_set,
            original_entry,
            read_data,
            reindent,
            style_tallies,
            tree_data,
            tree_pristine,
        )
    except ImportError:
        return off
    spec = PathFinder.find_spec("_ruamel_yaml")  # found, not imported: its module is not needed
    version = bind(spec.origin) if spec is not None and spec.origin else None
    if version is None:  # no libyaml to read with; the substring search needs none
        return *off[:5], needle_set, holds_any, holds_which, reindent, *off[9:]
    configure(
        Scalar,
        Mapping,
        Sequence,
        Alias,
        Entry,
        Item,
        Source,
        EntrySource,
        comment_lines,
        eol_comment,
        resolve_plain,
        RESOLVE_MAP,
    )
    return (
        *(build, read_data, accepts, accepts_each, version),
        *(needle_set, holds_any, holds_which, reindent, tree_data, tree_pristine, style_tallies, original_entry),
    )


(
    build,
    read_data,
    accepts,
    accepts_each,
    LIBYAML_VERSION,
    needle_set,
    holds_any,
    holds_which,
    reindent,
    _tree_data,
    _tree_pristine,
    style_tallies,
    original_entry,
) = _load()
"""``build(text, offset, end)``: the documents of ``text[offset:end]``, or None (left to
``pybuild.py``); ``read_data(text)``: the data of every document as ``readback.read_data`` reads
it with libyaml, or None (left to it); ``accepts(text)``: whether libyaml reads all of
``text`` (``events.libyaml_accepts``); ``accepts_each(texts, verdicts)``: ``accepts`` of each
UTF-8 ``bytes`` with the GIL released (``prechecked``); ``LIBYAML_VERSION``: the libyaml they use (None: the C
module is not installed, is turned off, or found no libyaml it can use); ``holds_any(text,
needle_set(needles))``: ``any(n in text for n in needles)``, in one pass in C (which needs no
libyaml), the needles made ready once by ``needle_set``; ``holds_which(text, needle_set(needles))``:
``[n for n in needles if n in text]``, in one pass too; ``reindent``: ``render.reindent`` in C, or
None (the C module is not installed or is turned off: ``render`` uses its own)."""

ACTIVE = LIBYAML_VERSION is not None


def built_documents(built: Built, first_index: int) -> list[Document]:
    """The ``Document`` of each row ``build`` returned, indexed from ``first_index``."""
    return [
        Document(first_index + i, start, end, line, root=root, shares=shares)
        for i, (start, end, line, root, shares) in enumerate(built)
    ]


def tree_data(node: Node) -> Data:
    """``node.to_data()``: in C for a tree without aliases or merge keys (``_fastbuild.tree_data``
    declines the rest, and ``to_data`` answers; a test compares both on the corpus)."""
    found = _tree_data(node, MAX_EXPANDED_NODES)
    return node.to_data() if found is None else found[0]


def pristine(node: Node) -> bool:
    """``node.pristine()``: in C for the tree's own classes (``_fastbuild.tree_pristine`` declines
    anything else, and ``pristine`` answers; a test compares both)."""
    found = _tree_pristine(node)
    return node.pristine() if found is None else found
