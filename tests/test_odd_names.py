"""Spec: odd file names and odd strings never break an output (issue 14, item 14).

A file name is bytes: it may be undecodable (0xFF) or hold a newline. Diff headers, text
lines and reports name such a file the way git does (``quote_path``: C-style quoted, octal
escapes), so that the output stays valid UTF-8, a newline cannot inject a header line, and
``git apply`` still finds the file. A string the YAML itself escapes as a lone surrogate
(``"s\\ud800"``) is written as its ``\\uXXXX`` escape. Reports go to ``--output`` atomically:
the old file or the whole new one, never an empty or half-written file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import migrate_text
from k8smigrate.api import FileOutcome
from k8smigrate.cli import app
from k8smigrate.quoting import quote_path
from k8smigrate.report import Run, json_report, unified_diff

ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"
ROLE_V1 = ROLE.replace("v1beta1", "v1")
SURROGATE_ROLE = ROLE.replace("name: a", 'name: "s\\ud800"')  # a YAML escape for a lone surrogate

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def run_cli(args: list[str | bytes], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "k8smigrate", *args], cwd=cwd, capture_output=True, timeout=120, check=False
    )


# ------------------------------------------------------------------ quoting


@pytest.mark.parametrize("name", ["a.yaml", "dir/with space.yaml", "café/ünïcode.yaml", "-", "<stdin>"])
def test_an_ordinary_name_is_left_alone(name: str) -> None:
    assert quote_path(name) == name


@pytest.mark.parametrize(
    ("name", "quoted"),
    [
        pytest.param("a\nb.yaml", '"a\\nb.yaml"', id="newline"),
        pytest.param("a\tb.yaml", '"a\\tb.yaml"', id="tab"),
        pytest.param('say "hi".yaml', '"say \\"hi\\".yaml"', id="double-quote"),
        pytest.param("back\\slash.yaml", '"back\\\\slash.yaml"', id="backslash"),
        pytest.param("\udcff.yaml", '"\\377.yaml"', id="undecodable-byte"),
        pytest.param("café\n.yaml", '"caf\\303\\251\\n.yaml"', id="utf8-inside-quotes-is-octal"),
        pytest.param("s\ud800", '"s\\355\\240\\200"', id="lone-surrogate"),
        pytest.param("bell\x07\x1b", '"bell\\a\\033"', id="control"),
    ],
)
def test_an_odd_name_is_quoted_as_git_quotes_it(name: str, quoted: str) -> None:
    assert quote_path(name) == quoted
    assert quoted.isascii() and "\n" not in quoted


def test_a_newline_in_a_name_cannot_inject_diff_header_lines() -> None:
    diff = unified_diff(ROLE, ROLE_V1, "x.yaml\n+++ b/evil.yaml")
    headers = [line for line in diff.splitlines() if line.startswith(("---", "+++"))]
    assert headers == ['--- "a/x.yaml\\n+++ b/evil.yaml"', '+++ "b/x.yaml\\n+++ b/evil.yaml"']


# ------------------------------------------------------------------ the CLI with such names


@needs_git
def test_diff_output_of_an_undecodable_name_is_utf8_and_git_applies_it(tmp_path: Path) -> None:
    name = b"r\xff.yaml"
    (tmp_path / os.fsdecode(name)).write_text(ROLE)
    proc = run_cli(["diff", name, "-o", "out.diff", "--target-version", "1.22"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    text = (tmp_path / "out.diff").read_bytes().decode("utf-8")  # strict: valid UTF-8
    assert text.startswith('--- "a/r\\377.yaml"\n+++ "b/r\\377.yaml"\n')
    check = subprocess.run(["git", "apply", "--check", "out.diff"], cwd=tmp_path, capture_output=True, check=False)
    assert check.returncode == 0, check.stderr


@needs_git
def test_a_newline_in_a_name_gives_one_header_pair_that_git_applies(tmp_path: Path) -> None:
    name = "x.yaml\n+++ evil.yaml"
    (tmp_path / name).write_text(ROLE)
    proc = run_cli(["diff", name, "--target-version", "1.22"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    headers = [line for line in proc.stdout.decode().splitlines() if line.startswith(("---", "+++"))]
    assert headers == ['--- "a/x.yaml\\n+++ evil.yaml"', '+++ "b/x.yaml\\n+++ evil.yaml"']
    (tmp_path / "out.diff").write_bytes(proc.stdout)
    check = subprocess.run(["git", "apply", "out.diff"], cwd=tmp_path, capture_output=True, check=False)
    assert check.returncode == 0, check.stderr
    assert (tmp_path / name).read_text() == ROLE_V1
    # and on stderr, the change summary is one line too
    assert b'"x.yaml\\n+++ evil.yaml": doc 0 Role a:' in proc.stderr


@pytest.mark.parametrize("format", ["json", "markdown", "sarif"])
def test_reports_of_an_undecodable_name_are_valid_utf8(tmp_path: Path, format: str) -> None:
    name = b"r\xff.yaml"
    (tmp_path / os.fsdecode(name)).write_text(ROLE)
    command = "scan" if format == "sarif" else "diff"  # scan: one SARIF result per document
    proc = run_cli([command, name, "--format", format, "-o", f"report.{format}", "--target-version", "1.22"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    text = (tmp_path / f"report.{format}").read_bytes().decode("utf-8")
    if format == "json":
        (entry,) = json.loads(text)["files"]
        assert entry["filename"] == '"r\\377.yaml"'
    elif format == "sarif":
        uris = {
            loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(text)["runs"][0]["results"]
            for loc in r["locations"]
        }
        assert uris == {"r%FF.yaml"}  # the name's own bytes, percent-encoded
    else:
        assert '\n--- "a/r\\377.yaml"\n+++ "b/r\\377.yaml"\n' in text


def test_scan_lines_of_an_undecodable_name_are_valid_utf8(tmp_path: Path) -> None:
    (tmp_path / os.fsdecode(b"r\xff.yaml")).write_text(ROLE)
    proc = run_cli(["scan", ".", "--target-version", "1.22"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.decode("utf-8").startswith('"r\\377.yaml":1: removed-api')


@pytest.mark.parametrize("format", ["json", "sarif", "markdown"])
def test_a_lone_surrogate_in_a_document_gives_a_valid_report_after_writing(tmp_path: Path, format: str) -> None:
    (tmp_path / "role.yaml").write_text(SURROGATE_ROLE)
    args = ["apply", "--in-place", "role.yaml", "--format", format, "-o", "report.out", "--target-version", "1.22"]
    proc = run_cli(list(args), tmp_path)
    assert proc.returncode == 1, proc.stderr  # changed; not a crash
    assert (tmp_path / "role.yaml").read_text() == SURROGATE_ROLE.replace("v1beta1", "v1")
    text = (tmp_path / "report.out").read_bytes().decode("utf-8")
    if format != "markdown":
        data = json.loads(text)
        assert data
    if format == "json":
        assert '"name": "s\\ud800"' in text  # the YAML's own escape, as a JSON escape
        (document,) = json.loads(text)["files"][0]["documents"]
        assert document["name"] == "s\ud800"


def test_a_lone_surrogate_report_on_stdout_is_valid() -> None:
    result = CliRunner().invoke(
        app, ["diff", "-", "--format", "json", "--target-version", "1.22"], input=SURROGATE_ROLE
    )
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout_bytes.decode("utf-8"))
    assert data["files"][0]["documents"][0]["name"] == "s\ud800"


def test_the_library_report_text_holds_no_lone_surrogate() -> None:
    result = migrate_text(SURROGATE_ROLE, target_version="1.22")
    run = Run("diff", "1.22", "1.22", outcomes=[FileOutcome(Path("x"), result)])
    json_report(run, "0").encode("utf-8")  # strict: would raise on a lone surrogate


# ------------------------------------------------------------------ atomic reports


def test_a_report_replaces_the_old_one_in_one_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "role.yaml").write_text(ROLE)
    report = tmp_path / "report.json"
    report.write_text("old report\n")
    report.chmod(0o640)
    renames: list[tuple[str, str]] = []
    real = os.replace

    def replace(src: str, dst: str) -> None:
        renames.append((src, dst))
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    result = CliRunner().invoke(
        app, ["diff", str(tmp_path / "role.yaml"), "--format", "json", "-o", str(report), "--target-version", "1.22"]
    )
    assert result.exit_code == 1, result.output
    assert [Path(dst) for _, dst in renames] == [report.resolve()]
    assert json.loads(report.read_text())["summary"]["changed"] == 1
    assert oct(report.stat().st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "role.yaml"]


def test_a_report_that_cannot_be_written_leaves_the_old_one_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "role.yaml").write_text(ROLE)
    report = tmp_path / "report.json"
    report.write_text("old report\n")

    def fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)
    result = CliRunner().invoke(
        app, ["diff", str(tmp_path / "role.yaml"), "--format", "json", "-o", str(report), "--target-version", "1.22"]
    )
    assert result.exit_code == 3
    assert "cannot write --output" in result.stderr and "No space left on device" in result.stderr
    assert report.read_text() == "old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "role.yaml"]


def test_output_to_a_device_is_written_to_not_replaced(tmp_path: Path) -> None:
    (tmp_path / "role.yaml").write_text(ROLE)
    result = CliRunner().invoke(
        app, ["diff", str(tmp_path / "role.yaml"), "-o", os.devnull, "--target-version", "1.22"]
    )
    assert result.exit_code == 1
    assert Path(os.devnull).is_char_device()
