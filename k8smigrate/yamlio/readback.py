"""The verification reader: the data of a text, read as the tree reads it, without building one.

The engine checks every edited document by reading its new text back; this does that at a
fraction of the cost of a tree (no spans, no comments), with libyaml when present.
"""

from __future__ import annotations

from ..scalars import Data
from .fastbuild import read_data as read_data_in_c


def read_data(text: str, libyaml: bool = True) -> list[Data]:
    """The data of every document of ``text``, read as the tree reads it, without building one.

    The engine checks every edited document by reading its new text back; this does that at
    a fraction of the cost of a tree (no spans, no comments), with libyaml when present.
    Text that does not parse raises ``ValueError``.
    """
    if libyaml:
        docs = read_data_in_c(text)
        if docs is not None:
            return docs
    from .events import YAMLError  # the Python reader is ruamel.yaml's: imported only when it runs
    from .pybuild import data_with_events

    try:
        return data_with_events(text, libyaml)
    except YAMLError as exc:
        raise ValueError(str(exc)) from exc
