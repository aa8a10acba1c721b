#!/usr/bin/env python3
"""What a broken document costs next to a valid one (issue 14 item 16): a developer script.

Builds, deterministically, one large file of the benchmark's realistic documents (about
``--mb`` MB), and the same file with one broken document in its middle, plus hostile
nesting (``x: `` followed by ``--nesting`` open brackets or ``{a: ``). Runs ``migrate_text``
and ``scan_text`` on each in a fresh process and prints its CPU seconds, its peak RSS and
the error findings of the broken inputs.

    python bench/broken.py                 # 3.5 MB, nesting 2500
    python bench/broken.py --mb 1 --nesting 500 --timeout 120

Not a test: the figures go to the report and the README, never into an assertion.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run as bench

import k8smigrate

BROKEN = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: broken\ndata:\n  a: [unclosed\n  b: {x: 1\n"


def realistic(megabytes: float, seed: int = 1) -> str:
    rng = random.Random(seed)
    makers = (bench.deployment, bench.service, bench.configmap)
    docs: list[str] = []
    size, i = 0, 0
    while size < megabytes * 1e6:
        doc = makers[i % 3](rng, i)
        docs.append(doc)
        size += len(doc) + 4
        i += 1
    return "---\n".join(docs)


def with_broken(text: str) -> str:
    docs = text.split("---\n")
    middle = len(docs) // 2
    return "---\n".join([*docs[:middle], BROKEN, *docs[middle:]])


def cases(megabytes: float, nesting: int) -> dict[str, str]:
    valid = realistic(megabytes)
    return {
        f"valid {len(valid) / 1e6:.1f} MB": valid,
        "one broken document": with_broken(valid),
        f"x: + {nesting} '['": "x: " + "[" * nesting + "\n",
        f"x: + {nesting} '{{a: '": "x: " + "{a: " * nesting + "\n",
    }


def one(name: str, what: str, args: argparse.Namespace) -> None:
    """Run one case in this (fresh) process; print its CPU seconds, peak RSS and errors as JSON."""
    text = cases(args.mb, args.nesting)[name]
    start = time.process_time()
    if what == "apply":
        findings = k8smigrate.migrate_text(text, target_version=args.target).findings
    else:
        k8smigrate.scan_text(text, target_version=args.target)
        findings = []
    seconds = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    errors = [f"{f.code} line {f.line}: {f.message[:90]}" for f in findings if f.level == "error"][:2]
    print(json.dumps({"seconds": seconds, "peak": peak, "errors": errors}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=3.5, help="size of the large file")
    parser.add_argument("--nesting", type=int, default=2500, help="open brackets of the hostile input")
    parser.add_argument("--target", default="1.29")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before a case is given up")
    parser.add_argument("--one", nargs=2, metavar=("CASE", "WHAT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        one(args.one[0], args.one[1], args)
        return 0
    for name in cases(args.mb, args.nesting):
        for what in ("apply", "scan"):
            command = [sys.executable, __file__, "--mb", str(args.mb), "--nesting", str(args.nesting)]
            command += ["--target", args.target, "--one", name, what]
            try:
                out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                print(f"{name:<28} {what:<6} > {args.timeout:.0f} s (given up)", flush=True)
                continue
            got = json.loads(out.stdout.splitlines()[-1])
            print(f"{name:<28} {what:<6} {got['seconds']:8.2f} s  peak RSS {got['peak']:7.0f} MB", flush=True)
            for error in got["errors"] if what == "apply" else []:
                print(f"    {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
