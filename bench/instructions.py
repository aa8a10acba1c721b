#!/usr/bin/env python3
"""Instructions a one-file run executes (valgrind's callgrind): a start-up figure load cannot move.

On a shared machine wall and CPU times of a 0.3 s process swing by ±20 % from one minute to the
next, which hides a change worth 2 %. The number of instructions a process executes hardly
moves at all (the same input, the same bytecode cache): compare it before and after a start-up
change, then confirm with ``bench/run.py --parts one`` (time against kpt). Needs ``valgrind``.

Measured like ``bench/run.py``: a regular install of this checkout in a new venv (``--venv
installed``, default) or the running interpreter's (``--venv running``), bytecode cached, each
command run once unmeasured first.

    python bench/instructions.py [FILE] [--target 1.29] [--venv installed|running]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import ONE_FILE, installed_venv  # noqa: E402  (a script beside run.py)


def instructions(cmd: list[str], cwd: Path, env: dict[str, str]) -> int:
    """The instructions ``cmd`` executed (the process only), from callgrind's summary."""
    subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)  # bytecode cache
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no callgrind summary for {cmd}: {out.stderr[-500:]}")
    return int(found.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(ONE_FILE))
    ap.add_argument("--target", default="1.29")
    ap.add_argument("--venv", choices=("installed", "running"), default="installed")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not on PATH", file=sys.stderr)
        return 1
    path = str(Path(args.file).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        python = (installed_venv(base / "venv") if args.venv == "installed" else None) or sys.executable
        exe = str(Path(python).parent / "k8smigrate")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(base / "pycache")
        flags = ["--target-version", args.target, "--color", "never"]
        commands = {
            "k8smigrate apply --check": [exe, "apply", "--check", path, *flags],
            "k8smigrate scan": [exe, "scan", path, *flags],
            "python -c pass": [python, "-c", "pass"],
        }
        print(f"{args.file}, target {args.target} ({args.venv}): millions of instructions")
        for label, cmd in commands.items():
            print(f"  {label:28} {instructions(cmd, base, env) / 1e6:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
