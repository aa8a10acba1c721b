"""Spec: hostile paths cost only themselves (issue 14, item 13).

A symbolic-link loop, a folder nested 1,100 levels deep, a named pipe called ``x.yaml``,
``/dev/zero`` and an endless stream are each a finding (K8SM-GEN-013, the path named), never
an aborted, hanging or memory-eating run: only regular files are read when a folder is
searched, a pipe only when given by name, and nothing beyond ``MAX_FILE_BYTES``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import files
from k8smigrate.api import FileOutcome, migrate_file, migrate_paths
from k8smigrate.cli import app

ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"
ROLE_V1 = ROLE.replace("v1beta1", "v1")


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real program in its own process: a hang is a failed test, not a hung suite."""
    return subprocess.run(
        [sys.executable, "-m", "k8smigrate", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def errors(outcomes: list[FileOutcome]) -> dict[str, str]:
    return {o.path.name: o.error.message for o in outcomes if o.error is not None}


# ------------------------------------------------------------------ ordinary trees are unchanged


def test_a_plain_tree_still_yields_every_manifest_sorted(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "c.yaml").write_text(ROLE)
    (tmp_path / "a.yml").write_text(ROLE)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.yaml").write_text(ROLE)
    (tmp_path / "notes.txt").write_text("x")
    assert [p.relative_to(tmp_path).as_posix() for p in files.iter_entries([tmp_path])] == ["a.yml", "b/c.yaml"]


# ------------------------------------------------------------------ symbolic-link loops


def test_a_link_loop_in_a_folder_is_a_finding_and_the_others_run(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    (tmp_path / "ping.yaml").symlink_to(tmp_path / "pong.yaml")
    (tmp_path / "pong.yaml").symlink_to(tmp_path / "ping.yaml")
    outcomes = list(migrate_paths(tmp_path, in_place=True))
    assert [(o.path.name, o.written) for o in outcomes] == [
        ("a.yaml", True),
        ("loop.yaml", False),
        ("ping.yaml", False),
        ("pong.yaml", False),
    ]
    assert set(errors(outcomes).values()) == {"symbolic link loop; not read"}


def test_a_link_loop_given_by_name_is_a_finding_not_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    (tmp_path / "a.yaml").write_text(ROLE)
    proc = run_cli(
        "apply", "--in-place", str(tmp_path / "loop.yaml"), str(tmp_path / "a.yaml"), "--target-version", "1.22"
    )
    assert proc.returncode == 3, proc.stderr
    assert f"{tmp_path / 'loop.yaml'}: error K8SM-GEN-013 symbolic link loop; not read" in proc.stderr
    assert (tmp_path / "a.yaml").read_text() == ROLE_V1


# ------------------------------------------------------------------ deep folders


@pytest.fixture
def make_deep() -> Iterator[Callable[[Path, int], Path]]:
    """``top/d/d/…/d``, removed bottom-up afterwards (``Path.mkdir(parents=True)`` and
    ``shutil.rmtree``, pytest's clean-up included, recurse too deep for it)."""
    made: list[Path] = []

    def make(top: Path, levels: int) -> Path:
        deep = str(top)
        for _ in range(levels):
            deep += "/d"
            os.mkdir(deep)
        made.append(Path(deep))
        return Path(deep)

    yield make
    for bottom in made:
        folder = str(bottom)
        while folder.endswith("/d"):
            for name in os.listdir(folder):
                if not os.path.isdir(os.path.join(folder, name)):
                    os.unlink(os.path.join(folder, name))
            os.rmdir(folder)
            folder = folder[:-2]


def test_a_folder_1100_levels_deep_is_a_finding_for_that_folder_only(
    tmp_path: Path, make_deep: Callable[[Path, int], Path]
) -> None:
    (tmp_path / "top.yaml").write_text(ROLE)
    deep = make_deep(tmp_path, 1100)
    (deep / "bottom.yaml").write_text(ROLE)
    (tmp_path / "d" / "near.yaml").write_text(ROLE)
    outcomes = list(migrate_paths([tmp_path]))
    names = [o.path.relative_to(tmp_path).as_posix() for o in outcomes]
    assert names == ["d/" * files.MAX_DEPTH + "d", "d/near.yaml", "top.yaml"]
    (skipped,) = [o for o in outcomes if o.error is not None]
    assert skipped.error is not None and skipped.error.code == "K8SM-GEN-013"
    assert skipped.error.message == f"folder nested more than {files.MAX_DEPTH} levels deep; not searched"


def test_the_cli_survives_a_deep_folder_with_exit_3(tmp_path: Path, make_deep: Callable[[Path, int], Path]) -> None:
    make_deep(tmp_path, 1100)
    (tmp_path / "top.yaml").write_text(ROLE)
    proc = run_cli("scan", str(tmp_path), "--target-version", "1.22")
    assert proc.returncode == 3, proc.stderr[-2000:]
    assert "RecursionError" not in proc.stderr and "Traceback" not in proc.stderr
    assert "levels deep; not searched" in proc.stderr
    assert "top.yaml:1: removed-api" in proc.stdout


# ------------------------------------------------------------------ pipes, devices, endless input


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_found_in_a_folder_is_a_finding_not_a_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.yaml")
    (tmp_path / "a.yaml").write_text(ROLE)
    proc = run_cli("apply", "--in-place", str(tmp_path), "--target-version", "1.22", timeout=60)
    assert proc.returncode == 3, proc.stderr
    assert f"{tmp_path / 'x.yaml'}: error K8SM-GEN-013 not a regular file (a named pipe); not read" in proc.stderr
    assert (tmp_path / "a.yaml").read_text() == ROLE_V1
    assert (tmp_path / "x.yaml").is_fifo()  # never replaced by a regular file


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_given_by_name_is_read_like_process_substitution(tmp_path: Path) -> None:
    fifo = tmp_path / "in.yaml"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as fh:  # blocks until the reader opens it
            fh.write(ROLE)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    outcome = migrate_file(fifo)  # waits for the writer, as cat does: the user named the pipe
    writer.join(timeout=30)
    assert outcome.error is None
    assert outcome.result is not None and outcome.result.text == ROLE_V1


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_given_by_name_is_a_finding_read_never(device: str) -> None:
    proc = run_cli("scan", device, "--target-version", "1.22", timeout=60)
    assert proc.returncode == 3, proc.stderr
    assert f"{device}: error K8SM-GEN-013 not a regular file (a character device); not read" in proc.stderr
    assert "MemoryError" not in proc.stderr


def test_a_file_over_the_size_limit_is_an_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1024 * 1024)
    big = tmp_path / "big.yaml"
    big.write_text(ROLE + "# " + "x" * (1024 * 1024) + "\n")
    (tmp_path / "small.yaml").write_text(ROLE)
    outcomes = list(migrate_paths([tmp_path], in_place=True))
    assert [(o.path.name, o.written) for o in outcomes] == [("big.yaml", False), ("small.yaml", True)]
    assert outcomes[0].error is not None
    assert (
        outcomes[0].error.format()
        == f"{big}: error K8SM-GEN-013 too large (1.0 MiB, over the limit of 1 MiB); not read"
    )


@pytest.mark.parametrize("limit", [None, 2048])
def test_a_file_that_grew_after_its_size_was_taken_is_read_whole_or_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int | None
) -> None:
    # fstat says what the file held a moment ago: the read must not stop there
    path = tmp_path / "grew.yaml"
    path.write_text(ROLE + "# " + "x" * 3000 + "\n")
    real_fstat = os.fstat

    def stale(fd: int) -> os.stat_result:
        st = real_fstat(fd)
        return os.stat_result((*tuple(st)[:6], st.st_size - 1000, *tuple(st)[7:]))

    monkeypatch.setattr(files.os, "fstat", stale)
    if limit is not None:
        monkeypatch.setattr(files, "MAX_FILE_BYTES", limit)
        with pytest.raises(files.InputError, match="too large"):
            files.read_manifest(path)
    else:
        assert files.read_manifest(path).text == path.read_text()


def test_the_default_limit_is_far_above_a_real_bundle() -> None:
    assert files.MAX_FILE_BYTES >= 64 * 1024 * 1024


def test_endless_stdin_stops_at_the_limit_with_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 4096)
    result = CliRunner().invoke(app, ["apply", "-", "--target-version", "1.22"], input=ROLE + "#" * 5000 + "\n")
    assert result.exit_code == 3
    assert "<stdin>: error K8SM-GEN-013 too large (over the limit of 4096 bytes); not read" in result.stderr
