"""Spec: exit codes and counts agree across commands and outputs (issue 14, item 21).

One policy (``k8smigrate.exits``, the table in docs/usage.md): 0 nothing to change, 1 a
migration changes or would change a document, 3 something needs a human (wins), and
``--fail-on deprecated`` makes warnings 1 too. ``scan`` answers as ``apply --check`` would
for the same files and settings, so a CI job gets the same answer from either. The counts a
run prints agree with the rows above them and with its SARIF and JSON reports.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate.cli import app

CRONJOB = """\
apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: job
            image: busybox
"""
PSP = "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: restricted\nspec: {}\n"
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata: {}\n"
WEBHOOK = """\
apiVersion: admissionregistration.k8s.io/v1beta1
kind: ValidatingWebhookConfiguration
metadata:
  name: hook
webhooks:
- name: hook.example.com
  clientConfig:
    service: {name: hook, namespace: default}
"""
DOCKER_SOCKET = """\
apiVersion: v1
kind: Pod
metadata:
  name: builder
spec:
  containers:
  - name: b
    image: docker
  volumes:
  - name: sock
    hostPath:
      path: /var/run/docker.sock
"""
TOLERATE = """\
apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
    service.alpha.kubernetes.io/tolerate-unready-endpoints: "true"
spec:
  ports:
  - port: 80
"""


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner()


CASES = [
    pytest.param(CONFIGMAP, "1.29", [], 0, id="clean"),
    pytest.param(CRONJOB, "1.22", [], 1, id="cronjob-deprecated-that-apply-migrates"),
    pytest.param(PSP, "1.21", [], 0, id="psp-deprecated-nothing-migrates"),
    pytest.param(PSP, "1.21", ["--fail-on", "deprecated"], 1, id="psp-deprecated-fail-on-deprecated"),
    pytest.param(PSP, "1.29", [], 3, id="psp-removed-needs-a-human"),
    pytest.param(PSP, "1.29", ["--fail-on", "never"], 3, id="psp-removed-fail-on-never"),
    pytest.param(CRONJOB, "1.22", ["--fail-on", "never"], 0, id="cronjob-fail-on-never"),
    pytest.param(CRONJOB, "1.22", ["--exit-zero"], 0, id="cronjob-exit-zero"),
    pytest.param(WEBHOOK, "1.22", [], 3, id="webhook-decision-not-given"),
    pytest.param(WEBHOOK, "1.22", ["--set", "sideEffects=None"], 1, id="webhook-decision-given"),
    pytest.param(DOCKER_SOCKET, "1.24", [], 0, id="readiness-warning"),
    pytest.param(DOCKER_SOCKET, "1.24", ["--fail-on", "deprecated"], 1, id="readiness-warning-fail-on-deprecated"),
    pytest.param("a: [\n", "1.29", [], 3, id="invalid-yaml"),
]


@pytest.mark.parametrize(("text", "target", "extra", "code"), CASES)
def test_scan_diff_and_apply_check_give_the_same_exit_code(
    runner: CliRunner, text: str, target: str, extra: list[str], code: int
) -> None:
    Path("m.yaml").write_text(text)
    for command in (["scan"], ["diff"], ["apply", "--check"]):
        result = runner.invoke(app, [*command, "m.yaml", "--target-version", target, *extra])
        assert result.exit_code == code, (command, result.stdout, result.stderr)
    assert Path("m.yaml").read_text() == text


def test_an_info_row_is_counted_as_info_not_as_breaking(runner: CliRunner) -> None:
    Path("svc.yaml").write_text(TOLERATE)
    result = runner.invoke(app, ["scan", "svc.yaml", "--target-version", "1.29"])
    (row,) = result.stdout.splitlines()
    assert ": info K8SM-" in row
    assert "; 0 errors, 0 warnings, 1 info; 1 fixable by apply, 0 need a human" in result.stderr


def test_scan_summary_rows_sarif_and_json_count_the_same(runner: CliRunner) -> None:
    Path("a.yaml").write_text(PSP + "---\n" + CRONJOB + "---\n" + DOCKER_SOCKET + "---\n" + TOLERATE)
    Path("bad.yaml").write_text("a: [\n")
    args = ["scan", ".", "--target-version", "1.29"]
    text = runner.invoke(app, args)
    report = json.loads(runner.invoke(app, [*args, "--format", "json"]).stdout)
    sarif = json.loads(runner.invoke(app, [*args, "--format", "sarif"]).stdout)
    rows = report["scan"]
    assert len(text.stdout.splitlines()) == len(rows) == 4
    levels = Counter(r["level"] for r in rows) + Counter({"error": 1})  # bad.yaml: a finding of the run, not a row
    assert levels == Counter({"error": 3, "warning": 1, "info": 1})
    assert text.stderr.splitlines()[-1] == (
        "2 files scanned: 2 documents on removed APIs, 0 on deprecated APIs, 2 readiness findings; "
        "3 errors, 1 warning, 1 info; 2 fixable by apply, 2 need a human"
    )
    assert Counter(r["action"] for r in rows) == Counter({"apply": 2, "human": 1, "": 1})
    assert Counter(r["level"] for r in sarif["runs"][0]["results"]) == Counter({"error": 3, "warning": 1, "note": 1})
    assert report["summary"]["findings"] == {"error": 3, "warning": 1, "info": 1}
    assert report["summary"]["exitCode"] == text.exit_code == 3
    assert "needs a human (2):" in text.stderr


def test_diff_summary_and_reports_agree(runner: CliRunner) -> None:
    Path("a.yaml").write_text(PSP + "---\n" + CRONJOB)
    args = ["diff", "a.yaml", "--target-version", "1.29"]
    text = runner.invoke(app, args)
    report = json.loads(runner.invoke(app, [*args, "--format", "json"]).stdout)
    sarif = json.loads(runner.invoke(app, [*args, "--format", "sarif"]).stdout)
    found = report["summary"]["findings"]
    assert text.stderr.splitlines()[-1] == (
        f"1 file, 1 would change, {found['error']} error{'' if found['error'] == 1 else 's'}, "
        f"{found['warning']} warning{'' if found['warning'] == 1 else 's'}, {found['info']} info"
    )
    assert sum(found.values()) == len(sarif["runs"][0]["results"])
    assert report["summary"]["exitCode"] == text.exit_code == 3
