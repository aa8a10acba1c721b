#!/usr/bin/env python3
"""Where a short k8smigrate run spends its time: start-up phases measured in fresh processes.

Each repetition is a new interpreter (bytecode cached, as installed) that runs the phases
of ``k8smigrate apply --check`` / ``scan`` on one file in order and reports, per phase, wall
and CPU milliseconds. CPU time is the figure to read on a busy machine. Phases, each measured
after the previous ones (so an import already paid for is not counted twice):

    interpreter       python start to the first line (from ``python -c pass``, separately)
    typer             import typer (and click, its vendored copy)
    ruamel            import ruamel.yaml and the libyaml extension
    k8smigrate        import k8smigrate (the library: api, engine, registry, yamlio, tree, …)
    cli               import k8smigrate.cli (the rest: parallel, report, terminal, …)
    registry: declarations  the built-in migrations from their index (``k8smigrate.indexed``;
                      every module imported when the index is stale), no bodies
    registry: entry points  whether any distribution declares ``k8smigrate.migrations``
                      entry points (importlib.metadata only when one does)
    registry: validate  Registry(): graph validation and indexes
    tables            the removal table and feature gates (data/*.tsv)
    pydantic          what typer 0.29 imports to coerce parameters at parse time (0 before 0.29)
    typer parse       the CLI parses ``apply --check FILE`` (without running the command)
    first file        migrate_file on the file (pre-filter built, trees, bodies)
    second file       the same again (what a warm process pays per small file)
    scan file         scan_file on the same file

    python bench/startup.py [FILE] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, sys, time
marks = []
def mark(name):
    marks.append((name, time.perf_counter(), time.process_time()))
mark("start")
import typer
mark("typer")
import ruamel.yaml, _ruamel_yaml
mark("ruamel")
import k8smigrate
mark("k8smigrate")
import k8smigrate.cli as cli
import k8smigrate.commands as commands
mark("cli")
from k8smigrate import registry as reg
found = reg.discover(entry_points=False)
mark("registry: declarations")
from k8smigrate import entrypoints
entrypoints.declared()
mark("registry: entry points")
reg._REGISTRY = reg.Registry(found)
mark("registry: validate")
from k8smigrate.lifecycles import builtin
builtin()
from k8smigrate.kube.feature_gates import table
table()
mark("tables")
try:  # typer 0.29 coerces parameters with pydantic (imported at parse time); older ones do not
    import typer._adapters
except ImportError:
    pass
mark("pydantic")
path, target = sys.argv[1], sys.argv[2]
command = typer.main.get_command(cli.app)
ctx = command.make_context("k8smigrate", ["apply", "--check", "--target-version", target, path])
sub = command.get_command(ctx, "apply")
sub.make_context("apply", ["--check", "--target-version", target, path], parent=ctx)
mark("typer parse")
from k8smigrate.api import migrate_file, scan_file
settings, _ = commands.build_settings(target, None, None, None, None, False)
migrate_file(path, settings=settings)
mark("first file")
migrate_file(path, settings=settings)
mark("second file")
scan_file(path, settings=settings)
mark("scan file")
out = [(name, (t - marks[i][1]) * 1000, (c - marks[i][2]) * 1000) for i, (name, t, c) in enumerate(marks[1:])]
print(json.dumps(out))
"""


def bare(env: dict[str, str]) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "pass"], env=env, cwd=tempfile.gettempdir())
    _pid, _status, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(HERE / "deprecated" / "ingress-extensions.yaml"))
    ap.add_argument("--target", default="1.29")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        runs: list[list[tuple[str, float, float]]] = []
        bares: list[tuple[float, float]] = []
        for n in range(args.repeat + 1):  # the first run only writes the bytecode cache
            out = subprocess.run(
                [sys.executable, "-c", CHILD, str(Path(args.file).resolve()), args.target],
                cwd=tmp,
                env=env,
                capture_output=True,
                text=True,
            )
            if out.returncode != 0:
                print(out.stderr, file=sys.stderr)
                return 1
            if n:
                runs.append([tuple(x) for x in json.loads(out.stdout)])  # type: ignore[misc]
                bares.append(bare(env))
    names = [name for name, _w, _c in runs[0]]
    print(f"{args.file}, target {args.target}: medians of {args.repeat} fresh processes (ms)")
    print(f"  {'phase':26} {'wall':>8} {'cpu':>8}")
    bare_wall, bare_cpu = statistics.median(b[0] for b in bares), statistics.median(b[1] for b in bares)
    print(f"  {'interpreter (-c pass)':26} {bare_wall:8.1f} {bare_cpu:8.1f}")
    total_w = total_c = 0.0
    for i, name in enumerate(names):
        wall = statistics.median(r[i][1] for r in runs)
        cpu = statistics.median(r[i][2] for r in runs)
        total_w += wall
        total_c += cpu
        print(f"  {name:26} {wall:8.1f} {cpu:8.1f}")
    print(f"  {'sum of phases':26} {total_w:8.1f} {total_c:8.1f}")
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}, cores {os.cpu_count()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
