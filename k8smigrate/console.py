"""The console scripts (``k8smigrate``, ``kubectl-k8smigrate``, ``python -m k8smigrate``).

Why not ``cli.main`` directly: importing the CLI builds about a hundred thousand objects
(modules, classes, typer's parameters, the migrations' index) and no cycles worth collecting,
yet the cyclic garbage collector runs dozens of times during those imports: about 4 % of a
one-file run (issue 19). This module imports nothing of the library (the package's names are
lazy), so the CLI's imports happen here with the collector paused; ``cli.main`` then sets the
run's collection policy. The library itself never touches the collector.
"""

from __future__ import annotations

import gc


def main(prog_name: str = "k8smigrate") -> None:
    """``k8smigrate``: the CLI, imported with the cyclic collector paused."""
    paused = gc.isenabled()
    gc.disable()
    try:
        from .cli import main as run
    finally:
        if paused:
            gc.enable()
    run(prog_name)


def kubectl_plugin() -> None:
    """``kubectl-k8smigrate``: the same commands; usage lines say ``kubectl k8smigrate``."""
    main("kubectl k8smigrate")
