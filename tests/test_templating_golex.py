"""The Go template lexer: Go's own test cases (src/text/template/parse/lex_test.go), then actions.

Each case of ``lexTests`` and ``lexPosTests`` is carried over with its expected items; the
cases with other delimiters (``TestDelims*``) do not apply: Helm always uses ``{{ }}``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate.templating.golex import Action, ItemType, LexError, _Lexer, _scan_actions, lex_actions, lex_items

T = ItemType
RAW = "`" + r"abc\n\t\" " + "`"
RAW_NL = "`now is{{\n}}the time`"

LEFT, RIGHT, EOF, SPACE = (T.LEFT_DELIM, "{{"), (T.RIGHT_DELIM, "}}"), (T.EOF, ""), (T.SPACE, " ")
DOT, LPAR, RPAR, PIPE = (T.DOT, "."), (T.LEFT_PAREN, "("), (T.RIGHT_PAREN, ")"), (T.PIPE, "|")

LEX_TESTS = [
    ("empty", "", [EOF]),
    ("spaces", " \t\n", [(T.TEXT, " \t\n"), EOF]),
    ("text", "now is the time", [(T.TEXT, "now is the time"), EOF]),
    (
        "text with comment",
        "hello-{{/* this is a comment */}}-world",
        [(T.TEXT, "hello-"), (T.COMMENT, "/* this is a comment */"), (T.TEXT, "-world"), EOF],
    ),
    ("punctuation", "{{,@% }}", [LEFT, (T.CHAR, ","), (T.CHAR, "@"), (T.CHAR, "%"), SPACE, RIGHT, EOF]),
    ("parens", "{{((3))}}", [LEFT, LPAR, LPAR, (T.NUMBER, "3"), RPAR, RPAR, RIGHT, EOF]),
    ("empty action", "{{}}", [LEFT, RIGHT, EOF]),
    ("for", "{{for}}", [LEFT, (T.IDENTIFIER, "for"), RIGHT, EOF]),
    ("block", '{{block "foo" .}}', [LEFT, (T.BLOCK, "block"), SPACE, (T.STRING, '"foo"'), SPACE, DOT, RIGHT, EOF]),
    ("quote", r'{{"abc \n\t\" "}}', [LEFT, (T.STRING, r'"abc \n\t\" "'), RIGHT, EOF]),
    ("raw quote", "{{" + RAW + "}}", [LEFT, (T.RAW_STRING, RAW), RIGHT, EOF]),
    ("raw quote with newline", "{{" + RAW_NL + "}}", [LEFT, (T.RAW_STRING, RAW_NL), RIGHT, EOF]),
    (
        "numbers",
        "{{1 02 0x14 0X14 -7.2i 1e3 1E3 +1.2e-4 4.2i 1+2i 1_2 0x1.e_fp4 0X1.E_FP4}}",
        [LEFT]
        + [
            x
            for n in ["1", "02", "0x14", "0X14", "-7.2i", "1e3", "1E3", "+1.2e-4", "4.2i"]
            for x in ((T.NUMBER, n), SPACE)
        ]
        + [(T.COMPLEX, "1+2i"), SPACE, (T.NUMBER, "1_2"), SPACE, (T.NUMBER, "0x1.e_fp4"), SPACE]
        + [(T.NUMBER, "0X1.E_FP4"), RIGHT, EOF],
    ),
    (
        "characters",
        r"{{'a' '\n' '\'' '\\' '\u00FF' '\xFF' '本'}}",
        [LEFT]
        + [x for c in ["'a'", r"'\n'", r"'\''", r"'\\'", r"'\u00FF'", r"'\xFF'"] for x in ((T.CHAR_CONSTANT, c), SPACE)]
        + [(T.CHAR_CONSTANT, "'本'"), RIGHT, EOF],
    ),
    ("bools", "{{true false}}", [LEFT, (T.BOOL, "true"), SPACE, (T.BOOL, "false"), RIGHT, EOF]),
    ("dot", "{{.}}", [LEFT, DOT, RIGHT, EOF]),
    ("nil", "{{nil}}", [LEFT, (T.NIL, "nil"), RIGHT, EOF]),
    (
        "dots",
        "{{.x . .2 .x.y.z}}",
        [
            LEFT,
            (T.FIELD, ".x"),
            SPACE,
            DOT,
            SPACE,
            (T.NUMBER, ".2"),
            SPACE,
            (T.FIELD, ".x"),
            (T.FIELD, ".y"),
            (T.FIELD, ".z"),
            RIGHT,
            EOF,
        ],
    ),
    (
        "keywords",
        "{{range if else end with}}",
        [
            LEFT,
            (T.RANGE, "range"),
            SPACE,
            (T.IF, "if"),
            SPACE,
            (T.ELSE, "else"),
            SPACE,
            (T.END, "end"),
            SPACE,
            (T.WITH, "with"),
            RIGHT,
            EOF,
        ],
    ),
    (
        "variables",
        "{{$c := printf $ $hello $23 $ $var.Field .Method}}",
        [
            LEFT,
            (T.VARIABLE, "$c"),
            SPACE,
            (T.DECLARE, ":="),
            SPACE,
            (T.IDENTIFIER, "printf"),
            SPACE,
            (T.VARIABLE, "$"),
            SPACE,
            (T.VARIABLE, "$hello"),
            SPACE,
            (T.VARIABLE, "$23"),
            SPACE,
            (T.VARIABLE, "$"),
            SPACE,
            (T.VARIABLE, "$var"),
            (T.FIELD, ".Field"),
            SPACE,
            (T.FIELD, ".Method"),
            RIGHT,
            EOF,
        ],
    ),
    ("variable invocation", "{{$x 23}}", [LEFT, (T.VARIABLE, "$x"), SPACE, (T.NUMBER, "23"), RIGHT, EOF]),
    (
        "pipeline",
        'intro {{echo hi 1.2 |noargs|args 1 "hi"}} outro',
        [
            (T.TEXT, "intro "),
            LEFT,
            (T.IDENTIFIER, "echo"),
            SPACE,
            (T.IDENTIFIER, "hi"),
            SPACE,
            (T.NUMBER, "1.2"),
            SPACE,
            PIPE,
            (T.IDENTIFIER, "noargs"),
            PIPE,
            (T.IDENTIFIER, "args"),
            SPACE,
            (T.NUMBER, "1"),
            SPACE,
            (T.STRING, '"hi"'),
            RIGHT,
            (T.TEXT, " outro"),
            EOF,
        ],
    ),
    (
        "declaration",
        "{{$v := 3}}",
        [LEFT, (T.VARIABLE, "$v"), SPACE, (T.DECLARE, ":="), SPACE, (T.NUMBER, "3"), RIGHT, EOF],
    ),
    (
        "2 declarations",
        "{{$v , $w := 3}}",
        [
            LEFT,
            (T.VARIABLE, "$v"),
            SPACE,
            (T.CHAR, ","),
            SPACE,
            (T.VARIABLE, "$w"),
            SPACE,
            (T.DECLARE, ":="),
            SPACE,
            (T.NUMBER, "3"),
            RIGHT,
            EOF,
        ],
    ),
    (
        "field of parenthesized expression",
        "{{(.X).Y}}",
        [LEFT, LPAR, (T.FIELD, ".X"), RPAR, (T.FIELD, ".Y"), RIGHT, EOF],
    ),
    (
        "trimming spaces before and after",
        "hello- {{- 3 -}} -world",
        [(T.TEXT, "hello-"), LEFT, (T.NUMBER, "3"), RIGHT, (T.TEXT, "-world"), EOF],
    ),
    (
        "trimming spaces before and after comment",
        "hello- {{- /* hello */ -}} -world",
        [(T.TEXT, "hello-"), (T.COMMENT, "/* hello */"), (T.TEXT, "-world"), EOF],
    ),
    ("long pipeline deadlock", "{{|||||}}", [LEFT, PIPE, PIPE, PIPE, PIPE, PIPE, RIGHT, EOF]),
    ("unmatched right delimiter", "hello-{.}}-world", [(T.TEXT, "hello-{.}}-world"), EOF]),
]

LEX_ERRORS = [
    ("badchar", "#{{\x01}}", "unrecognized character in action: U+0001"),
    ("unclosed action", "{{", "unclosed action"),
    ("EOF in action", "{{range", "unclosed action"),
    ("unclosed quote", '{{"\n"}}', "unterminated quoted string"),
    ("unclosed raw quote", "{{`xx}}", "unterminated raw quoted string"),
    ("unclosed char constant", "{{'\n}}", "unterminated character constant"),
    ("bad number", "{{3k}}", 'bad number syntax: "3k"'),
    ("unclosed paren", "{{(3}}", "unclosed left paren"),
    ("extra right paren", "{{3)}}", "unexpected right paren"),
    ("text with bad comment", "hello-{{/*/}}-world", "unclosed comment"),
    ("text with comment close separated from delim", "hello-{{/* */ }}-world", "comment ends before closing delimiter"),
]

LEX_POS_TESTS = [
    ("empty", "", [(T.EOF, 0, "", 1)]),
    (
        "punctuation",
        "{{,@%#}}",
        [
            (T.LEFT_DELIM, 0, "{{", 1),
            (T.CHAR, 2, ",", 1),
            (T.CHAR, 3, "@", 1),
            (T.CHAR, 4, "%", 1),
            (T.CHAR, 5, "#", 1),
            (T.RIGHT_DELIM, 6, "}}", 1),
            (T.EOF, 8, "", 1),
        ],
    ),
    (
        "sample",
        "0123{{hello}}xyz",
        [
            (T.TEXT, 0, "0123", 1),
            (T.LEFT_DELIM, 4, "{{", 1),
            (T.IDENTIFIER, 6, "hello", 1),
            (T.RIGHT_DELIM, 11, "}}", 1),
            (T.TEXT, 13, "xyz", 1),
            (T.EOF, 16, "", 1),
        ],
    ),
    (
        "trimafter",
        "{{x -}}\n{{y}}",
        [
            (T.LEFT_DELIM, 0, "{{", 1),
            (T.IDENTIFIER, 2, "x", 1),
            (T.RIGHT_DELIM, 5, "}}", 1),
            (T.LEFT_DELIM, 8, "{{", 2),
            (T.IDENTIFIER, 10, "y", 2),
            (T.RIGHT_DELIM, 11, "}}", 2),
            (T.EOF, 13, "", 2),
        ],
    ),
    (
        "trimbefore",
        "{{x}}\n{{- y}}",
        [
            (T.LEFT_DELIM, 0, "{{", 1),
            (T.IDENTIFIER, 2, "x", 1),
            (T.RIGHT_DELIM, 3, "}}", 1),
            (T.LEFT_DELIM, 6, "{{", 2),
            (T.IDENTIFIER, 10, "y", 2),
            (T.RIGHT_DELIM, 11, "}}", 2),
            (T.EOF, 13, "", 2),
        ],
    ),
    (
        "longcomment",
        '{{/*\n*/}}\n{{undefinedFunction "test"}}',
        [
            (T.COMMENT, 2, "/*\n*/", 1),
            (T.TEXT, 9, "\n", 2),
            (T.LEFT_DELIM, 10, "{{", 3),
            (T.IDENTIFIER, 12, "undefinedFunction", 3),
            (T.SPACE, 29, " ", 3),
            (T.STRING, 30, '"test"', 3),
            (T.RIGHT_DELIM, 36, "}}", 3),
            (T.EOF, 38, "", 3),
        ],
    ),
]


@pytest.mark.parametrize(("name", "text", "want"), LEX_TESTS, ids=[t[0] for t in LEX_TESTS])
def test_go_lex_cases(name: str, text: str, want: list[tuple[ItemType, str]]) -> None:
    assert [(i.typ, i.val) for i in lex_items(text)] == want


@pytest.mark.parametrize(("name", "text", "message"), LEX_ERRORS, ids=[t[0] for t in LEX_ERRORS])
def test_go_lex_errors(name: str, text: str, message: str) -> None:
    with pytest.raises(LexError) as err:
        lex_items(text)
    assert err.value.message == message


@pytest.mark.parametrize(("name", "text", "want"), LEX_POS_TESTS, ids=[t[0] for t in LEX_POS_TESTS])
def test_go_lex_positions(name: str, text: str, want: list[tuple[ItemType, int, str, int]]) -> None:
    assert [(i.typ, i.pos, i.val, i.line) for i in lex_items(text)] == want


# ---------------------------------------------------------------- actions, as masking sees them


def test_actions_without_markers() -> None:
    assert lex_actions("apiVersion: v1\nkind: ConfigMap\n") == []


def test_action_spans_include_trim_markers() -> None:
    text = "a {{- .x -}} b"
    (action,) = lex_actions(text)
    assert text[action.start : action.end] == "{{- .x -}}"
    assert action.trim_left and action.trim_right


def test_a_dash_without_a_space_is_a_number_not_a_trim() -> None:
    (action,) = lex_actions("{{-3}}")
    assert not action.trim_left
    assert [w.val for w in action.words] == ["-3"]


def test_strings_raw_strings_and_comments_may_hold_closing_delimiters() -> None:
    text = '{{ "}}" }} {{ `a}}\nb` }} {{/* }} */}}'
    spans = [text[a.start : a.end] for a in lex_actions(text)]
    assert spans == ['{{ "}}" }}', "{{ `a}}\nb` }}", "{{/* }} */}}"]


def test_actions_span_lines() -> None:
    text = '{{- include "x" (dict\n    "a" 1) | nindent 4 }}\n'
    (action,) = lex_actions(text)
    assert action.end == len(text) - 1


@pytest.mark.parametrize(
    ("text", "writes"),
    [
        ("{{ .Values.x }}", True),
        ('{{ include "x" . | nindent 4 }}', True),
        ('{{ template "x" . }}', True),
        ("{{- if .Values.x }}", False),
        ("{{- else if .Values.y }}", False),
        ("{{ end }}", False),
        ("{{- range .Values.hosts }}", False),
        ("{{- with .Values.x }}", False),
        ('{{- define "x" -}}', False),
        ("{{- $x := .Values.x -}}", False),
        ("{{- $x = 3 }}", False),
        ("{{/* a comment */}}", False),
    ],
)
def test_which_actions_write(text: str, writes: bool) -> None:
    assert lex_actions(text)[0].writes is writes


# ---------------------------------------------------------------- the fast path agrees with the port


def port_actions(text: str) -> tuple[Action, ...] | None:
    """The port's actions for ``text`` (None when Go would not lex it)."""
    lexer = _Lexer(text, emit_comments=True)
    try:
        lexer.run()
    except LexError:
        return None
    return tuple(lexer.actions)


def agrees(text: str) -> bool:
    """The fast path gives the port's actions, or leaves the text to the port (None)."""
    fast = _scan_actions(text)
    return fast is None or fast == port_actions(text)


GO_TEXTS = [t[1] for t in LEX_TESTS + LEX_ERRORS + LEX_POS_TESTS]


@pytest.mark.parametrize("text", GO_TEXTS)
def test_the_fast_path_agrees_with_the_port_on_gos_cases(text: str) -> None:
    assert agrees(text)


def test_the_fast_path_lexes_the_usual_forms_itself() -> None:
    text = '{{- include "x" (dict "a" .Values.a) | nindent 4 }}\n{{/* c */}}{{ $v := 3 }}{{ .a -}}\n{{ .b  -}}'
    fast = _scan_actions(text)
    assert fast is not None and fast == port_actions(text)


FRAGMENTS = st.sampled_from(
    [
        "{{",
        "}}",
        "{{- ",
        " -}}",
        "{{/*",
        "*/}}",
        "/*",
        "*/",
        " ",
        "\n",
        "\t",
        ".",
        "$",
        "$x",
        ".Values.a",
        "a",
        "if",
        "end",
        "true",
        "3",
        "-3",
        "+1",
        "1.5",
        "0x1F",
        "1e3",
        "2i",
        '"s"',
        '"}}"',
        '"a\\"b"',
        "`r}}`",
        "'c'",
        "'\\n'",
        "(",
        ")",
        "|",
        ":=",
        "=",
        ":",
        ",",
        "-",
        "{",
        "}",
        "é",
        "\\",
        "#",
        "x-",
        "_y",
        "\r\n",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(FRAGMENTS, max_size=24).map("".join))
def test_the_fast_path_agrees_with_the_port_on_any_text(text: str) -> None:
    assert agrees(text)


def test_the_fast_path_agrees_with_the_port_on_real_charts() -> None:
    charts = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "charts"
    if not charts.is_dir():
        pytest.skip("../shared/corpus/charts is not beside this checkout")
    texts = [p.read_text(encoding="utf-8") for p in sorted(charts.rglob("templates/*")) if p.is_file()]
    texts = [t for t in texts if "{{" in t]
    assert len(texts) > 1000
    fast = [_scan_actions(t) for t in texts]
    assert sum(f is None for f in fast) <= len(texts) // 100  # the port is the exception
    assert all(f is None or f == port_actions(t) for f, t in zip(fast, texts, strict=True))
