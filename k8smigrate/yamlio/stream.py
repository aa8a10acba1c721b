"""Splitting a stream into documents, and the fast path that parses only the wanted ones.

Documents are found from parser events and their marks, never with a ``^---`` regex. When
the whole stream is valid YAML (checked by libyaml at C speed), it is cut at its column-0
document markers and only the pieces the pre-filter wants are parsed into trees. When it
does not parse as a whole (typically a Helm template), each piece is parsed on its own, so
that one broken or templated document never stops the others from being migrated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import pairwise

from .build import parse_documents
from .classify import TEMPLATE_MARKERS, classify
from .documents import BOM, Document, Problem, Stream
from .events import LIBYAML, PARSE_ERRORS, MarkedYAMLError, libyaml_accepts, message
from .lines import line_of

_DOC_MARKER = re.compile(r"^(?:---|\.\.\.)(?=[ \t\r\n]|$)", re.M)
_MARKER = re.compile(r"(?:---|\.\.\.)(?=[ \t\r\n]|$)")
"""``_DOC_MARKER`` without the ``^``: searched faster, each hit then checked for a line start."""


def read_stream(text: str, wanted: Callable[[str], bool] | None = None) -> Stream:
    """Split ``text`` into documents and build the tree of every document that parses.

    With ``wanted``, a predicate over a document's raw text, only the documents it accepts
    (and those with template markers, to classify them) get a tree: the stream is checked
    by libyaml at C speed, cut at its column-0 document markers, and the wanted pieces are
    parsed on their own. The others keep ``root=None`` and what a look at their text says
    (apiVersion, kind). Without libyaml, or when the fast reading disagrees with itself, the
    whole stream is parsed as below.
    """
    bom = text.startswith(BOM)
    body = text[1:] if bom else text
    if wanted is not None and LIBYAML:
        fast = _read_fast(body, wanted)
        if fast is not None:
            return Stream(body, bom, fast, True, libyaml=True)
    whole = True
    try:
        documents = list(parse_documents(body, 0, 0))
    except PARSE_ERRORS:
        documents = _parse_pieces(body)
        whole = False
    for doc in documents:
        classify(body, doc)
    return Stream(body, bom, documents, whole)


def _read_fast(text: str, wanted: Callable[[str], bool]) -> list[Document] | None:
    """The documents of a stream that libyaml accepts, trees only where wanted; None to fall back."""
    if not libyaml_accepts(text):
        return None  # any complaint: the careful path reports it precisely
    documents: list[Document] = []
    counted, line = 0, 1  # newlines counted up to ``counted``: no newline table for unparsed documents
    for start, end, content in _pieces(text):
        index = len(documents)
        piece = text[start:end]
        if wanted(piece) or TEMPLATE_MARKERS.search(piece):
            try:
                found = list(parse_documents(text, start, index, fast=True, end=end))
            except PARSE_ERRORS:
                return None
            if len(found) != 1:
                return None
            doc = found[0]
        else:
            line += text.count("\n", counted, content)
            counted = content
            doc = Document(index, start, end, line)
        classify(text, doc)
        documents.append(doc)
    return documents


def _pieces(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, first content index) of every document, cut at column-0 markers.

    A ``---`` line always starts a document (YAML forbids it inside any scalar); text before
    the first marker, or after a ``...``, is a document only when it has content. Directive
    lines stay with the ``---`` they precede.
    """
    marks = [(m.start(), m.group(0)) for m in _MARKER.finditer(text) if not m.start() or text[m.start() - 1] == "\n"]
    cuts: list[tuple[int, bool]] = [(0, False)]
    for pos, marker in marks:
        if marker == "---":
            pos = _directives_start(text, pos)
        cuts.append((pos, marker == "---"))
    bounds = [*cuts, (len(text), False)]
    for (start, explicit), (end, _next) in pairwise(bounds):
        content = _first_content(text, start, end, explicit)
        if explicit or content is not None:
            yield start, end, content if content is not None else start


def _directives_start(text: str, pos: int) -> int:
    """Move a cut before the ``%`` directive lines that belong to the ``---`` at ``pos``."""
    while pos > 0:
        prev = text.rfind("\n", 0, pos - 1) + 1
        if not text.startswith("%", prev):
            break
        pos = prev
    return pos


def _first_content(text: str, start: int, end: int, explicit: bool) -> int | None:
    """Index of the first line that is not blank, a comment, a directive or a marker."""
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        line = text[pos:stop].strip()
        if line.startswith("---") and explicit:
            rest = line[3:].strip()
            if rest and not rest.startswith("#"):
                return pos
        elif line and not line.startswith(("#", "%", "...")):
            return pos
        if nl < 0:
            break
        pos = nl + 1
    return None


def _parse_pieces(text: str) -> list[Document]:
    """Fallback for a stream that does not parse: cut at column-0 markers and parse each piece."""
    cuts = [0] + [m.start() for m in _DOC_MARKER.finditer(text)] + [len(text)]
    documents: list[Document] = []
    for start, end in pairwise(cuts):
        piece = text[start:end]
        if not piece.strip() or _only_comments_and_markers(piece):
            continue
        index = len(documents)
        try:
            found = list(parse_documents(text, start, index, end=end))
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + line_of(text, start) if mark is not None else line_of(text, start)
            found = [Document(index, start, end, line_of(text, start), problem=Problem(message(exc), line))]
        except Exception as exc:  # never let one piece stop the file: it becomes a finding
            position = getattr(exc, "position", None)  # a ReaderError (NUL, control character) has no mark
            line = line_of(text, start + position if isinstance(position, int) else start)
            found = [Document(index, start, end, line, problem=Problem(f"{type(exc).__name__}: {exc}", line))]
        for doc in found:
            doc.index = len(documents)
            documents.append(doc)
    return documents


def _only_comments_and_markers(piece: str) -> bool:
    for line in piece.splitlines():
        s = line.strip()
        if s and not s.startswith("#") and not _DOC_MARKER.match(s) and not s.startswith("%"):
            return False
    return True


def directives(text: str, start: int) -> str:
    """The ``%`` directive lines above a document's root at ``start``, with a ``---`` after them.

    A root's own text does not parse without them when it uses a ``%TAG`` handle, so a root
    read back alone is prefixed with this ("" when there are none). Walks up over blank,
    comment and marker lines only: bounded by the document's head, never the whole file.
    """
    found: list[str] = []
    end = start
    while end > 0:
        begin = text.rfind("\n", 0, end - 1) + 1
        line = text[begin:end]
        stripped = line.strip()
        marker = _DOC_MARKER.match(stripped) is not None
        if stripped.startswith("%"):
            found.append(line.rstrip("\r\n") + "\n")
        elif (marker and found) or (stripped and not marker and not stripped.startswith("#")):
            break  # the previous document's marker, or content: no more directives above
        end = begin
    return "".join(reversed(found)) + "---\n" if found else ""
