"""Conditions on ``.Capabilities`` in document bodies: which arm a window takes, and their
opt-in removal when constant."""

from __future__ import annotations

from pathlib import Path

from k8smigrate.templating.conditions import capability_blocks, remove_dead_blocks
from k8smigrate.templating.edits import apply_edits
from k8smigrate.versions import Window

from .templating_helpers import chart, read_chart, texts

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: {{ .Values.replicas }}
  {{- if semverCompare ">=1.16-0" .Capabilities.KubeVersion.GitVersion }}
  selector:
    matchLabels:
      app: web
  {{- end }}
  template:
    spec:
      containers:
        - name: web
{{- if semverCompare ">=1.33-0" .Capabilities.KubeVersion.GitVersion }}
          resizePolicy: []
{{- end }}
{{- if and (semverCompare ">=1.7-0" .Capabilities.KubeVersion.GitVersion) .Values.probe }}
          startupProbe: {}
{{- end }}
{{- if semverCompare "<1.9-0" .Capabilities.KubeVersion.GitVersion }}
          legacy: true
{{- else }}
          modern: true
{{- end }}
"""

WINDOW = Window.of("1.29", "1.22")


def test_no_condition_on_capabilities_no_blocks() -> None:
    sources = chart({"cm.yaml": "{{- if .Values.on }}\napiVersion: v1\nkind: ConfigMap\n{{- end }}\n"})
    assert capability_blocks(sources, WINDOW) == []
    assert remove_dead_blocks(sources, WINDOW) == []


def test_arms_taken_by_the_window() -> None:
    blocks = capability_blocks(chart({"deployment.yaml": DEPLOYMENT}, "replicas: 1\nprobe: false\n"), WINDOW)
    facts = [(b.line, sorted(b.arms), b.constant, b.reads_values, sorted(b.later_arms)) for b in blocks]
    assert facts == [
        (7, [0], 0, False, [0]),
        (16, [-1], -1, False, [-1, 0]),  # an arm for 1.33 and later
        (19, [-1], None, True, [-1]),  # depends on .Values.probe
        (22, [1], 1, False, [1]),
    ]


def test_constant_blocks_are_removed_on_request_and_an_arm_for_later_releases_stays() -> None:
    sources = chart({"deployment.yaml": DEPLOYMENT}, "replicas: 1\nprobe: false\n")
    edits = remove_dead_blocks(sources, WINDOW)
    new = apply_edits(texts(sources), edits)["templates/deployment.yaml"]
    assert new == DEPLOYMENT.replace(
        '  {{- if semverCompare ">=1.16-0" .Capabilities.KubeVersion.GitVersion }}\n', ""
    ).replace("      app: web\n  {{- end }}\n", "      app: web\n").replace(
        '{{- if semverCompare "<1.9-0" .Capabilities.KubeVersion.GitVersion }}\n          legacy: true\n{{- else }}\n'
        "          modern: true\n{{- end }}\n",
        "          modern: true\n",
    )
    assert ">=1.33-0" in new and ".Values.probe" in new


def test_only_the_paths_asked_for() -> None:
    sources = chart({"deployment.yaml": DEPLOYMENT, "other.yaml": DEPLOYMENT}, "replicas: 1\n")
    edits = remove_dead_blocks(sources, WINDOW, paths=["templates/other.yaml"])
    assert {e.path for e in edits} == {"templates/other.yaml"}


def test_corpus_blocks_constant_in_the_window(chart_corpus: Path) -> None:
    sources = read_chart(chart_corpus / "mongodb-replicaset")
    blocks = capability_blocks(sources, WINDOW)
    assert [(b.path, b.line, b.constant) for b in blocks] == [
        ("templates/mongodb-statefulset.yaml", 224, 0),
        ("templates/mongodb-statefulset.yaml", 319, 0),
    ]
    edits = remove_dead_blocks(sources, WINDOW)
    assert len(edits) == 2
    new = apply_edits(texts(sources), edits)["templates/mongodb-statefulset.yaml"]
    assert "semverCompare" not in new
    assert new.count("startupProbe:") == 2
