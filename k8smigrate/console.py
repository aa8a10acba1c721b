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
"""

from __future__ import annotations

import gc
import os
import sys


def main(prog_name: str = "k8smigrate") -> None:
    """``k8smigrate``: the fast path when ``argv`` can parse the command line, typer otherwise."""
    paused = gc.isenabled()
    gc.disable()
    try:
        from .argv import parse

        parsed = parse(sys.argv[1:], os.environ)
        if parsed is None:
            from .cli import main as run
        else:
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
    guarded(lambda: run_parsed(command, typed(command, given)))


def kubectl_plugin() -> None:
    """``kubectl-k8smigrate``: the same commands; usage lines say ``kubectl k8smigrate``."""
    main("kubectl k8smigrate")
