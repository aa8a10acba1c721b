"""Proof with the real ``helm``: what the evaluation says ``helm template --kube-version X`` prints
is what it prints, before the edits and after them, and the edits change nothing else.

Small charts, one per idiom, are rendered at several releases. Skipped when ``helm`` is not on
PATH (``../shared/tools/get-helm`` prints a folder holding it; CI installs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from k8smigrate.templating.apiversions import ApiVersionPlan, ChartSources, apply_edits, plan
from k8smigrate.versions import Window

from .templating_helpers import DEPLOYMENT, INGRESS, INGRESS_HELPER, SEMVER_HELPER, after, chart, texts

HELM = shutil.which("helm")
pytestmark = pytest.mark.skipif(  # in CI (CI set by .ci/run, which installs helm) a missing helm fails
    HELM is None and not os.environ.get("CI"),
    reason="helm is not on PATH (CI installs it; locally: PATH=$(.ci/get-tools):$PATH)",
)

HAS_HELPER = """\
{{- define "x.rbac.apiVersion" -}}
{{- if .Capabilities.APIVersions.Has "rbac.authorization.k8s.io/v1" }}
{{- print "rbac.authorization.k8s.io/v1" -}}
{{- else -}}
{{- print "rbac.authorization.k8s.io/v1beta1" -}}
{{- end -}}
{{- end -}}
{{- define "x.sts.apiVersion" -}}
{{- if .Capabilities.APIVersions.Has "apps/v1/StatefulSet" -}}
{{- print "apps/v1" -}}
{{- else -}}
{{- print "apps/v1beta2" -}}
{{- end -}}
{{- end -}}
{{- define "x.scope" -}}{{- if .Values.cluster -}}Cluster{{- end -}}{{- end -}}
"""

CHARTS: dict[str, ChartSources] = {
    "helpers": chart(
        {
            "_helpers.tpl": SEMVER_HELPER + INGRESS_HELPER + HAS_HELPER,
            "deployment.yaml": DEPLOYMENT,
            "ingress.yaml": INGRESS,
            "role.yaml": 'apiVersion: {{ template "x.rbac.apiVersion" . }}\nkind: Role\nmetadata:\n  name: r\n',
            "sts.yaml": 'apiVersion: {{ include "x.sts.apiVersion" . }}\nkind: StatefulSet\nmetadata:\n  name: s\n',
        },
        "ingress:\n  enabled: true\ncluster: true\n",
    ),
    "branches": chart(
        {
            "a.yaml": (
                "{{- $name := .Release.Name -}}\n"
                '{{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }}\n'
                "apiVersion: networking.k8s.io/v1beta1\n{{ else }}\napiVersion: extensions/v1beta1\n{{ end -}}\n"
                "kind: Ingress\nmetadata:\n  name: {{ $name }}-a\n"
            ),
            "b.yaml": (
                '{{- if semverCompare ">=1.14-0" .Capabilities.KubeVersion.GitVersion -}}\n'
                "apiVersion: networking.k8s.io/v1beta1\n{{- else -}}\napiVersion: extensions/v1beta1\n{{- end }}\n"
                "kind: Ingress\nmetadata:\n  name: b\n"
            ),
            "c.yaml": (
                'apiVersion: {{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }}'
                " networking.k8s.io/v1beta1 {{- else }} extensions/v1beta1 {{- end }}\nkind: Ingress\nmetadata:\n  name: c\n"
            ),
            "d.yaml": (
                '---\nkind: {{ include "x.scope" . | printf "%sRole" }}\n'
                '{{- if semverCompare "^1.8-0" .Capabilities.KubeVersion.GitVersion }}\n'
                "apiVersion: rbac.authorization.k8s.io/v1\n{{- else }}\n"
                "apiVersion: rbac.authorization.k8s.io/v1beta1\n{{- end }}\nmetadata:\n  name: d\n"
            ),
            "e.yaml": (
                "{{- $kubeTargetVersion := default .Capabilities.KubeVersion.GitVersion .Values.kubeTargetVersionOverride }}\n"
                '{{- if semverCompare ">=1.16-0" $kubeTargetVersion }}\n'
                "apiVersion: apps/v1\n{{- else }}\napiVersion: extensions/v1beta1\n{{- end }}\nkind: DaemonSet\n"
                "metadata:\n  name: e\n"
            ),
            "_helpers.tpl": HAS_HELPER,
        },
        'cluster: true\nkubeTargetVersionOverride: ""\n',
    ),
    "values": chart(
        {
            "role.yaml": (
                "apiVersion: rbac.authorization.k8s.io/"
                '{{ required "A valid .Values.rbac.apiVersion entry required!" .Values.rbac.apiVersion }}\n'
                "kind: Role\nmetadata:\n  name: r\n"
            ),
            "binding.yaml": (
                "apiVersion: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}\nkind: RoleBinding\n"
                "metadata:\n  name: b\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: r\n"
            ),
        },
        "rbac:\n  # the RBAC API version\n  apiVersion: v1beta1\n",
        {"old-values.yaml": "rbac:\n  apiVersion: 'v1beta1'\n"},
    ),
}


def _write(folder: Path, name: str, files: dict[str, str]) -> Path:
    root = folder / name
    (root / "templates").mkdir(parents=True)
    (root / "Chart.yaml").write_text(f"apiVersion: v2\nname: {name}\nversion: 0.1.0\n")
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def _render(root: Path, release: str, values: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """The documents ``helm template`` prints, by template path."""
    assert HELM is not None
    cmd = [HELM, "template", "t", str(root), "--kube-version", release]
    if values is not None:
        cmd += ["-f", str(root / values)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    docs: dict[str, list[dict[str, Any]]] = {}
    for doc in out.split("\n---\n"):
        head = next((ln for ln in doc.splitlines() if ln.startswith("# Source: ")), None)
        data = yaml.safe_load(doc)
        if head is None or not isinstance(data, dict):
            continue
        docs.setdefault(head.split("/", 1)[1], []).append(data)
    return docs


def _expected(result: ApiVersionPlan, release: str, values: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for site in result.sites:
        if not site.site.root:
            continue
        for y in site.yields:
            if str(y.release) == release and y.scenario == "helm-template" and y.values == values and y.api:
                out[site.site.path] = y.api
    return out


@pytest.mark.parametrize("name", sorted(CHARTS))
@pytest.mark.parametrize(("low", "high", "remove_dead"), [("1.22", "1.29", False), ("1.19", "1.29", True)])
def test_rendered_apiversions_match_the_evaluation(
    tmp_path: Path, name: str, low: str, high: str, remove_dead: bool
) -> None:
    sources = CHARTS[name]
    result = plan(sources, Window.of(high, low), remove_dead=remove_dead, keep_actions=False)
    assert result.edits
    before = _write(tmp_path, "before", texts(sources))
    edited = _write(tmp_path, "after", after(sources, result))
    value_files = [sources.values_path, *sorted(sources.ci_values)]
    for release in (low, high):
        for values in value_files:
            flag = None if values == sources.values_path else values
            old, new = _render(before, release, flag), _render(edited, release, flag)
            expected = _expected(result, release, values)
            assert {p: docs[0]["apiVersion"] for p, docs in old.items() if p in expected} == expected
            for site in result.sites:
                if not site.site.root or site.site.path not in new:
                    continue
                got = new[site.site.path][0]["apiVersion"]
                assert got == (site.body_to or expected[site.site.path]), (site.site.path, release)
            # the edits change apiVersions and nothing else
            assert {p: _without_api(d) for p, d in old.items()} == {p: _without_api(d) for p, d in new.items()}


def test_api_versions_flag_is_what_helm_template_uses(tmp_path: Path) -> None:
    sources = chart(
        {"_helpers.tpl": HAS_HELPER, "sts.yaml": 'apiVersion: {{ include "x.sts.apiVersion" . }}\nkind: StatefulSet\n'},
        api_versions=("apps/v1/StatefulSet",),
    )
    result = plan(sources, Window.of("1.29", "1.22"), keep_actions=False)
    assert {y.api for y in result.sites[0].yields if y.scenario == "helm-template"} == {"apps/v1"}
    root = _write(tmp_path, "flag", texts(sources))
    assert HELM is not None
    out = subprocess.run(
        [HELM, "template", "t", str(root), "--kube-version", "1.29", "--api-versions", "apps/v1/StatefulSet"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "apiVersion: apps/v1\n" in out


def _without_api(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in d.items() if k != "apiVersion"} for d in docs]


def test_removing_constant_blocks_renders_the_same_in_the_window(tmp_path: Path) -> None:
    from k8smigrate.templating.conditions import remove_dead_blocks

    from .test_templating_conditions import DEPLOYMENT as BODY

    sources = chart({"deployment.yaml": BODY}, "replicas: 1\nprobe: true\n")
    edits = remove_dead_blocks(sources, Window.of("1.29", "1.22"))
    assert edits
    before = _write(tmp_path, "before", texts(sources))
    edited = _write(tmp_path, "after", {**texts(sources), **apply_edits(texts(sources), edits)})
    for release in ("1.22", "1.29"):
        assert _render(before, release) == _render(edited, release)
    assert _render(before, "1.15") != _render(edited, "1.15")  # below the window the selector was optional
