"""Worker processes forked from this one and fed through pipes: the run's pool where ``fork`` exists.

``concurrent.futures``' process pool cost a run 14 ms of imports (``multiprocessing``, sockets,
queues, threads to feed them) before its first worker started: a tenth of a small
repository's ``apply --check``. Its workers were also sent every task's settings and facts,
pickled, which a forked worker already holds. Here a task is only its index:

- the workers are forked after the tasks are known, so each holds the whole list;
- they claim tasks from one pipe they all read, in 4-byte records (the index), each read whole:
  a worker that finishes early takes the next task, as a pool's queue gives it;
- each writes every task's result back on a pipe of its own: its index, then the result or the
  exception it raised, pickled, after the length of that;
- this process yields the results in task order, keeping those that came early;
- once every result is in, it closes the claims pipe, and each worker, finding it empty, exits
  (until then an idle worker waits on it, as a pool's worker waits for work).

A worker that dies (killed, out of memory) closes its pipe: ``WorkerDied`` says which and how,
as concurrent.futures' ``BrokenProcessPool`` did. An exception a task raises is raised here,
with the worker's traceback as its cause.

What a worker is told to do when it starts (signals, dying with its parent) is ``start``'s job
(``parallel._start_worker``); this module only forks, feeds, collects and stops.
"""

from __future__ import annotations

import os
import select
import signal
import struct
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import suppress

from .runtime_typing import Generic, TypeVar

try:  # the C pickler itself: pickle.py around it (its Python classes, _compat_pickle) costs a start ~1 ms
    from _pickle import dumps, loads
except ImportError:  # pragma: no cover - a Python without the C accelerator
    from pickle import dumps, loads

Task = TypeVar("Task")
Result = TypeVar("Result")

_CLAIM = struct.Struct("<I")
_PROTOCOL = 5
"""``pickle.HIGHEST_PROTOCOL`` of the Pythons k8smigrate runs on (3.8 and later)."""
_HEADER = struct.Struct("<Q")
_CLAIMS_AT_ONCE = max(1, getattr(select, "PIPE_BUF", 512) // _CLAIM.size)
"""Claims written in one write: at most ``PIPE_BUF`` bytes, which a pipe takes whole or not at all."""

REAP_EVERY = 0.005
"""Seconds between checks that a stopped worker has exited."""


class WorkerDied(RuntimeError):
    """A worker process ended before it sent the results of the tasks it had claimed."""


class RemoteTraceback(Exception):
    """The traceback of an exception a task raised in a worker (the cause of the one raised here)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class ForkPool(Generic[Task, Result]):
    """``run`` over ``tasks`` in ``jobs`` processes; ``results`` yields in task order.

    ``jobs`` forked workers; or, with ``here``, this process and ``jobs - 1`` workers: this
    process claims tasks from the same pipe and runs them too (with ``here``, which may note what
    it writes where ``run`` in a worker cannot), whenever no result it needs next is in. Every
    claim is then written before the workers start, and the pipe closed: whoever is free takes
    the next task, and a worker that finds none left exits. Only for as many tasks as one write
    of the pipe takes whole (``here_takes``); past that, ``jobs`` workers and this process waits.
    ``order``: the order tasks are claimed in (by default their own); results come in task order
    whatever it is, those that come early kept until their turn.
    """

    def __init__(
        self,
        run: Callable[[Task], Result],
        tasks: Sequence[Task],
        jobs: int,
        start: Callable[[], None],
        here: Callable[[Task], Result] | None = None,
        order: Sequence[int] | None = None,
    ) -> None:
        self._tasks = tasks
        self._here = here if here is not None and here_takes(len(tasks)) else None
        self._unclaimed = list(range(len(tasks)) if order is None else order)
        self._unclaimed.reverse()  # popped from the end: the first task is claimed first
        self.pids: list[int] = []
        self._outputs: dict[int, int] = {}  # the read end of each worker's pipe, with its pid
        self._claims: int | None
        self._mine: int | None = None  # this process's read end of the claims (``here``)
        claims_read, self._claims = os.pipe()
        if self._here is not None:
            self._write_claims()  # one write, taken whole: then nothing is left to hand out
            self._close_claims()
            self._mine = claims_read
        workers = jobs - 1 if self._here is not None else jobs
        try:
            for _ in range(min(workers, len(tasks))):
                out_read, out_write = os.pipe()
                pid = os.fork()
                if pid == 0:  # the worker: never returns into the caller's code
                    _serve(run, tasks, start, claims_read, out_write, [self._claims, out_read, *self._outputs])
                os.close(out_write)
                self.pids.append(pid)
                self._outputs[out_read] = pid
        except BaseException:
            self.stop()
            raise
        finally:
            if self._mine is None:
                os.close(claims_read)
        if self._claims is not None:
            os.set_blocking(self._claims, False)
            self._write_claims()

    def results(self) -> Generator[Result, None, None]:
        """Every task's result, in task order; a task's exception is raised here."""
        early: dict[int, Result] = {}
        for index in range(len(self._tasks)):
            while index not in early:
                if self._mine is not None:
                    self._wait(early, block=False)
                    if index not in early:
                        self._run_one_here(early)
                else:
                    self._wait(early, block=True)
            yield early.pop(index)
        self._close_claims()
        self._close_mine()
        self._reap(deadline=None)

    def _run_one_here(self, early: dict[int, Result]) -> None:
        """Claim the next task and run it here; at the claims' end, stop claiming."""
        assert self._mine is not None and self._here is not None
        record = os.read(self._mine, _CLAIM.size)  # never waits: the write end is closed
        if not record:
            self._close_mine()
            return
        (index,) = _CLAIM.unpack(record)
        early[index] = self._here(self._tasks[index])

    def _wait(self, early: dict[int, Result], block: bool) -> None:
        """Hand out claims, and take in the results that came (or a worker's end): the next
        ones, waiting for them with ``block``, else only those already in."""
        if not self._outputs:
            if not block:
                return  # this process works on alone
            raise WorkerDied("the worker processes ended before every task was done")
        writing = [self._claims] if self._claims is not None and self._unclaimed else []
        readable, writable, _ = select.select(list(self._outputs), writing, [], None if block else 0)
        if writable:
            self._write_claims()
        for fd in readable:
            message = _read_message(fd)
            if message is None:
                self._ended(fd)
                continue
            index, ok, value = loads(message)
            if not ok:
                exc, remote = value
                raise exc from RemoteTraceback(remote)
            early[index] = value

    def _write_claims(self) -> None:
        assert self._claims is not None
        while self._unclaimed:
            batch = self._unclaimed[-_CLAIMS_AT_ONCE:]
            try:
                os.write(self._claims, b"".join(_CLAIM.pack(i) for i in reversed(batch)))
            except BlockingIOError:
                return  # the pipe is full: the rest when the workers have read some
            except BrokenPipeError:
                return  # no worker reads any more: their pipes' ends say why
            del self._unclaimed[-len(batch) :]

    def _close_claims(self) -> None:
        if self._claims is not None:
            os.close(self._claims)
            self._claims = None

    def _close_mine(self) -> None:
        if self._mine is not None:
            os.close(self._mine)
            self._mine = None

    def _ended(self, fd: int) -> None:
        """A worker closed its pipe: it ended. Fine once the claims pipe is closed; else it died."""
        pid = self._outputs.pop(fd)
        os.close(fd)
        _, status = os.waitpid(pid, 0)
        self.pids.remove(pid)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and self._claims is None:
            return
        how = (
            f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
            if os.WIFSIGNALED(status)
            else f"exit code {os.waitstatus_to_exitcode(status)}"
        )
        raise WorkerDied(f"a worker process (pid {pid}) ended before its tasks were done ({how})")

    def stop(self, grace: float = 5.0) -> None:
        """SIGTERM every worker, give them ``grace`` seconds (one may be finishing a rename), then
        SIGKILL the rest; every one is reaped."""
        self._close_claims()
        self._close_mine()
        for pid in self.pids:
            _signal(pid, signal.SIGTERM)
        self._reap(deadline=time.monotonic() + grace)
        for pid in self.pids:
            _signal(pid, signal.SIGKILL)
        self._reap(deadline=None)

    def _reap(self, deadline: float | None) -> None:
        """Wait for the workers to exit (until ``deadline``, or for good with None)."""
        for fd in self._outputs:
            os.close(fd)
        self._outputs.clear()
        while self.pids:
            for pid in list(self.pids):
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG if deadline is not None else 0)
                except ChildProcessError:
                    done = pid
                if done:
                    self.pids.remove(pid)
            if self.pids and deadline is not None:
                if time.monotonic() >= deadline:
                    return
                time.sleep(REAP_EVERY)


def here_takes(tasks: int) -> bool:
    """Whether this process can claim tasks beside its workers: every claim fits in one write
    that a pipe takes whole (``PIPE_BUF``)."""
    return tasks * _CLAIM.size <= getattr(select, "PIPE_BUF", 512)


def _signal(pid: int, signum: int) -> None:
    with suppress(ProcessLookupError):  # it ended meanwhile
        os.kill(pid, signum)


def _serve(
    run: Callable[[Task], Result],
    tasks: Sequence[Task],
    start: Callable[[], None],
    claims: int,
    out: int,
    inherited: list[int | None],
) -> None:
    """A worker's whole life: claim, run, send back, until no task is left; then ``os._exit``."""
    code = 1
    try:
        for fd in inherited:
            if fd is not None:
                os.close(fd)  # the parent's ends: claims must reach EOF, and a sibling's death show
        start()
        while record := os.read(claims, _CLAIM.size):
            (index,) = _CLAIM.unpack(record)
            try:
                payload = dumps((index, True, run(tasks[index])), _PROTOCOL)
            except Exception as exc:
                payload = dumps((index, False, _portable(exc)), _PROTOCOL)
            _write_all(out, _HEADER.pack(len(payload)) + payload)
        code = 0
    finally:
        os._exit(code)


def _portable(exc: Exception) -> tuple[Exception, str]:
    """``exc`` as it can cross to the parent (itself if it pickles), and the worker's traceback."""
    import traceback  # only when a task failed: a run without a bug never needs it

    remote = f'\n"""\n{"".join(traceback.format_exception(exc))}"""'
    try:
        loads(dumps(exc))
    except Exception:
        exc = RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc.with_traceback(None), remote


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_message(fd: int) -> bytes | None:
    """One message of a worker's pipe; None at its end (a message cut short is its end too)."""
    header = _read_exactly(fd, _HEADER.size)
    if header is None:
        return None
    return _read_exactly(fd, _HEADER.unpack(header)[0])


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    left = size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
