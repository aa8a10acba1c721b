"""Defines whose output starts with a line break: ``{{- include "x" . | indent N }}`` starts a new line.

Bitnami's mongodb writes ``{{- include "mongodb.initContainer.volumePermissions" . | indent 8 }}``
under ``initContainers:``: the trim eats the line break before the action, and the define's
body brings its own. No-op cases first (defines that do not count), then the defines that do,
then what masking and ``apply`` make of the idiom.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from k8smigrate.templating import gotemplate
from k8smigrate.templating.define_output import newline_first
from k8smigrate.templating.gotmpl import Define, parse, walk
from k8smigrate.templating.mask import mask, unmask
from tests.helpers import dedent

from .templating_helpers import run_cli, write_chart


def newline_defines(text: str) -> frozenset[str]:
    defines = {node.name: ("t", node) for node in walk(parse(text)) if isinstance(node, Define)}
    return newline_first(defines, {"t": text})


@pytest.mark.parametrize(
    "body",
    [
        '{{- define "x" -}}\n- name: a\n{{- end -}}\n',  # the define's own trim eats the line break
        '{{- define "x" }}- name: a\n{{- end }}\n',  # text on the define's line
        '{{- define "x" }}\n{{- include "y" . }}\n- name: a\n{{- end }}\n',  # a call writes first
        '{{- define "x" }}\n{{- .Values.name }}\n{{- end }}\n',  # an action writes first
        '{{- define "x" }}\n{{- if .a }}\n- a\n{{- else }}b{{ end }}\n{{- end }}\n',  # one branch does not
    ],
)
def test_a_define_that_may_write_something_else_first_does_not_count(body: str) -> None:
    assert newline_defines(body) == frozenset()


@pytest.mark.parametrize(
    "body",
    [
        '{{- define "x" }}\n- name: a\n{{- end }}\n',  # mongodb's
        # redis's (helm/charts): comments and nested ifs before the first text
        '{{- define "x" -}}\n{{/* a comment */}}\n{{- if .Values.global }}\n{{- if .Values.global.s }}\n'
        "imagePullSecrets:\n{{- end }}\n{{- end }}\n{{- end -}}\n",
        '{{- define "x" }}\n{{- $v := .Values.a }}\n- name: {{ $v }}\n{{- end }}\n',  # a declaration writes nothing
        '{{- define "x" }}\n{{- if .a }}\n- a\n{{- else }}\n- b\n{{- end }}\n{{- end }}\n',
    ],
)
def test_a_define_whose_output_is_empty_or_starts_with_a_line_break_counts(body: str) -> None:
    assert newline_defines(body) == {"x"}


INIT_CONTAINERS = """
    spec:
      initContainers:
        {{- if .Values.a }}
        {{- include "x.volumePermissions" . | indent 8 }}
        {{- end }}
        {{- include "x.logs" . | nindent 8 }}
      containers: []
    """


def test_indent_of_a_newline_first_define_masks_as_an_item_at_that_column() -> None:
    text = dedent(INIT_CONTAINERS)
    tags, hidden, _actions = gotemplate.tags(text, frozenset({"x.volumePermissions"}))
    skeleton = mask(text, tags, hidden)
    spec = yaml.safe_load(skeleton.text)["spec"]
    assert len(spec["initContainers"]) == 2 and spec["containers"] == []
    assert unmask(skeleton.text, skeleton) == text


def test_indent_of_any_other_define_stays_at_the_tags_column_plus_n() -> None:
    text = dedent(INIT_CONTAINERS)
    for known in (frozenset(), frozenset({"x.other"})):
        tags, hidden, _actions = gotemplate.tags(text, known)
        with pytest.raises(yaml.YAMLError):
            yaml.safe_load(mask(text, tags, hidden).text)


def test_a_pipeline_between_the_include_and_indent_does_not_count() -> None:
    # ``trim`` would remove the line break the define starts with
    text = '{{- include "x" . | trim | indent 8 }}\n'
    tags, _hidden, _actions = gotemplate.tags(text, frozenset({"x"}))
    assert tags[0].indent == 8 and not tags[0].newline


HELPERS = """\
{{- define "x.volumePermissions" }}
- name: volume-permissions
  image: busybox
{{- end }}
"""

STATEFULSET = """\
apiVersion: apps/v1beta2
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      initContainers:
        {{- if .Values.volumePermissions.enabled }}
        {{- include "x.volumePermissions" . | indent 8 }}
        {{- end }}
        - name: init
          image: busybox
      containers:
        - name: db
          image: db
"""


def test_a_chart_with_the_idiom_is_migrated(tmp_path: Path) -> None:
    folder = write_chart(tmp_path / "c", {"_helpers.tpl": HELPERS, "statefulset.yaml": STATEFULSET})
    code, output = run_cli("apply", "--in-place", "--target-version", "1.29", str(folder))
    assert code == 1, output
    migrated = (folder / "templates" / "statefulset.yaml").read_text(encoding="utf-8")
    assert migrated == STATEFULSET.replace("apps/v1beta2", "apps/v1", 1)
