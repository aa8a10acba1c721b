"""Spec: ``forkpool.ForkPool`` runs tasks in forked workers and gives their results in task order.

Tasks are claimed by index from one pipe; a worker's results come back on its own pipe. A
task's exception is raised in the parent with the worker's traceback as its cause; a worker
that dies is an error that says how it died; ``stop`` ends every worker, however busy.
"""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Callable

import pytest

from k8smigrate.forkpool import ForkPool, RemoteTraceback, WorkerDied, here_takes

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forked workers need fork")


def nothing() -> None:
    pass


def pool(run: Callable[[int], object], tasks: list[int], jobs: int = 2) -> ForkPool[int, object]:
    return ForkPool(run, tasks, jobs, nothing)


def gone(pid: int) -> bool:
    """Reaped: no process and no zombie of it is left."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


# ------------------------------------------------------------------ nothing to do


def test_no_task_forks_no_worker() -> None:
    p = pool(lambda i: i, [])
    assert p.pids == []
    assert list(p.results()) == []


# ------------------------------------------------------------------ results


def test_results_come_in_task_order_whatever_order_they_are_done_in() -> None:
    read, write = os.pipe()

    def last_first(i: int) -> tuple[int, int]:
        if i == 0:
            os.read(read, 1)  # task 0 waits for the last task: the other worker does all the rest
        if i == 39:
            os.write(write, b"x")
        return i, os.getpid()

    try:
        results = list(pool(last_first, list(range(40))).results())
    finally:
        os.close(read)
        os.close(write)
    assert [i for i, _pid in results] == list(range(40))
    assert len({pid for _i, pid in results}) == 2  # both workers took tasks
    assert os.getpid() not in {pid for _i, pid in results}


def test_more_tasks_than_the_claims_pipe_holds_are_all_done_once() -> None:
    tasks = list(range(20_000))  # 80,000 bytes of claims: more than a pipe's 64 KiB
    assert list(pool(lambda i: i * 2, tasks).results()) == [i * 2 for i in tasks]


def test_tasks_are_claimed_in_the_order_given_and_their_results_come_in_task_order() -> None:
    claimed: list[int] = []  # in the one worker: each task returns the claims it saw before it

    def run(i: int) -> tuple[int, list[int]]:
        claimed.append(i)
        return i, list(claimed)

    results = list(ForkPool(run, list(range(6)), 1, nothing, order=[4, 5, 0, 3, 1, 2]).results())
    assert [i for i, _seen in results] == list(range(6))
    assert results[2][1] == [4, 5, 0, 3, 1, 2]  # task 2 was claimed last


def test_start_runs_in_every_worker_before_its_tasks() -> None:
    started: list[int] = []

    def run(i: int) -> list[int]:
        return list(started)

    results = list(ForkPool(run, list(range(8)), 2, lambda: started.append(os.getpid())).results())
    assert all(len(r) == 1 for r in results) and started == []  # in the workers, not here


def test_the_workers_are_gone_once_the_results_are_in() -> None:
    p = pool(lambda i: i, list(range(10)))
    pids = list(p.pids)
    assert len(pids) == 2
    assert list(p.results()) == list(range(10))
    assert p.pids == [] and all(gone(pid) for pid in pids)


# ------------------------------------------------------------------ failures


def test_a_tasks_exception_is_raised_here_with_the_workers_traceback() -> None:
    def fails_on_three(i: int) -> int:
        if i == 3:
            raise ValueError(f"bad task {i}")
        return i

    p = pool(fails_on_three, list(range(6)))
    with pytest.raises(ValueError, match="bad task 3") as caught:
        list(p.results())
    assert isinstance(caught.value.__cause__, RemoteTraceback)
    assert "fails_on_three" in str(caught.value.__cause__)
    p.stop(grace=1)
    assert p.pids == []


def test_an_exception_that_cannot_cross_is_a_runtime_error_naming_it() -> None:
    class Local(Exception):
        pass

    def fails(i: int) -> int:
        raise Local("not picklable: a local class")

    p = pool(fails, [0])
    with pytest.raises(RuntimeError, match="Local: not picklable"):
        list(p.results())
    p.stop(grace=1)


def test_a_worker_that_dies_is_an_error_that_says_how() -> None:
    def dies_on_two(i: int) -> int:
        if i == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.01)
        return i

    p = pool(dies_on_two, list(range(4)))
    with pytest.raises(WorkerDied, match="killed by SIGKILL"):
        list(p.results())
    p.stop(grace=1)
    assert p.pids == []


def test_stop_ends_busy_workers_and_reaps_them() -> None:
    p = pool(lambda i: time.sleep(3600), [0, 1])
    pids = list(p.pids)
    p.stop(grace=0.2)  # SIGTERM ends a sleep at once; SIGKILL after the grace otherwise
    assert p.pids == [] and all(gone(pid) for pid in pids)


def test_stop_kills_a_worker_that_ignores_sigterm() -> None:
    ready, told = os.pipe()

    def stubborn() -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        os.write(told, b"x")

    p = ForkPool(lambda i: time.sleep(3600), [0], 1, stubborn)
    pids = list(p.pids)
    os.read(ready, 1)  # the worker ignores SIGTERM from now on
    os.close(ready)
    os.close(told)
    started = time.monotonic()
    p.stop(grace=0.3)
    assert time.monotonic() - started >= 0.3  # it got its grace, then SIGKILL
    assert all(gone(pid) for pid in pids)


def test_workers_that_all_die_at_start_are_an_error_that_says_how() -> None:
    def dies() -> None:
        os._exit(3)

    p = ForkPool(lambda i: i, list(range(20_000)), 2, dies)  # claims left to write when they die
    with pytest.raises(WorkerDied, match="exit code 3"):
        list(p.results())
    p.stop(grace=1)
    assert p.pids == []


# ------------------------------------------------------------------ this process works too


def test_with_here_this_process_and_the_workers_share_the_tasks_in_order() -> None:
    parent = os.getpid()
    worked, here_worked = os.pipe(), os.pipe()  # each written once a side has run a task, never read

    def run(i: int) -> tuple[int, int]:
        os.write(worked[1], b"x")
        select.select([here_worked[0]], [], [], 5)  # a worker's task ends once this process has one too
        return i, os.getpid()

    def here(i: int) -> tuple[int, int]:
        os.write(here_worked[1], b"x")
        select.select([worked[0]], [], [], 5)  # and the other way (bounded: a side may find none left)
        return i, os.getpid()

    try:
        results = list(ForkPool(run, list(range(40)), 2, nothing, here).results())
    finally:
        for fd in (*worked, *here_worked):
            os.close(fd)
    assert [i for i, _pid in results] == list(range(40))  # each task once, in order
    by = {pid for _i, pid in results}
    assert parent in by and len(by) == 2


def test_here_is_left_out_when_the_claims_do_not_fit_one_write() -> None:
    tasks = list(range(2_000))  # 8,000 bytes of claims: more than PIPE_BUF
    assert not here_takes(len(tasks)) and here_takes(40)
    parent = os.getpid()
    pool = ForkPool(lambda i: os.getpid(), tasks, 2, nothing, lambda i: os.getpid())
    assert len(pool.pids) == 2  # every job a worker, as without here
    results = list(pool.results())
    assert len(results) == len(tasks) and parent not in results


def test_with_here_a_worker_that_dies_is_still_an_error_that_says_how() -> None:
    parent = os.getpid()

    def dies_in_a_worker(i: int) -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.01)
        return i

    p = ForkPool(dies_in_a_worker, list(range(20)), 2, nothing, dies_in_a_worker)
    with pytest.raises(WorkerDied, match="killed by SIGKILL"):
        list(p.results())
    p.stop(grace=1)
    assert p.pids == []


def test_with_here_an_exception_here_is_raised_as_it_is() -> None:
    def fails_here(i: int) -> int:
        raise KeyError(i)

    p = ForkPool(lambda i: time.sleep(3600), list(range(4)), 2, nothing, fails_here)
    with pytest.raises(KeyError):
        list(p.results())
    p.stop(grace=0.2)
    assert p.pids == []
