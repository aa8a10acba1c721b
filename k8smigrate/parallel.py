"""Spreading files over processes, and a progress bar for long runs on a terminal.

Results come back in input order, so a parallel run prints exactly what a serial one does;
each worker holds one file at a time, so memory follows the largest file, not the repository.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from .api import FileOutcome, facts_of_file
from .facts import Facts, merge
from .registry import default_registry
from .settings import Settings

SERIAL_BELOW = 16
"""Fewer files than this are done in-process: starting workers would cost more than it saves."""

Worker = Callable[..., FileOutcome]
"""``migrate_file`` (maybe with ``in_place`` bound) or ``scan_file``: ``worker(path, settings=…, facts=…)``."""


def _one(job: tuple[Worker, Path, Settings, str, Facts | None]) -> FileOutcome:
    worker, path, settings, keep, facts = job
    outcome = worker(path, settings=settings, facts=facts)
    if keep != "all" and outcome.result is not None:
        outcome.result.slim(keep_diff=keep == "diff")  # in the worker: texts never cross processes
    return outcome


def parallel_map(
    worker: Worker, paths: list[Path], settings: Settings, jobs: int, keep: str = "all", facts: Facts | None = None
) -> Iterator[FileOutcome]:
    """``worker`` over ``paths`` with ``jobs`` processes, yielding outcomes in order.

    ``keep`` says what of each result the caller still needs: "all", "diff" (texts dropped)
    or "none" (only whether it changed), so memory follows the largest file rather than the
    repository. ``facts``, the run's (``parallel_facts``), go to every worker.
    """
    yield from _ordered(_one, [(worker, p, settings, keep, facts) for p in paths], jobs)


def parallel_facts(paths: list[Path], settings: Settings, jobs: int) -> Facts:
    """``api.run_facts`` over ``jobs`` processes: the same facts, in the same order."""
    return merge(_ordered(_facts_of, [(p, settings) for p in paths], jobs))


def _facts_of(job: tuple[Path, Settings]) -> Facts:
    return facts_of_file(*job)


J = TypeVar("J")
R = TypeVar("R")


def _ordered(fn: Callable[[J], R], jobs_list: list[J], jobs: int) -> Iterator[R]:
    """``map(fn, jobs_list)``, over processes when there are enough jobs; results in input order."""
    if jobs <= 1 or len(jobs_list) < SERIAL_BELOW:
        yield from map(fn, jobs_list)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    if method == "fork":
        default_registry()  # built once here: forked workers inherit it instead of each importing every module
    context = multiprocessing.get_context(method)
    chunk = max(1, min(32, len(jobs_list) // (jobs * 8)))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        yield from pool.map(fn, jobs_list, chunksize=chunk)


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
