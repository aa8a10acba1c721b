"""The README opens with the two commands a fresh machine runs; the first one must work."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from typer.testing import CliRunner

from k8smigrate.cli import app

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("```sh")
    return lines[start + 1 : start + 3]


def test_readme_opens_with_the_two_commands() -> None:
    run, test = _commands()
    assert "pip install" in run and "k8smigrate" in run and "examples/" in run
    assert "pip install" in test and "'.[test]'" in test and "pytest" in test
    assert "python -m pytest -q" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_main_job_on_the_examples_exits_zero_with_a_diff() -> None:
    main = _commands()[0].split("&&")[-1]
    args = shlex.split(main)[1:]  # drop the .venv/bin/k8smigrate program name
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(app, args)
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    assert "+apiVersion: networking.k8s.io/v1" in result.stdout
    assert "+      - key: node-role.kubernetes.io/control-plane  # run on control-plane nodes too" in result.stdout
    assert "examples/services.yaml" not in result.stdout
