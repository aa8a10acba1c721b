"""Fields written only where the cluster lists a removed API (jenkins' ``priorityClassName``).

No-op cases first (an API still served, a whole document kept for old releases, an ``else``
that writes the alternative, an API the tables never knew, a target before the removal), then
the warning, from ``apply`` and ``scan`` alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .templating_helpers import run_cli, write_chart

POD = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      {{- if and (.Capabilities.APIVersions.Has "THE_API") (.Values.priorityClassName) }}
      priorityClassName: {{ .Values.priorityClassName }}
      {{- end }}
      containers:
      - name: web
        image: web:1
"""
VALUES = "priorityClassName: high\n"


def _run(folder: Path, *command: str, target: str = "1.29") -> tuple[int, str]:
    return run_cli(*command, "--target-version", target, str(folder))


@pytest.mark.parametrize("api", ["scheduling.k8s.io/v1", "batch/v1alpha1", "monitoring.coreos.com/v1"])
def test_a_condition_on_a_served_or_unknown_api_is_no_finding(tmp_path: Path, api: str) -> None:
    folder = write_chart(tmp_path / "c", {"deployment.yaml": POD.replace("THE_API", api)}, VALUES)
    code, output = _run(folder, "apply", "--check")
    assert code == 0, output
    assert "K8SM-TPL-019" not in output


def test_a_target_before_the_removal_is_no_finding(tmp_path: Path) -> None:
    folder = write_chart(
        tmp_path / "c", {"deployment.yaml": POD.replace("THE_API", "scheduling.k8s.io/v1beta1")}, VALUES
    )
    code, output = _run(folder, "apply", "--check", target="1.21")
    assert code == 0, output
    assert "K8SM-TPL-019" not in output


def test_a_whole_document_kept_for_old_releases_is_what_the_condition_is_for(tmp_path: Path) -> None:
    psp = '{{- if .Capabilities.APIVersions.Has "policy/v1beta1" }}\napiVersion: policy/v1beta1\n'
    psp += "kind: PodSecurityPolicy\nmetadata:\n  name: x\nspec:\n  privileged: false\n{{- end }}\n"
    folder = write_chart(tmp_path / "c", {"psp.yaml": psp})
    _code, output = _run(folder, "scan")
    assert "K8SM-TPL-019" not in output


def test_an_else_that_writes_the_alternative_is_no_finding(tmp_path: Path) -> None:
    template = POD.replace("THE_API", "scheduling.k8s.io/v1beta1").replace(
        "      {{- end }}\n", "      {{- else }}\n      priorityClassName: low\n      {{- end }}\n"
    )
    folder = write_chart(tmp_path / "c", {"deployment.yaml": template}, VALUES)
    code, output = _run(folder, "apply", "--check")
    assert code == 0, output
    assert "K8SM-TPL-019" not in output


@pytest.mark.parametrize(
    ("api", "instead"),
    [
        ("scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1"),
        ("scheduling.k8s.io/v1beta1/PriorityClass", "scheduling.k8s.io/v1/PriorityClass"),
    ],
)
def test_a_field_under_a_removed_api_condition_is_a_warning(tmp_path: Path, api: str, instead: str) -> None:
    folder = write_chart(tmp_path / "c", {"deployment.yaml": POD.replace("THE_API", api)}, VALUES)
    for command in (["apply", "--check"], ["scan"]):
        code, output = _run(folder, *command)
        assert code == 0, output  # a warning: the template is left as written
        assert "deployment.yaml:12: warning K8SM-TPL-019" in output, output
        assert f"asks for {api}, which Kubernetes removed in 1.22" in output
        assert "(line 13)" in output and f"ask for {instead} instead" in output
