"""Spec: what needs a human is listed once, with the exact action; ``--quiet``/``--min-level`` (issue 14, item 22).

Every error and every decision of a run ends the text output (stderr) and the Markdown
report in a "needs a human" section: the place, the document, the code and what to do, the
exact ``--set NAME=A|B`` where a decision settles it. ``scan`` says when a migration needs a
decision (``[k8smigrate: NAME after --set …]``) instead of ``[manual]``. ``--min-level`` and
``--quiet`` choose what is printed, never what is counted or reported in JSON/SARIF.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import scan_text
from k8smigrate.cli import app
from tests.test_exit_policy import CRONJOB, DOCKER_SOCKET, PSP, TOLERATE, WEBHOOK

ALL = "---\n".join([WEBHOOK, PSP, CRONJOB, DOCKER_SOCKET, TOLERATE])
SET = "--set sideEffects=None|NoneOnDryRun"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text(ALL)
    return CliRunner()


def _section(stderr: str) -> list[str]:
    lines = stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("needs a human ("))
    return lines[start:-1]


# ------------------------------------------------------------------ nothing to do: no section


def test_a_clean_run_has_no_section(runner: CliRunner) -> None:
    Path("a.yaml").write_text(CRONJOB)
    for command in ("scan", "diff"):
        result = runner.invoke(app, [command, "a.yaml", "--target-version", "1.29"])
        assert "needs a human (" not in result.stderr
        assert (
            "Needs a human"
            not in runner.invoke(app, [command, "a.yaml", "--target-version", "1.29", "--format", "markdown"]).stdout
        )


# ------------------------------------------------------------------ the section


CRD = """apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: widgets.{group}
spec:
  group: {group}
  version: v1
  names:
    plural: widgets
    kind: Widget
  scope: Namespaced
"""


def test_scan_asks_for_api_approval_only_for_a_protected_group(monkeypatch: pytest.MonkeyPatch) -> None:
    (plain,) = scan_text(CRD.format(group="example.com"), target_version="1.29")
    assert plain.decisions == () and plain.action != "human"
    (protected,) = scan_text(CRD.format(group="widgets.k8s.io"), target_version="1.29")
    assert protected.decisions == ("apiApproved=unapproved",)
    # Outside a protected group scan does not run the CRD migration to learn that (its schema
    # conversion is most of a scan's time on CRDs): the decision's text hint rules it out.
    import k8smigrate.scan as scan_module

    def no_migration(*args: object, **kwargs: object) -> None:
        raise AssertionError("the step ran")

    monkeypatch.setattr(scan_module, "migrate_stream", no_migration)
    (again,) = scan_text(CRD.format(group="example.com"), target_version="1.29")
    assert again.decisions == ()


def test_scan_does_not_run_the_ingress_migration_for_a_decision_only_templates_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ingress = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n"
    import k8smigrate.scan as scan_module

    def no_migration(*args: object, **kwargs: object) -> None:
        raise AssertionError("the step ran to learn its decisions")

    monkeypatch.setattr(scan_module, "_decisions_asked", no_migration)
    (row,) = scan_text(ingress, target_version="1.29")
    assert row.action == "apply" and row.decisions == ()


@pytest.mark.parametrize(
    "spelling",
    [
        "group: widgets.k8s.io",
        'group: "widgets.kubernetes.io"',
        "group: 'k8s.io'",
        '"group": "x.k8s.io"',
        "group:   apps.kubernetes.io   # protected",
    ],
)
def test_the_api_approval_hint_matches_every_spelling_of_a_protected_group(spelling: str) -> None:
    from k8smigrate.registry import default_registry

    (decision,) = [d for d in default_registry().get("apiextensions_v1beta1").decisions if d.name == "apiApproved"]  # type: ignore[union-attr]
    assert decision.may_ask(spelling)
    assert not decision.may_ask(spelling.replace("k8s.io", "example.com").replace("kubernetes.io", "example.com"))


def test_scan_names_the_decision_a_migration_needs_instead_of_manual() -> None:
    (row,) = scan_text(WEBHOOK, target_version="1.29")
    assert row.action == "human" and row.decisions == ("sideEffects=None|NoneOnDryRun",)
    assert row.format().endswith(f"[k8smigrate: admissionregistration_v1beta1 after {SET}]")
    (given,) = scan_text(WEBHOOK, target_version="1.29", decisions={"sideEffects": "None"})
    assert given.action == "apply" and given.decisions == ()


def test_scan_lists_every_error_and_decision_with_its_action(runner: CliRunner) -> None:
    result = runner.invoke(app, ["scan", "a.yaml", "--target-version", "1.29"])
    assert result.exit_code == 3
    section = _section(result.stderr)
    assert section[0] == "needs a human (2):"
    assert section[1] == (
        f"  a.yaml:1: doc 0 ValidatingWebhookConfiguration hook: K8SM-GEN-007 {SET} "
        "(then admissionregistration_v1beta1 migrates it)"
    )
    assert section[2].startswith("  a.yaml:10: doc 1 PodSecurityPolicy restricted: K8SM-GEN-007 policy/v1beta1 ")
    assert section[3] == f"  decide with: {SET}"


def test_diff_lists_the_same_items(runner: CliRunner) -> None:
    result = runner.invoke(app, ["diff", "a.yaml", "--target-version", "1.29"])
    section = _section(result.stderr)
    assert section[1] == f"  a.yaml:6: doc 0 ValidatingWebhookConfiguration hook: K8SM-GEN-010 {SET}"
    assert section[2].startswith("  a.yaml:10: doc 1 PodSecurityPolicy restricted: K8SM-GEN-007 ")
    assert len(section) == 4


@pytest.mark.parametrize("command", ["scan", "diff"])
def test_markdown_has_the_section(runner: CliRunner, command: str) -> None:
    markdown = runner.invoke(app, [command, "a.yaml", "--target-version", "1.29", "--format", "markdown"]).stdout
    table = markdown[markdown.index("#### Needs a human") :]
    assert "| Where | Document | Code | What to do |" in table
    assert "--set sideEffects=None\\|NoneOnDryRun" in table
    assert "| doc 1 PodSecurityPolicy restricted | K8SM-GEN-007 |" in table


# ------------------------------------------------------------------ what is printed, not what is counted


def test_quiet_prints_errors_the_section_and_the_summary_only(runner: CliRunner) -> None:
    full = runner.invoke(app, ["scan", "a.yaml", "--target-version", "1.29"])
    quiet = runner.invoke(app, ["scan", "a.yaml", "--target-version", "1.29", "--quiet"])
    assert quiet.exit_code == full.exit_code == 3
    assert len(full.stdout.splitlines()) == 5
    assert [line.split(":")[1] for line in quiet.stdout.splitlines()] == ["1", "10", "16"]  # the error rows
    assert not quiet.stderr.startswith("k8smigrate: target")  # the settings line is left out
    assert _section(quiet.stderr) == _section(full.stderr)
    assert quiet.stderr.splitlines()[-1] == full.stderr.splitlines()[-1]  # the counts do not change


def test_min_level_filters_findings_and_rows_not_reports(runner: CliRunner) -> None:
    args = ["diff", "a.yaml", "--target-version", "1.29"]
    warned = runner.invoke(app, [*args, "--min-level", "warning"]).stderr
    assert "K8SM-CRI-008" in warned and "K8SM-FLD-015" not in warned
    assert "K8SM-FLD-015" in runner.invoke(app, args).stderr
    report = json.loads(runner.invoke(app, [*args, "--min-level", "error", "--format", "json"]).stdout)
    assert report["summary"]["findings"] == {"info": 1, "warning": 1, "error": 2}
    markdown = runner.invoke(app, [*args, "--min-level", "error", "--format", "markdown"]).stdout
    assert "K8SM-CRI-008" not in markdown and "Findings: 2 errors, 1 warning, 1 info." in markdown
