"""Spec: the searches of ``textsearch`` answer exactly what the slower ones they replace answer.

``matches_from`` is ``pattern.finditer`` for a pattern that starts with a literal; ``pair_in``
is ``any(first + s in text[start:end] for s in seconds)``; ``lines_with`` is the lines of
``splitlines`` that hold a character, whatever breaks them. Random texts are built from the
pieces that make the two differ when a search is wrong: the literal twice in a row, a literal
inside another match, a ``?`` or CR at the edge of the bounds, wide characters, and more than
``MANY`` places of the first character.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from k8smigrate.prefilter import _ODD_VALUE, _RAW_API, _RAW_KIND
from k8smigrate.textsearch import MANY, lines_with, matches_from, pair_in

PIECES = st.lists(
    st.sampled_from(["apiVersion", "kind", ":", " ", "\t", '"', "'", "?", "\n", "\r", "#", "&a", "|", "v1", "ü", "€"]),
    max_size=40,
).map("".join)

# ------------------------------------------------------------------ nothing to find


def test_an_empty_text_holds_nothing() -> None:
    assert list(matches_from("kind", _RAW_KIND, "")) == []
    assert not pair_in("", "?", " ")
    assert lines_with("", "#") == []


def test_a_text_without_the_character_has_no_line_with_it() -> None:
    assert lines_with("a: 1\nb: 2\n", "#") == []


def test_a_pair_split_by_the_bounds_is_not_in_them() -> None:
    assert not pair_in("a\r\n", "\r", "\n", 0, 2)
    assert not pair_in("a\r\n", "\r", "\n", 2, 3)
    assert pair_in("a\r\n", "\r", "\n", 1, 3)


# ------------------------------------------------------------------ the same answers


@given(PIECES, st.integers(min_value=0, max_value=3))
@example("kindkind: v1\n", 1)
@example("apiVersion: apiVersion: v1", 0)
@example("kind: # kind: |\n", 3)
def test_matches_from_finds_what_finditer_finds(text: str, which: int) -> None:
    literal, pattern = [("apiVersion", _RAW_API), ("kind", _RAW_KIND), *_ODD_VALUE][which]
    expected = [m.span() for m in pattern.finditer(text)]
    assert [m.span() for m in matches_from(literal, pattern, text)] == expected


@given(PIECES, st.integers(min_value=0, max_value=45), st.integers(min_value=0, max_value=45))
@example("?" * (MANY + 6) + " ", 0, 100)
@example("?x" * (MANY + 6) + "?\r", 0, 200)
@example("?x" * (MANY + 6) + "?\r", 0, 2 * (MANY + 6) + 1)
@example("?" * (MANY + 6), 0, 100)
def test_pair_in_answers_what_in_answers(text: str, start: int, end: int) -> None:
    for first, seconds in (("?", " \n\t\r"), ("\r", "\n")):
        expected = any(first + s in text[start:end] for s in seconds)
        assert pair_in(text, first, seconds, start, end) is expected
        assert pair_in(text, first, seconds) is any(first + s in text for s in seconds)


@given(
    st.lists(
        st.sampled_from(["#", "a", " ", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "ü", "€"]),
        max_size=30,
    ).map("".join)
)
@example("# head\na: 1  # eol\n")
@example("#")
@example("a\n#\n\n#b")
@example("a: 1 # x\r\nb: 2\r\n")
@example("a: 1 # x\u2028b # y")
def test_lines_with_cuts_the_lines_splitlines_gives(text: str) -> None:
    assert lines_with(text, "#") == [line for line in text.splitlines() if "#" in line]
