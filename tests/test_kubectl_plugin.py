"""``kubectl k8smigrate``: the ``kubectl-k8smigrate`` console script is a kubectl plugin.

kubectl finds any executable named ``kubectl-*`` on PATH (``kubectl plugin list``) and runs it
with the arguments after the plugin's name; the exit code comes back unchanged.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from k8smigrate import __version__

from .kustomize_helpers import kubectl

PLUGIN = Path(sys.executable).parent / "kubectl-k8smigrate"


def _env(tools: str) -> dict[str, str]:
    if not PLUGIN.exists():
        pytest.fail(f"{PLUGIN} is missing: install the project (pip install -e .) to get its console scripts")
    return {**os.environ, "PATH": os.pathsep.join([str(PLUGIN.parent), str(Path(tools).parent)])}


def test_kubectl_lists_the_plugin() -> None:
    exe = kubectl()
    done = subprocess.run([exe, "plugin", "list"], capture_output=True, text=True, env=_env(exe), timeout=60)
    assert done.returncode == 0, done.stderr
    assert str(PLUGIN) in done.stdout


def test_kubectl_runs_the_plugin_with_its_arguments(tmp_path: Path) -> None:
    exe = kubectl()
    env = _env(exe)
    done = subprocess.run([exe, "k8smigrate", "--version"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"k8smigrate {__version__}"
    manifest = tmp_path / "ingress.yaml"
    manifest.write_text("apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n")
    scan = [exe, "k8smigrate", "scan", "--target-version", "1.29", str(manifest)]
    done = subprocess.run(scan, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1, done.stderr  # a removed API: the plugin's exit code comes back
    assert "removed-api" in done.stdout
