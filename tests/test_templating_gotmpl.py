"""Go template source read as ``text/template`` reads it: actions, trim markers, comments,
strings holding ``}}``, actions over lines, control structure and pipelines, with offsets."""

from __future__ import annotations

import pytest

from k8smigrate.templating.gotmpl import (
    ActionNode,
    Block,
    Cmd,
    Define,
    Dot,
    Field,
    Ident,
    Literal,
    Pipe,
    Sub,
    Template,
    TemplateSyntaxError,
    Text,
    Var,
    lex,
    parse,
    parse_pipe,
)


def test_text_without_actions_is_one_text_node() -> None:
    text = "apiVersion: v1\nkind: ConfigMap\n"
    assert lex(text) == []
    (node,) = parse(text)
    assert isinstance(node, Text)
    assert (node.start, node.end, node.lo, node.hi) == (0, len(text), 0, len(text))


def test_action_spans_and_trim_markers() -> None:
    text = "a: {{- .x -}} \n b"
    (action,) = lex(text)
    assert text[action.start : action.end] == "{{- .x -}}"
    assert text[action.inner_start : action.inner_end] == ".x"
    assert action.trim_left and action.trim_right


def test_minus_without_space_is_a_number_not_a_trim() -> None:
    text = "{{-3}} {{ 3 -}}"
    first, second = lex(text)
    assert not first.trim_left
    assert text[first.inner_start : first.inner_end] == "-3"
    assert second.trim_right


def test_trimming_is_recorded_on_the_text_between_actions() -> None:
    text = "x: 1 \n{{- if .a }}\n  y: 2\n{{ end -}}\n\nz: 3"
    nodes = parse(text)
    first, block, last = nodes
    assert isinstance(first, Text) and text[first.lo : first.hi] == "x: 1"
    assert isinstance(block, Block)
    assert isinstance(last, Text) and text[last.lo : last.hi] == "z: 3"
    (inner,) = block.branches[0].body
    assert isinstance(inner, Text) and text[inner.lo : inner.hi] == "\n  y: 2\n"


@pytest.mark.parametrize(
    "text",
    [
        '{{ "}}" }}',
        "{{ `}}\n}}` }}",
        "{{ '}' }}",
        '{{ "a\\"}}" }}',
        "{{/* a }} comment */}}",
        "{{- /* trimmed comment */ -}}",
    ],
)
def test_closing_delimiters_inside_strings_and_comments(text: str) -> None:
    (action,) = lex(text)
    assert action.end == len(text)


def test_action_spanning_lines() -> None:
    text = '{{ include\n  "x"\n  . }}tail'
    (node, tail) = parse(text)
    assert isinstance(node, ActionNode)
    assert node.pipe == Pipe((Cmd((Ident("include"), Literal("x", 14, 15), Dot())),))
    assert isinstance(tail, Text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{{ .x ", "unclosed action"),
        ('{{ "x }}', "unterminated quoted string"),
        ("{{/* x }}", "unclosed comment"),
        ("{{ if .x }}a", "missing {{end}}"),
        ("a {{ end }}", "unexpected {{end}}"),
        ("{{ if .a }}{{ else }}{{ else }}{{ end }}", None),
    ],
)
def test_errors_name_the_offset(text: str, message: str | None) -> None:
    if message is None:  # two plain else arms parse; Go rejects them at parse time too, we only need the shape
        parse(text)
        return
    with pytest.raises(TemplateSyntaxError, match=message) as info:
        parse(text)
    assert 0 <= info.value.offset <= len(text)


def test_if_else_if_else_chain() -> None:
    text = '{{- if semverCompare "<1.9-0" .Capabilities.KubeVersion.GitVersion -}}A{{- else if .b -}}B{{- else -}}C{{- end -}}'
    (block,) = parse(text)
    assert isinstance(block, Block) and block.keyword == "if"
    assert [b.pipe is None for b in block.branches] == [False, False, True]
    first = block.branches[0].pipe
    assert first is not None
    (cmd,) = first.cmds
    assert cmd.args[0] == Ident("semverCompare")
    assert cmd.args[2] == Field(("Capabilities", "KubeVersion", "GitVersion"))
    constraint = cmd.args[1]
    assert isinstance(constraint, Literal) and text[constraint.start : constraint.end] == "<1.9-0"
    assert [text[b.body[0].lo : b.body[0].hi] for b in block.branches if isinstance(b.body[0], Text)] == ["A", "B", "C"]
    assert text[block.end_action.start : block.end_action.end] == "{{- end -}}"


def test_a_keyword_ends_where_its_identifier_does() -> None:
    # Go's lexer: "range" then the field .spec.ports (Bitnami's redis sentinel ports ConfigMap)
    (outer,) = parse("{{- range .items }}{{- range.spec.ports }}x{{- end }}{{- end }}")
    assert isinstance(outer, Block)
    (inner,) = outer.branches[0].body
    assert isinstance(inner, Block) and inner.keyword == "range"
    pipe = inner.branches[0].pipe
    assert pipe is not None and pipe.cmds[0].args == (Field(("spec", "ports")),)


def test_define_template_and_block() -> None:
    text = '{{- define "x.apiVersion" -}}apps/v1{{- end -}}\napiVersion: {{ template "x.apiVersion" . }}\n'
    text += '{{ block "b" . }}default{{ end }}'
    nodes = parse(text)
    define = next(n for n in nodes if isinstance(n, Define) and n.pipe is None)
    assert define.name == "x.apiVersion"
    template = next(n for n in nodes if isinstance(n, Template))
    assert template.name == "x.apiVersion" and template.pipe == Pipe((Cmd((Dot(),)),))
    block = next(n for n in nodes if isinstance(n, Define) and n.pipe is not None)
    assert block.name == "b"


@pytest.mark.parametrize(
    ("words", "pipe"),
    [
        (".Values.a.b", Pipe((Cmd((Field(("Values", "a", "b")),)),))),
        ("$.Capabilities.APIVersions", Pipe((Cmd((Field(("Capabilities", "APIVersions"), "$"),)),))),
        ("$x", Pipe((Cmd((Var("$x"),)),))),
        ("$x.y", Pipe((Cmd((Field(("y",), "$x"),)),))),
        (
            "$v := default .Capabilities.KubeVersion.GitVersion .Values.o",
            Pipe(
                (
                    Cmd(
                        (Ident("default"), Field(("Capabilities", "KubeVersion", "GitVersion")), Field(("Values", "o")))
                    ),
                ),
                ("$v",),
            ),
        ),
        ("$v = 1", Pipe((Cmd((Literal(1),)),), ("$v",), True)),
        (". | quote", Pipe((Cmd((Dot(),)), Cmd((Ident("quote"),))))),
        (
            "true false nil 0x10 1.5",
            Pipe((Cmd((Literal(True), Literal(False), Literal(None), Literal(16), Literal(1.5))),)),
        ),
        (
            'and (.Capabilities.APIVersions.Has "a/v1") .Values.on',
            Pipe(
                (
                    Cmd(
                        (
                            Ident("and"),
                            Sub(Pipe((Cmd((Field(("Capabilities", "APIVersions", "Has")), Literal("a/v1", 36, 40))),))),
                            Field(("Values", "on")),
                        )
                    ),
                )
            ),
        ),
    ],
)
def test_pipelines(words: str, pipe: Pipe) -> None:
    assert parse_pipe(words, 0) == pipe


def test_escaped_string_is_not_traceable_to_its_characters() -> None:
    (cmd,) = parse_pipe('print "a\\tb"', 0).cmds
    literal = cmd.args[1]
    assert literal == Literal("a\tb")
    assert literal.start == -1


def test_every_chart_template_of_the_corpus_parses(chart_corpus: object) -> None:
    from pathlib import Path

    assert isinstance(chart_corpus, Path)
    count = 0
    for path in sorted(chart_corpus.glob("*/templates/**/*")):
        if path.suffix in (".yaml", ".tpl", ".yml", ".txt") and path.is_file():
            parse(path.read_text(encoding="utf-8"))
            count += 1
    assert count > 1000
