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

from ..lazyre import lazy
from ..regexcode import regex
from .build import parse_documents
from .classify import TEMPLATE_MARKERS, classify
from .documents import BOM, EVERY, MAX_DEPTH, Document, Problem, Stream
from .fastbuild import ACTIVE as FASTBUILD
from .fastbuild import build as build_in_c
from .fastbuild import built_documents
from .libyaml import LIBYAML, libyaml_accepts, parse_errors
from .lines import line_of

_DOC_MARKER = regex(r"^(?:---|\.\.\.)(?=[ \t\r\n]|$)", re.M)

MARKER_ENDS = ("", " ", "\t", "\r", "\n")
"""What may follow ``---`` or ``...`` at column 0 for the line to be a document marker."""


def is_document_start(line: str) -> bool:
    """Whether ``line`` (of a stream's lines) is a ``---`` document marker."""
    return line.startswith("---") and line[3:4] in MARKER_ENDS


def read_stream(text: str, wanted: Callable[[str], bool] | None = None) -> Stream:
    """Split ``text`` into documents and build the tree of every document that parses.

    With ``wanted``, a predicate over a document's raw text, only the documents it accepts
    (and those with template markers, to classify them) get a tree: the stream is checked
    by libyaml at C speed, cut at its column-0 document markers, and the wanted pieces are
    parsed on their own. The others keep ``root=None`` and what a look at their text says
    (apiVersion, kind). Without libyaml, or when the fast reading disagrees with itself, the
    whole stream is parsed as below.
    """
    boms = len(text) - len(text.lstrip(BOM))  # libyaml drops a second BOM too, which shifts its marks
    bom = boms > 0
    body = text[boms:]
    if _too_deep(body) is not None:  # both parsers are quadratic in the depth of flow collections
        read = _read_pieces(body, wanted or EVERY)
        if read is not None:
            return Stream(body, bom, read[0], read[1], boms=boms)
    elif wanted is not None and LIBYAML:
        pieces = list(_pieces(body))
        if len(pieces) == 1 and pieces[0][:2] == (0, len(body)):  # most files: one document
            wanted = _asked_once(wanted, body)
            alone = _built_alone(body, wanted)
            if alone is not None:
                return Stream(body, bom, [alone], True, libyaml=True, boms=boms)
        if not libyaml_accepts(body):
            read = _read_pieces(body, wanted)
            if read is not None:
                return Stream(body, bom, read[0], False, boms=boms)
        else:
            fast = _read_fast(body, pieces, wanted)
            if fast is not None:
                return Stream(body, bom, fast, True, libyaml=True, boms=boms)
    whole = True
    try:
        documents = list(parse_documents(body, 0, 0))
    except parse_errors():
        documents = _parse_pieces(body)
        whole = False
    for doc in documents:
        classify(body, doc)
    return Stream(body, bom, documents, whole, boms=boms)


def plain_lone(text: str) -> bool:
    """Whether ``read_stream`` reads ``text`` as one piece, from its first character to its last,
    known from a look at it: no BOM, no document marker (but a ``---`` that opens it), no
    template marker, no flow nesting deeper than the tree holds.

    When such a text is not wanted and libyaml accepts it, ``read_stream`` gives it one document
    with no tree and no problem, classified by its text alone (``classify.raw_api_kind``): what
    most files of a repository are, and what ``scan`` answers without reading them as a stream.
    A text this look is not sure of gets False (it is read the usual way).
    """
    if text.startswith(("---", "...")):
        if text.startswith("...") or text[3:4] not in MARKER_ENDS:
            return False
    elif text.startswith(BOM):
        return False
    return (
        "\n---" not in text
        and "\n..." not in text
        and TEMPLATE_MARKERS.search(text) is None
        and _too_deep(text) is None
    )


def read_again(stream: Stream, wanted: Callable[[str], bool]) -> Stream | None:
    """What ``read_stream(text, wanted)`` gives, from ``stream``, read from the same text with
    another predicate: trees built only for the documents now wanted and not built then, and
    dropped from those no longer wanted. None (read it again) unless ``stream`` took the fast
    path: a scan reads each file for its API rows, then for its checks.
    """
    if not stream.libyaml:
        return None
    text = stream.text
    pieces = list(_pieces(text))
    if len(pieces) != len(stream.documents):
        return None
    documents: list[Document] = []
    for (start, end, content), doc in zip(pieces, stream.documents, strict=True):
        want = _wants(text[start:end], wanted)
        if want and doc.root is None:
            built = _tree_of(text, start, end, doc.index)
            if built is None:
                return None
            doc = built
            classify(text, doc)
        elif not want and doc.root is not None:
            doc = Document(doc.index, start, end, text.count("\n", 0, content) + 1)
            classify(text, doc)
        documents.append(doc)
    return Stream(text, stream.bom, documents, True, libyaml=True, boms=stream.boms)


def not_whole(text: str) -> bool:
    """True when ``read_stream`` would find the stream not whole, known without reading it: a
    piece that neither libyaml nor ruamel's own parser reads (each piece is tried in order, and
    the first such piece answers). False when that is not known (libyaml missing, hostile
    nesting, or every piece parses): then only ``read_stream`` can say.

    What most Helm templates are (``{{- if … }}`` at column 0 opens a flow mapping YAML cannot
    close): the test each file takes (``templating.markers.needs_masking``) no longer builds
    the tree of every piece, nor asks ruamel's parser for the message of each broken one.
    """
    body = text[len(text) - len(text.lstrip(BOM)) :]
    if not LIBYAML or _too_deep(body) is not None or libyaml_accepts(body):
        return False
    for start, end in _cuts(body):
        piece = body[start:end]
        if _too_deep(piece) is not None:
            return False
        if not libyaml_accepts(piece) and _parse_piece(body, start, end, 0)[1]:
            return True
    return False


def _wants(piece: str, wanted: Callable[[str], bool]) -> bool:
    """Whether a piece gets a tree: the pre-filter wants it, or it has template markers (to classify it)."""
    return wanted(piece) or TEMPLATE_MARKERS.search(piece) is not None


def _asked_once(wanted: Callable[[str], bool], text: str) -> Callable[[str], bool]:
    """``wanted``, its answer for ``text`` kept: the ways a one-document stream may be read all
    ask about the same piece (a slice of a whole string is that string)."""
    answer = wanted(text)
    return lambda piece: answer if piece is text else wanted(piece)


def _built_alone(text: str, wanted: Callable[[str], bool]) -> Document | None:
    """The document of a stream that is one wanted piece (``text``), built by the C builder;
    else None.

    Building it parses the whole stream with the very libyaml ``libyaml_accepts`` asks, so a
    tree built answers that question too, and the stream is not parsed twice. What the C
    builder declines goes the usual way.
    """
    if not FASTBUILD or not _wants(text, wanted):
        return None
    built = build_in_c(text, 0, len(text))
    if built is None or len(built) != 1:
        return None
    doc = built_documents(built, 0)[0]
    classify(text, doc)
    return doc


def _tree_of(text: str, start: int, end: int, index: int) -> Document | None:
    """The one document of the wanted piece ``text[start:end]`` of a stream libyaml accepts,
    with its tree; None when it is not exactly one document that parses (read the stream whole)."""
    try:
        found = list(parse_documents(text, start, index, fast=True, end=end))
    except parse_errors():
        return None
    return found[0] if len(found) == 1 else None


def _read_fast(text: str, pieces: list[tuple[int, int, int]], wanted: Callable[[str], bool]) -> list[Document] | None:
    """The documents of a stream that libyaml accepts (cut into ``pieces``), trees only where
    wanted; None to fall back."""
    documents: list[Document] = []
    counted, line = 0, 1  # newlines counted up to ``counted``: no newline table for unparsed documents
    for start, end, content in pieces:
        index = len(documents)
        if _wants(text[start:end], wanted):
            built = _tree_of(text, start, end, index)
            if built is None:
                return None
            doc = built
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
    cuts: list[tuple[int, bool]] = [(0, False)]
    for pos, marker in _markers(text):
        if marker == "---":
            pos = _directives_start(text, pos)
        cuts.append((pos, marker == "---"))
    bounds = [*cuts, (len(text), False)]
    for (start, explicit), (end, _next) in pairwise(bounds):
        content = _first_content(text, start, end, explicit)
        if explicit or content is not None:
            yield start, end, content if content is not None else start


def _markers(text: str) -> list[tuple[int, str]]:
    """(index, marker) of every ``---`` and ``...`` that ``_DOC_MARKER`` finds, in order.

    Found with ``str.find`` for the marker after a newline: a regular expression that starts
    with ``-`` or ``.`` stops at every dash and dot of the text (each list item and hostname),
    and this runs on every file a run reads.
    """
    found: list[tuple[int, str]] = []
    for marker in ("---", "..."):
        if text.startswith(marker) and text[3:4] in MARKER_ENDS:
            found.append((0, marker))
        after_newline = "\n" + marker  # not a copy of the text with a newline before it: a CRD is 100 KB
        at = text.find(after_newline)
        while at >= 0:
            if text[at + 4 : at + 5] in MARKER_ENDS:
                found.append((at + 1, marker))
            at = text.find(after_newline, at + 1)
    found.sort()
    return found


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


def _read_pieces(text: str, wanted: Callable[[str], bool]) -> tuple[list[Document], bool] | None:
    """The documents of a stream libyaml rejects, piece by piece, and whether the stream is whole
    (every piece parsed, but for deep ones refused whose brackets balance); None when every
    piece parses.

    Each piece is read once, by libyaml where it can (a tree only where wanted, as on the fast
    path); only a piece libyaml rejects goes to ruamel's own parser, for its precise message,
    unless its nesting is hostile (that parser is quadratic in the depth of flow collections):
    then it is refused with a finding at once. A broken document costs about what a valid one
    does. When every piece parses after all (ruamel is more lenient in a few corners, such as
    tabs), the careful whole-stream reading decides, as it always did.
    """
    documents: list[Document] = []
    broken = failed_any = False
    for start, end in _cuts(text):
        index = len(documents)
        piece = text[start:end]
        found: list[Document] | None = None
        deep = _too_deep(piece)
        if deep is not None:
            content = _first_content(text, start, end, True)
            line = line_of(text, start + deep)
            refused = Problem(f"nesting deeper than {MAX_DEPTH} levels; the document is left unchanged", line)
            refused.code = "K8SM-GEN-011"
            first = line_of(text, content if content is not None else start)
            found, broken = [Document(index, start, end, first, problem=refused)], True
            failed_any = failed_any or not _balanced(piece)
        elif not LIBYAML:
            found = None
        elif wanted(piece) or TEMPLATE_MARKERS.search(piece):
            found = None  # what libyaml rejects, the careful reading below words
            if libyaml_accepts(piece):
                try:
                    found = list(parse_documents(text, start, index, fast=True, end=end))
                except parse_errors():
                    found = None
        elif libyaml_accepts(piece):
            content = _first_content(text, start, end, False)
            found = [Document(index, start, end, line_of(text, content if content is not None else start))]
        if found is None:
            found, failed = _parse_piece(text, start, end, index)
            broken, failed_any = broken or failed, failed_any or failed
        for doc in found:
            doc.index = len(documents)
            classify(text, doc)
            documents.append(doc)
    return (documents, not failed_any) if broken else None


def _too_deep(piece: str) -> int | None:
    """Where the piece opens flow collections deeper than the tree holds (None: it does not),
    found in one linear pass without parsing; brackets in quoted scalars and comments do not count."""
    if piece.count("[") + piece.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for bracket in _BRACKETS.finditer(_QUOTED_OR_COMMENT.sub(_blank, piece)):
        if bracket.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return bracket.start()
        else:
            depth = max(depth - 1, 0)
    return None


def _balanced(piece: str) -> bool:
    """Whether every bracket the piece opens is closed (outside quoted scalars and comments)."""
    depth = 0
    for bracket in _BRACKETS.findall(_QUOTED_OR_COMMENT.sub(_blank, piece)):
        depth += 1 if bracket in "[{" else -1
        if depth < 0:
            return False
    return depth == 0


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


_BRACKETS = lazy(r"[\[\]{}]")
_QUOTED_OR_COMMENT = lazy(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\n]|'')*'|(?:^|(?<=[ \t]))#[^\n]*", re.M)


def _cuts(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every piece between column-0 markers that holds more than comments."""
    cuts = [0] + [m.start() for m in _DOC_MARKER.finditer(text)] + [len(text)]
    for start, end in pairwise(cuts):
        piece = text[start:end]
        if piece.strip() and not _only_comments_and_markers(piece):
            yield start, end


def _parse_piece(text: str, start: int, end: int, index: int) -> tuple[list[Document], bool]:
    """The documents of one piece by ruamel's own parser, or one with the problem that stops it
    (and True: the parser failed)."""
    from .events import MarkedYAMLError, message  # ruamel.yaml's, which reads the piece

    try:
        return list(parse_documents(text, start, index, end=end)), False
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + line_of(text, start) if mark is not None else line_of(text, start)
        context = exc.context_mark.line + line_of(text, start) if exc.context_mark is not None else None
        problem = Problem(message(exc), line, context_line=context if context != line else None)
        return [Document(index, start, end, line_of(text, start), problem=problem)], True
    except Exception as exc:  # never let one piece stop the file: it becomes a finding
        position = getattr(exc, "position", None)  # a ReaderError (NUL, control character) has no mark
        line = line_of(text, start + position if isinstance(position, int) else start)
        return [Document(index, start, end, line, problem=Problem(f"{type(exc).__name__}: {exc}", line))], True


def _parse_pieces(text: str) -> list[Document]:
    """Fallback for a stream that does not parse: cut at column-0 markers and parse each piece."""
    documents: list[Document] = []
    for start, end in _cuts(text):
        for doc in _parse_piece(text, start, end, len(documents))[0]:
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
