"""Spreading files over processes, and a progress bar for long runs on a terminal.

Results come back in input order, so a parallel run prints exactly what a serial one does;
each worker holds one file at a time, so memory follows the largest file, not the repository.
Small inputs stay in-process (``in_process``): a pool costs more than it saves there, and
its modules are imported only when one is started.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .api import FileOutcome
from .registry import default_registry
from .settings import Settings

SERIAL_BELOW = 16
"""Fewer files than this are done in-process: starting workers would cost more than it saves."""

Worker = Callable[..., FileOutcome]
"""``migrate_file`` (maybe with ``in_place`` bound) or ``scan_file``: called as ``worker(path, settings=…)``."""


SERIAL_BYTES = 512 * 1024
"""Files smaller than this in total are done in-process too, however many there are.

Measured side by side (CPU seconds, 2 cores): a pool of two forked workers costs about as
much CPU as 0.2 MB of ``apply --check`` done serially (fork, pages copied on write, results
sent back), and a pool only wins when the work it halves is at least twice its cost."""

SCAN_SERIAL_BYTES = 4 * SERIAL_BYTES
"""The same for ``scan``: it reads most files without building a tree, at about a third of
the CPU per byte of ``apply --check``, so its workers pay off from about 2 MB."""


def in_process(paths: list[Path], jobs: int, serial_bytes: int | None = None) -> bool:
    """Whether ``paths`` are done without worker processes: one job, few files or little text
    (under ``serial_bytes``, by default ``SERIAL_BYTES``)."""
    serial_bytes = SERIAL_BYTES if serial_bytes is None else serial_bytes
    if jobs <= 1 or len(paths) < SERIAL_BELOW:
        return True
    total = 0
    for path in paths:
        try:
            total += path.stat().st_size
        except OSError:
            continue  # reading it reports why
        if total >= serial_bytes:
            return False
    return True


def _one(job: tuple[Worker, Path, Settings, str]) -> FileOutcome:
    worker, path, settings, keep = job
    outcome = worker(path, settings=settings)
    if keep != "all" and outcome.result is not None:
        outcome.result.slim(keep_diff=keep == "diff")  # in the worker: texts never cross processes
    return outcome


def parallel_map(
    worker: Worker,
    paths: list[Path],
    settings: Settings,
    jobs: int,
    keep: str = "all",
    serial_bytes: int | None = None,
) -> Iterator[FileOutcome]:
    """``worker`` over ``paths`` with ``jobs`` processes, yielding outcomes in order.

    ``keep`` says what of each result the caller still needs: "all", "diff" (texts dropped)
    or "none" (only whether it changed), so memory follows the largest file rather than the
    repository. Inputs of fewer than ``SERIAL_BELOW`` files or ``serial_bytes`` bytes (default
    ``SERIAL_BYTES``) stay in this process.
    """
    jobs_list = [(worker, p, settings, keep) for p in paths]
    if in_process(paths, jobs, serial_bytes):
        yield from map(_one, jobs_list)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    if method == "fork":
        default_registry()  # built once here: forked workers inherit it instead of each importing every module
    context = multiprocessing.get_context(method)
    chunk = max(1, min(32, len(paths) // (jobs * 8)))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        yield from pool.map(_one, jobs_list, chunksize=chunk)


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
