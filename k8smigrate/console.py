"""The console scripts (``k8smigrate``, ``kubectl-k8smigrate``, ``python -m k8smigrate``).

Why not ``cli.main`` directly: two start-up costs a short run would pay for nothing (issue 19).
A plain ``scan``/``diff``/``apply`` command line is parsed by ``argv`` from a table generated
from typer's declarations, and runs ``commands`` without importing typer at all; anything else
(help, ``list``, ``explain``, a usage error) goes to typer in ``cli``. And importing the
library builds about a hundred thousand objects and no cycles worth collecting, yet the cyclic
garbage collector runs dozens of times during those imports: this module imports nothing of
the library (the package's names are lazy), so the imports happen here with the collector
paused; ``commands.guarded`` then sets the run's collection policy. The library itself never
touches the collector.

The console scripts are ``script`` and ``kubectl_script``: ``main``, then the process ends at
once (``exit_at_once``) instead of tearing the interpreter down, freeing the registry, trees and
reports object by object (10 to 15 ms of a 0.3 s run, for nothing: the process ends). ``main``
itself ends with ``SystemExit``, for callers in the same process (tests).
"""

from __future__ import annotations

import errno
import gc
import importlib
import io
import os
import sys
import types
from collections.abc import Callable
from contextlib import suppress

from .runtime_typing import NoReturn


def main(prog_name: str = "k8smigrate") -> None:
    """``k8smigrate``: the fast path when ``argv`` can parse the command line, typer otherwise."""
    _stand_in_for_closed_streams()
    _defer_inspect()
    paused = gc.isenabled()
    gc.disable()
    try:
        from .argv import parse

        parsed = parse(sys.argv[1:], os.environ)
        if parsed is None:
            from .cli import main as run
        else:
            from . import prefetch

            reading = prefetch.wanted(*parsed)
            if reading:
                prefetch.start(reading)  # the files are read on another core while the rest loads
            from .argv import typed
            from .commands import guarded, run_parsed
    except ModuleNotFoundError as exc:
        from .dependencies import exit_if_missing

        exit_if_missing(exc)
        raise
    finally:
        if paused:
            gc.enable()
    if parsed is None:
        run(prog_name)
        return
    command, given = parsed
    try:
        guarded(lambda: run_parsed(command, typed(command, given)))
    finally:
        prefetch.drop()  # a run that ended before reading its files leaves nothing for another


def kubectl_plugin() -> None:
    """``kubectl-k8smigrate``: the same commands; usage lines say ``kubectl k8smigrate``."""
    main("kubectl k8smigrate")


class _DeferredModule(types.ModuleType):
    """A module imported only when one of its names is first read (see ``_defer_inspect``)."""

    def __getattr__(self, name: str) -> object:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        real = importlib.import_module(self.__name__)
        self.__dict__.update(real.__dict__)  # later reads find the names without this method
        sys.modules[self.__name__] = real
        return getattr(real, name)


DEFERRED = ("inspect", "ipaddress")
"""Modules the standard library imports for what a run never does, made modules imported when
first used (``_defer_inspect``)."""


def _defer_inspect() -> None:
    """Make ``inspect`` and ``ipaddress`` modules imported when first used.

    ``dataclasses`` imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``: 6 to 10 ms, a
    tenth of a one-file run) and uses it only to write a docstring for a class that has none;
    ``pathlib`` imports ``urllib.parse``, which imports ``ipaddress`` (a millisecond) to check
    the host of a URL in brackets. A ``scan``, ``diff`` or ``apply`` run uses neither. Typer's
    commands (help, ``list``, ``explain``) read ``inspect``, and import it then. The console
    scripts only: the library never touches ``sys.modules``."""
    for name in DEFERRED:
        if name not in sys.modules:
            sys.modules[name] = _DeferredModule(name)


class _ClosedOutput(io.TextIOBase):
    """stdout when the process was started without it (``>&-``; Python then has None): a
    command that writes nothing there runs as usual, one that writes fails as a write to a
    closed descriptor fails, and ends as with any stdout that cannot take its output."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "stdout is closed")


def _stand_in_for_closed_streams() -> None:
    """Streams for the standard ones the process was started without: stdout as above; a closed
    stderr discards what is said (the exit code still tells); a closed stdin is the commands'
    to report (a ``-`` that cannot be read)."""
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the rest of the process)


def script() -> NoReturn:
    """The ``k8smigrate`` console script (and ``python -m k8smigrate``)."""
    exit_at_once(main)


def kubectl_script() -> NoReturn:
    """The ``kubectl-k8smigrate`` console script."""
    exit_at_once(kubectl_plugin)


def exit_at_once(entry: Callable[[], object]) -> NoReturn:
    """Run ``entry``, flush the standard streams and end the process with the status
    ``sys.exit`` would give, without the interpreter's teardown (mypy ends this way too).

    Nothing else is left to do at exit: a run has written and closed its files, removed its
    temporary files and joined its workers before it returns. Like Python's own exit, a status
    that is not an int is printed and gives 1. A stream that cannot be flushed ends as the
    commands end when they cannot write: a reader that closed the pipe gives 1 and no message
    (``commands.run_parsed``), anything else (a full disk) is said and gives 3
    (``commands.unwritable_stdout``).
    """
    try:
        entry()
        status: object = None
    except SystemExit as exc:
        status = exc.code
    if status is None:
        code = 0
    elif isinstance(status, int):
        code = status
    else:
        print(status, file=sys.stderr)
        code = 1
    for name, stream in (("stdout", sys.stdout), ("stderr", sys.stderr)):
        try:
            if stream is not None:
                stream.flush()
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                code = 1
                continue
            from .exits import EXIT_HUMAN

            code = EXIT_HUMAN
            with suppress(OSError):
                os.write(2, f"k8smigrate: cannot write to {name}: {exc.strerror or exc}\n".encode())
    os._exit(code & 0xFF)
