"""The C tree builder, when installed: the tree ``build.py`` makes, made several times faster.

Building trees is most of a run's time on real repositories (a 100 KB CustomResourceDefinition
takes about 12 ms in Python). ``_fastbuild`` (``_fastbuild.c``, compiled at install time
against libyaml when its headers are there) reads libyaml's events in C and makes the same
objects, attribute for attribute. It answers only when it is sure: for text libyaml rejects,
or anything ``build.py`` reports as a problem, ``build`` returns None and the Python builder
builds the tree (and words the problem). Its callers give it only text ruamel.yaml.clib's own
libyaml accepts (the system's may read more). A test builds every
document of the corpus and of generated YAML both ways and compares the trees.

``K8SMIGRATE_PURE=1`` in the environment turns it off (to compare, or to rule it out).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ..comments import comment_lines, eol_comment
from ..scalars import Data, resolve_plain
from ..tree import Alias, Entry, EntrySource, Item, Mapping, Node, Scalar, Sequence, Source
from .documents import Document

Built = list[tuple[int, int, int, Node | None, bool]]
"""What the C builder returns: (start, end, line, root, shares) per document."""


def _no_build(text: str, offset: int, end: int) -> Built | None:
    return None


def _no_data(text: str) -> list[Data] | None:
    return None


def _load() -> tuple[Callable[[str, int, int], Built | None], Callable[[str], list[Data] | None], str | None]:
    if os.environ.get("K8SMIGRATE_PURE", "") not in ("", "0"):
        return _no_build, _no_data, None
    try:
        from ._fastbuild import build, configure, libyaml_version, read_data
    except ImportError:
        return _no_build, _no_data, None
    configure(
        Scalar, Mapping, Sequence, Alias, Entry, Item, Source, EntrySource, comment_lines, eol_comment, resolve_plain
    )
    return build, read_data, libyaml_version()


build, read_data, LIBYAML_VERSION = _load()
"""``build(text, offset, end)``: the documents of ``text[offset:end]``, or None (left to
``build.py``); ``read_data(text)``: the data of every document as ``readback.read_data`` reads
it with libyaml, or None (left to it); ``LIBYAML_VERSION``: the libyaml they use (None: the C
module is not installed or is turned off)."""

ACTIVE = LIBYAML_VERSION is not None


def built_documents(built: Built, first_index: int) -> list[Document]:
    """The ``Document`` of each row ``build`` returned, indexed from ``first_index``."""
    return [
        Document(first_index + i, start, end, line, root=root, shares=shares)
        for i, (start, end, line, root, shares) in enumerate(built)
    ]
