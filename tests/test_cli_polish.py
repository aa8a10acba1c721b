"""Spec: what a user reads from ``--help``, ``list`` and ``explain`` (issue 14, item 24).

Help shows metavars people write (``PATH...``, ``X.Y``, ``NAME``, ``N``), not Python types
(``<list[str]>``, ``<int range>``, ``{paths}...``); a bad ``--format`` says which values are
allowed; ``list`` is two aligned tables fitted to the terminal; every migration name is a
module name with underscores (``kubelet-conf-rotation`` is an accepted, deprecated alias);
``explain`` prints Markdown literals and suggests names for a kind or a typo; docs/usage.md
lists ``--exit-zero``.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

import k8smigrate
from k8smigrate.cli import app
from k8smigrate.registry import default_registry
from tests.test_kubelet_conf_rotation import KUBELET_CONF

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("command", [[], ["scan"], ["diff"], ["apply"], ["list"], ["explain"]])
def test_help_shows_metavars_not_python_types(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for leak in ("<list[str]>", "<bool>", "<int range>", "{paths}", "x>=0", "<path>", "<text>"):
        assert leak not in result.stdout, (command, leak)
    if command in (["scan"], ["diff"], ["apply"]):
        assert re.search(rf"Usage: \S+ {command[0]} \[OPTIONS\] PATH\.\.\. *\n", result.stdout)
        assert "--target-version" in result.stdout and "X.Y" in result.stdout


def test_a_bad_format_names_the_values() -> None:
    result = CliRunner().invoke(app, ["scan", ".", "--format", "yaml"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "'yaml' is not one of 'text', 'json', 'markdown', 'sarif'" in result.stderr


def test_list_is_aligned_and_fits_the_terminal() -> None:
    out = CliRunner().invoke(app, ["list"], env={"COLUMNS": "120"}).stdout
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 120
    assert lines[0].startswith("# kubernetes")
    header = lines[1]
    assert header.split() == ["STEP", "DEPRECATED", "REMOVED", "APIVERSION", "→", "NEW", "KINDS"]
    column = header.index("REMOVED")
    rows = [line for line in lines[2 : lines.index("")] if not line.startswith(" ")]
    assert all(line[column - 2 : column] == "  " and line[column] != " " for line in rows)
    unbounded = CliRunner().invoke(app, ["list"], env={"COLUMNS": ""}).stdout
    assert "MutatingWebhookConfiguration, ValidatingWebhookConfiguration" in unbounded


def test_every_migration_name_uses_underscores() -> None:
    assert [n for n in default_registry().names() if "-" in n] == []


def test_the_old_hyphenated_name_still_selects_the_check_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "kubelet.conf.yaml").write_text(KUBELET_CONF)
    runner = CliRunner()
    args = ["diff", str(tmp_path / "kubelet.conf.yaml"), "--target-version", "1.29"]
    new = runner.invoke(app, [*args, "--only", "kubelet_conf_rotation"])
    old = runner.invoke(app, [*args, "--only", "kubelet-conf-rotation"])
    assert new.exit_code == old.exit_code == 1
    assert old.stdout == new.stdout
    assert "warning: migration name 'kubelet-conf-rotation' is deprecated; use 'kubelet_conf_rotation'" in old.stderr
    skipped = runner.invoke(app, [*args, "--only", "kubelet_conf_rotation", "--skip", "kubelet-conf-rotation"])
    assert skipped.stdout == ""
    explained = runner.invoke(app, ["explain", "kubelet-conf-rotation"])
    assert explained.exit_code == 0 and explained.stdout.startswith("kubelet_conf_rotation: ")
    with pytest.warns(DeprecationWarning, match="kubelet-conf-rotation"):
        result = k8smigrate.migrate_text(KUBELET_CONF, target_version="1.29", only=["kubelet-conf-rotation"])
    assert result.changed
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        k8smigrate.migrate_text(KUBELET_CONF, target_version="1.29", only=["kubelet_conf_rotation"])


def test_explain_prints_markdown_literals() -> None:
    out = CliRunner().invoke(app, ["explain", "ingress_networking_v1beta1"]).stdout
    assert "``" not in out and "`" in out


@pytest.mark.parametrize("word", ["Ingress", "ingres", "ingress-networking-v1beta1"])
def test_explain_suggests_names(word: str) -> None:
    result = CliRunner().invoke(app, ["explain", word])
    assert result.exit_code == 2
    assert f"unknown migration {word!r} (did you mean " in result.stderr
    assert "ingress_networking_v1beta1" in result.stderr


def test_usage_lists_exit_zero() -> None:
    usage = (ROOT / "docs" / "usage.md").read_text()
    options = usage[usage.index("## Options") :]
    assert "| `--exit-zero` |" in options
    assert "| `--quiet`, `-q` |" in options and "| `--min-level " in options
