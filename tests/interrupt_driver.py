"""The real command line with one file made to hang or crash, for tests that send real signals.

Run as ``python tests/interrupt_driver.py ARGS…`` with ``K8SM_TEST_MODE`` (``migrate``: hang
while migrating the file; ``fsync``: hang while writing it, its temporary file on disk;
``crash``: raise while migrating it), ``K8SM_TEST_FILE`` (the file's name) and
``K8SM_TEST_READY`` (a file that gets the PID of the process that reached the hang). Worker
processes are forked, so they inherit the patch; workers start however small the folder. Used by tests/test_interrupts.py.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from k8smigrate import api, console, parallel

MODE, NAME, READY = (os.environ[k] for k in ("K8SM_TEST_MODE", "K8SM_TEST_FILE", "K8SM_TEST_READY"))


def hang() -> None:
    with open(READY, "a") as fh:
        fh.write(f"{os.getpid()}\n")
    time.sleep(3600)  # until a signal ends it


real_migrate = api.migrate_stream
real_fsync = os.fsync


def migrate_stream(text: str, settings: Any, filename: str, *args: Any, **kwargs: Any) -> Any:
    if os.path.basename(filename) == NAME:
        if MODE == "crash":
            raise RuntimeError(f"injected crash on {NAME}")
        if MODE == "migrate":
            hang()
    return real_migrate(text, settings, filename, *args, **kwargs)


def fsync(fd: int) -> None:
    if MODE == "fsync" and f"/.{NAME}." in os.readlink(f"/proc/self/fd/{fd}"):
        hang()
    real_fsync(fd)


api.migrate_stream = migrate_stream  # type: ignore[assignment]
parallel.SERIAL_BYTES = parallel.SCAN_SERIAL_BYTES = 0  # a small folder still gets worker processes with -j2
os.fsync = fsync
sys.argv[0] = "k8smigrate"
console.main()  # the console script: argv parses these command lines, not typer
