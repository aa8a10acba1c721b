"""Helpers for kustomize tree tests: write a small tree, build it with the real kubectl, migrate
it, and check that the migrated tree builds what the migrated build of the original is.

kubectl (with kustomize built in) is needed for the build checks: outside CI a test that
needs it is skipped with the reason; in CI (``CI`` set) its absence fails the test, since
``.ci/run`` installs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

import k8smigrate
from k8smigrate.kustomize.run import TreeRun, migrate_trees
from k8smigrate.registry import default_registry
from k8smigrate.settings import Settings


def kubectl() -> str:
    found = shutil.which("kubectl")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("kubectl is not on PATH in CI (.ci/get-tools installs it)")
        pytest.skip("kubectl is not on PATH (.ci/get-tools installs it with helm)")
    return found


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    return root


def build(folder: Path) -> str:
    done = subprocess.run([kubectl(), "kustomize", str(folder)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def objects(text: str) -> dict[tuple[str, str], Any]:
    return {(d["kind"], d["metadata"]["name"]): d for d in yaml.safe_load_all(text) if isinstance(d, dict)}


def migrate(root: Path, **settings: Any) -> TreeRun:
    settings.setdefault("target_version", "1.29")
    return migrate_trees([root], Settings(**settings), default_registry(), in_place=True)


def texts(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def findings(run: TreeRun, code: str | None = None) -> list[k8smigrate.Finding]:
    return [
        f
        for o in run.outcomes.values()
        for f in (o.result.findings if o.result is not None else [])
        if code is None or f.code == code
    ]


def check_builds_the_same(root: Path, overlays: list[str], **settings: Any) -> TreeRun:
    """Migrate the tree at ``root``; every overlay must build, and build the migrated original build."""
    settings.setdefault("target_version", "1.29")
    before = {o: build(root / o) for o in overlays}
    run = migrate(root, **settings)
    for overlay, built in before.items():
        reference = k8smigrate.migrate_text(built, settings=Settings(**settings)).text
        assert objects(build(root / overlay)) == objects(reference), overlay
    again = texts(root)
    second = migrate(root, **settings)
    assert texts(root) == again, "a second run changed the tree"
    assert not any(o.written for o in second.outcomes.values())
    return run
