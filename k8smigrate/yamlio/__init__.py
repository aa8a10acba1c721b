"""The YAML I/O package: the only code that talks to ruamel.yaml.

One job per module:

- ``events``: the parser (libyaml through ``ruamel.yaml.clib`` when present, ruamel's own
  otherwise), its events and errors;
- ``stream``: splitting a stream into documents at parser marks, and the fast path that
  parses only the documents the pre-filter (``k8smigrate.prefilter``) wants;
- ``build``: parser events → the editable ``tree``, every node with its source span;
- ``classify``: templated or not, apiVersion, kind, name and namespace of each document;
- ``readback``: the data of a text, read as the tree reads it (the engine's verification);
- ``documents``, ``lines``: the data types, and line numbers of character indices.

ruamel's loosely typed objects (``Any``) do not leave this package: the rest of the project
sees ``Stream``, ``Document``, the tree and plain data.
"""

from __future__ import annotations

from .classify import TEMPLATE_MARKERS
from .documents import BOM, EVERY, Document, Problem, Stream
from .lines import column_of, line_of
from .readback import read_data
from .spans import content_end, entry_end
from .stream import directives, not_whole, read_again, read_stream

__all__ = [
    "BOM",
    "EVERY",
    "TEMPLATE_MARKERS",
    "Document",
    "Problem",
    "Stream",
    "column_of",
    "content_end",
    "directives",
    "entry_end",
    "line_of",
    "not_whole",
    "read_again",
    "read_data",
    "read_stream",
]
