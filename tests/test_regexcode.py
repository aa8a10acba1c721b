"""Spec: the library's regular expressions are ``re.compile``'s, their code generated once per
install (``k8smigrate.regexcode``; issue 19: compiling them was 5 % of a one-file run).
"""

from __future__ import annotations

import re

import pytest

from k8smigrate import regex_index, regexcode
from k8smigrate.indexgen import REGEXES_FILE, generate_regexes
from k8smigrate.lazyre import lazy
from k8smigrate.regexcode import engine, entry_for, regex
from tests.library_sources import modules_matching

needs_same_engine = pytest.mark.skipif(
    engine() != regex_index.ENGINE, reason=f"the index was generated for the regex engine {regex_index.ENGINE}"
)
INDEXED = sorted(regex_index.CODE)


def compiling(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The patterns ``re.compile`` compiles from now on."""
    seen: list[str] = []
    real = re.compile

    def counted(pattern: str, flags: int = 0) -> re.Pattern[str]:
        seen.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counted)
    return seen


# -- no-op: the index is current and every entry is what re.compile makes


@needs_same_engine
def test_the_checked_in_index_is_generated_from_the_library() -> None:
    assert REGEXES_FILE.read_text(encoding="utf-8") == generate_regexes(), (
        "k8smigrate/regex_index.py is stale: run python -m k8smigrate.indexgen --write"
    )


@needs_same_engine
@pytest.mark.parametrize(("pattern", "flags"), INDEXED)
def test_every_entry_makes_the_pattern_re_compile_makes(pattern: str, flags: int) -> None:
    assert regex_index.CODE[pattern, flags] == entry_for(pattern, flags)
    ours, theirs = regex(pattern, flags), re.compile(pattern, flags)
    assert ours == theirs  # pattern, flags and code
    assert (ours.groups, ours.groupindex) == (theirs.groups, theirs.groupindex)


def test_every_module_of_the_library_takes_its_patterns_from_regex() -> None:
    direct = re.compile(r"(?<![`\w.])re\.compile\(")
    assert modules_matching(direct, exempt=("regexcode.py", "indexgen.py")) == []


# -- the patterns are re.compile's, made without compiling


@needs_same_engine
def test_an_indexed_pattern_is_made_without_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = compiling(monkeypatch)
    pattern, flags = regex_index.CODE.keys().__iter__().__next__()
    made = regex(pattern, flags)
    assert seen == []
    assert made == re.compile(pattern, flags) and made.pattern == pattern


@needs_same_engine
def test_a_lazy_pattern_takes_its_code_from_the_index_when_first_used(monkeypatch: pytest.MonkeyPatch) -> None:
    pattern, flags = next((p, f) for p, f in INDEXED if "apiVersion" in p)
    seen = compiling(monkeypatch)
    found = lazy(pattern, flags).search("apiVersion: v1\n")
    assert seen == []
    assert (found is None) == (re.compile(pattern, flags).search("apiVersion: v1\n") is None)


def test_a_pattern_the_index_does_not_hold_is_compiled_as_usual(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = compiling(monkeypatch)
    made = regex(r"not (in) the index\d+", re.I)
    assert seen == [r"not (in) the index\d+"]
    assert made.search("NOT IN THE INDEX42") is not None


def test_another_engines_index_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regex_index, "ENGINE", (*regex_index.ENGINE[:3], (3, 11, 99)))  # another release
    monkeypatch.setattr(regexcode, "_CODE", None)
    monkeypatch.setattr(regexcode, "_ENGINE", None)
    pattern, flags = INDEXED[0]
    expected = re.compile(pattern, flags)
    seen = compiling(monkeypatch)
    assert regex(pattern, flags) == expected
    assert seen == [pattern]
    assert regexcode._CODE == {}


# -- what the generator records


def test_the_generator_sees_every_pattern_given_to_regex_or_lazy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regexcode, "RECORDED", [])
    regex("a+b", re.M)
    lazy("c+d")
    assert [("a+b", int(re.M)), ("c+d", 0)] == regexcode.RECORDED
