"""The unified diff of one file: ``a/`` and ``b/`` headers, so that ``git apply`` accepts it.

Kept apart from ``report`` so that ``results.FileResult.diff`` can use it without importing
the reporting layer (which imports the results).

``difflib`` compares whole sequences in time that grows with the square of their length where
lines repeat and changes are spread: ``kind: Role`` in each of 4,000 migrated documents made
a 20,000-line file take 97 s, and a List of 10,000 Roles 66 s. So a large input is compared
piece by piece, between lines that stand for each other in both files (``_syncs``): a stream
of many documents between its document markers, when both texts have the same (a migration
edits inside documents and never moves a marker); a large file of few documents between the
lines that stand once in each. Each comparison is then small. The hunks are grouped over the
whole file, as ``difflib.unified_diff`` groups them, and written as it writes them. Smaller
inputs get ``difflib``'s own diff of the whole files.
"""

from __future__ import annotations

from collections.abc import Iterator

from .quoting import quote_path
from .yamlio.stream import is_document_start

CONTEXT = 3
"""Lines of context around each change, as ``diff -u`` and ``git diff`` give."""

APART_FROM = 200
"""Documents from which a stream is compared document by document. Below, ``difflib`` compares
the whole file, as it always did: it may then match lines across documents (a CRD's schema
moved into ``spec.versions``), which gives a smaller diff there; no manifest of the test corpus
has as many documents (the most: 142)."""

LARGE = 20_000
"""Lines (both files together) from which a file of few documents is compared between the
lines that stand once in each. The largest manifest of the test corpus has about 5,400."""

Opcode = tuple[str, int, int, int, int]


def unified_diff(old: str, new: str, filename: str) -> str:
    """A ``git apply``-able unified diff of one file ("" when unchanged).

    The headers name the file as its findings do (``a/<string>`` for ``migrate_text``,
    ``a/<stdin>`` for standard input). The header names are quoted as git quotes them when the
    name needs it (``quoting``): a newline or an undecodable byte in a file name can neither
    break the header nor the output.
    """
    if old == new:
        return ""
    name = filename.lstrip("/")  # "<string>", "<stdin>": the name the findings give it, too
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    out = [f"--- {quote_path(f'a/{name}')}\n", f"+++ {quote_path(f'b/{name}')}\n"]
    for group in _groups(_opcodes(a, b), CONTEXT):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += (_line(" ", line) for line in a[i1:i2])
                continue
            out += (_line("-", line) for line in a[i1:i2])
            out += (_line("+", line) for line in b[j1:j2])
    return "".join(out)


def _line(sign: str, line: str) -> str:
    if line.endswith("\n"):
        return sign + line
    return f"{sign}{line}\n\\ No newline at end of file\n"  # the last line of a file without a final newline


def _range(start: int, stop: int) -> str:
    """A hunk's range as ``difflib`` writes it (``_format_range_unified``)."""
    length = stop - start
    beginning = start + 1 if length else start  # an empty range names the line before it
    return f"{beginning}" if length == 1 else f"{beginning},{length}"


def _markers(lines: list[str]) -> list[int]:
    """The indices of the ``---`` document marker lines."""
    return [i for i, line in enumerate(lines) if is_document_start(line)]


def _syncs(a: list[str], b: list[str]) -> list[tuple[int, int]] | None:
    """Equal lines of ``a`` and ``b`` that stand for each other, in order, to compare between; None:
    compare the whole files.

    The document markers of a stream of ``APART_FROM`` documents or more, when both have the
    same. Else, in files of ``LARGE`` lines or more (one List of thousands of items), the lines
    that stand once in each file, those of them in the same order in both (the anchors of a
    patience diff): a migration edits lines in place, so most lines that name an object stay
    unique and in order.
    """
    marks_a, marks_b = _markers(a), _markers(b)
    if len(marks_a) >= APART_FROM and len(marks_a) == len(marks_b):
        pairs = list(zip(marks_a, marks_b, strict=True))
        if all(a[i] == b[j] for i, j in pairs):
            return pairs
    if len(a) + len(b) < LARGE:
        return None
    from collections import Counter

    once_a, once_b = Counter(a), Counter(b)
    where_b = {line: j for j, line in enumerate(b) if once_b[line] == 1}
    return _increasing([(i, where_b[line]) for i, line in enumerate(a) if once_a[line] == 1 and line in where_b])


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (in order of their first) whose seconds increase too."""
    import bisect

    tails: list[int] = []  # tails[k]: the smallest second ending an increasing run of k + 1 pairs
    ends: list[int] = []  # ends[k]: the index in pairs of that pair
    before = [-1] * len(pairs)
    for n, (_i, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            ends.append(n)
        else:
            tails[k], ends[k] = j, n
        before[n] = ends[k - 1] if k else -1
    out: list[tuple[int, int]] = []
    n = ends[-1] if ends else -1
    while n >= 0:
        out.append(pairs[n])
        n = before[n]
    return out[::-1]


def _opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    """``difflib``'s opcodes of ``a`` to ``b``; between sync lines (``_syncs``) where there are."""
    import difflib  # here: a run that shows no diff (scan, apply --check) never needs it

    syncs = _syncs(a, b)
    if syncs is None:
        return list(difflib.SequenceMatcher(None, a, b).get_opcodes())
    codes: list[Opcode] = []
    start_a = start_b = 0
    for stop_a, stop_b in [*syncs, (len(a), len(b))]:
        piece = difflib.SequenceMatcher(None, a[start_a:stop_a], b[start_b:stop_b]).get_opcodes()
        for tag, i1, i2, j1, j2 in piece:
            _add(codes, (tag, i1 + start_a, i2 + start_a, j1 + start_b, j2 + start_b))
        if stop_a < len(a):
            _add(codes, ("equal", stop_a, stop_a + 1, stop_b, stop_b + 1))  # the sync line itself
        start_a, start_b = stop_a + 1, stop_b + 1
    return codes


def _add(codes: list[Opcode], code: Opcode) -> None:
    """Append ``code``, joined to the last one when both are equal runs (as ``difflib`` gives them)."""
    tag, i1, i2, j1, j2 = code
    if i1 == i2 and j1 == j2:
        return
    if codes and tag == "equal" and codes[-1][0] == "equal":
        last = codes[-1]
        codes[-1] = ("equal", last[1], i2, last[3], j2)
    else:
        codes.append(code)


def _groups(codes: list[Opcode], n: int) -> Iterator[list[Opcode]]:
    """The hunks: ``difflib.SequenceMatcher.get_grouped_opcodes(n)`` over ``codes``."""
    if not codes:
        codes = [("equal", 0, 1, 0, 1)]
    if codes[0][0] == "equal":
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2
    if codes[-1][0] == "equal":
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)
    group: list[Opcode] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * n:  # a long run without changes ends a hunk
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            yield group
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        yield group
