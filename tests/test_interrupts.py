"""Spec: an interrupted or killed run leaves no process and no temporary file behind, and says
what it wrote (issue 14, item 17).

Real processes and real signals: ``tests/interrupt_driver.py`` runs the command line with one
file that hangs (while being migrated, or while being written with its temporary file on
disk). Nothing sleeps for a fixed time: each step polls for the state it needs, with a
deadline.

- SIGTERM or SIGINT to the main process: workers are stopped, the temporary file being written
  is removed, the command lists the files it wrote (also those whose results had not come
  back from a worker) and exits 143 or 130.
- SIGKILL to the main process: the workers die with it (Linux: PR_SET_PDEATHSIG; elsewhere a
  watchdog) and remove their temporary files; the main process's own temporary file stays
  and the next writing run in that folder removes it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from k8smigrate.cli import app

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the workers")

DRIVER = Path(__file__).with_name("interrupt_driver.py")
ROOT = DRIVER.parent.parent
ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: r{i}\nrules: []\n"
FILES = 40  # above SERIAL_BELOW, so -j2 starts workers; with -j2 a chunk holds 2 files
DEADLINE = 60.0


def wait_until(condition: Callable[[], bool], what: str, deadline: float = DEADLINE) -> None:
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


class Run:
    """One driver process over a folder of ``FILES`` Roles, one of which hangs or crashes."""

    def __init__(self, tmp_path: Path, mode: str, hang: str, *args: str) -> None:
        self.repo = tmp_path / "repo"
        self.repo.mkdir()
        for i in range(FILES):
            (self.repo / f"m{i:02d}.yaml").write_text(ROLE.format(i=i))
        self.ready = tmp_path / "ready"
        env = {**os.environ, "K8SM_TEST_MODE": mode, "K8SM_TEST_FILE": hang, "K8SM_TEST_READY": str(self.ready)}
        command = [sys.executable, str(DRIVER), *args, str(self.repo), "--target-version", "1.22"]
        self.proc = subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.workers: list[int] = []

    def wait_for_the_hang(self) -> None:
        wait_until(
            lambda: (self.ready.exists() and self.ready.read_text().endswith("\n")) or self.proc.poll() is not None,
            "the hang",
        )
        assert self.proc.poll() is None, self.proc.communicate()
        self.workers = children(self.proc.pid)

    def written(self) -> list[str]:
        return sorted(p.name for p in self.repo.glob("*.yaml") if "v1beta1" not in p.read_text())

    def temps(self) -> list[str]:
        return sorted(p.name for p in self.repo.iterdir() if p.name.endswith(".k8smigrate"))

    def finish(self, sig: int) -> tuple[int, str]:
        self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=DEADLINE)
        assert "Traceback" not in err and "Exception" not in err, err  # a clean stop, no noise
        return self.proc.returncode, err

    def kill(self) -> None:
        self.proc.kill()
        self.proc.communicate(timeout=DEADLINE)


@pytest.fixture
def runs(tmp_path: Path) -> Iterator[Callable[..., Run]]:
    started: list[Run] = []

    def start(mode: str, hang: str, *args: str) -> Run:
        run = Run(tmp_path, mode, hang, *args)
        started.append(run)
        return run

    yield start
    for run in started:  # a failed test must not leave its processes behind either
        for pid in [run.proc.pid, *run.workers]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        run.proc.communicate(timeout=DEADLINE)


def listed(stderr: str) -> list[str]:
    return sorted(Path(line.strip()).name for line in stderr.splitlines() if line.startswith("  "))


# ------------------------------------------------------------------ workers never outlive the run


def test_workers_die_when_the_main_process_is_killed(runs: Callable[..., Run]) -> None:
    run = runs("migrate", "m20.yaml", "apply", "--check", "-j", "2")
    run.wait_for_the_hang()
    assert len(run.workers) == 2 and all(alive(w) for w in run.workers)
    run.kill()
    wait_until(lambda: not any(alive(w) for w in run.workers), "the workers to die", deadline=10)


def test_a_worker_killed_with_its_parent_mid_write_removes_its_temporary_file(runs: Callable[..., Run]) -> None:
    run = runs("fsync", "m20.yaml", "apply", "--in-place", "-j", "2")
    run.wait_for_the_hang()
    assert any(t.startswith(".m20.yaml.") for t in run.temps())  # the hanging worker's
    run.kill()
    wait_until(lambda: not any(alive(w) for w in run.workers), "the workers to die", deadline=10)
    assert run.temps() == []
    assert "m20.yaml" not in run.written()


def test_a_crash_in_a_worker_exits_4_and_stops_the_other_workers(runs: Callable[..., Run]) -> None:
    run = runs("crash", "m20.yaml", "apply", "--in-place", "-j", "2")
    _, err = run.proc.communicate(timeout=DEADLINE)
    assert run.proc.returncode == 4, err
    assert "RuntimeError: injected crash on m20.yaml" in err and "internal error" in err
    assert run.temps() == []


# ------------------------------------------------------------------ SIGTERM and SIGINT


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_workers_and_lists_every_file_written(
    runs: Callable[..., Run], sig: signal.Signals, code: int
) -> None:
    run = runs("migrate", "m20.yaml", "apply", "--in-place", "-j", "2")
    run.wait_for_the_hang()
    # the other worker goes on through every other chunk; the main process, waiting for the
    # hanging chunk's result, has not seen theirs: only the journal knows what they wrote
    expected = [f"m{i:02d}.yaml" for i in range(FILES) if i not in (20, 21)]
    wait_until(lambda: run.written() == expected, "the other worker to finish")
    returncode, err = run.finish(sig)
    assert returncode == code, err
    assert f"k8smigrate: interrupted by {sig.name}; {len(expected)} files written:" in err
    assert listed(err) == run.written() == expected
    wait_until(lambda: not any(alive(w) for w in run.workers), "the workers to stop", deadline=10)
    assert run.temps() == []


@pytest.mark.parametrize("mode", ["migrate", "fsync"])
def test_a_run_on_every_core_lists_exactly_the_files_written_and_leaves_nothing(
    runs: Callable[..., Run], mode: str
) -> None:
    # --jobs 0: this process takes tasks too, so the hang may be its own or a worker's
    run = runs(mode, "m20.yaml", "apply", "--in-place", "-j", "0")
    run.wait_for_the_hang()
    returncode, err = run.finish(signal.SIGTERM)
    assert returncode == 143, err
    assert listed(err) == run.written() and "m20.yaml" not in run.written()
    wait_until(lambda: not any(alive(w) for w in run.workers), "the workers to stop", deadline=10)
    assert run.temps() == []


def test_a_serial_run_lists_the_files_written_before_the_signal(runs: Callable[..., Run]) -> None:
    run = runs("migrate", "m05.yaml", "apply", "--in-place", "-j", "1")
    run.wait_for_the_hang()
    returncode, err = run.finish(signal.SIGTERM)
    assert returncode == 143, err
    assert listed(err) == run.written() == [f"m{i:02d}.yaml" for i in range(5)]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_temporary_file_being_written_is_removed_on_sigterm(runs: Callable[..., Run], jobs: str) -> None:
    run = runs("fsync", "m20.yaml", "apply", "--in-place", "-j", jobs)
    run.wait_for_the_hang()
    assert any(t.startswith(".m20.yaml.") for t in run.temps())
    returncode, err = run.finish(signal.SIGTERM)
    assert returncode == 143, err
    assert run.temps() == []
    assert "m20.yaml" not in run.written() and listed(err) == run.written()


def test_a_read_only_command_says_nothing_was_written(runs: Callable[..., Run]) -> None:
    run = runs("migrate", "m03.yaml", "diff", "-j", "1")
    run.wait_for_the_hang()
    returncode, err = run.finish(signal.SIGINT)
    assert returncode == 130
    assert "k8smigrate: interrupted by SIGINT; no file was written" in err


# ------------------------------------------------------------------ the next run sweeps


def test_a_killed_serial_run_leaves_a_temporary_file_that_the_next_run_removes(
    runs: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = runs("fsync", "m02.yaml", "apply", "--in-place", "-j", "1")
    run.wait_for_the_hang()
    run.kill()  # no chance to clean up
    (temp,) = run.temps()
    result = CliRunner().invoke(app, ["apply", "--in-place", str(run.repo), "--target-version", "1.22"])
    assert result.exit_code == 1, result.output
    assert f"k8smigrate: removed {run.repo / temp} (left by an interrupted run)" in result.stderr
    assert run.temps() == []
    assert len(run.written()) == FILES


def test_a_signal_acted_on_as_a_temporary_file_is_made_leaves_none_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from typer.testing import CliRunner

    from k8smigrate.cli import app

    (tmp_path / "m00.yaml").write_text(ROLE.format(i=0))
    made = tempfile.mkstemp

    def signalled(*args: Any, **kwargs: Any) -> tuple[int, str]:
        found = made(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)  # deferred: acted on as the step that notes the file ends
        return found

    monkeypatch.setattr(tempfile, "mkstemp", signalled)
    result = CliRunner().invoke(app, ["apply", "--in-place", "-j", "1", "--target-version", "1.22", str(tmp_path)])
    assert result.exit_code == 143, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m00.yaml"]  # no temporary file left
    assert "v1beta1" in (tmp_path / "m00.yaml").read_text()  # and the file as it was
