"""Stopping a run cleanly on SIGINT and SIGTERM, and never in the middle of recording a write.

The command line turns both signals into ``Interrupted`` (a ``KeyboardInterrupt``) in the
main process, so that a temporary file being written is removed on the way out and the
command can say which files it already wrote. Only one step must not be cut: the rename
that replaces a file and the note that it was written. ``critical()`` wraps that step;
a signal arriving inside it is acted on when it ends (``deferrable``). Python runs signal
handlers in the main thread only, so this holds whatever other threads do.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

Handler = Callable[[int, FrameType | None], None]

_depth = 0
_pending: list[tuple[Handler, int]] = []


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM reached the main process; ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextmanager
def critical() -> Iterator[None]:
    """A step that a ``deferrable`` handler waits for (a rename and the note that it happened)."""
    global _depth
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _pending:
            handler, signum = _pending[0]
            _pending.clear()
            handler(signum, None)


def deferrable(handler: Handler) -> Handler:
    """``handler``, run at once outside ``critical()`` and at its end inside it."""

    def run(signum: int, frame: FrameType | None) -> None:
        if _depth:
            _pending.append((handler, signum))
        else:
            handler(signum, frame)

    return run


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


@contextmanager
def signals_raise() -> Iterator[None]:
    """SIGINT and SIGTERM raise ``Interrupted`` (after any ``critical()`` step) while inside.

    Only the main thread may install handlers; elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = deferrable(_raise)
    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old if old is not None else signal.SIG_DFL)
