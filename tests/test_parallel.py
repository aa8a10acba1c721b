"""Spec: --jobs spreads files over processes and prints exactly what a serial run prints."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate.cli import app
from k8smigrate.parallel import SERIAL_BELOW

INGRESS = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web{i}\nspec:\n  backend:\n    serviceName: web\n    servicePort: {port}\n"
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for i in range(SERIAL_BELOW * 2):
        # every fifth file needs a human (port 0), the others migrate or stay
        text = INGRESS.format(i=i, port=0 if i % 5 == 0 else 80) if i % 2 else CONFIGMAP.format(i=i)
        (tmp_path / f"m{i:03d}.yaml").write_text(text)
    return tmp_path


@pytest.mark.parametrize("command", [["diff"], ["apply", "--check"], ["diff", "--format", "json"]])
def test_parallel_output_is_identical_to_serial(repo: Path, command: list[str]) -> None:
    runner = CliRunner()
    serial = runner.invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "1"])
    parallel = runner.invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "2"])
    assert serial.exit_code == parallel.exit_code == 3
    assert serial.stdout == parallel.stdout
    assert serial.stderr == parallel.stderr
    assert "\x1b[" not in parallel.stderr  # no progress bar off a terminal


def test_in_place_in_parallel_writes_every_file(repo: Path) -> None:
    result = CliRunner().invoke(app, ["apply", "--in-place", str(repo), "--target-version", "1.22", "--jobs", "2"])
    assert result.exit_code == 3
    texts = [p.read_text() for p in sorted(repo.iterdir())]
    assert sum("networking.k8s.io/v1\n" in t for t in texts) == 13  # 16 Ingresses, 3 with port 0
    assert sum("extensions/v1beta1" in t for t in texts) == 3


def test_scan_in_parallel_prints_what_a_serial_scan_prints(repo: Path) -> None:
    runner = CliRunner()
    serial = runner.invoke(app, ["scan", str(repo), "--target-version", "1.22", "--jobs", "1"])
    parallel = runner.invoke(app, ["scan", str(repo), "--target-version", "1.22", "--jobs", "2"])
    assert serial.exit_code == parallel.exit_code == 1
    assert serial.stdout == parallel.stdout and serial.stdout.count("removed-api") == SERIAL_BELOW
    assert serial.stderr == parallel.stderr
