"""Spec: a set of text triggers is found in a text exactly when one of its words or patterns is.

``Triggers`` answers the question every file of a run is asked (does it hold what any check of
its apiVersions looks for?) with one pass for the words and, for a pattern that starts with a
literal, a look for that literal before the pattern's own search. Neither shortcut may change
the answer.
"""

from __future__ import annotations

import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate.triggers import Triggers, literal_prefix
from k8smigrate.yamlio.fastbuild import holds_which, needle_set

PATTERNS = [
    re.compile(r"""clusterName["']?[ \t]*:[ \t]*[^\s{\[#]"""),
    re.compile(r"image:[ \t]*\S*nginx"),
    re.compile(r"ab?c"),
    re.compile(r"abc|xyz"),
    re.compile(r"(?i)KIND"),
    re.compile(r"\A(?![\s\S]*ingressClassName)"),
    re.compile(r"--(?:port|address)\b"),
]
WORDS = ["kind", "clusterName", "ab", "nginx", "é", "xyz"]


def _reference(text: str, triggers: list[str | re.Pattern[str]]) -> bool:
    return any(t in text if isinstance(t, str) else t.search(text) is not None for t in triggers)


# ------------------------------------------------------------------ no trigger: found nowhere


def test_an_empty_set_is_found_in_no_text() -> None:
    assert not Triggers(()) and not Triggers(()).found_in("anything")


# ------------------------------------------------------------------ the literal a pattern starts with


@pytest.mark.parametrize(
    ("pattern", "prefix"),
    [
        (r"""clusterName["']?[ \t]*:""", "clusterName"),
        (r"ab?c", "a"),  # an optional character ends the prefix
        (r"a\-bc", "a-bc"),  # escaped punctuation is a literal
        (r"ab+c", "a"),
        (r"ab{2}c", "a"),
        (r"(?:abc)d", ""),  # a group ends the look (re itself would see "abcd": shorter is safe)
        (r"abc|xyz", ""),  # an alternation at the top: no common start
        (r"a(b|c)", "a"),  # an alternation in a group: the start before it is common
        (r"a\|b|c", ""),
        (r"a[|]b", "a"),  # "|" in a class is a character
        (r"ab[]|]|c", ""),  # so is "]" first in a class: the "|" after the class alternates
        (r"\A(?!x)", ""),
        (r"\nabc", ""),  # a letter escape ends the look
        (r"[ab]cd", ""),
        (r"(?i)abc", ""),  # case-insensitive: "ABC" matches too
    ],
)
def test_literal_prefix(pattern: str, prefix: str) -> None:
    assert literal_prefix(re.compile(pattern)) == prefix


_PIECES = ["a", "b", "-", "\\-", "\\|", "|", "(", ")", "(?:", "[", "]", "^", "?", "*", "+", "{2}", "\\d", "."]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join))
def test_literal_prefix_never_says_more_than_re_reads(source: str) -> None:
    # re's own parser, private to the standard library, is the oracle here (not at run time)
    sre_parse = pytest.importorskip("re._parser")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # "[a--": a possible set difference, one day
        try:
            pattern = re.compile(source)
        except re.error:
            return
        parsed = list(sre_parse.parse(source, pattern.flags))
    literals = ""
    for op, value in parsed:
        if op is not sre_parse.LITERAL:
            break
        literals += chr(value)
    assert literals.startswith(literal_prefix(pattern))


# ------------------------------------------------------------------ found: exactly as one search each


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from([*"abcxyz KINDkind:-é\n\"'", "clusterName", "image:", "nginx", "port"])).map("".join),
    st.lists(st.sampled_from([*WORDS, *PATTERNS]), max_size=5),
)
def test_found_in_is_any_word_or_pattern(text: str, triggers: list[str | re.Pattern[str]]) -> None:
    assert Triggers(triggers).found_in(text) == _reference(text, triggers)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from([*"abcxyz KINDkind:-é\n\"'\u2014", "clusterName", "image:", "nginx", "port"])).map(
        "".join
    ),
    st.lists(st.sampled_from([*WORDS, *PATTERNS]), max_size=5),
)
def test_found_among_what_a_larger_set_found_is_found_in(text: str, triggers: list[str | re.Pattern[str]]) -> None:
    words = tuple(sorted({*WORDS, "unrelated"}))  # the run's words: every trigger's and more
    present = frozenset(holds_which(text, needle_set(words)))
    assert Triggers(triggers).found_among(text, present) == Triggers(triggers).found_in(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("metadata:\n  clusterName: east\n", True),
        ("metadata:\n  clusterName:\n    type: string\n", False),  # the literal alone is not enough
        ("spec:\n  image: docker.io/nginx:1\n", True),
        ("image: busybox\n", False),
        ("KIND: Pod\n", True),  # a case-insensitive pattern is always searched
    ],
)
def test_a_pattern_starting_with_a_literal_is_searched_where_the_literal_is(text: str, found: bool) -> None:
    triggers = [PATTERNS[0], PATTERNS[1], PATTERNS[4]]
    assert Triggers(triggers).found_in(text) is found
