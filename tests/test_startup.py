"""Spec: a short CLI run imports only what its command needs (issue 19's start-up cost).

No timing here (that is ``bench/``): these look at which modules a fresh process has loaded
once a command is done, so a heavy import that creeps back into every start fails a test
instead of going unnoticed until the next benchmark.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import sys
from k8smigrate.cli import main
sys.argv = ["k8smigrate", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
sys.stdout.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""

NOT_NEEDED = (
    "pydantic",  # typer 0.29 coerces parameters with it (pyproject keeps typer below)
    "jsonpatch",  # RFC 6902 patches, for reports only
    "deepdiff",
    "rich",  # the progress bar, on a terminal only
    "multiprocessing",  # worker processes, for large inputs only
    "concurrent.futures.process",
    "k8smigrate.sarif",
    "k8smigrate.markdown",
)

INGRESS = """apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
spec:
  backend:
    serviceName: web
    servicePort: 80
"""


def loaded(*args: str) -> set[str]:
    """The modules of a fresh process after ``k8smigrate ARGS``."""
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    line = proc.stdout.rsplit("\nMODULES ", 1)[1]
    return set(line.split())


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for i in range(20):  # more files than a serial run is decided on by count alone
        (tmp_path / f"m{i:02d}.yaml").write_text(INGRESS if i % 2 else "apiVersion: v1\nkind: ConfigMap\n")
    return tmp_path


@pytest.mark.parametrize(
    "command",
    [["apply", "--check"], ["scan"], ["diff"], ["apply", "--check", "--jobs", "2"]],
    ids=["apply-check", "scan", "diff", "apply-check-jobs-2"],
)
def test_a_run_on_a_small_repository_imports_nothing_it_does_not_need(repo: Path, command: list[str]) -> None:
    modules = loaded(*command, str(repo), "--target-version", "1.22", "--color", "never")
    assert "k8smigrate.engine" in modules  # the probe ran the command
    assert sorted(m for m in NOT_NEEDED if m in modules) == []


def test_a_json_report_imports_what_it_needs(repo: Path) -> None:
    modules = loaded("diff", str(repo), "--target-version", "1.22", "--format", "json")
    assert "jsonpatch" in modules  # the patches of the report
