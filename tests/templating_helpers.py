"""Small synthetic charts for the computed-apiVersion tests, and a reader for corpus charts."""

from __future__ import annotations

from pathlib import Path

from k8smigrate.templating.apiversions import ApiVersionPlan, ChartSources, plan
from k8smigrate.versions import Window

SEMVER_HELPER = """\
{{/* the apiVersion for Deployments */}}
{{- define "x.deployment.apiVersion" -}}
{{- if semverCompare ">=1.9-0" .Capabilities.KubeVersion.GitVersion -}}
{{- print "apps/v1" -}}
{{- else -}}
{{- print "extensions/v1beta1" -}}
{{- end -}}
{{- end -}}
"""

COMMON_KUBE_VERSION = """\
{{- define "common.capabilities.kubeVersion" -}}
{{- if .Values.global }}
    {{- if .Values.global.kubeVersion }}
    {{- .Values.global.kubeVersion -}}
    {{- else }}
    {{- default .Capabilities.KubeVersion.Version .Values.kubeVersion -}}
    {{- end -}}
{{- else }}
{{- default .Capabilities.KubeVersion.Version .Values.kubeVersion -}}
{{- end -}}
{{- end -}}
"""
"""Bitnami's ``common`` library chart: the release its apiVersion helpers compare with."""

INGRESS_HELPER = """\
{{- define "x.ingress.apiVersion" -}}
{{- if semverCompare ">=1.14-0" .Capabilities.KubeVersion.GitVersion -}}
{{- print "networking.k8s.io/v1beta1" -}}
{{- else -}}
{{- print "extensions/v1beta1" -}}
{{- end -}}
{{- end -}}
"""

DEPLOYMENT = """\
apiVersion: {{ template "x.deployment.apiVersion" . }}
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  replicas: 1
"""

INGRESS = """\
{{- if .Values.ingress.enabled -}}
apiVersion: {{ include "x.ingress.apiVersion" . }}
kind: Ingress
metadata:
  name: web
spec:
  backend:
    serviceName: web
    servicePort: 80
{{- end }}
"""


def chart(
    templates: dict[str, str], values: str = "", ci: dict[str, str] | None = None, api_versions: tuple[str, ...] = ()
) -> ChartSources:
    return ChartSources(
        {f"templates/{name}": text for name, text in templates.items()},
        values,
        {f"ci/{name}": text for name, text in (ci or {}).items()},
        api_versions=api_versions,
    )


def planned(
    sources: ChartSources, target: str = "1.29", min_version: str = "1.22", **options: object
) -> ApiVersionPlan:
    """The planner as a library with every rewrite it can make (``keep_actions=False``: literals
    inside actions rewritten, ifs whose arms agree collapsed); the default, which never changes
    an action, has its own specs (``test_templating_apiversions``: ``keep_actions``)."""
    options.setdefault("keep_actions", False)
    return plan(sources, Window.of(target, min_version), **options)  # type: ignore[arg-type]


def texts(sources: ChartSources) -> dict[str, str]:
    out = dict(sources.templates)
    out[sources.values_path] = sources.values
    out.update(sources.ci_values)
    return out


def after(sources: ChartSources, result: ApiVersionPlan) -> dict[str, str]:
    """Every file of the chart once the plan's edits are applied."""
    out = texts(sources)
    out.update(result.apply(out))
    return out


def read_chart(folder: Path) -> ChartSources:
    """A chart folder as ChartSources (templates, values.yaml, ci/*.yaml, Chart.yaml)."""
    templates = {}
    for path in sorted((folder / "templates").rglob("*")):
        if path.is_file():
            try:
                templates[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
    values = folder / "values.yaml"
    chart_yaml = folder / "Chart.yaml"
    ci = {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.glob("ci/*.yaml"))}
    return ChartSources(
        templates,
        values.read_text(encoding="utf-8") if values.is_file() else "",
        ci,
        chart_yaml.read_text(encoding="utf-8") if chart_yaml.is_file() else "",
    )


def write_chart(folder: Path, templates: dict[str, str], values: str = "") -> Path:
    """A chart folder holding ``templates`` (by name under templates/) and ``values.yaml``."""
    files = {"Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n", "values.yaml": values}
    files.update({f"templates/{name}": text for name, text in templates.items()})
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def run_cli(*args: str) -> tuple[int, str]:
    """``k8smigrate ARGS`` in this process: the exit code and the output."""
    from typer.testing import CliRunner

    from k8smigrate.cli import app

    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


BITNAMI_STYLE_DEPLOYMENT = """\
apiVersion: extensions/v1beta1
kind: Deployment
metadata:
  name: {{ include "web.fullname" . }}
  labels: {{- include "web.labels" . | nindent 4 }}
    app.kubernetes.io/component: web
spec:
  template:
    metadata:
      labels: {{- include "web.labels" . | nindent 8 }}
        {{- if .Values.podLabels }}
        {{- toYaml .Values.podLabels | nindent 8 }}
        {{- end }}
        app.kubernetes.io/component: web
    spec:
      containers:
        - name: web
          image: nginx
"""
"""An extensions/v1beta1 Deployment without a selector, labelled as Bitnami's charts label:
an include on the key's line, more labels below."""


CRD_BY_BRANCH = """\
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
{{- if CONDITION }}
  versions:
    - name: v1
      served: true
      storage: true
{{- else }}
  version: v1
{{- end }}
  scope: Namespaced
  names:
    plural: widgets
    kind: Widget
  validation:
    openAPIV3Schema:
      type: object
"""
"""deliveryhero's controllers: a v1beta1 CRD with ``versions`` under an ``if``, ``version`` under its ``else``."""
