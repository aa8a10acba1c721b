"""Spec: a setting's type is checked once, the same way for a config file and the library (issue 14, item 15).

TOML reads an unquoted ``target-version = 1.30`` as the number 1.3, and ``"false"`` is a
non-empty string: both used to change what a run did without a word. A name where a list
is expected is one name, never its characters. A ``pyproject.toml`` in a parent folder that
is not UTF-8 belongs to another tool unless it names ``tool.k8smigrate``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import k8smigrate
from k8smigrate.cli import app
from k8smigrate.settings import Settings, SettingsError, find_config

INGRESS = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec: {}\n"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    Path("web.yaml").write_text(INGRESS)
    return CliRunner()


# ------------------------------------------------------------------ what is accepted


def test_a_name_is_one_name_and_strings_stay_strings() -> None:
    assert Settings(only="ingress_networking_v1beta1").only == ("ingress_networking_v1beta1",)
    assert Settings(skip=["a", "b"]).skip == ("a", "b")
    assert Settings(target_version="1.30").target_version == "1.30"


def test_a_quoted_config_is_read(runner: CliRunner) -> None:
    Path(".k8smigrate.toml").write_text('target-version = "1.30"\nskip = "rbac_v1beta1"\n')
    result = runner.invoke(app, ["diff", "web.yaml"])
    assert result.exit_code == 1, result.stderr
    assert result.stderr.startswith("k8smigrate: target 1.30; settings from ")


def test_another_tools_pyproject_that_is_not_utf8_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.other]\nname = "caf\xe9"\n')
    (tmp_path / "sub").mkdir()
    assert find_config(tmp_path / "sub") is None


# ------------------------------------------------------------------ what is refused, with the spelling used


@pytest.mark.parametrize(
    ("config", "message"),
    [
        pytest.param(
            "target-version = 1.30\n",
            "target-version = 1.30 is a number (as a number, 1.30 is 1.3: 1.30 would be 1.3); "
            'write the release as a string: target-version = "1.30"',
            id="unquoted-release",
        ),
        pytest.param(
            'target-version = "1.30"\nadopt-new-defaults = "false"\n',
            'adopt-new-defaults = "false" is a string; write adopt-new-defaults = true or adopt-new-defaults = false',
            id="quoted-boolean",
        ),
        pytest.param('target-version = "1.30"\nonly = 5\n', "only = 5 is an integer; give a migration name", id="int"),
        pytest.param(
            'target-version = "1.30"\n[decisions]\nsideEffects = 1\n',
            "[decisions]: sideEffects = 1 is an integer",
            id="decision-int",
        ),
    ],
)
def test_a_config_value_of_the_wrong_type_is_a_usage_error(runner: CliRunner, config: str, message: str) -> None:
    Path(".k8smigrate.toml").write_text(config)
    result = runner.invoke(app, ["diff", "web.yaml"])
    assert result.exit_code == 2
    assert ".k8smigrate.toml: " in result.stderr and message in result.stderr, result.stderr


def test_our_pyproject_that_is_not_utf8_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.k8smigrate]\ntarget-version = "1.30"\n# caf\xe9\n')
    with pytest.raises(SettingsError, match="not UTF-8"):
        find_config(tmp_path)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target_version": 1.3}, "target_version=1.3 is a float"),
        ({"only": 5}, "only=5 is a int"),
        ({"adopt_new_defaults": "false"}, "adopt_new_defaults='false' is a str"),
        ({"decisions": ["sideEffects"]}, "decisions must be a dict"),
        ({"only": ["ingres_typo"]}, "unknown migration 'ingres_typo'"),
        ({"skip": "nope"}, "unknown migration 'nope'"),
    ],
)
def test_the_library_refuses_the_same(kwargs: dict[str, object], message: str, tmp_path: Path) -> None:
    path = tmp_path / "web.yaml"
    path.write_text(INGRESS)
    calls = [
        lambda: k8smigrate.migrate_text(INGRESS, **kwargs),  # type: ignore[arg-type]
        lambda: k8smigrate.scan_text(INGRESS, **{k: v for k, v in kwargs.items() if k != "adopt_new_defaults"}),  # type: ignore[arg-type]
        lambda: k8smigrate.migrate_file(path, **kwargs),  # type: ignore[arg-type]
        lambda: list(k8smigrate.migrate_paths(path, **kwargs)),  # type: ignore[arg-type]
    ]
    for call in calls if "adopt_new_defaults" not in kwargs else [calls[0], calls[2], calls[3]]:
        with pytest.raises(SettingsError, match=message.replace("[", r"\[")):
            call()
    assert path.read_text() == INGRESS
