"""Masking: a template becomes a YAML skeleton of the same length and line breaks, and back.

No-op cases first (text without tags), then what each kind of tag becomes, then what cannot
be represented; hypothesis properties at the end: masking then unmasking is the identity,
the skeleton keeps every line break, and a template whose tags are all values parses to
the structure of a rendering.
"""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate.templating import gotemplate, placeholders
from k8smigrate.templating.mask import Skeleton, UnmaskError, mask, unmask
from tests.helpers import dedent


def skeleton_of(text: str) -> Skeleton:
    tags, hidden, _actions = gotemplate.tags(text)
    return mask(text, tags, hidden)


def shape(text: str) -> str:
    """The skeleton with its placeholder characters drawn as P (start) and . (the rest)."""
    return re.sub("[\ue000-\uf8ff]", lambda m: "P" if m.group() == placeholders.START else ".", text)


def test_text_without_tags_is_its_own_skeleton() -> None:
    text = "apiVersion: v1\nkind: ConfigMap\n"
    assert skeleton_of(text).text == text


def test_a_value_tag_becomes_plain_scalar_text_of_its_length() -> None:
    text = "metadata:\n  name: {{ .Release.Name }}\n"
    assert shape(skeleton_of(text).text) == "metadata:\n  name: P" + "." * (len("{{ .Release.Name }}") - 1) + "\n"


def test_tags_inside_quotes_stay_inside_quotes() -> None:
    text = 'image: "{{ .Values.image }}:{{ .Values.tag | default "x" }}"\n'
    skeleton = skeleton_of(text)
    assert yaml.safe_load(skeleton.text)["image"].count(":") == 1


def test_a_line_of_control_tags_becomes_a_comment() -> None:
    text = "a: 1\n{{- if .Values.x }}\nb: 2\n{{- end }}\n"
    assert yaml.safe_load(skeleton_of(text).text) == {"a": 1, "b": 2}


def test_a_comment_line_moves_to_the_next_lines_indentation_inside_a_block_scalar() -> None:
    text = "data:\n  conf: |\n    one\n{{- if .Values.x }}\n    two\n{{- end }}\n"
    assert yaml.safe_load(skeleton_of(text).text)["data"]["conf"].startswith("one\n")


def test_a_short_control_line_far_left_of_a_block_scalar_joins_the_control_line_above() -> None:
    # consul: "{{- end }}" six columns left of the script it closes has no room for '#' and a
    # placeholder at the script's column; left of it, the comment would end the scalar
    text = "args:\n  - |\n        run\n  {{- if .Values.x }}\n    {{- end }}\n  {{- end }}\n\n        more\n"
    skeleton = skeleton_of(text)
    script = yaml.safe_load(skeleton.text)["args"][0]
    assert script.startswith("run\n") and script.endswith("\nmore\n")
    assert unmask(skeleton.text, skeleton) == text


def test_a_short_control_line_at_column_0_of_a_script_joins_the_last_tag_above_as_an_empty_line() -> None:
    # nifi: "{{- else }}" and "{{- end }}" at column 0 between the lines of a script are too
    # short for '#' and a placeholder at the script's column; they become spaces in the region
    # of the last tag above them (lines of the script between are kept)
    pad = " " * 10
    text = (
        f"command:\n  - |\n{pad}client -t {{{{ .Values.token }}}} \\\n{{{{- if .Values.host }}}}\n"
        f"{pad}  --san {{{{ .Values.host }}}} \\\n{{{{- else }}}}\n{pad}  --san x.svc \\\n{pad}  --other \\\n\n"
        f"{{{{- end }}}}\n{pad}  -p 80\nnext: 1\n"
    )
    skeleton = skeleton_of(text)
    data = yaml.safe_load(skeleton.text)
    assert data["command"][0].startswith("client -t ") and data["command"][0].endswith("\n  -p 80\n")
    assert data["next"] == 1
    assert unmask(skeleton.text, skeleton) == text


def test_control_lines_around_an_output_line_in_a_block_scalar_stay_inside_it() -> None:
    # an `{{ .Values.extra | indent 6 }}` at column 0 writes at column 6: the `{{- if }}` above
    # moves there, and the short `{{- end }}` below joins the output line's placeholder
    text = (
        "snippet: |\n      one\n{{- if .Values.extra }}\n{{ .Values.extra | indent 6 }}\n{{- end }}\n"
        "      two\nnext: 1\n"
    )
    skeleton = skeleton_of(text)
    data = yaml.safe_load(skeleton.text)
    assert data["snippet"].startswith("one\n") and data["snippet"].endswith("\ntwo\n") and data["next"] == 1
    assert unmask(skeleton.text, skeleton) == text


def test_left_out_text_too_short_for_a_number_joins_the_tag_line_above() -> None:
    text = "rules:\n{{- if .Values.psp }}\n  - resources: [x]\n{{- else }}\n  []\n{{- end }}\n"
    else_start = text.index("{{- else }}") + len("{{- else }}")
    skeleton = mask(text, gotemplate.tags(text)[0], [(else_start, text.index("{{- end }}"))])
    assert skeleton.problems == []
    assert yaml.safe_load(skeleton.text) == {"rules": [{"resources": ["x"]}]}
    assert unmask(skeleton.text, skeleton) == text


def test_a_fail_action_writes_nothing_where_it_stands() -> None:
    # consul: "{{- else }}{{ fail "…" }}" between the lines of a script is a control line
    text = 'args:\n  - |\n      run\n    {{- if .Values.x }}{{ else }}{{ fail "x must be set" }}{{ end }}\n      more\n'
    script = yaml.safe_load(skeleton_of(text).text)["args"][0]
    assert script.startswith("run\n") and script.endswith("\nmore\n")


def test_an_output_line_with_nindent_is_a_key_at_that_column() -> None:
    text = dedent(
        """
        metadata:
          labels:
            {{- include "x.labels" . | nindent 4 }}
            app: x
        """
    )
    labels = yaml.safe_load(skeleton_of(text).text)["metadata"]["labels"]
    assert len(labels) == 2 and labels["app"] == "x"


def test_an_output_line_with_indent_under_a_list_field_is_an_item() -> None:
    text = "spec:\n  tolerations:\n{{ toYaml .Values.tolerations | indent 4 }}\n"
    tolerations = yaml.safe_load(skeleton_of(text).text)["spec"]["tolerations"]
    assert isinstance(tolerations, list) and len(tolerations) == 1


@pytest.mark.parametrize(
    "text",
    [
        # the trim eats the tag's indentation and the line break: the output starts at column 0
        "spec:\n  a: 1\n{{ if .Values.x }}\n  {{- toYaml .Values.x | indent 2 }}\n{{ end }}\n  b: 2\n",
        # through a line of tags that trim too, back to one that does not
        "spec:\n  a: 1\n{{ if .Values.x }}\n{{- if .Values.y }}\n  {{- toYaml .Values.x | indent 2 }}\n"
        "{{- end }}\n{{ end }}\n  b: 2\n",
    ],
)
def test_a_trimming_output_tag_with_indent_is_at_the_column_the_rendering_uses(text: str) -> None:
    spec = yaml.safe_load(skeleton_of(text).text)["spec"]
    assert len(spec) == 3 and spec["a"] == 1 and spec["b"] == 2


def test_a_trimming_output_tag_after_yaml_text_keeps_its_own_column() -> None:
    text = "spec:\n  a: 1\n    {{- toYaml .Values.x | indent 2 }}\n"  # joined to `a: 1` when rendered
    skeleton = skeleton_of(text)
    assert shape(skeleton.text).splitlines()[2].startswith("      P")


def test_an_output_line_at_the_column_of_its_list_field_is_an_item() -> None:
    # datadog: `containers:` then `{{- include "x.container" . | nindent 6 }}` at the key's own
    # column: YAML reads items there as the key's (an indentless sequence)
    text = 'spec:\n  containers:\n  {{- include "x.container" . | nindent 2 }}\n  volumes: []\n'
    data = yaml.safe_load(skeleton_of(text).text)
    assert isinstance(data["spec"]["containers"], list) and len(data["spec"]["containers"]) == 1


def test_an_output_line_among_items_is_an_item() -> None:
    text = "args:\n  - --a\n  {{- range .Values.extra }}\n  {{ . | quote }}\n  {{- end }}\n  - --b\n"
    assert len(yaml.safe_load(skeleton_of(text).text)["args"]) == 3


def test_an_output_line_that_starts_with_a_control_tag_is_one_entry() -> None:
    # linkerd: {{- with .Values.podLabels }}{{ toYaml . | nindent 4 }}{{- end }} after the labels
    text = (
        "metadata:\n  labels:\n    app: x\n    {{- with .Values.l }}{{ toYaml . | nindent 4 }}{{- end }}\nrules: []\n"
    )
    skeleton = skeleton_of(text)
    labels = yaml.safe_load(skeleton.text)["metadata"]["labels"]
    assert labels["app"] == "x" and len(labels) == 2
    assert len(skeleton.regions) == 1 and unmask(skeleton.text, skeleton) == text


def test_a_comment_line_between_items_does_not_make_an_output_line_a_key() -> None:
    text = (
        'initContainers:\n  - name: a\n  {{- if .Values.tls }}\n  {{- include "x.init" . | nindent 2 }}\n'
        "  {{- end }}\n  # the next one\n  - name: b\n"
    )
    assert len(yaml.safe_load(skeleton_of(text).text)["initContainers"]) == 3


def test_an_output_line_joined_to_the_text_before_it_is_a_problem_when_deeper_lines_follow() -> None:
    joined = 'http:\n  paths:\n {{- "" }}\n    - path: /\n'
    assert [p.line for p in skeleton_of(joined).problems] == [3]
    placed = 'http:\n  paths:\n {{- include "x" . | nindent 1 }}\n    - path: /\n'  # nindent says where
    assert not skeleton_of(placed).problems
    # cockroachdb: inside a block scalar, what the action writes is the scalar's text
    script = "args:\n  - >-\n    start --join=\n      {{- join `,` .Values.join -}}\n        ${NAME}\n"
    assert not skeleton_of(script).problems


def test_a_key_whose_value_is_an_nindent_tag_holds_one_unknown_entry() -> None:
    text = 'metadata:\n  labels: {{ include "x.labels" . | nindent 4 }}\n  name: x\n'
    metadata = yaml.safe_load(skeleton_of(text).text)["metadata"]
    assert isinstance(metadata["labels"], dict) and len(metadata["labels"]) == 1
    assert metadata["name"] == "x"


def test_a_key_glued_to_its_nindent_tag_holds_one_unknown_entry() -> None:
    # kubeapps: `labels:{{ include … | nindent 4 }}`; nindent writes the line break YAML needs
    text = 'metadata:\n  labels:{{ include "x.labels" . | nindent 4 }}\nspec: {}\n'
    skeleton = skeleton_of(text)
    data = yaml.safe_load(skeleton.text)
    assert isinstance(data["metadata"]["labels"], dict) and len(data["metadata"]["labels"]) == 1
    assert unmask(skeleton.text, skeleton) == text


def test_a_list_field_whose_value_is_an_nindent_tag_holds_one_unknown_item() -> None:
    text = "spec:\n  tolerations: {{ toYaml .Values.tolerations | nindent 4 }}\n"
    tolerations = yaml.safe_load(skeleton_of(text).text)["spec"]["tolerations"]
    assert isinstance(tolerations, list) and len(tolerations) == 1


BITNAMI_LABELS = """
    metadata:
      labels: {{- include "common.labels.standard" . | nindent 4 }}
        {{- if .Values.commonLabels }}
          {{- include "common.tplvalues.render" (dict "value" .Values.commonLabels "context" $) | nindent 4 }}
        {{- end }}
        app.kubernetes.io/component: web
      name: x
    """


def test_a_key_whose_nindent_tag_the_lines_below_go_on_with_holds_those_lines() -> None:
    # Bitnami's idiom: the tag writes the first labels, the lines at its column the rest
    text = dedent(BITNAMI_LABELS)
    skeleton = skeleton_of(text)
    metadata = yaml.safe_load(skeleton.text)["metadata"]
    assert metadata["name"] == "x"
    labels = metadata["labels"]
    assert labels["app.kubernetes.io/component"] == "web" and len(labels) == 2  # and the output line's entry
    key_line = text.splitlines()[1]
    assert shape(skeleton.text).splitlines()[1] == "  labels: #P" + "." * (len(key_line) - len("  labels: #P"))
    assert unmask(skeleton.text, skeleton) == text


def test_a_list_field_whose_nindent_tag_the_items_below_go_on_with_holds_those_items() -> None:
    text = "spec:\n  args: {{- toYaml .Values.args | nindent 4 }}\n    - --verbose\n"
    assert yaml.safe_load(skeleton_of(text).text)["spec"]["args"] == ["--verbose"]


MOODLE_INIT_CONTAINERS = """
    spec:
      initContainers: {{- if .Values.initContainers -}}{{- include "x" (dict "value" .Values.initContainers) | nindent 4 }}{{- end -}}
        - name: volume-permissions
          image: busybox
      containers: []
    """


def test_control_tags_around_a_key_values_nindent_tag_are_masked_with_it() -> None:
    # moodle's idiom: the block opened and closed on the key's line writes the first items
    text = dedent(MOODLE_INIT_CONTAINERS)
    skeleton = skeleton_of(text)
    spec = yaml.safe_load(skeleton.text)["spec"]
    assert spec["initContainers"] == [{"name": "volume-permissions", "image": "busybox"}]
    assert unmask(skeleton.text, skeleton) == text


def test_control_tags_around_a_key_values_nindent_tag_alone_hold_one_unknown_item() -> None:
    text = "spec:\n  tolerations: {{- with .Values.t }}{{ toYaml . | nindent 4 }}{{- end }}\n  x: 1\n"
    spec = yaml.safe_load(skeleton_of(text).text)["spec"]
    assert isinstance(spec["tolerations"], list) and len(spec["tolerations"]) == 1
    assert spec["x"] == 1


@pytest.mark.parametrize(
    "text",
    [
        'labels: {{ include "x.labels" . }}\n',  # no nindent: the tag writes a scalar
        "tolerations: {{ toYaml .Values.t | indent 4 }}\n",  # indent: written on the key's own line
        'labels: {{ include "x" . | nindent 4 }}\n{{- with .Values.extra }}\n    a: b\n{{- end }}\n',
        'name: {{ include "x" . | nindent 4 }}-suffix\n',  # text after the tag
        'labels: {{- include "x" . | nindent 4 }}\n      a: b\n',  # the lines below stand elsewhere
        'labels: {{- if .Values.a }}{{ include "x" . | nindent 4 }}\n{{- end }}\n',  # the block ends below
        'labels: {{- if .Values.a }}{{ include "x" . | nindent 4 }}{{ else }}{{ .Values.b }}{{ end }}\n',
    ],
)
def test_a_value_tag_that_is_not_a_whole_block_stays_scalar_text(text: str) -> None:
    skeleton = skeleton_of(text)
    assert "{" not in shape(skeleton.text) and "[" not in shape(skeleton.text)


def test_define_bodies_are_left_out() -> None:
    text = '{{- define "x" }}\nfoo: bar\n{{- end }}\napiVersion: v1\n'
    assert yaml.safe_load(skeleton_of(text).text) == {"apiVersion": "v1"}


def test_a_tag_spanning_lines_keeps_its_line_breaks() -> None:
    text = '{{- $x := dict\n      "a" 1 }}\napiVersion: v1\n'
    skeleton = skeleton_of(text)
    assert skeleton.text.count("\n") == text.count("\n")
    assert yaml.safe_load(skeleton.text) == {"apiVersion": "v1"}


def test_yaml_after_a_tag_that_spans_lines_is_a_problem() -> None:
    text = 'a: {{ dict\n  "a" 1 }} b: 2\n'
    assert [p.line for p in skeleton_of(text).problems] == [2]


def test_unmask_refuses_a_lost_region() -> None:
    text = "a: {{ .Values.a }}\nb: {{ .Values.b }}\n"
    skeleton = skeleton_of(text)
    with pytest.raises(UnmaskError, match="lost"):
        unmask(skeleton.text.splitlines(keepends=True)[0], skeleton)


def test_unmask_refuses_a_copied_region() -> None:
    text = "a: {{ .Values.a }}\n"
    skeleton = skeleton_of(text)
    with pytest.raises(UnmaskError, match="copied"):
        unmask(skeleton.text + skeleton.text.replace("a:", "b:"), skeleton)


def test_unmask_refuses_a_reindented_output_line() -> None:
    text = 'labels:\n  {{- include "x" . | nindent 2 }}\n'
    skeleton = skeleton_of(text)
    moved = skeleton.text.replace("\n  ", "\n    ")
    with pytest.raises(UnmaskError, match="re-indented"):
        unmask(moved, skeleton)


# ---------------------------------------------------------------- properties

VALUES = st.sampled_from(
    ["{{ .Values.a }}", '{{ include "x.name" . }}', "{{.}}", "{{ $v }}", "{{ .Values.b | quote }}", "plain"]
)
CONTROL = st.sampled_from(
    [
        "{{- if .Values.x }}",
        "{{- end }}",
        "{{ else }}",
        "{{- range .Values.l }}",
        "{{/* note }} */}}",
        "{{- $x := 1 -}}",
    ]
)


@st.composite
def templates(draw: st.DrawFn) -> str:
    lines = []
    for i in range(draw(st.integers(1, 12))):
        kind = draw(st.integers(0, 4))
        indent = " " * (2 * draw(st.integers(0, 3)))
        if kind == 0:
            lines.append(f"{indent}k{i}: {draw(VALUES)}")
        elif kind == 1:
            lines.append(f"{indent}{draw(CONTROL)}")
        elif kind == 2:
            lines.append(f"{indent}- {draw(VALUES)}-{draw(VALUES)}")
        elif kind == 3:
            lines.append(f"{indent}{{{{ toYaml .Values.x{i} | nindent {draw(st.integers(0, 6))} }}}}")
        else:
            field = draw(st.sampled_from(["labels", "tolerations"]))
            lines.append(f"{indent}{field}: {{{{ toYaml .Values.x{i} | nindent {draw(st.integers(0, 8))} }}}}")
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


@settings(max_examples=200, deadline=None)
@given(templates())
def test_masking_then_unmasking_is_the_identity(text: str) -> None:
    skeleton = skeleton_of(text)
    assert len(skeleton.text) == len(text)
    assert [m.start() for m in re.finditer("\n", skeleton.text)] == [m.start() for m in re.finditer("\n", text)]
    assert "{{" not in skeleton.text
    assert unmask(skeleton.text, skeleton) == text


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "c", "d"]), VALUES), min_size=1, max_size=6, unique_by=lambda kv: kv[0]
    )
)
def test_a_skeleton_of_value_tags_parses_like_a_rendering(entries: list[tuple[str, str]]) -> None:
    text = "".join(f"{k}:\n  name: {v}\n  list:\n    - {v}\n" for k, v in entries)
    rendered = re.sub(r"\{\{.*?\}\}", "x", text)
    skeleton = skeleton_of(text)
    masked = placeholders.CODE.sub("x", skeleton.text)
    assert yaml.safe_load(masked) == yaml.safe_load(rendered)
