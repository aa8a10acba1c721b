"""A chart's literal apiVersion that no one API serves across the window: ``--set api-branches=write``.

By default the document keeps ``K8SM-GEN-009`` and the error names the option, when the option
would work. With it, the apiVersion becomes an ``if`` on the cluster's version that gives each
release the API it serves, provided the one body serves both APIs; the next run reads the
chart as one that already branches. The real helm proves what each release gets.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from k8smigrate.templating.branching import branch_plan
from k8smigrate.versions import KubeVersion, Window

from .templating_helpers import run_cli, write_chart

PDB = (
    "{{- if .Values.pdb.enabled }}\n"
    "apiVersion: policy/v1beta1\n"
    "kind: PodDisruptionBudget\n"
    "metadata:\n"
    "  name: {{ .Release.Name }}\n"
    "spec:\n"
    "  maxUnavailable: 1\n"
    "  selector:\n"
    "    matchLabels:\n"
    "      app: {{ .Release.Name }}\n"
    "{{- end }}\n"
)
BRANCHED = (
    'apiVersion: {{ if semverCompare ">=1.21-0" $.Capabilities.KubeVersion.GitVersion }}policy/v1'
    "{{ else }}policy/v1beta1{{ end }}\n"
)
HPA_V2BETA1 = (
    "apiVersion: autoscaling/v2beta1\n"
    "kind: HorizontalPodAutoscaler\n"
    "metadata:\n"
    "  name: {{ .Release.Name }}\n"
    "spec:\n"
    "  scaleTargetRef:\n"
    "    apiVersion: apps/v1\n"
    "    kind: Deployment\n"
    "    name: {{ .Release.Name }}\n"
    "  maxReplicas: 3\n"
    "  metrics:\n"
    "    - type: Resource\n"
    "      resource:\n"
    "        name: cpu\n"
    "        targetAverageUtilization: 80\n"
)
INGRESS_V1BETA1 = (
    "apiVersion: networking.k8s.io/v1beta1\n"
    "kind: Ingress\n"
    "metadata:\n"
    "  name: {{ .Release.Name }}\n"
    "spec:\n"
    "  backend:\n"
    "    serviceName: {{ .Release.Name }}\n"
    "    servicePort: 80\n"
)
WINDOW = ["--target-version", "1.29", "--min-version", "1.19"]
WINDOW_118 = ["--target-version", "1.29", "--min-version", "1.18"]  # networking.k8s.io/v1 from 1.19
HPA_BRANCHED = (
    'apiVersion: {{ if semverCompare ">=1.23-0" $.Capabilities.KubeVersion.GitVersion }}autoscaling/v2'
    "{{ else }}autoscaling/v2beta2{{ end }}\n"
)


def chart(folder: Path, templates: dict[str, str]) -> Path:
    return write_chart(folder, templates, "pdb:\n  enabled: true\n")


run = run_cli


# ---------------------------------------------------------------------------- no change


def test_by_default_the_apiversion_stays_and_its_error_names_the_option(tmp_path: Path) -> None:
    folder = chart(tmp_path / "p", {"pdb.yaml": PDB})
    code, output = run("apply", "--in-place", *WINDOW, str(folder))
    assert code == 3
    assert "K8SM-GEN-009" in output
    assert "In a chart, --set api-branches=write picks it by release (policy/v1 from 1.21)" in output
    assert (folder / "templates/pdb.yaml").read_text(encoding="utf-8") == PDB


def test_scan_offers_the_option_only_where_apply_would_take_it(tmp_path: Path) -> None:
    folder = chart(tmp_path / "p", {"pdb.yaml": PDB, "ingress.yaml": INGRESS_V1BETA1})
    code, output = run("scan", *WINDOW_118, str(folder))
    assert code == 3
    assert "PodDisruptionBudget {{ .Release.Name }}: K8SM-GEN-007 --set api-branches=write" in output
    assert "Ingress {{ .Release.Name }}: K8SM-GEN-007 networking.k8s.io/v1 is not served" in output


def test_where_one_api_serves_the_window_there_is_nothing_to_branch() -> None:
    assert branch_plan("policy/v1beta1", "PodDisruptionBudget", Window.of("1.29", "1.21")) is None
    assert branch_plan("policy/v1beta1", "PodDisruptionBudget", Window.of("1.24", "1.19")) is None  # not removed


def test_a_body_that_differs_per_api_is_neither_branched_nor_offered(tmp_path: Path) -> None:
    # no apiVersion before networking.k8s.io/v1 has its backends: nothing serves 1.18 with them
    folder = chart(tmp_path / "p", {"ingress.yaml": INGRESS_V1BETA1})
    code, output = run("apply", "--in-place", "--set", "api-branches=write", *WINDOW_118, str(folder))
    assert code == 3
    assert "K8SM-GEN-009" in output and "api-branches" not in output
    assert (folder / "templates/ingress.yaml").read_text(encoding="utf-8") == INGRESS_V1BETA1


# ---------------------------------------------------------------------------- branch


def test_the_split_is_where_the_newest_api_is_served_to_the_target() -> None:
    assert branch_plan("policy/v1beta1", "PodDisruptionBudget", Window.of("1.29", "1.19")) == (
        "policy/v1",
        KubeVersion(1, 21),
        ("policy/v1beta1",),
    )
    assert branch_plan("batch/v1beta1", "CronJob", Window.of("1.29", "1.19")) == (
        "batch/v1",
        KubeVersion(1, 21),
        ("batch/v1beta1",),
    )
    assert branch_plan("autoscaling/v2beta2", "HorizontalPodAutoscaler", Window.of("1.29", "1.19")) == (
        "autoscaling/v2",
        KubeVersion(1, 23),
        ("autoscaling/v2beta2",),
    )


def test_a_body_of_another_shape_may_be_written_under_an_api_that_declares_the_same_fields() -> None:
    # v2beta1 first (its own body may serve), then v2beta2, whose step to v2 declares same_fields
    assert branch_plan("autoscaling/v2beta1", "HorizontalPodAutoscaler", Window.of("1.29", "1.19")) == (
        "autoscaling/v2",
        KubeVersion(1, 23),
        ("autoscaling/v2beta1", "autoscaling/v2beta2"),
    )


def test_the_apiversion_is_picked_by_release_and_the_next_run_needs_nothing(tmp_path: Path) -> None:
    folder = chart(tmp_path / "p", {"pdb.yaml": PDB})
    code, output = run("apply", "--in-place", "--set", "api-branches=write", *WINDOW, str(folder))
    assert code == 1, output
    assert "K8SM-TPL-110" in output and "K8SM-GEN-009" not in output
    assert (folder / "templates/pdb.yaml").read_text(encoding="utf-8") == PDB.replace(
        "apiVersion: policy/v1beta1\n", BRANCHED
    )
    for command in (["apply", "--check"], ["scan"]):
        code, output = run(*command, *WINDOW, str(folder))
        assert code == 0, output


def test_a_v2beta1_hpa_gets_v2_metrics_under_v2_and_v2beta2_and_the_next_run_needs_nothing(tmp_path: Path) -> None:
    folder = chart(tmp_path / "p", {"hpa.yaml": HPA_V2BETA1})
    code, output = run("apply", "--in-place", "--set", "api-branches=write", *WINDOW, str(folder))
    assert code == 1, output
    assert "K8SM-TPL-110" in output and "written for autoscaling/v2beta1" in output
    text = (folder / "templates/hpa.yaml").read_text(encoding="utf-8")
    assert text.startswith(HPA_BRANCHED)
    assert text.endswith("        target:\n          type: Utilization\n          averageUtilization: 80\n")
    for command in (["apply", "--check"], ["scan"]):
        code, output = run(*command, *WINDOW, str(folder))
        assert code == 0, output


# ---------------------------------------------------------------------------- proof with helm


def api_versions(helm: str, folder: Path, release: str) -> list[str]:
    out = subprocess.run(
        [helm, "template", "r", str(folder), "--kube-version", release], capture_output=True, text=True, check=True
    ).stdout
    return [d["apiVersion"] for d in yaml.safe_load_all(out) if d]


def test_helm_gives_each_release_the_api_it_serves(helm: str, tmp_path: Path) -> None:
    folder = chart(tmp_path / "p", {"pdb.yaml": PDB})
    args = ["apply", "--in-place", "--verify-render", "--set", "api-branches=write", *WINDOW, str(folder)]
    code, output = run(*args)
    assert code == 1, output
    # each rendering equals the rendered output migrated for the release it was rendered at
    assert "K8SM-TPL-013 helm proves it" in output and "K8SM-TPL-012" not in output
    assert api_versions(helm, folder, "1.20.0") == ["policy/v1beta1"]
    assert api_versions(helm, folder, "1.21.0") == ["policy/v1"]
    assert api_versions(helm, folder, "1.29.0") == ["policy/v1"]


def test_helm_renders_a_valid_hpa_before_and_from_1_23(helm: str, tmp_path: Path) -> None:
    import kubernetes_validate

    folder = chart(tmp_path / "p", {"hpa.yaml": HPA_V2BETA1})
    code, output = run("apply", "--in-place", "--verify-render", "--set", "api-branches=write", *WINDOW, str(folder))
    assert code == 1 and "K8SM-TPL-012" not in output, output
    for release, api in (("1.22.0", "autoscaling/v2beta2"), ("1.23.0", "autoscaling/v2"), ("1.29.0", "autoscaling/v2")):
        out = subprocess.run(
            [helm, "template", "r", str(folder), "--kube-version", release], capture_output=True, text=True, check=True
        ).stdout
        [hpa] = [d for d in yaml.safe_load_all(out) if d]
        assert hpa["apiVersion"] == api
        # the oldest schema kubernetes-validate has is 1.25, the last release serving v2beta2
        kubernetes_validate.validate(hpa, "1.25.0", strict=True)
