"""Tree building: a document's text → a ``tree`` whose every node knows its span in the text.

Two builders make the very same tree: the C one (``fastbuild``, on libyaml) when it is installed
and sure of the text, else the Python one over ruamel.yaml's parser events (``pybuild``), which
also words every problem. The Python builder, and ruamel.yaml with it, is imported only when it
is needed: a run over valid YAML, with the C builder, never needs it.
"""

from __future__ import annotations

from collections.abc import Iterator

from .documents import Document
from .fastbuild import build as build_in_c
from .fastbuild import built_documents


def parse_documents(
    text: str,
    offset: int,
    first_index: int,
    fast: bool = False,
    end: int | None = None,
) -> Iterator[Document]:
    """Documents of ``text``, or of the piece ``text[offset:end]`` with indices into ``text``.

    The builder keeps the whole ``text`` (not a slice of it), so that line numbers come from
    one table of newlines instead of one per piece, which made large files quadratic.

    With ``fast`` (libyaml's events), the C builder (``fastbuild``) builds the same tree when
    it is installed and sure of the text (it reads with the same libyaml); else the Python
    builder does, with libyaml's events (``fast``) or ruamel's own parser's.
    """
    if fast:
        built = build_in_c(text, offset, len(text) if end is None else end)
        if built is not None:
            return iter(built_documents(built, first_index))
    from .pybuild import parse_with_events  # ruamel.yaml, imported only when needed

    return parse_with_events(text, offset, first_index, fast, end)
