"""Spec: a run that writes nothing forks its workers before it gathers the facts of the checks
that join files (``parallel.AwaitedFacts``): the workers start on their files, and one that
needs the facts waits until the main process has published them. The output is what a serial
run prints; a run that writes gathers them first, as before."""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from k8smigrate import commands, parallel
from k8smigrate.cli import app
from k8smigrate.facts import Collector, Facts, Located
from k8smigrate.parallel import SERIAL_BELOW, AwaitedFacts
from tests.test_facts import tree

pytestmark = pytest.mark.skipif(not AwaitedFacts.possible(), reason="no memfd_create and fork here")

COLLECTOR: Collector[str] = Collector("names", ("name",), lambda obj: [])


def in_a_child(work: Callable[[], object]) -> tuple[int, Any]:
    """Fork; the child runs ``work`` and sends back what it returned (or the text of what it
    raised); the pid and the answer."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            answer: object = work()
        except Exception as exc:
            answer = f"{type(exc).__name__}: {exc}"
        os.write(write, pickle.dumps(answer))
        os._exit(0)
    os.close(write)
    return pid, read


def answer_of(pid: int, read: int) -> Any:
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    return pickle.loads(b"".join(chunks))


def facts(count: int) -> Facts:
    values = tuple(("names", Located(f"value {i} " + "x" * 40, f"f{i}.yaml", 0, i + 1)) for i in range(count))
    return Facts(frozenset({"names"}), values)


# -- in this process: what is published is there at once


def test_the_main_process_has_the_facts_it_published() -> None:
    awaited = AwaitedFacts()
    try:
        awaited.publish(facts(3), workers=0)
        assert awaited.covers(COLLECTOR) and next(v.value for v in awaited.of(COLLECTOR)).startswith("value 0")
        assert awaited.files == ["f0.yaml", "f1.yaml", "f2.yaml"]
    finally:
        awaited.close()


# -- a forked worker: it waits, then reads them (larger than a pipe holds, too)


@pytest.mark.parametrize("count", [2, 5000], ids=["small", "larger-than-a-pipe"])
def test_a_worker_that_asks_before_they_are_published_waits_for_them(count: int) -> None:
    awaited = AwaitedFacts()
    try:

        def asks() -> object:
            os.close(awaited.feed)  # as a worker does when it starts
            return awaited.facts()

        pid, read = in_a_child(asks)
        time.sleep(0.1)  # the child is waiting now
        published = facts(count)
        awaited.publish(published, workers=1)
        assert answer_of(pid, read) == published
    finally:
        awaited.close()


def test_a_worker_whose_parent_never_publishes_is_told_so() -> None:
    awaited = AwaitedFacts()

    def asks() -> object:
        os.close(awaited.feed)
        return awaited.facts()

    pid, read = in_a_child(asks)
    awaited.close()  # the main process ended without facts: the worker is not left waiting
    assert answer_of(pid, read) == "RuntimeError: the run's facts were not published (the main process ended first)"


# -- a run


@pytest.fixture
def slow_facts(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The facts take a while to gather, so that the workers ask before they are there; the
    times they were gathered at."""
    gathered: list[float] = []
    real = commands.local_facts

    def slow(*args: Any, **kwargs: Any) -> Facts:
        time.sleep(0.2)
        gathered.append(time.monotonic())
        return real(*args, **kwargs)

    monkeypatch.setattr(commands, "local_facts", slow)
    return gathered


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many workers each run published its facts to."""
    seen: list[int] = []
    real = AwaitedFacts.publish

    def publish(self: AwaitedFacts, found: Facts, workers: int) -> None:
        seen.append(workers)
        real(self, found, workers)

    monkeypatch.setattr(AwaitedFacts, "publish", publish)
    return seen


@pytest.mark.parametrize("command", [["scan"], ["diff"], ["apply", "--check"]], ids=["scan", "diff", "check"])
def test_workers_forked_before_the_facts_join_them_as_a_serial_run_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slow_facts: list[float], published: list[int], command: list[str]
) -> None:
    root = tree(tmp_path, SERIAL_BELOW + 4)  # apps/ (which join the controller's facts) come first
    runner = CliRunner()
    args = [*command, str(root), "--target-version", "1.29", "--color", "never"]
    serial = runner.invoke(app, [*args, "--jobs", "1"])
    assert published == [] and len(slow_facts) == 1  # one process: gathered first
    monkeypatch.setattr(parallel, "SERIAL_BYTES", 0)  # workers, however small the files
    monkeypatch.setattr(parallel, "SCAN_SERIAL_BYTES", 0)
    forked = runner.invoke(app, [*args, "--jobs", "3"])
    assert published == [3]  # three workers forked before the facts were there
    assert (forked.exit_code, forked.stdout) == (serial.exit_code, serial.stdout)
    assert "K8SM-CTL-003" in forked.stdout + forked.stderr


def test_where_no_memory_file_can_be_made_the_facts_are_gathered_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, published: list[int]
) -> None:
    root = tree(tmp_path, SERIAL_BELOW + 4)
    args = ["scan", str(root), "--target-version", "1.29", "--color", "never"]
    serial = CliRunner().invoke(app, [*args, "--jobs", "1"])

    def refused(name: str, flags: int = 0) -> int:
        raise PermissionError(1, "Operation not permitted")  # a sandbox's seccomp filter

    monkeypatch.setattr(os, "memfd_create", refused)
    monkeypatch.setattr(parallel, "SCAN_SERIAL_BYTES", 0)
    forked = CliRunner().invoke(app, [*args, "--jobs", "3"])
    assert published == [] and (forked.exit_code, forked.stdout) == (serial.exit_code, serial.stdout)


def test_facts_gathered_in_workers_of_their_own_are_gathered_before_the_run_forks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, published: list[int]
) -> None:
    # a facts pool is never forked from a run whose own workers are running: too many files to
    # gather here, so they are gathered first, in their own workers
    root = tree(tmp_path, SERIAL_BELOW + 4)
    monkeypatch.setattr(parallel, "SCAN_SERIAL_BYTES", 0)
    monkeypatch.setattr(parallel, "FACTS_SERIAL_BYTES", 0)
    args = ["scan", str(root), "--target-version", "1.29", "--color", "never"]
    serial = CliRunner().invoke(app, [*args, "--jobs", "1"])
    forked = CliRunner().invoke(app, [*args, "--jobs", "3"])
    assert published == [] and (forked.exit_code, forked.stdout) == (serial.exit_code, serial.stdout)


def test_a_run_that_writes_gathers_the_facts_before_it_forks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, published: list[int]
) -> None:
    root = tree(tmp_path, SERIAL_BELOW + 4)
    monkeypatch.setattr(parallel, "SERIAL_BYTES", 0)
    result = CliRunner().invoke(app, ["apply", "--in-place", str(root), "--target-version", "1.29", "--jobs", "3"])
    assert result.exit_code in (0, 1, 3), result.output
    assert published == []  # gathered first: they are the files as they were before any write
