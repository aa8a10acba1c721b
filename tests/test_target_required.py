"""Spec: the rewriting commands never guess the target release (issue 14, item 20).

``diff`` and ``apply`` rewrite for one release; a default (the newest one k8smigrate knows)
would silently rewrite for a cluster nobody runs. Without ``--target-version`` or a config
file giving it they exit 2 with a message naming the flag, before reading anything. ``scan``
only reports, so it still defaults to the newest release and says so. A target newer than
the newest known release is a warning naming that release.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate.cli import app
from k8smigrate.versions import NEWEST_KNOWN

INGRESS = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec: {}\n"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    Path("web.yaml").write_text(INGRESS)
    return CliRunner()


def test_with_a_target_they_run(runner: CliRunner) -> None:
    for args in (["diff", "web.yaml"], ["apply", "--check", "web.yaml"], ["apply", "web.yaml"]):
        result = runner.invoke(app, [*args, "--target-version", "1.22"])
        assert result.exit_code == 1, result.stderr
        assert result.stderr.startswith("k8smigrate: target 1.22\n")


def test_a_config_file_gives_the_target(runner: CliRunner) -> None:
    Path(".k8smigrate.toml").write_text('target-version = "1.22"\n')
    assert runner.invoke(app, ["diff", "web.yaml"]).exit_code == 1


def test_scan_defaults_to_the_newest_known_release_and_says_so(runner: CliRunner) -> None:
    result = runner.invoke(app, ["scan", "web.yaml"])
    assert result.exit_code == 1
    assert f"no --target-version given: the newest release k8smigrate knows, {NEWEST_KNOWN}" in result.stderr


@pytest.mark.parametrize(
    "args", [["diff", "web.yaml"], ["apply", "web.yaml"], ["apply", "--in-place", "web.yaml"], ["diff", "-"]]
)
def test_diff_and_apply_without_a_target_exit_2_naming_the_flag(runner: CliRunner, args: list[str]) -> None:
    result = runner.invoke(app, args, input=INGRESS)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"k8smigrate: {args[0]} needs --target-version X.Y" in result.stderr
    assert Path("web.yaml").read_text() == INGRESS


def test_a_target_newer_than_the_newest_known_release_is_a_warning(runner: CliRunner) -> None:
    newer = f"{NEWEST_KNOWN.major}.{NEWEST_KNOWN.minor + 1}"
    result = runner.invoke(app, ["diff", "web.yaml", "--target-version", newer])
    assert result.exit_code == 1
    assert f"k8smigrate: warning: target {newer} is newer than {NEWEST_KNOWN}, the newest release" in result.stderr
    same = runner.invoke(app, ["diff", "web.yaml", "--target-version", str(NEWEST_KNOWN)])
    assert "warning: target" not in same.stderr
