"""The packages k8smigrate is installed with, and a clear exit when one is missing.

A missing package is how k8smigrate was installed (copied, or run from a source checkout
without ``pip install``), not a bug: it gets a message naming the package instead of the
internal-error traceback. Imported by ``console`` only when an import failed, and by
``commands``, whose guard catches what the run imports later.
"""

from __future__ import annotations

import sys

REQUIRED = {"ruamel": "ruamel.yaml", "typer": "typer", "click": "typer", "jsonpatch": "jsonpatch"}
"""The top-level modules of the packages k8smigrate is installed with, by the package's name."""

EXIT_CRASH = 4
"""``exits.EXIT_CRASH``: this module imports nothing of the library (``console`` imports it first)."""


def exit_if_missing(exc: BaseException) -> None:
    """Exit with a clear message when ``exc`` says a package k8smigrate needs is not installed:
    that is how it was installed (or run from a source checkout without installing it), not a bug."""
    if not isinstance(exc, ModuleNotFoundError):
        return
    package = REQUIRED.get((exc.name or "").partition(".")[0])
    if package is None:
        return
    print(
        f"k8smigrate: the package {package} is not installed, and k8smigrate needs it: install k8smigrate "
        f"with pip, which installs what it needs (pip install -e . in a source checkout); exit code {EXIT_CRASH}",
        file=sys.stderr,
    )
    sys.exit(EXIT_CRASH)
