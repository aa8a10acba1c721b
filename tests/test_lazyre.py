"""Spec: a lazily compiled pattern answers as ``re.compile`` would, and compiles on first use only."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from k8smigrate.lazyre import lazy

PATTERN, FLAGS = r"^(?P<key>\w+):[ \t]*(\d*)", re.M


def test_nothing_is_compiled_before_first_use() -> None:
    pattern = lazy(PATTERN, FLAGS)
    assert pattern._compiled is None
    assert (pattern.pattern, pattern.flags) == (PATTERN, FLAGS)


def test_the_compiled_pattern_is_made_once() -> None:
    pattern = lazy(PATTERN, FLAGS)
    assert pattern.search("a: 1") is not None
    assert pattern.compiled is pattern.compiled
    assert pattern.compiled.flags & FLAGS == FLAGS


@given(st.text(alphabet="ab:1 \t\n", max_size=40), st.integers(0, 5))
def test_every_method_answers_as_the_compiled_pattern(text: str, pos: int) -> None:
    pattern, compiled = lazy(PATTERN, FLAGS), re.compile(PATTERN, FLAGS)

    def span(m: re.Match[str] | None) -> tuple[int, int] | None:
        return m.span() if m else None

    assert span(pattern.search(text, pos)) == span(compiled.search(text, pos))
    assert span(pattern.match(text, pos)) == span(compiled.match(text, pos))
    assert span(pattern.fullmatch(text)) == span(compiled.fullmatch(text))
    assert pattern.findall(text, pos) == compiled.findall(text, pos)
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert pattern.sub("<\\g<key>>", text) == compiled.sub("<\\g<key>>", text)
    assert pattern.sub(lambda m: m.group().upper(), text, 1) == compiled.sub(lambda m: m.group().upper(), text, 1)
