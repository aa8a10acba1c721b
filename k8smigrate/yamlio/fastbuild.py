"""The C tree builder, when installed: the tree ``pybuild.py`` makes, made several times faster.

Building trees is most of a run's time on real repositories (a 100 KB CustomResourceDefinition
takes about 12 ms in Python). ``k8smigrate._fastbuild`` (``_fastbuild.c`` here, compiled at
install time; ``cmodule`` loads it) reads libyaml's events in C and makes the same objects, attribute
for attribute. It answers only when it is sure: for text libyaml rejects, or anything
``pybuild.py`` reports as a problem, ``build`` returns None and the Python builder builds the tree
(and words the problem). A test builds every document of the corpus and of generated YAML both
ways and compares the trees.

Its libyaml is ruamel.yaml.clib's own (``cmodule`` says how it is found). Where that cannot be
found or used, the module stays off and the Python builder runs.

The same module holds the substring searches of the pre-filter and the facts, and the
renderer's and the read-back's work per node (``reindent``, ``pristine``, ``tree_data``, the
layout tallies, an entry kept as parsed): each has a Python original that says what it does,
runs without the extension, and which a test holds the C one equal to.

``K8SMIGRATE_PURE=1`` in the environment turns it off (to compare, or to rule it out).
The same module reads a run's files on another core from its start (``prefetch``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..cmodule import available, libyaml_version
from ..comments import comment_lines, eol_comment
from ..scalars import RESOLVE_MAP, Data, resolve_plain
from ..tree import MAX_EXPANDED_NODES, Alias, Entry, EntrySource, Item, Mapping, Node, Scalar, Sequence, Source
from .documents import Document

Built = list[tuple[int, int, int, Node | None, bool]]
"""What the C builder returns: (start, end, line, root, shares) per document."""

Tallies = tuple[dict[int, int], dict[int, int], dict[str, int]]
"""``render.tallies``' counts as the C module gives them (steps, sequence offsets, quotes)."""


def _no_build(text: str, offset: int, end: int) -> Built | None:
    return None


def _no_data(text: str) -> list[Data] | None:
    return None


def _no_tree(node: Node, budget: int) -> list[Data] | None:
    return None


def _no_pristine(node: Node) -> bool | None:
    return None


def _no_tallies(text: str, root: Node, sample: int) -> Tallies | None:
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


class _InC:
    """What the C module gives: each attribute starts as what stands in without it (or where it
    is off), and ``_load`` puts in what the module has. A plain class: a ``NamedTuple`` of these
    cost a millisecond of every start."""

    def __init__(self) -> None:
        # build(text, offset, end): the documents of text[offset:end], or None (left to pybuild.py)
        self.build: Callable[[str, int, int], Built | None] = _no_build
        # read_data(text): every document's data as readback.read_data reads it, or None (left to it)
        self.read_data: Callable[[str], list[Data] | None] = _no_data
        # accepts(text): whether libyaml reads all of text (events.libyaml_accepts)
        self.accepts: Callable[[str], bool] = _no_accepts
        # accepts_each(texts, verdicts): accepts of each UTF-8 bytes, the GIL released (prechecked)
        self.accepts_each: Callable[[list[bytes], bytearray], None] = _no_accepts_each
        # the libyaml they read with; None: the C module is not installed, is off, or found none
        self.libyaml_version: str | None = None
        # the needles of holds_any and holds_which, made ready once (these need no libyaml)
        self.needle_set: Callable[[tuple[str, ...]], object] = _needle_set
        # holds_any(text, needle_set(needles)): any(n in text for n in needles), in one pass
        self.holds_any: Callable[[str, object], bool] = _holds_any
        # holds_which(text, needle_set(needles)): [n for n in needles if n in text], in one pass
        self.holds_which: Callable[[str, object], list[str]] = _holds_which
        # render.python_reindent in C, or None (render uses its own)
        self.reindent: Callable[[str, int], str] | None = None
        # behind tree_data and pristine below: [node.to_data()] / node.pristine(), or None (declined)
        self.tree_data: Callable[[Node, int], list[Data] | None] = _no_tree
        self.tree_pristine: Callable[[Node], bool | None] = _no_pristine
        # render.tallies (as dicts), or None where it declines
        self.style_tallies: Callable[[str, Node, int], Tallies | None] = _no_tallies
        # Renderer._original_entry of an entry kept as parsed, or None for any other entry
        self.original_entry: Callable[[str, Entry, int, int, bool], str | None] = _no_entry


def _load() -> _InC:
    found = _InC()
    if not available():
        return found
    from .._fastbuild import (
        accepts,
        accepts_each,
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

    found.needle_set, found.holds_any, found.holds_which = needle_set, holds_any, holds_which
    found.reindent = reindent
    version = libyaml_version()
    if version is None:  # no libyaml to read with; what works on text alone needs none
        return found
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
    found.build, found.read_data, found.accepts, found.accepts_each = build, read_data, accepts, accepts_each
    found.libyaml_version = version
    found.tree_data, found.tree_pristine = tree_data, tree_pristine
    found.style_tallies, found.original_entry = style_tallies, original_entry
    return found


_IN_C = _load()
build, read_data, accepts, accepts_each = _IN_C.build, _IN_C.read_data, _IN_C.accepts, _IN_C.accepts_each
LIBYAML_VERSION = _IN_C.libyaml_version
needle_set, holds_any, holds_which, reindent = _IN_C.needle_set, _IN_C.holds_any, _IN_C.holds_which, _IN_C.reindent
style_tallies, original_entry = _IN_C.style_tallies, _IN_C.original_entry
_tree_data, _tree_pristine = _IN_C.tree_data, _IN_C.tree_pristine
"""Each as ``_InC`` says."""

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
