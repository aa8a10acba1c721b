"""Proof with the real helm: ``apply --verify-render`` and the Helm plugin.

Needs ``helm`` on PATH: skipped outside CI when it is missing, a failure in CI (.ci/run
installs it with .ci/get-tools). The charts here are small and written for the tests; one
corpus chart is proven too when ../shared is beside the project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from k8smigrate.cli import app
from tests.templating_helpers import BITNAMI_STYLE_DEPLOYMENT

ROOT = Path(__file__).resolve().parent.parent
CHARTS = ROOT.parent / "shared" / "corpus" / "charts"

CHART = {
    "Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    "values.yaml": "service:\n  port: 8080  # the container port\ningress:\n  enabled: true\n  host: web.example\n",
    "templates/_helpers.tpl": '{{- define "web.fullname" -}}{{ .Release.Name }}-web{{- end -}}\n',
    "templates/ingress.yaml": (
        "{{- if .Values.ingress.enabled -}}\n"
        "{{- $svcPort := .Values.service.port -}}\n"
        "apiVersion: extensions/v1beta1\n"
        "kind: Ingress\n"
        "metadata:\n"
        '  name: {{ include "web.fullname" . }}\n'
        "spec:\n"
        "  rules:\n"
        "    - host: {{ .Values.ingress.host | quote }}\n"
        "      http:\n"
        "        paths:\n"
        "          - path: /\n"
        "            backend:\n"
        '              serviceName: {{ include "web.fullname" . }}\n'
        "              servicePort: {{ $svcPort }}\n"
        "{{- end }}\n"
    ),
    "templates/pdb.yaml": (
        "apiVersion: policy/v1beta1\n"
        "kind: PodDisruptionBudget\n"
        "metadata:\n"
        '  name: {{ include "web.fullname" . }}\n'
        "spec:\n"
        "  maxUnavailable: 1\n"
        "  selector:\n"
        "    matchLabels:\n"
        "      app: {{ .Release.Name }}\n"
    ),
}


def make_chart(folder: Path) -> Path:
    for name, text in CHART.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def render(helm: str, chart: Path) -> list[dict]:
    out = subprocess.run(
        [helm, "template", "r", str(chart), "--kube-version", "1.29.0"], capture_output=True, text=True, check=True
    ).stdout
    return [d for d in yaml.safe_load_all(out) if d]


def test_verify_render_proves_a_migrated_chart(helm: str, tmp_path: Path) -> None:
    chart = make_chart(tmp_path / "web")
    result = CliRunner().invoke(app, ["apply", "--in-place", "--verify-render", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 1, result.output  # changed, no error
    assert "K8SM-TPL-013 helm proves it" in result.stderr
    docs = {d["kind"]: d for d in render(helm, chart)}
    assert docs["Ingress"]["apiVersion"] == "networking.k8s.io/v1"
    backend = docs["Ingress"]["spec"]["rules"][0]["http"]["paths"][0]["backend"]
    assert backend == {"service": {"name": "r-web", "port": {"number": 8080}}}
    assert docs["PodDisruptionBudget"]["apiVersion"] == "policy/v1"
    assert "{{ $svcPort }}" in (chart / "templates/ingress.yaml").read_text(encoding="utf-8")


def test_verify_render_with_check_writes_nothing(helm: str, tmp_path: Path) -> None:
    chart = make_chart(tmp_path / "web")
    before = (chart / "templates/ingress.yaml").read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["apply", "--check", "--verify-render", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 1, result.output
    assert "K8SM-TPL-013" in result.stderr
    assert (chart / "templates/ingress.yaml").read_text(encoding="utf-8") == before


def test_verify_render_reports_a_document_left_on_a_removed_api(helm: str, tmp_path: Path) -> None:
    chart = make_chart(tmp_path / "web")
    psp = "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: {{ .Release.Name }}\nspec: {}\n"
    (chart / "templates/psp.yaml").write_text(psp, encoding="utf-8")
    result = CliRunner().invoke(app, ["apply", "--check", "--verify-render", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 3
    assert "K8SM-TPL-011" in result.stderr and "PodSecurityPolicy" in result.stderr


NINDENT_DEPLOYMENT = (
    "apiVersion: apps/v1beta1\n"
    "kind: Deployment\n"
    "metadata:\n"
    '  name: {{ include "web.fullname" . }}\n'
    '  labels: {{ include "web.labels" . | nindent 4 }}\n'
    "spec:\n"
    "  template:\n"
    "    metadata:\n"
    '      labels: {{ include "web.labels" . | nindent 8 }}\n'
    "    spec:\n"
    "      containers:\n"
    "        - name: web\n"
    "          image: nginx\n"
)


def migrated_deployment(helm: str, folder: Path, template: str) -> dict:
    """The Deployment that ``template`` (with a ``web.labels`` define) renders once migrated,
    after ``--verify-render`` proved the migration."""
    chart = make_chart(folder)
    labels = '{{- define "web.labels" -}}\napp: web\nrelease: {{ .Release.Name }}\n{{- end -}}\n'
    (chart / "templates/_labels.tpl").write_text(labels, encoding="utf-8")
    (chart / "templates/deployment.yaml").write_text(template, encoding="utf-8")
    result = CliRunner().invoke(app, ["apply", "--in-place", "--verify-render", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 1, result.output
    assert "K8SM-TPL-013 helm proves it" in result.stderr
    deployment = next(d for d in render(helm, chart) if d["kind"] == "Deployment")
    assert deployment["apiVersion"] == "apps/v1"
    return deployment


def test_labels_an_include_writes_with_nindent_become_the_selector(helm: str, tmp_path: Path) -> None:
    deployment = migrated_deployment(helm, tmp_path / "web", NINDENT_DEPLOYMENT)
    assert deployment["spec"]["selector"] == {"matchLabels": {"app": "web", "release": "r"}}
    assert deployment["spec"]["template"]["metadata"]["labels"] == {"app": "web", "release": "r"}


def test_labels_an_include_starts_on_their_key_line_become_the_selector(helm: str, tmp_path: Path) -> None:
    deployment = migrated_deployment(helm, tmp_path / "web", BITNAMI_STYLE_DEPLOYMENT)
    expected = {"app": "web", "release": "r", "app.kubernetes.io/component": "web"}
    assert deployment["spec"]["template"]["metadata"]["labels"] == expected
    assert deployment["spec"]["selector"] == {"matchLabels": expected}


def test_a_printed_apiversion_rewritten_on_request_renders_the_new_api(helm: str, tmp_path: Path) -> None:
    chart = make_chart(tmp_path / "web")
    (chart / "templates/pdb.yaml").unlink()  # policy/v1 is not served from 1.19: not this test's subject
    (chart / "templates/_api.tpl").write_text(
        '{{- define "web.ingress.apiVersion" -}}\n'
        '{{- if semverCompare ">=1.14-0" .Capabilities.KubeVersion.GitVersion -}}\n'
        '{{- print "networking.k8s.io/v1beta1" -}}\n'
        "{{- else -}}\n"
        '{{- print "extensions/v1beta1" -}}\n'
        "{{- end -}}\n"
        "{{- end -}}\n",
        encoding="utf-8",
    )
    ingress = (chart / "templates/ingress.yaml").read_text(encoding="utf-8")
    ingress = ingress.replace("apiVersion: extensions/v1beta1", 'apiVersion: {{ include "web.ingress.apiVersion" . }}')
    (chart / "templates/ingress.yaml").write_text(ingress, encoding="utf-8")
    args = ["apply", "--in-place", "--verify-render", "--target-version", "1.29", "--min-version", "1.19"]
    result = CliRunner().invoke(app, [*args, "--set", "template-actions=rewrite", str(chart)])
    assert result.exit_code == 1, result.output
    assert "K8SM-TPL-013 helm proves it" in result.stderr
    docs = {d["kind"]: d for d in render(helm, chart)}
    assert docs["Ingress"]["apiVersion"] == "networking.k8s.io/v1"
    assert docs["Ingress"]["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["port"] == {"number": 8080}


def test_a_chart_that_branches_its_pdb_by_version_is_proven_as_it_is(helm: str, tmp_path: Path) -> None:
    chart = make_chart(tmp_path / "web")
    (chart / "templates/pdb.yaml").write_text(
        (chart / "templates/pdb.yaml")
        .read_text(encoding="utf-8")
        .replace(
            "apiVersion: policy/v1beta1",
            'apiVersion: {{ if semverCompare ">=1.21-0" .Capabilities.KubeVersion.GitVersion }}policy/v1'
            "{{ else }}policy/v1beta1{{ end }}",
        ),
        encoding="utf-8",
    )
    (chart / "templates/ingress.yaml").unlink()
    before = (chart / "templates/pdb.yaml").read_text(encoding="utf-8")
    args = ["apply", "--check", "--verify-render", "--target-version", "1.29", "--min-version", "1.19", str(chart)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "K8SM-TPL-013 helm proves it" in result.stderr
    assert (chart / "templates/pdb.yaml").read_text(encoding="utf-8") == before


def test_a_psp_the_chart_writes_only_before_1_25_is_proven_as_it_is(helm: str, tmp_path: Path) -> None:
    chart = make_chart(tmp_path / "web")
    (chart / "templates/ingress.yaml").unlink()
    (chart / "templates/pdb.yaml").unlink()
    psp = (
        '{{- if semverCompare "<1.25-0" .Capabilities.KubeVersion.GitVersion }}\n'
        "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: {{ .Release.Name }}\n"
        "spec:\n  privileged: false\n{{- end }}\n"
    )
    (chart / "templates/psp.yaml").write_text(psp, encoding="utf-8")
    args = ["apply", "--check", "--verify-render", "--target-version", "1.29", "--min-version", "1.22", str(chart)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "K8SM-TPL-008" in result.stderr and "K8SM-TPL-013 helm proves it" in result.stderr
    assert not [d for d in render(helm, chart) if d["kind"] == "PodSecurityPolicy"]


LOADED_CRD = """apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  version: v1
  names:
    plural: widgets
    kind: Widget
  scope: Namespaced
"""
LOADING_TEMPLATE = """{{ $root := . }}
{{- range tuple "CRD/widgets.yaml" }}
---
{{ tpl ($root.Files.Get .) $root }}
{{- end }}
"""


def chart_loading_a_file(folder: Path) -> Path:
    chart = make_chart(folder)
    (chart / "CRD").mkdir()
    (chart / "CRD/widgets.yaml").write_text(LOADED_CRD, encoding="utf-8")
    (chart / "templates/crds.yaml").write_text(LOADING_TEMPLATE, encoding="utf-8")
    (chart / "docs").mkdir()
    (chart / "docs/example.yaml").write_text(LOADED_CRD, encoding="utf-8")  # named by no template
    (chart / "files").mkdir()
    (chart / "files/app.yaml").write_text("listen: 8080\n", encoding="utf-8")  # named, but no object
    (chart / "templates/config.yaml").write_text(
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  app.yaml: {{ .Files.Get "files/app.yaml" | quote }}\n',
        encoding="utf-8",
    )
    return chart


def test_a_chart_file_that_a_template_renders_is_a_manifest(tmp_path: Path) -> None:
    from k8smigrate.templating.chart import manifest_files

    chart = chart_loading_a_file(tmp_path / "web")
    listed = {p.relative_to(chart).as_posix() for p in manifest_files(chart)}
    assert "CRD/widgets.yaml" in listed
    assert "docs/example.yaml" not in listed and "files/app.yaml" not in listed


def test_helm_renders_the_migrated_file_a_template_loads(helm: str, tmp_path: Path) -> None:
    chart = chart_loading_a_file(tmp_path / "web")
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 1, result.output
    docs = {d["kind"]: d for d in render(helm, chart)}
    assert docs["CustomResourceDefinition"]["apiVersion"] == "apiextensions.k8s.io/v1"
    assert (chart / "docs/example.yaml").read_text(encoding="utf-8") == LOADED_CRD
    assert (chart / "templates/crds.yaml").read_text(encoding="utf-8") == LOADING_TEMPLATE


def labelled_deployment(api: str) -> str:
    """A Deployment without a selector whose pod template labels hold an action."""
    head = f'apiVersion: {api}\nkind: Deployment\nmetadata:\n  name: {{{{ include "web.fullname" . }}}}\n'
    pod = "      labels:\n        app: web\n        release: {{ .Release.Name }}\n"
    containers = "    spec:\n      containers:\n        - name: web\n          image: nginx\n"
    return head + "  labels:\n    app: web\nspec:\n  template:\n    metadata:\n" + pod + containers


def test_helm_reads_a_selector_written_as_an_alias_of_templated_labels(helm: str, tmp_path: Path) -> None:
    chart = make_chart(tmp_path / "web")
    (chart / "templates/deployment.yaml").write_text(labelled_deployment("extensions/v1beta1"), encoding="utf-8")
    result = CliRunner().invoke(app, ["apply", "--in-place", "--verify-render", "--target-version", "1.29", str(chart)])
    assert "K8SM-TPL-013 helm proves it" in result.stderr, result.stderr
    assert "matchLabels: *podlabels" in (chart / "templates/deployment.yaml").read_text(encoding="utf-8")
    (rendered,) = [d for d in render(helm, chart) if d["kind"] == "Deployment"]
    assert rendered["apiVersion"] == "apps/v1"
    assert rendered["spec"]["selector"]["matchLabels"] == {"app": "web", "release": "r"}


def test_helm_reads_the_labels_moved_into_a_selector_before_a_template_that_ends_trimmed(
    helm: str, tmp_path: Path
) -> None:
    # swift: nothing can follow a pod spec ending with {{- end -}}, so the selector goes first
    chart = make_chart(tmp_path / "web")
    trimmed = "{{- if .Values.nodeSelector }}\n      nodeSelector:\n{{ toYaml .Values.nodeSelector | indent 8 }}\n{{- end -}}\n"
    (chart / "templates/deployment.yaml").write_text(labelled_deployment("apps/v1beta1") + trimmed, encoding="utf-8")
    result = CliRunner().invoke(app, ["apply", "--in-place", "--verify-render", "--target-version", "1.29", str(chart)])
    assert "K8SM-TPL-013 helm proves it" in result.stderr, result.stderr
    assert "matchLabels: &podlabels" in (chart / "templates/deployment.yaml").read_text(encoding="utf-8")
    (rendered,) = [d for d in render(helm, chart) if d["kind"] == "Deployment"]
    assert rendered["apiVersion"] == "apps/v1"
    assert rendered["spec"]["selector"]["matchLabels"] == rendered["spec"]["template"]["metadata"]["labels"]
    assert rendered["spec"]["selector"]["matchLabels"] == {"app": "web", "release": "r"}


def test_verify_render_proves_a_corpus_chart(helm: str, tmp_path: Path) -> None:
    if not (CHARTS / "gocd").is_dir():
        pytest.skip("../shared/corpus/charts is not beside the project")
    chart = tmp_path / "gocd"
    shutil.copytree(CHARTS / "gocd", chart, copy_function=shutil.copyfile)  # writable: the corpus is read-only
    result = CliRunner().invoke(app, ["apply", "--in-place", "--verify-render", "--target-version", "1.29", str(chart)])
    assert "K8SM-TPL-013 helm proves it" in result.stderr, result.stderr
    assert result.exit_code == 1


def test_the_helm_plugin_runs_k8smigrate(helm: str, tmp_path: Path) -> None:
    env = dict(os.environ)
    for name in ("HELM_DATA_HOME", "HELM_CONFIG_HOME", "HELM_CACHE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env["K8SMIGRATE"] = f"{sys.executable} -m k8smigrate"
    install = subprocess.run(
        [helm, "plugin", "install", str(ROOT / "helm-plugin")], env=env, capture_output=True, text=True
    )
    assert install.returncode == 0, install.stderr
    chart = make_chart(tmp_path / "web")
    diff = subprocess.run(
        [helm, "k8smigrate", "diff", str(chart), "--target-version", "1.29"], env=env, capture_output=True, text=True
    )
    assert "+apiVersion: networking.k8s.io/v1" in diff.stdout, diff.stderr
    applied = subprocess.run(
        [helm, "k8smigrate", str(chart), "--target-version", "1.29"], env=env, capture_output=True, text=True
    )
    assert "K8SM-TPL-013 helm proves it" in applied.stderr, applied.stderr
    assert "apiVersion: networking.k8s.io/v1\n" in (chart / "templates/ingress.yaml").read_text(encoding="utf-8")
