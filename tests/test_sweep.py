"""Spec: a writing run removes the temporary files an interrupted run left (issue 14, item 17).

Only ours (``.NAME.PID.XXXXXXXX.k8smigrate``, or the older ``.NAME.XXXXXXXX.k8smigrate``,
regular files), only stale ones (the PID is not running, or the file is over an hour old), and
only in the folders the run searches (or beside a file given by name, for that name). Runs
that write nothing (``scan``, ``diff``, ``apply --check``) remove nothing.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import files
from k8smigrate.api import migrate_paths
from k8smigrate.cli import app

ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"


@pytest.fixture(scope="module")
def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


@pytest.fixture
def live_pid() -> int:
    return os.getppid()  # the process that runs the tests: alive, and not this one


def temp(folder: Path, name: str, *, age: float = 0) -> Path:
    path = folder / name
    path.write_text("half a manifest")
    if age:
        then = time.time() - age
        os.utime(path, (then, then))
    return path


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_stale_temporary_files_of_ours_are_removed_and_reported(tmp_path: Path, dead_pid: int, live_pid: int) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    (tmp_path / "sub").mkdir()
    gone = [
        temp(tmp_path, f".a.yaml.{dead_pid}.abcd1234.k8smigrate"),  # its writer is gone
        temp(tmp_path / "sub", f".b.yaml.{live_pid}.abcd1234.k8smigrate", age=2 * files.STALE_AFTER),  # too old
        temp(tmp_path, ".c.yaml.x1_y2z3w.k8smigrate", age=2 * files.STALE_AFTER),  # the older name, old
    ]
    result = CliRunner().invoke(app, ["apply", "--in-place", str(tmp_path), "--target-version", "1.22"])
    assert result.exit_code == 1, result.output
    for path in gone:
        assert not path.exists()
        assert f"k8smigrate: removed {path} (left by an interrupted run)" in result.stderr
    assert names(tmp_path) == ["a.yaml", "sub"] and names(tmp_path / "sub") == []


def test_what_is_not_ours_or_not_stale_or_not_visited_stays(tmp_path: Path, dead_pid: int, live_pid: int) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    (tmp_path / ".git").mkdir()
    kept = [
        temp(tmp_path, f".a.yaml.{live_pid}.abcd1234.k8smigrate"),  # another run is writing it now
        temp(tmp_path, ".a.yaml.abcd1234.k8smigrate"),  # the older name, fresh: maybe a running older version
        temp(tmp_path, ".a.yaml.k8smigrate", age=2 * files.STALE_AFTER),  # not our pattern
        temp(tmp_path, f"a.yaml.{dead_pid}.abcd1234.k8smigrate", age=2 * files.STALE_AFTER),  # not hidden
        temp(tmp_path, f".a.yaml.{dead_pid}.ABCD1234.k8smigrate"),  # not what mkstemp makes
        temp(tmp_path / ".git", f".a.yaml.{dead_pid}.abcd1234.k8smigrate"),  # a folder the run does not enter
    ]
    (tmp_path / f".l.yaml.{dead_pid}.abcd1234.k8smigrate").symlink_to(tmp_path / "a.yaml")  # not a regular file
    (tmp_path / f".d.yaml.{dead_pid}.abcd1234.k8smigrate").mkdir()
    list(migrate_paths(tmp_path, in_place=True))
    assert all(p.exists() for p in kept)
    assert (tmp_path / f".l.yaml.{dead_pid}.abcd1234.k8smigrate").is_symlink()
    assert (tmp_path / f".d.yaml.{dead_pid}.abcd1234.k8smigrate").is_dir()


@pytest.mark.parametrize("command", [["scan"], ["diff"], ["apply", "--check"]])
def test_runs_that_write_nothing_remove_nothing(tmp_path: Path, dead_pid: int, command: list[str]) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    stale = temp(tmp_path, f".a.yaml.{dead_pid}.abcd1234.k8smigrate")
    CliRunner().invoke(app, [*command, str(tmp_path), "--target-version", "1.22"])
    assert stale.exists()


def test_a_file_given_by_name_sweeps_only_its_own_temporary_files(tmp_path: Path, dead_pid: int) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    mine = temp(tmp_path, f".a.yaml.{dead_pid}.abcd1234.k8smigrate")
    other = temp(tmp_path, f".b.yaml.{dead_pid}.abcd1234.k8smigrate")
    outcomes = list(migrate_paths(tmp_path / "a.yaml", in_place=True))
    assert [o.path.name for o in outcomes] == ["a.yaml"]  # a removed file is no outcome
    assert not mine.exists() and other.exists()


def test_our_own_temporary_files_are_never_swept_while_written(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    loaded = files.read_manifest(tmp_path / "a.yaml")
    fd, tmp = files._temp_beside(tmp_path / "a.yaml")
    try:
        assert list(files.iter_entries([tmp_path], sweep=True)) == [tmp_path / "a.yaml"]
        assert Path(tmp).exists()
    finally:
        os.close(fd)
        files.remove_live_temps()
    assert not Path(tmp).exists() and loaded.text == ROLE
