"""``render.reindent``: the lines of a moved chunk shifted to their new indentation.

The renderer calls it for every piece of an entry it copies to another column (a moved CRD
schema: thousands of calls), so it runs in C where the C module is installed. The Python
``python_reindent`` says what it does; the C one must be the same, character for character.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate.render import python_reindent, reindent
from k8smigrate.yamlio import fastbuild

BOTH = [pytest.param(python_reindent, id="python")] + (
    [pytest.param(fastbuild.reindent, id="c")] if fastbuild.reindent is not None else []
)


@pytest.mark.parametrize("shift", BOTH)
@pytest.mark.parametrize(("chunk", "delta"), [("a:\n  b: 1\n", 0), ("a: 1", 4), ("", -2), ("key: value", -8)])
def test_a_chunk_of_one_line_or_no_shift_is_given_back_as_it_is(shift: object, chunk: str, delta: int) -> None:
    assert callable(shift)
    assert shift(chunk, delta) == chunk


@pytest.mark.parametrize("shift", BOTH)
@pytest.mark.parametrize(
    ("chunk", "delta", "shifted"),
    [
        ("a:\n  b: 1\n  c: 2\n", 2, "a:\n    b: 1\n    c: 2\n"),  # the first line stays where it starts
        ("a:\n    b: 1\n", -2, "a:\n  b: 1\n"),
        ("a:\n  b: 1\n", -4, "a:\nb: 1\n"),  # no more than its own leading spaces are taken off
        ("a:\n\tb\n", -2, "a:\n\tb\n"),  # only spaces are indentation
        ("a:\n\n  b\n", 2, "a:\n\n    b\n"),  # a blank line stays blank
        ("a:\n \t\n  b\n", 2, "a:\n \t\n    b\n"),  # a line of whitespace is blank
        ("a:\n  b\n  ", 2, "a:\n    b\n    "),  # a last line of spaces is the next line's indentation
        ("a:\r\n  b\r\n", 2, "a:\r\n    b\r\n"),  # CRLF: the carriage return ends the line's text
        ("a:\n  \u00e9: \u2014\n", 2, "a:\n    \u00e9: \u2014\n"),  # wider characters than ASCII
        ("a:\n  \U0001f600\n", -1, "a:\n \U0001f600\n"),
    ],
)
def test_every_line_after_the_first_is_shifted(shift: object, chunk: str, delta: int, shifted: str) -> None:
    assert callable(shift)
    assert shift(chunk, delta) == shifted


def test_the_renderer_uses_the_c_one_where_it_is_installed() -> None:
    assert reindent is (fastbuild.reindent or python_reindent)


_LINES = st.text(
    alphabet=st.sampled_from(list("  \n\n\tab:#\r\x0b\x85\xa0\u00e9\u2014\u2028\u3000\U0001f600")), max_size=40
)


@pytest.mark.skipif(fastbuild.reindent is None, reason="the C module is not installed (or K8SMIGRATE_PURE is set)")
@settings(max_examples=2000, deadline=None)
@given(_LINES, st.integers(min_value=-6, max_value=6))
def test_the_c_one_is_the_python_one(chunk: str, delta: int) -> None:
    assert fastbuild.reindent is not None
    assert fastbuild.reindent(chunk, delta) == python_reindent(chunk, delta)
