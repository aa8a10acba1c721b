"""The files of a run, read and checked by libyaml on another core while the library loads.

A short run spends about a third of its time importing modules, on one core, before it reads
its first file; and libyaml's check of each file (``yamlio.prechecked``: the only parse most
files get) needs no Python object. So the console scripts start this (``start``) as soon as the
command line is known: a thread of the C module (``yamlio/_prefetch.c``) walks the paths as
``files`` walks them, reads each manifest whole, and has libyaml check each. The run's first
read of such a file (``files.read_manifest``) takes its bytes from here instead of the disk,
and its text comes with libyaml's verdict.

What it may do, and what it must not:

- only a run that writes no manifest uses it (not ``apply --in-place``), and a run reads each
  file once: bytes read a few milliseconds earlier are what the run would have read;
- what the thread read is taken (``take``) at the run's first read of a file, or before a
  worker is forked (``settle``), and whatever the run did not ask for is dropped when it ends
  (``drop``);
- it never decides what a run reads: a file the thread left alone (a link, a special file, a
  chart, or any file once the files exceed ``LIMIT`` bytes in all) is read as usual, and what
  the walk of ``files`` does not list is never asked for.

It imports little: it is started before the rest of the library is imported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

LIMIT = 2 * 1024 * 1024
"""Bytes in all past which the thread stops and keeps nothing: the size under which a run reads
its files ahead in one process (``parallel.FACTS_SERIAL_BYTES``); a larger run reads them in
its workers."""

_running = False
"""A thread was started and its files are not taken yet."""

_taken: dict[str, tuple[bytes, bytearray, int]] = {}
"""Each file the thread read, by the text of its path: its bytes, the verdicts, its place in them."""


def wanted(command: str, given: dict[str, str | bool | list[str]]) -> list[str] | None:
    """The paths to read ahead for a command line ``argv.parse`` read, or None: a run that
    writes manifests (``apply --in-place``), or that is to use one core, reads its own."""
    if command not in ("scan", "diff", "apply") or given.get("in_place"):
        return None
    jobs = int(str(given.get("jobs", "0")))
    if jobs == 1 or (jobs == 0 and (os.cpu_count() or 1) < 2):
        return None
    paths = given.get("paths")
    return [p for p in paths if p != "-"] if isinstance(paths, list) else None


def start(paths: Sequence[str]) -> None:
    """Read the files below ``paths`` (as given on the command line) on another core, from now on."""
    global _running
    from .cmodule import libyaml_version

    drop()
    if not paths or libyaml_version() is None:
        return
    from ._fastbuild import prefetch_start
    from .readlimits import CHART_FILE, MAX_DEPTH, MAX_FILE_BYTES, SUFFIXES

    roots = [path_text(p) for p in paths]
    _running = prefetch_start(roots, SUFFIXES, CHART_FILE, MAX_DEPTH, MAX_FILE_BYTES, LIMIT)


def path_text(raw: str) -> str:
    """``str(Path(raw))``: the text ``files`` writes a path given on the command line as, and the
    walk's children after it. Without ``pathlib``, which imports ``re`` and ``urllib``: 4 ms
    before the thread could start, on a run's one busy core (``pathlib`` is imported later).

    POSIX paths only (``PurePosixPath``'s reading: one root, or two slashes exactly; no empty or
    ``.`` parts; ``..`` kept); elsewhere ``pathlib`` itself. A text that differed would only
    leave the file to be read as usual: files are taken from here by their path's text."""
    if os.name != "posix":
        from pathlib import Path

        return str(Path(raw))
    root = ""
    if raw.startswith("/"):
        root = "//" if raw.startswith("//") and not raw.startswith("///") else "/"
    parts = [part for part in raw.split("/") if part and part != "."]
    return root + "/".join(parts) if root or parts else "."


def settle(hurry: bool = True) -> None:
    """End the thread and keep what it read (a run's first read, or before forking a worker);
    ``hurry``: it checks no more files (those left get no verdict here), else it checks them all first."""
    global _running, _found
    if not _running:
        return
    _running = False
    from ._fastbuild import prefetch_take
    from .yamlio.prechecked import found

    _found = found
    got = prefetch_take(hurry)
    if got is not None:
        paths, raws, verdicts = got
        _taken.update((path, (raw, verdicts, place)) for place, (path, raw) in enumerate(zip(paths, raws, strict=True)))


_found: Callable[[str, bytes, bytearray, int], None] | None = None
"""``yamlio.prechecked.found``, imported once the thread has read something (it loads the YAML layer)."""


def checked(text: str, raw: bytes, verdicts: bytearray, place: int) -> None:
    """Note the verdict found here for ``text``, decoded from ``raw`` (a file ``take`` gave), as
    ``yamlio.prechecked`` notes its own: libyaml is not asked about it again."""
    if _found is not None:
        _found(text, raw, verdicts, place)


def take(path: str) -> tuple[bytes, bytearray, int] | None:
    """The bytes the thread read at ``path``, with libyaml's verdicts and its place in them
    (0 there: not checked); None when it did not read that file. Each file is taken once."""
    if _running:
        settle()
    return _taken.pop(path, None) if _taken else None


def size(path: str) -> int | None:
    """How many bytes the thread read at ``path`` (not taking them); None when it did not read it."""
    if _running:
        settle()
    read = _taken.get(path) if _taken else None
    return None if read is None else len(read[0])


def drop() -> None:
    """Forget what the thread read (a run ends), ending it first."""
    settle()
    _taken.clear()
