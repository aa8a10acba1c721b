"""Spec: the hooks of .pre-commit-hooks.yaml, run for real by ``pre-commit try-repo``.

The project (its working-tree state: package, migrations, hooks file) is copied into a fresh
git repository and committed, so the test does not depend on what is committed in the
checkout; ``pre-commit try-repo <copy> --all-files`` then installs it into its own
virtualenv (from PyPI, ~15 s) and runs both hooks over a user repository holding a fixable
Ingress and a PodSecurityPolicy that no migration can fix.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
HOOKS = ROOT / ".pre-commit-hooks.yaml"

INGRESS = """\
apiVersion: extensions/v1beta1  # old
kind: Ingress
metadata:
  name: web
spec:
  backend:
    serviceName: web
    servicePort: 80
"""
PSP = """\
apiVersion: policy/v1beta1
kind: PodSecurityPolicy
metadata:
  name: restricted
spec: {}
"""
PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml")
PROJECT_DIRS = ("k8smigrate", "migrations")


def test_hooks_file_declares_a_fixing_and_a_checking_hook() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load(HOOKS.read_text())}
    assert hooks["k8smigrate"]["entry"] == "k8smigrate apply --in-place"
    assert hooks["k8smigrate-scan"]["entry"] == "k8smigrate scan"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["yaml", "json"]
        assert hook["require_serial"] is True  # one run over all files: one summary, one exit code


@pytest.mark.parametrize("name", [".pre-commit-config.yaml", "sub/.pre-commit-config.yaml", ".pre-commit-hooks.yaml"])
def test_hooks_leave_pre_commit_files_alone(name: str) -> None:
    for hook in yaml.safe_load(HOOKS.read_text()):
        assert re.search(hook["exclude"], name), (hook["id"], name)
        assert not re.search(hook["exclude"], "deploy/web.yaml")


def test_hooks_file_documents_the_args_the_fixing_hook_needs() -> None:
    text = HOOKS.read_text()
    assert 'args: [--target-version, "1.29"]' in text  # apply exits 2 without a target (issue 14, item 20)


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def _project_copy(dest: Path) -> Path:
    dest.mkdir()
    for name in PROJECT_FILES:
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, dest / name)
    if not (dest / "README.md").exists():  # pyproject names it; the lead writes the real one
        (dest / "README.md").write_text("# k8smigrate\n")
    for name in PROJECT_DIRS:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _git(dest, "init", "-q")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-q", "-m", "k8smigrate working tree")
    return dest


def test_pre_commit_try_repo(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install -e '.[test]')")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    project = _project_copy(tmp_path / "k8smigrate")
    user = tmp_path / "user"
    user.mkdir()
    (user / "deploy").mkdir()
    (user / "deploy" / "web.yaml").write_text(INGRESS)
    (user / "deploy" / "psp.yaml").write_text(PSP)
    (user / "notes.txt").write_text("apiVersion: extensions/v1beta1\n")  # not YAML by name: not passed
    (user / ".k8smigrate.toml").write_text('target-version = "1.29"\n')  # the fixing hook needs a target
    _git(user, "init", "-q")
    _git(user, "add", "-A")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_"))}
    env["PRE_COMMIT_COLOR"] = "never"
    env["PRE_COMMIT_HOME"] = str(tmp_path / "cache")
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(project), "--all-files"],
        cwd=user,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = proc.stdout + proc.stderr
    if "Could not find a version" in out or "No matching distribution" in out:  # pragma: no cover
        pytest.skip("pre-commit could not install the hook's dependencies (no package index)")
    assert proc.returncode == 1, out
    fixed = (user / "deploy" / "web.yaml").read_text()
    assert fixed.startswith("apiVersion: networking.k8s.io/v1  # old\n")
    assert "    service:\n      name: web\n" in fixed
    assert (user / "deploy" / "psp.yaml").read_text() == PSP
    assert (user / "notes.txt").read_text() == "apiVersion: extensions/v1beta1\n"
    # the fixing hook rewrote a file and still failed on the removed PSP it cannot fix: exit 3
    fixing = out[out.index("k8smigrate (migrate deprecated Kubernetes APIs)") :]
    assert "- hook id: k8smigrate\n- exit code: 3\n- files were modified by this hook" in fixing
    # the checking hook runs after it (on the fixed Ingress): only the PSP is left, which needs a human: 3
    checking = out[out.index("k8smigrate scan (fail on removed Kubernetes APIs)") :]
    assert "- hook id: k8smigrate-scan\n- exit code: 3" in checking
    assert "deploy/psp.yaml:1: removed-api      PodSecurityPolicy restricted policy/v1beta1 removed in 1.25" in checking
    assert "deploy/web.yaml:1:" not in checking
