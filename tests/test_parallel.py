"""Spec: --jobs spreads files over processes and prints exactly what a serial run prints;
small inputs (few files, or few bytes in all) are done in-process whatever --jobs says."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from k8smigrate import files, forkpool, parallel
from k8smigrate.api import migrate_file
from k8smigrate.cli import app
from k8smigrate.parallel import CHUNK_FILES, SCAN_SERIAL_BYTES, SERIAL_BELOW, SERIAL_BYTES, _parts, in_process
from k8smigrate.settings import Settings

INGRESS = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web{i}\nspec:\n  backend:\n    serviceName: web\n    servicePort: {port}\n"
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for i in range(SERIAL_BELOW * 2):
        # every fifth file needs a human (port 0), the others migrate or stay
        text = INGRESS.format(i=i, port=0 if i % 5 == 0 else 80) if i % 2 else CONFIGMAP.format(i=i)
        (tmp_path / f"m{i:03d}.yaml").write_text(text)
    return tmp_path


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the worker pools started (one entry per pool: its number of worker processes)."""
    started: list[int] = []
    real = forkpool.ForkPool.__init__

    def counted(self: forkpool.ForkPool[Any, Any], *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        started.append(len(self.pids))

    monkeypatch.setattr(forkpool.ForkPool, "__init__", counted)
    return started


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch, pools: list[int]) -> list[int]:
    """The test repository is small: make it big enough in bytes for workers to start."""
    monkeypatch.setattr(parallel, "SERIAL_BYTES", 0)
    monkeypatch.setattr(parallel, "SCAN_SERIAL_BYTES", 0)
    monkeypatch.setattr(parallel, "FACTS_SERIAL_BYTES", 0)
    return pools


def _files(folder: Path, count: int, size: int) -> list[Path]:
    for i in range(count):
        (folder / f"f{i:03d}.yaml").write_text("#" * (size - 1) + "\n")
    return sorted(folder.iterdir())


def test_one_job_stays_in_process(tmp_path: Path) -> None:
    assert in_process(_files(tmp_path, SERIAL_BELOW * 2, SERIAL_BYTES), jobs=1)


def test_few_files_stay_in_process_however_large(tmp_path: Path) -> None:
    assert in_process(_files(tmp_path, SERIAL_BELOW - 1, SERIAL_BYTES), jobs=2)


def test_many_files_of_few_bytes_in_all_stay_in_process(tmp_path: Path) -> None:
    paths = _files(tmp_path, SERIAL_BELOW * 2, SERIAL_BYTES // (SERIAL_BELOW * 2) - 1)
    assert in_process(paths, jobs=2)
    assert in_process([*paths, tmp_path / "missing.yaml"], jobs=2)  # reading it reports it later


def test_many_files_of_enough_bytes_go_to_workers(tmp_path: Path) -> None:
    paths = _files(tmp_path, SERIAL_BELOW * 2, SERIAL_BYTES // (SERIAL_BELOW * 2) + 1)
    assert not in_process(paths, jobs=2)
    assert in_process(paths, jobs=2, serial_bytes=SCAN_SERIAL_BYTES)  # scan's threshold is higher


def test_workers_get_tasks_of_about_equal_bytes_in_input_order(tmp_path: Path) -> None:
    (tmp_path / "apps").mkdir()
    (tmp_path / "crds").mkdir()
    light = _files(tmp_path / "apps", CHUNK_FILES * 3, 10)  # 960 bytes in all
    heavy = _files(tmp_path / "crds", 4, 10_000)  # each over an eighth of a worker's share
    paths = [*light, *heavy, tmp_path / "missing.yaml"]
    parts = list(_parts(paths, 2))
    assert [p for _first, part, _bytes in parts for p in part] == paths
    assert [first for first, _part, _bytes in parts] == [0, 32, 64, 96, 97, 98, 99, 100]  # each task's first index
    assert [len(part) for _first, part, _bytes in parts] == [CHUNK_FILES] * 3 + [1, 1, 1, 1, 1]  # a heavy file alone
    assert [held for _first, _part, held in parts] == [320] * 3 + [10_000] * 4 + [0]  # each task's bytes
    gone = [tmp_path / f"gone{i}.yaml" for i in range(CHUNK_FILES + 1)]  # no bytes: cut by count only
    assert [len(part) for _first, part, _bytes in _parts(gone, 2)] == [CHUNK_FILES, 1]


def test_a_task_gives_each_file_its_index_in_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _files(tmp_path, 3, 10)
    seen: list[tuple[Path, int]] = []
    monkeypatch.setattr(parallel, "_one", lambda job, journal=None: seen.append((job[1], job[4])))
    parallel._chunk((migrate_file, Settings(), "all", None, 40, paths))
    assert seen == [(paths[0], 40), (paths[1], 41), (paths[2], 42)]  # the journal notes files by it


@pytest.mark.parametrize("command", [["apply", "--check"], ["scan"]])
def test_a_small_repository_starts_no_worker_processes(repo: Path, command: list[str], pools: list[int]) -> None:
    runner = CliRunner()
    serial = runner.invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "1"])
    asked = runner.invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "2"])
    assert pools == []
    assert serial.exit_code == asked.exit_code != 0
    assert serial.stdout == asked.stdout
    assert serial.stderr == asked.stderr


@pytest.mark.parametrize("command", [["diff"], ["apply", "--check"], ["diff", "--format", "json"]])
def test_parallel_output_is_identical_to_serial(repo: Path, command: list[str], workers: list[int]) -> None:
    runner = CliRunner()
    serial = runner.invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "1"])
    parallel = runner.invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "2"])
    assert workers == [2, 2]  # the run's facts (its class-less Ingresses are collected), then the files
    assert serial.exit_code == parallel.exit_code == 3
    assert serial.stdout == parallel.stdout
    assert serial.stderr == parallel.stderr
    assert "\x1b[" not in parallel.stderr  # no progress bar off a terminal


@pytest.mark.parametrize("command", [["diff"], ["apply", "--check"], ["scan"]])
def test_every_core_is_this_process_and_one_worker_less_with_the_same_output(
    repo: Path, command: list[str], workers: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    serial = runner.invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "1"])
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 3)
    every = runner.invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "0"])
    assert workers == [2, 2]  # facts, then files: three cores, this process works on one
    assert (serial.exit_code, serial.stdout, serial.stderr) == (every.exit_code, every.stdout, every.stderr)


def test_every_core_is_a_worker_when_the_main_process_cannot_claim(
    repo: Path, workers: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(forkpool, "here_takes", lambda tasks: False)  # more claims than one write takes
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 3)
    serial = CliRunner().invoke(app, ["apply", "--check", str(repo), "--target-version", "1.22", "--jobs", "1"])
    every = CliRunner().invoke(app, ["apply", "--check", str(repo), "--target-version", "1.22", "--jobs", "0"])
    assert workers == [3, 3]  # no core left idle
    assert (serial.exit_code, serial.stdout, serial.stderr) == (every.exit_code, every.stdout, every.stderr)


def test_in_place_in_parallel_writes_every_file(repo: Path, workers: list[int]) -> None:
    result = CliRunner().invoke(app, ["apply", "--in-place", str(repo), "--target-version", "1.22", "--jobs", "2"])
    assert workers == [2, 2]  # facts, then files
    assert result.exit_code == 3
    texts = [p.read_text() for p in sorted(repo.iterdir())]
    assert sum("networking.k8s.io/v1\n" in t for t in texts) == 13  # 16 Ingresses, 3 with port 0
    assert sum("extensions/v1beta1" in t for t in texts) == 3


def test_scan_in_parallel_prints_what_a_serial_scan_prints(repo: Path, workers: list[int]) -> None:
    runner = CliRunner()
    serial = runner.invoke(app, ["scan", str(repo), "--target-version", "1.22", "--jobs", "1"])
    parallel = runner.invoke(app, ["scan", str(repo), "--target-version", "1.22", "--jobs", "2"])
    assert workers == [2, 2]  # facts, then files
    assert serial.exit_code == parallel.exit_code == 1
    assert serial.stdout == parallel.stdout and serial.stdout.count("removed-api") == SERIAL_BELOW
    assert serial.stderr == parallel.stderr


def test_a_run_in_process_reads_each_file_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the facts pass (its class-less Ingresses are collected) reads every file first; the main
    # pass takes the texts it kept instead of reading the files again
    reads: list[int] = []
    real = files._read_whole

    def counted(fd: int, size: int) -> bytes | None:
        reads.append(size)
        return real(fd, size)

    monkeypatch.setattr(files, "_read_whole", counted)
    for command in (["scan"], ["apply", "--check"]):
        reads.clear()
        result = CliRunner().invoke(app, [*command, str(repo), "--target-version", "1.22", "--jobs", "1"])
        assert result.exit_code != 0  # the Ingresses with port 0 need a human
        assert len(reads) == SERIAL_BELOW * 2
        assert files._read_ahead == {}  # nothing outlives the run


def test_a_file_changed_after_the_facts_pass_read_it_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(INGRESS.format(i=1, port=80))
    files.read_ahead(path)
    edited = INGRESS.format(i=2, port=80)
    path.write_text(edited)  # someone saves the file between the two passes
    try:
        outcome = migrate_file(path, in_place=True, target_version="1.22")
    finally:
        files.forget_read_ahead()
    assert outcome.error is not None and "changed while it was being migrated" in outcome.error.message
    assert path.read_text() == edited


def test_the_size_of_a_file_read_ahead_is_that_of_its_bytes_without_a_stat(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(CONFIGMAP.format(i=1))
    assert parallel._size(str(path)) == path.stat().st_size  # not read ahead: stat
    try:
        files.read_ahead(str(path))
        path.unlink()  # a stat would fail now: the size must come from the bytes kept
        assert parallel._size(path) == len(CONFIGMAP.format(i=1))
        assert parallel._size(tmp_path / "gone.yaml") == 0  # neither: reading it reports why
    finally:
        files.forget_read_ahead()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
@pytest.mark.parametrize("c_builder", [True, False], ids=["C", "ctypes"])
def test_a_worker_asks_to_be_sent_sigterm_when_its_parent_dies(
    c_builder: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ctypes

    if not c_builder:  # the C module is optional: without it, ctypes asks
        monkeypatch.setitem(sys.modules, "k8smigrate._fastbuild", None)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            parallel._die_with_parent(signal.SIGTERM)
            asked = ctypes.c_int(0)
            ctypes.CDLL(None).prctl(2, ctypes.byref(asked), 0, 0, 0)  # PR_GET_PDEATHSIG
            os.write(write, str(asked.value).encode())
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 16)
    os.close(read)
    os.waitpid(pid, 0)
    assert answer == str(int(signal.SIGTERM)).encode()


def test_the_last_tasks_of_a_run_are_claimed_heaviest_first() -> None:
    assert parallel._claim_order([10, 3000, 10, 500, 3000], 1) == [1, 4, 3, 0, 2]  # equal weights keep their order


def test_only_the_tail_is_reordered_so_the_results_kept_stay_bounded() -> None:
    weights = [5000 if n % 3 == 0 else 5 for n in range(200)]
    tail = parallel.TAIL_TASKS * 2
    order = parallel._claim_order(weights, 2)
    assert order[: 200 - tail] == list(range(200 - tail))  # in their order: results stream
    assert sorted(order[200 - tail :]) == list(range(200 - tail, 200))
    assert [weights[i] for i in order[200 - tail :]] == sorted(weights[200 - tail :], reverse=True)  # heavy first
