"""Properties of the template reader, the evaluator and arm collapsing, on generated templates.

The evaluator is the oracle for collapsing: a template whose ``if`` is replaced by the arm
the condition takes must print the same text, character for character, whatever the trim
markers and whitespace around it; and lexing finds every action exactly once.
"""

from __future__ import annotations

from functools import partial
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from k8smigrate.templating.collapse import collapse_block
from k8smigrate.templating.edits import Edit, edited_span
from k8smigrate.templating.gotmpl import Block, lex, parse
from k8smigrate.templating.semver import Version
from k8smigrate.templating.tmpleval import Capabilities, Evaluator

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SPACE = st.sampled_from(["", " ", "\n", "\n\n", "  ", "\n  ", " \n", "\t"])
WORD = st.sampled_from(["a", "key: v", "- x", "b: {{ .Values.x }}", "c", "apiVersion: v1", "#"])


@st.composite
def chunk(draw: st.DrawFn) -> str:
    return draw(SPACE) + draw(WORD) + draw(SPACE)


@st.composite
def action(draw: st.DrawFn, words: str) -> str:
    left = draw(st.sampled_from(["{{", "{{- "]))
    right = draw(st.sampled_from(["}}", " -}}"]))
    return f"{left}{' ' if left == '{{' else ''}{words} {right}"


@st.composite
def template(draw: st.DrawFn) -> tuple[str, int]:
    """Text, an if/else-if/else on .Values flags, text; and the arm the flags pick."""
    arms = draw(st.integers(1, 3))
    has_else = draw(st.booleans())
    parts = [draw(chunk())]
    for i in range(arms):
        parts.append(draw(action("if .Values.c0" if i == 0 else f"else if .Values.c{i}")))
        parts.append(draw(chunk()))
    if has_else:
        parts.append(draw(action("else")))
        parts.append(draw(chunk()))
    parts.append(draw(action("end")))
    parts.append(draw(chunk()))
    chosen = draw(st.integers(0, arms - 1 + has_else))
    return "".join(parts), chosen


def _print(text: str, values: dict[str, object]) -> str:
    caps = Capabilities("v1.29", lambda _api: None)
    ev = Evaluator({"t.yaml": text}, {}, values, caps)
    out = ev.run(parse(text), "t.yaml", ev.root("t.yaml"))
    return "".join(p.text for p in out.pieces)


@FAST
@given(template())
def test_collapsing_an_arm_prints_the_same(case: tuple[str, int]) -> None:
    text, arm = case
    (block,) = [n for n in parse(text) if isinstance(n, Block)]
    values = {f"c{i}": i == arm for i in range(len(block.branches))}
    expected = _print(text, values)
    change = collapse_block(text, block, arm, partial(edited_span, text, []))
    if change is None:
        return  # no candidate keeps the rendering: nothing is changed
    start, end, replacement = change
    collapsed = text[:start] + replacement + text[end:]
    assert "if .Values" not in collapsed
    assert _print(collapsed, values) == expected


@FAST
@given(template())
def test_lexing_finds_every_action_once_in_order(case: tuple[str, int]) -> None:
    text, _arm = case
    actions = lex(text)
    assert all(a.start < a.end <= b.start for a, b in pairwise(actions))
    assert [text[a.start : a.end].count("{{") for a in actions] == [1] * len(actions)
    assert sum(text.count("{{", a.start, a.end) for a in actions) == text.count("{{")


@FAST
@given(template(), st.text(alphabet="xyz.-/", min_size=1, max_size=8))
def test_edits_inside_a_span_apply_in_place(case: tuple[str, int], new: str) -> None:
    text, _arm = case
    position = len(text) // 2
    edit = Edit("t", position, position + 1, new)
    assert edited_span(text, [edit], 0, len(text)) == text[:position] + new + text[position + 1 :]
    assert edited_span(text, [edit], 0, position) == text[:position]


VERSIONS = st.builds(
    lambda a, b, c, pre: f"{a}.{b}.{c}" + (f"-{pre}" if pre else ""),
    st.integers(0, 30),
    st.integers(0, 40),
    st.integers(0, 12),
    st.sampled_from(["", "0", "alpha", "alpha.1", "beta.2", "rc.1", "gke.100", "eks-a1b2"]),
)


@FAST
@given(VERSIONS, VERSIONS)
def test_version_order_is_a_total_order(a: str, b: str) -> None:
    va, vb = Version.parse(a), Version.parse(b)
    assert va.compare(vb) == -vb.compare(va)
    assert (va.compare(vb) == 0) == (str(va) == str(vb))
    assert Version.parse(str(va)) == va
