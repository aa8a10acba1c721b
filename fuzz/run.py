"""A long fuzz run of the properties in ``tests/fuzz_checks.py`` (not part of the test suite).

Usage (from the project folder)::

    .venv/bin/python fuzz/run.py --examples 3000 --seed 20240607

``--examples N`` is the number of generated streams per property (six properties: realistic
streams over the whole migration table, streams no migration touches, randomly edited
streams, streams with aliases and merge keys in the parts migrations edit, streams whose
apiVersion and kind are written in every valid spelling (the pre-filter against a full
read), and streams with one hostile deeply nested document); each stream holds 1–4 documents.
``--seed S`` makes a run reproducible (Hypothesis' example database is off). The documented
reference run is ``--examples 3000 --seed 20240607``.
A failing property prints Hypothesis' shrunk falsifying example and the run exits 1.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, given, seed, settings

from tests.fuzz_checks import check_hostile, check_prefilter, check_shared, check_stream, check_survives, migrate
from tests.strategies import current, hostile_streams, join, mutated, rich_streams, shared_streams, spelled_streams

DEFAULT_SEED = 20240607


def properties(stats: Counter[str]) -> dict[str, Callable[..., None]]:
    def realistic(docs: list[str]) -> None:
        stats["realistic streams"] += 1
        stats["realistic documents"] += len(docs)
        result = check_stream(join(docs))
        stats["documents migrated"] += sum(1 for d in result.documents if d.applied)
        for f in result.findings:
            stats[f"finding {f.code}"] += 1

    def identity(docs: list[str]) -> None:
        stats["untouched streams"] += 1
        stats["untouched documents"] += len(docs)
        text = join(docs)
        assert migrate(text).text == text

    def edited(text: str) -> None:
        stats["edited streams"] += 1
        result = check_survives(text)
        if any(f.code == "K8SM-GEN-012" for f in result.findings):
            stats["edited: internal error finding"] += 1

    def shared(docs: list[str]) -> None:
        stats["shared streams"] += 1
        result = check_shared(join(docs))
        stats["shared: documents refused (K8SM-GEN-017)"] += len(
            {f.document for f in result.findings if f.code == "K8SM-GEN-017"}
        )
        stats["shared: documents migrated"] += sum(1 for d in result.documents if d.applied)

    def prefilter(docs: list[str]) -> None:
        stats["spelled streams"] += 1
        check_prefilter(docs)

    def hostile(case: tuple[list[str], int]) -> None:
        stats["hostile streams"] += 1
        result = check_hostile(*case)
        for f in result.findings:
            if f.document == case[1]:
                stats[f"hostile: {f.code}"] += 1

    return {
        "realistic": given(rich_streams())(realistic),
        "identity": given(rich_streams(current()))(identity),
        "edited": given(mutated())(edited),
        "shared": given(shared_streams())(shared),
        "prefilter": given(spelled_streams())(prefilter),
        "hostile": given(hostile_streams())(hostile),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=3000, help="generated streams per property")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (reproducible runs)")
    parser.add_argument(
        "--only", choices=["realistic", "identity", "edited", "shared", "prefilter", "hostile"], action="append"
    )
    args = parser.parse_args(argv)
    stats: Counter[str] = Counter()
    failed = []
    config = settings(
        max_examples=args.examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )
    for name, test in properties(stats).items():
        if args.only and name not in args.only:
            continue
        started = time.monotonic()
        wrapped: Any = seed(args.seed)(config(test))
        try:
            wrapped()
            status = "ok"
        except Exception:
            traceback.print_exc()
            failed.append(name)
            status = "FAILED"
        print(f"{name}: {status} in {time.monotonic() - started:.0f} s", flush=True)
    for key, value in sorted(stats.items()):
        print(f"  {key}: {value}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
