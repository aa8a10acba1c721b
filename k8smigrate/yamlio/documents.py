"""What reading a stream gives: a ``Stream`` of ``Document`` slices, each with its tree or its ``Problem``."""

from __future__ import annotations

from dataclasses import field

from ..dataclasscode import dataclass
from ..tree import Node

BOM = "\ufeff"

MAX_DEPTH = 500
"""How deep collections may nest in a tree (deeper documents are refused with a finding)."""


@dataclass
class Problem:
    """Why a document could not be read: a message and a 1-based line in the file."""

    message: str
    line: int
    other_line: int | None = None
    code: str = "K8SM-GEN-005"
    """K8SM-GEN-005 for invalid YAML; K8SM-GEN-011 for valid YAML this tool does not read."""
    context_line: int | None = None
    """Where the construct the parser was reading began, when not at ``line`` (a simple key
    whose ``:`` is missing is reported at the line after it)."""


@dataclass
class Document:
    """One document of a stream: where it is, and its tree when it could be read."""

    index: int
    start: int
    end: int
    line: int
    root: Node | None = None
    problem: Problem | None = None
    duplicates: list[Problem] = field(default_factory=list)
    templated: bool = False
    shares: bool = False
    """The tree has YAML aliases or merge keys (``sharing`` expands them around the bodies)."""
    api_version: str | None = None
    kind: str | None = None
    name: str | None = None
    namespace: str | None = None


@dataclass
class Stream:
    """A whole file: its text without BOM, and its documents in order."""

    text: str
    bom: bool
    documents: list[Document]
    whole: bool = True
    """False when the stream only parsed piece by piece (a template, or a broken document)."""
    libyaml: bool = False
    """True when libyaml read it; edits are then read back with libyaml too (the two parsers
    disagree on a few corners, such as tabs)."""
    boms: int = 0
    """How many byte order marks the text started with (``bom`` says whether any): all are
    written back."""

    @property
    def prefix(self) -> str:
        """The byte order marks that ``text`` was read without."""
        return BOM * (self.boms or int(self.bom))


_NEWLINES: dict[int, tuple[str, list[int]]] = {}


def EVERY(_piece: str) -> bool:
    """A ``wanted`` predicate that builds the tree of every document (at libyaml speed)."""
    return True
