"""Spreading files over processes, and a progress bar for long runs on a terminal.

Results come back in input order, so a parallel run prints exactly what a serial one does;
each worker holds one file at a time, so memory follows the largest file, not the repository.

Workers never outlive the run. They ignore SIGINT (a Ctrl-C reaches the whole process group;
the main process decides) and exit on SIGTERM after removing the temporary file they are
writing, never between a rename and its note in the journal. They get SIGTERM when the main
process stops them, and also when it dies without a word (SIGKILL, a crash): on Linux the
kernel sends it (``prctl(PR_SET_PDEATHSIG)``), and everywhere a watchdog thread sends it when
the worker's parent is no longer the process that started it.

The ``Journal`` says which files were written, including those whose results never reached
the main process because it was interrupted: each write is noted in the same step as its
rename (``files.recording``), by workers through a pipe (4-byte records, atomic on a pipe)
that a thread of the main process drains.

Workers are forked (``forkpool``) where ``fork`` exists: they inherit the run's registry,
settings, facts and the texts read ahead, and are sent only the index of each task. Elsewhere
(Windows) concurrent.futures' pool starts fresh interpreters and sends each task pickled.

Small inputs stay in-process (``in_process``): a pool costs more than it saves there. With
more than one job, a thread checks the texts read ahead with libyaml on another core
(``yamlio.prechecked``): while this process works through them, or until the workers are
forked (it is ended before the first fork, and they inherit its verdicts).
"""

from __future__ import annotations

import os
import signal
import struct
import sys
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path
from types import FrameType

from .api import FileOutcome, facts_of_files
from .facts import Collector, Facts, Located, merge
from .files import forget_read_ahead, kept_ahead, kept_count, kept_size, recording, remove_live_temps
from .interrupt import deferrable
from .prefetch import settle as settle_prefetch
from .registry import default_registry
from .runtime_typing import TYPE_CHECKING, Any, TypeVar
from .settings import Settings
from .yamlio import prechecked

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")

SERIAL_BELOW = 16
"""Fewer files than this are done in-process: starting workers would cost more than it saves."""

STOP_GRACE = 5.0
"""Seconds stopped workers get to finish a rename before they are killed."""

WATCH_EVERY = 0.5
"""Seconds between a worker's checks that its parent is alive (where the kernel does not tell it)."""

Worker = Callable[..., FileOutcome]
"""``migrate_file`` (maybe with ``in_place`` bound) or ``scan_file``: ``worker(path, settings=…, facts=…)``."""

SERIAL_BYTES = 512 * 1024
"""Files smaller than this in total are done in-process too, however many there are.

Measured side by side (CPU seconds, 2 cores): a pool of two forked workers costs about as
much CPU as 0.2 MB of ``apply --check`` done serially (fork, pages copied on write, results
sent back), and a pool only wins when the work it halves is at least twice its cost. With
``forkpool`` (2 cores, wall time): at 256 KB a pool and one process take alike, at 512 KB the
pool takes 8 % less, at 1 MB 23 % less."""

SCAN_SERIAL_BYTES = 2 * SERIAL_BYTES
"""The same for ``scan``: it reads most files without building a tree, at about a third of
the CPU per byte of ``apply --check``. With ``--jobs 0`` (this process working beside one
worker fewer) a pool was measured against one process (2 cores, medians of 20): 4.7 ms slower
at 512 KB, 4.7 ms faster at 1 MB, 6 ms faster at 1.6 MB."""

FACTS_SERIAL_BYTES = 4 * SERIAL_BYTES
"""The same for the facts pass, which reads every file and parses few, as ``scan`` does. Done
in-process, it keeps the texts it read for the main pass (``files.read_ahead``); forked
workers inherit them. Under this size they cost little memory and save each file a read."""


def in_process(paths: Sequence[Path | str], jobs: int, serial_bytes: int | None = None) -> bool:
    """Whether ``paths`` are done without worker processes: one job, few files or little text
    (under ``serial_bytes``, by default ``SERIAL_BYTES``)."""
    serial_bytes = SERIAL_BYTES if serial_bytes is None else serial_bytes
    if jobs <= 1 or len(paths) < SERIAL_BELOW:
        return True
    total = 0
    for path in paths:
        total += _size(path)
        if total >= serial_bytes:
            return False
    return True


_RECORD = struct.Struct("<I")


class Journal:
    """The indices (in the run's list of files) of the files written so far."""

    def __init__(self) -> None:
        self._written: set[int] = set()
        self._lock = threading.Lock()
        self._read_end: int | None = None
        self._write_end: int | None = None
        self._reader: threading.Thread | None = None

    def add(self, index: int) -> None:
        with self._lock:
            self._written.add(index)

    def written(self) -> list[int]:
        with self._lock:
            return sorted(self._written)

    def open_pipe(self) -> int:
        """A pipe for workers (forked after this) to note writes in; returns its write end."""
        self._read_end, self._write_end = os.pipe()
        return self._write_end

    def start_reading(self) -> None:
        """Drain the pipe in a thread (started after the workers are forked), so it never fills up."""
        if self._read_end is not None:
            self._reader = threading.Thread(target=self._drain, args=(self._read_end,), daemon=True)
            self._reader.start()

    def _drain(self, fd: int) -> None:
        pending = b""
        while chunk := os.read(fd, 4096):
            pending += chunk
            whole = len(pending) - len(pending) % _RECORD.size
            for (index,) in _RECORD.iter_unpack(pending[:whole]):
                self.add(index)
            pending = pending[whole:]

    def close(self) -> None:
        """After the workers are gone: read what is left in the pipe, then close it."""
        if self._write_end is not None:
            os.close(self._write_end)
            self._write_end = None
        if self._reader is not None:
            self._reader.join(timeout=STOP_GRACE)
            if self._reader.is_alive():
                return  # a worker that would not die still holds the pipe: leave it to the thread
            self._reader = None
        elif self._read_end is not None:
            os.set_blocking(self._read_end, False)  # no reader ran: take what is there, wait for nothing
            with suppress(BlockingIOError):
                self._drain(self._read_end)
        if self._read_end is not None:
            os.close(self._read_end)
            self._read_end = None


# ------------------------------------------------------------------ in a worker

_journal_fd: int | None = None


def _note(journal: Journal | None, index: int, _path: Path | str) -> None:
    if journal is not None:
        journal.add(index)
    elif _journal_fd is not None:
        os.write(_journal_fd, _RECORD.pack(index))


Job = tuple[Worker, Path | str, Settings, str, int, Facts | None]
"""One file's work: the worker, the file, the settings, what to keep, its index, the run's facts."""


Task = tuple[Worker, Settings, str, Facts | None, int, Sequence[Path | str]]
"""One worker task: the worker, the settings, what to keep, the run's facts, the index of the
first file, the files. The run's values once per task, not once per file: the pool holds every
task until it is done, and a tuple per file grew the main process with the number of files."""


def _chunk(task: Task, journal: Journal | None = None) -> list[FileOutcome]:
    """One task's outcomes: in a worker (its writes noted through the journal's pipe), or in the
    main process when it works too (``journal``: noted there)."""
    worker, settings, keep, facts, first, paths = task
    return [_one((worker, path, settings, keep, first + i, facts), journal) for i, path in enumerate(paths)]


def _one(job: Job, journal: Journal | None = None) -> FileOutcome:
    worker, path, settings, keep, index, facts = job
    with recording(partial(_note, journal, index)):
        outcome = worker(path, settings=settings, facts=facts)
    if keep != "all" and outcome.result is not None:
        outcome.result.slim(keep_diff=keep == "diff")  # in the worker: texts never cross processes
    return outcome


TAIL_TASKS = 8
"""Tasks per job at the end of a run that are claimed heaviest first (``_claim_order``)."""

CHUNK_FILES = 32
"""The most files one task of a worker holds (their outcomes cross back to this process at once)."""


def _parts(paths: Sequence[Path | str], jobs: int) -> Iterator[tuple[int, list[Path | str], int]]:
    """``paths`` cut into tasks (the index of the first, the files, their bytes) of at most an eighth of a
    worker's share of the bytes (a larger file alone), at most ``CHUNK_FILES`` files each: files
    of one size go ``n / 8 jobs`` to a task, as they did when tasks were cut by count.

    Cut by bytes, not by count: the work of a file follows its size (a 100 KB CRD against a
    1 KB Deployment), and a repository keeps its heavy files together (``legacy/``, ``crds/``).
    Tasks of equal counts left one worker with the last heavy tasks while the other waited.
    """
    sizes = array("q", map(_size, paths))  # 8 bytes a file (a list of ints: 36): scan's memory stays flat
    budget = max(1, sum(sizes) // (jobs * 8))
    part: list[Path | str] = []
    first = held = 0
    for index, (path, size) in enumerate(zip(paths, sizes, strict=True)):
        if part and (held + size > budget or len(part) >= CHUNK_FILES):
            yield first, part, held
            part, first, held = [], index, 0
        part.append(path)
        held += size
    if part:
        yield first, part, held


def _size(path: Path | str) -> int:
    """The file's size: that of the bytes read ahead (no system call), else ``stat``'s."""
    kept = kept_size(path)
    if kept is not None:
        return kept
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # reading it reports why


class AwaitedFacts(Facts):
    """A run's facts when its workers are forked before the facts are gathered (``parallel_map``
    with ``gather``): gathering them in this process then overlaps the workers' first files,
    most of which no check that joins files ever asks about.

    This process sets them (``publish``) once gathered; a worker reads them the first time a
    check asks (``covers``, ``of``), waiting until they are there: the ``pickle`` of them in a
    memory file both hold (``memfd``), and a pipe with one byte per worker once it is written.
    Where there is no ``memfd`` (``possible``), a run gathers its facts before forking.
    """

    _fds: tuple[int, int, int]
    """The pipe's ends (read, write: ``feed``) and the memory file."""
    _got: Facts | None

    def __init__(self) -> None:
        super().__init__()
        ready, feed = os.pipe()
        try:
            store = os.memfd_create("k8smigrate-facts", os.MFD_CLOEXEC)
        except OSError:
            os.close(ready)
            os.close(feed)
            raise
        object.__setattr__(self, "_fds", (ready, feed, store))
        object.__setattr__(self, "_got", None)

    @staticmethod
    def possible() -> bool:
        return hasattr(os, "memfd_create") and hasattr(os, "fork")

    @classmethod
    def made(cls) -> AwaitedFacts | None:
        """A new one, or None where it cannot be made (no ``memfd``; a sandbox that refuses one)."""
        if not cls.possible():
            return None
        try:
            return cls()
        except OSError:
            return None

    @property
    def feed(self) -> int:
        """The end this process writes to: a worker closes it (a read then ends if it is closed here)."""
        return self._fds[1]

    def publish(self, facts: Facts, workers: int) -> None:
        """Set the facts, for this process and for ``workers`` forked ones."""
        from _pickle import dumps

        _, feed, store = self._fds
        data = memoryview(dumps(facts, 5))
        while data:
            data = data[os.write(store, data) :]
        object.__setattr__(self, "_got", facts)
        os.write(feed, b"." * workers)  # a few bytes: a pipe takes them at once

    def facts(self) -> Facts:
        """The facts; in a worker, read when first asked (waiting until they are published)."""
        got = self._got
        if got is None:
            from _pickle import loads

            ready, _, store = self._fds
            if os.read(ready, 1) != b".":
                raise RuntimeError("the run's facts were not published (the main process ended first)")
            size = os.fstat(store).st_size
            chunks: list[bytes] = []
            while size > 0:
                chunk = os.pread(store, size, sum(map(len, chunks)))
                if not chunk:
                    raise RuntimeError("the run's facts were cut short")
                chunks.append(chunk)
                size -= len(chunk)
            got = loads(b"".join(chunks))
            object.__setattr__(self, "_got", got)
        return got

    def covers(self, collector: Collector[Any]) -> bool:
        return self.facts().covers(collector)

    def of(self, collector: Collector[T]) -> list[Located[T]]:
        return self.facts().of(collector)

    @property
    def files(self) -> list[str]:
        return self.facts().files

    def close(self) -> None:
        for fd in self._fds:
            with suppress(OSError):
                os.close(fd)


def _stop_worker(signum: int, frame: FrameType | None) -> None:
    remove_live_temps()
    os._exit(128 + signum)


def _start_worker(parent: int, journal_fd: int | None, awaited: AwaitedFacts | None = None) -> None:
    """Worker initializer: signals, the journal, dying with the parent, the end of the facts'
    pipe only the parent writes to."""
    global _journal_fd
    _journal_fd = journal_fd
    if awaited is not None:
        os.close(awaited.feed)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, deferrable(_stop_worker))
    if sys.platform.startswith("linux"):
        _die_with_parent(signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the line above took effect
        _stop_worker(signal.SIGTERM, None)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="k8smigrate-watchdog").start()


def _die_with_parent(signum: int) -> None:
    """Ask Linux to send ``signum`` when the parent dies (PR_SET_PDEATHSIG); where it cannot,
    the watchdog still notices."""
    try:
        from ._fastbuild import die_with_parent  # loaded already where the C builder is
    except ImportError:
        import ctypes

        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signum), 0, 0, 0)
    else:
        die_with_parent(int(signum))


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os.kill(os.getpid(), signal.SIGTERM)  # through the handler: never between a rename and its note


# ------------------------------------------------------------------ in the main process


def parallel_map(
    worker: Worker,
    paths: Sequence[Path | str],
    settings: Settings,
    jobs: int,
    keep: str = "all",
    journal: Journal | None = None,
    facts: Facts | None = None,
    serial_bytes: int | None = None,
    main_works: bool = False,
    gather: Callable[[], Facts] | None = None,
) -> Generator[FileOutcome, None, None]:
    """``worker`` over ``paths`` with ``jobs`` processes, yielding outcomes in order.

    ``keep`` says what of each result the caller still needs: "all", "diff" (texts dropped)
    or "none" (only whether it changed), so memory follows the largest file rather than the
    repository. ``journal`` gets the index of every file written (also when the run is cut
    short: when this generator is left by an exception or closed, the workers are stopped
    first and the journal is complete). ``facts``, the run's (``parallel_facts``), go to every
    worker; or ``gather`` makes them, after the workers are forked when it can (``AwaitedFacts``:
    a run that writes nothing, or it would gather from files already written), else first.
    Inputs of fewer than ``SERIAL_BELOW`` files or ``serial_bytes`` bytes (default
    ``SERIAL_BYTES``) stay in this process. ``main_works``: this process is one of the ``jobs``
    and runs tasks too, beside ``jobs - 1`` forked workers, instead of only waiting for theirs
    (``--jobs 0``, every core: forked workers pay for the pages they copy and their cold caches,
    this process does not).
    """
    journal = journal if journal is not None else Journal()
    serial = in_process(paths, jobs, serial_bytes)
    awaited = AwaitedFacts.made() if gather is not None and not serial else None
    if gather is not None and awaited is None:
        facts = gather()
    if jobs > 1 and (serial or hasattr(os, "fork")):  # one job is one core: then it stays on this thread
        _precheck_kept(jobs)  # for this process or for the workers forked from it
    else:
        prechecked.stop()  # workers started afresh would not see what it found
    if serial:
        try:
            for index, path in enumerate(paths):
                yield _one((worker, path, settings, keep, index, facts), journal)
        finally:
            prechecked.stop()
            forget_read_ahead()
        return
    parts = list(_parts(paths, jobs))
    tasks: list[Task] = [(worker, settings, keep, awaited or facts, first, part) for first, part, _bytes in parts]
    if hasattr(os, "fork"):
        later = (awaited, gather) if awaited is not None and gather is not None else None
        yield from _forked(tasks, [held for _first, _part, held in parts], jobs, journal, main_works, later)
    else:
        yield from _spawned(tasks, jobs, journal)


def _precheck_kept(jobs: int) -> None:
    """Another core checks the texts read ahead with libyaml (``yamlio.prechecked``), unless it
    checks them already: the facts pass starts it once it has read every file."""
    if jobs > 1 and not prechecked.started() and prechecked.noted() < kept_count():
        prechecked.precheck([(loaded.text, loaded.raw) for loaded in kept_ahead()])


def _forked(
    tasks: list[Task],
    weights: list[int],
    jobs: int,
    journal: Journal,
    main_works: bool,
    later: tuple[AwaitedFacts, Callable[[], Facts]] | None = None,
) -> Generator[FileOutcome, None, None]:
    """``parallel_map``'s workers where ``fork`` exists (``forkpool``): they inherit the run's
    registry, settings, facts, texts read ahead and libyaml's verdicts on them. ``weights``: each
    task's bytes. ``main_works``: this process is one of the ``jobs``. ``later``: the facts the
    tasks hold, and what gathers them here once the workers are forked."""
    from .forkpool import ForkPool

    default_registry()  # built once here: forked workers inherit it instead of each importing every module
    prechecked.settle()  # forked workers inherit what it found, not it
    settle_prefetch()  # and what the prefetch read
    journal_fd = journal.open_pipe()
    pool: ForkPool[Task, list[FileOutcome]] | None = None
    try:
        here = partial(_chunk, journal=journal) if main_works else None
        start = partial(_start_worker, os.getpid(), journal_fd, later[0] if later is not None else None)
        pool = ForkPool(_chunk, tasks, jobs, start, here, _claim_order(weights, jobs))
        journal.start_reading()  # only now: no thread of ours is copied into a forked worker
        if later is not None:
            awaited, gather = later
            awaited.publish(gather(), len(pool.pids))
        for outcomes in pool.results():
            yield from outcomes
    except BaseException:
        if pool is not None:
            pool.stop(STOP_GRACE)
        raise
    finally:
        journal.close()
        prechecked.stop()
        forget_read_ahead()
        if later is not None:
            later[0].close()


def _claim_order(weights: Sequence[int], jobs: int) -> list[int]:
    """The order to claim tasks of these ``weights`` (bytes) in: theirs, but the last
    ``TAIL_TASKS * jobs`` the heaviest first (ties in their order), so the run ends on light
    tasks and no process waits long for another's last one.

    Results still come in task order (``ForkPool`` keeps those that come early): only the tail
    is reordered, so no more than its results are ever kept, however many files the run has
    (sorting every task held a fifth of a large scan's results, and its peak grew with them).
    On the small benchmark repository the heavy files come last (``legacy/`` after ``apps/``):
    one process ran a 12 ms task alone at the end.
    """
    tail = max(0, len(weights) - TAIL_TASKS * jobs)
    return [*range(tail), *sorted(range(tail, len(weights)), key=lambda i: -weights[i])]


def _spawned(tasks: list[Task], jobs: int, journal: Journal) -> Generator[FileOutcome, None, None]:
    """``parallel_map``'s workers where there is no ``fork`` (Windows): concurrent.futures' pool
    of fresh interpreters, each sent its tasks pickled."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(os.getpid(), None))
    stopped = False
    try:
        # like pool.map, but a run cut short leaves the futures to the pool: cancelling them
        # as map does makes the pool's own thread fail (InvalidStateError) once workers stop
        # taken off the queue as they are read: a list of them would keep every chunk's outcomes
        futures = deque(pool.submit(_chunk, task) for task in tasks)
        index = 0
        while futures:
            for outcome in futures.popleft().result():
                if outcome.written:
                    journal.add(index)  # a spawned worker has no journal pipe: known once its result is in
                index += 1
                yield outcome
    except BaseException:
        _stop(pool)
        stopped = True
        raise
    finally:
        if not stopped:
            pool.shutdown(wait=True)
        journal.close()
        forget_read_ahead()


def parallel_facts(
    paths: Sequence[Path | str],
    settings: Settings,
    jobs: int,
    serial_bytes: int | None = None,
    main_works: bool = False,
) -> Facts:
    """``api.run_facts`` over ``jobs`` processes: the same facts, in the same order (nothing is
    written). Inputs under ``serial_bytes`` stay in this process, and their texts are kept for
    the run's main pass (by default ``FACTS_SERIAL_BYTES``). ``main_works``: as ``parallel_map``'s."""
    if facts_in_process(paths, jobs, serial_bytes):
        return local_facts(paths, settings, jobs)
    # one Facts per task, each dropped once merged: a list of one per file (each with its
    # own set of collector names) made this process grow with the number of files
    tasks = [(settings, part) for _first, part, _bytes in _parts(paths, jobs)]
    if hasattr(os, "fork"):
        from .forkpool import ForkPool

        default_registry()
        settle_prefetch()  # no thread of ours is copied into a forked worker
        forked: ForkPool[tuple[Settings, Sequence[Path | str]], Facts] = ForkPool(
            _facts_chunk,
            tasks,
            jobs,
            partial(_start_worker, os.getpid(), None),
            _facts_chunk if main_works else None,
        )
        try:
            return merge(forked.results())
        except BaseException:
            forked.stop(STOP_GRACE)
            raise
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(os.getpid(), None))
    try:
        futures = deque(pool.submit(_facts_chunk, task) for task in tasks)
        found = merge(futures.popleft().result() for _ in range(len(futures)))
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)
    return found


def facts_in_process(paths: Sequence[Path | str], jobs: int, serial_bytes: int | None = None) -> bool:
    """Whether ``parallel_facts`` gathers in this process (``local_facts``): under ``serial_bytes``
    (by default ``FACTS_SERIAL_BYTES``)."""
    return in_process(paths, jobs, FACTS_SERIAL_BYTES if serial_bytes is None else serial_bytes)


def local_facts(paths: Sequence[Path | str], settings: Settings, jobs: int) -> Facts:
    """``parallel_facts`` in this process: every file is read first (and kept for the run's main
    pass), so that the precheck has the facts' time on another core."""
    return facts_of_files(paths, settings, keep=True, read=partial(_precheck_kept, jobs))


def _facts_chunk(task: tuple[Settings, Sequence[Path | str]]) -> Facts:
    settings, paths = task
    return facts_of_files(paths, settings)


def _stop(pool: ProcessPoolExecutor) -> None:
    """SIGTERM every worker, wait a little for those finishing a rename, then SIGKILL the rest."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # no public way to reach them
    for p in workers:
        if p.is_alive():
            p.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for p in workers:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in workers:
        if p.is_alive():
            p.kill()
            p.join(1.0)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False)
    if manager is not None:  # let the pool's thread finish with the dead workers before the interpreter exits
        manager.join(STOP_GRACE)


PROGRESS_FROM = 50
"""Runs over at least this many files show a progress bar (on a terminal only)."""


@contextmanager
def progress(total: int) -> Iterator[Callable[[], None]]:
    """A callback that advances a progress bar on stderr; silent when stderr is not a terminal."""
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        transient=True,
        console=None,
    ) as bar:
        task = bar.add_task("migrating", total=total)
        yield lambda: bar.advance(task)
