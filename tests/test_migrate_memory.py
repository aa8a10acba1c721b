"""Spec: a text ``apply --check``, ``apply --in-place`` or ``diff`` keeps what its report names,
not every file and document (its memory must not grow with the files that need nothing).

A file that reports nothing (unchanged, no finding) is counted, not kept; of the files kept, the
documents kept are those changed and those a finding is about. The reports print the same
bytes, and every other format (JSON, markdown, SARIF) still lists every file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import cli, commands
from k8smigrate.api import migrate_text
from k8smigrate.registry import check_settings, default_registry
from k8smigrate.settings import Settings
from tests.test_exit_policy import WEBHOOK
from tests.test_scan_memory import CLEAN, CRONJOB


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for i in range(5):
        (tmp_path / f"c{i}.yaml").write_text(CLEAN.format(i=i))
    # one changed document among unchanged ones, and a file of one unchanged document with an error
    (tmp_path / "job.yaml").write_text(CLEAN.format(i=9) + "---\n" + CRONJOB + "---\n" + CLEAN.format(i=8))
    (tmp_path / "hook.yaml").write_text(WEBHOOK)
    return tmp_path


def _migrate(repo: Path, keep: str) -> tuple[list[commands.FileOutcome], int | None]:
    settings = check_settings(Settings(target_version="1.29"), default_registry())
    return commands._migrate([str(repo)], settings, in_place=False, jobs=1, keep=keep)


# ------------------------------------------------------------------ a report keeps every file


def test_a_report_keeps_every_file_and_document(repo: Path) -> None:
    outcomes, files = _migrate(repo, "all")
    assert files is None and len(outcomes) == 7
    job = next(o for o in outcomes if o.path.name == "job.yaml")
    assert job.result is not None and len(job.result.documents) == 3


def test_a_json_report_lists_every_file(repo: Path) -> None:
    result = CliRunner().invoke(
        cli.app, ["apply", "--check", str(repo), "--target-version", "1.29", "--format", "json"]
    )
    assert len(json.loads(result.stdout)["files"]) == 7


# ------------------------------------------------------------------ a text run keeps what it names


@pytest.mark.parametrize("keep", ["none", "diff"])
def test_a_text_run_keeps_only_the_files_that_report_something(repo: Path, keep: str) -> None:
    outcomes, files = _migrate(repo, keep)
    assert sorted(o.path.name for o in outcomes) == ["hook.yaml", "job.yaml"]
    assert files == 7


def test_a_kept_file_keeps_its_changed_documents_and_those_with_findings(repo: Path) -> None:
    outcomes, _ = _migrate(repo, "none")
    job, hook = (next(o for o in outcomes if o.path.name == name) for name in ("job.yaml", "hook.yaml"))
    assert job.result is not None and [d.index for d in job.result.documents] == [1]  # the CronJob
    assert hook.result is not None and not hook.result.changed  # it needs a human: an error, no change
    assert [d.index for d in hook.result.documents] == [0]


def test_slim_keeps_the_change_and_the_documents_a_finding_names() -> None:
    result = migrate_text(CLEAN.format(i=1) + "---\n" + CRONJOB + "---\n" + WEBHOOK, target_version="1.29")
    assert [d.index for d in result.documents] == [0, 1, 2]
    result.slim(keep_diff=True)
    assert [d.index for d in result.documents] == [1, 2]  # the CronJob changed, the webhook has an error
    assert result.changed and result.diff.startswith("---")


@pytest.mark.parametrize("command", [["apply", "--check"], ["diff"]])
def test_the_summary_counts_every_file(repo: Path, command: list[str]) -> None:
    result = CliRunner().invoke(cli.app, [*command, str(repo), "--target-version", "1.29"])
    assert result.stderr.splitlines()[-1].startswith("7 files, 1 would change")
    assert "doc 1 CronJob job: batch/v1beta1 → batch/v1" in result.stderr
    assert "doc 0 ValidatingWebhookConfiguration hook: K8SM-GEN-010" in result.stderr  # named by its document


def test_an_in_place_run_counts_every_file_and_lists_what_it_wrote(repo: Path) -> None:
    result = CliRunner().invoke(cli.app, ["apply", "--in-place", str(repo), "--target-version", "1.29"])
    assert result.stderr.splitlines()[-1].startswith("7 files, 1 written")
    assert "batch/v1\n" in (repo / "job.yaml").read_text()
