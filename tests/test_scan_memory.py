"""Spec: a text ``scan`` keeps nothing for the files that need nothing (issue 19: its memory must
not grow with the number of files); it still counts them, and every other format lists them all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import cli, commands
from k8smigrate.registry import check_settings, default_registry
from k8smigrate.settings import Settings
from tests.test_exit_policy import WEBHOOK

CLEAN = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n"
CRONJOB = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: job\nspec:\n  schedule: '* * * * *'\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for i in range(5):
        (tmp_path / f"c{i}.yaml").write_text(CLEAN.format(i=i))
    (tmp_path / "job.yaml").write_text(CRONJOB)
    return tmp_path


def _run(repo: Path, every_file: bool) -> commands.Run:
    settings = check_settings(Settings(target_version="1.29"), default_registry())
    run = commands._new_run("scan", settings, None)
    run.scan = commands._scan([str(repo)], settings, run, 1, every_file=every_file)
    return run


def test_the_text_scan_keeps_only_the_files_that_report_something(repo: Path) -> None:
    run = _run(repo, every_file=False)
    assert [o.path.name for o in run.outcomes] == ["job.yaml"]
    assert run.file_count == 6


def test_a_report_lists_every_file(repo: Path) -> None:
    run = _run(repo, every_file=True)
    assert len(run.outcomes) == run.file_count == 6


def test_the_summary_counts_every_file(repo: Path) -> None:
    text = CliRunner().invoke(cli.app, ["scan", str(repo), "--target-version", "1.29"])
    assert text.stderr.splitlines()[-1].startswith("6 files scanned: 1 document on removed APIs")
    report = CliRunner().invoke(cli.app, ["scan", str(repo), "--target-version", "1.29", "--format", "json"])
    assert json.loads(report.stdout)["summary"]["files"] == 6


# -- rows printed as they come (stdout is not a terminal): the same output, fewer rows kept


@pytest.mark.parametrize("options", [[], ["--min-level", "warning"], ["--quiet"], ["--fail-on", "deprecated"]])
def test_printing_rows_as_they_come_changes_no_byte_and_no_exit_code(
    repo: Path, options: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "hook.yaml").write_text(WEBHOOK)  # a row that needs a human: listed again at the end
    args = ["scan", str(repo), "--target-version", "1.29", *options]
    streamed = CliRunner().invoke(cli.app, args)
    monkeypatch.setattr(commands, "_RowPrinter", lambda *a: None)  # rows kept, printed at the end
    buffered = CliRunner().invoke(cli.app, args)
    assert "K8SM-GEN-007 --set sideEffects" in streamed.stderr
    assert (streamed.stdout, streamed.stderr, streamed.exit_code) == (
        buffered.stdout,
        buffered.stderr,
        buffered.exit_code,
    )


def test_a_streamed_scan_keeps_only_the_rows_a_human_must_act_on(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "hook.yaml").write_text(WEBHOOK)
    settings = check_settings(Settings(target_version="1.29"), default_registry())
    run = commands._new_run("scan", settings, None)
    printed: list[str] = []
    printer = commands._RowPrinter(False, commands.Shown("info", False))
    monkeypatch.setattr(commands, "_write_stdout", printed.append)
    run.scan = commands._scan([str(repo)], settings, run, 1, every_file=False, rows=printer)
    assert len(printed) == 2  # the CronJob's row and the webhook's, each when its file came
    assert [e.kind for e in run.scan] == ["ValidatingWebhookConfiguration"]  # only what needs a human
    assert (printer.counts.removed, printer.counts.fixable, printer.counts.human) == (2, 1, 1)
