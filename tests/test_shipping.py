"""Spec: what an installed package needs is in the package (issue 14, item 25).

The licence pyproject names is in the repository (and so in every wheel); findings point to
the PodSecurityPolicy guide by a command that works from any install
(``k8smigrate explain podsecuritypolicy``), and the guide's text is package data, kept
identical to ``docs/podsecuritypolicy.md``. The wheel itself is built and used from outside
the source tree by a slow test (K8SMIGRATE_SLOW=1).
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from importlib import resources
from pathlib import Path

import pytest
import tomllib
from typer.testing import CliRunner

from k8smigrate.cli import app
from k8smigrate.guides import GUIDES, guide
from k8smigrate.hints import hint

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_license_file_is_the_apache_2_0_text_pyproject_names() -> None:
    assert PYPROJECT["project"]["license"] == "Apache-2.0"  # an SPDX expression: the table form is deprecated
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text and "APPENDIX: How to apply the Apache License" in text
    assert len(text) > 11000  # the full text, not a pointer to it


@pytest.mark.parametrize("name", sorted(GUIDES))
def test_each_guide_is_package_data_identical_to_its_docs_page(name: str) -> None:
    packaged = (resources.files("k8smigrate") / "data" / GUIDES[name]).read_text(encoding="utf-8")
    page = (ROOT / "docs" / GUIDES[name]).read_text(encoding="utf-8")
    assert packaged == page, f"copy docs/{GUIDES[name]} to k8smigrate/data/{GUIDES[name]}"
    assert guide(name) == page
    assert "k8smigrate.data" in PYPROJECT["tool"]["setuptools"]["packages"]
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["k8smigrate.data"]
    assert any(Path(GUIDES[name]).match(p) for p in patterns)  # shipped in the wheel


def test_explain_prints_the_guide() -> None:
    result = CliRunner().invoke(app, ["explain", "podsecuritypolicy"])
    assert result.exit_code == 0
    assert result.stdout.startswith("# PodSecurityPolicy: what to do instead\n")
    assert result.stdout == guide("podsecuritypolicy")


def test_findings_point_to_the_guide_by_a_command_not_a_source_path() -> None:
    text = hint("policy/v1beta1", "PodSecurityPolicy")
    assert "k8smigrate explain podsecuritypolicy" in text and "docs/" not in text
    for path in (ROOT / "k8smigrate").glob("*.py"):
        assert "see docs/" not in path.read_text(encoding="utf-8"), path


@pytest.mark.slow
def test_the_wheel_ships_the_license_and_the_guide_and_explain_works_from_it(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(ROOT)],
        check=True,
        timeout=600,
    )
    (wheel,) = (tmp_path / "dist").glob("k8smigrate-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "k8smigrate/data/podsecuritypolicy.md" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE") for n in names)
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        timeout=600,
    )
    proc = from_wheel(
        target,
        "import k8smigrate.cli as c; assert c.__file__.startswith(sys.argv[1]), c.__file__; "
        "sys.argv = ['k8smigrate', 'explain', 'podsecuritypolicy']; c.main()",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# PodSecurityPolicy: what to do instead\n")
    # and a plain command line through the console script's fast path (argv's generated table ships too)
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
    proc = from_wheel(target, "import k8smigrate.console as c; sys.argv = ['k8smigrate', 'scan', 'cm.yaml']; c.main()")
    assert proc.returncode == 0, proc.stderr
    assert "1 file" in proc.stderr


def from_wheel(target: Path, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run in ``target``'s folder by an isolated interpreter (-I: no source tree, no editable
    install) that imports k8smigrate from ``target`` and its dependencies from this interpreter's site-packages."""
    return subprocess.run(
        [sys.executable, "-I", "-c", "import sys; sys.path[:0] = sys.argv[1:3]; " + code, str(target), PURELIB],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=target.parent,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        check=False,
    )


PURELIB = sysconfig.get_paths()["purelib"]
