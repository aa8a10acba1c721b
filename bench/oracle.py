#!/usr/bin/env python3
"""Snapshot what k8smigrate does to a fixed set of inputs, and compare two snapshots.

A refactor or a performance change must not change output. This script runs the installed
library (the interpreter's ``k8smigrate``) over every manifest of ``../shared/corpus``
(plain files, chart templates, the kustomize tree) and over the benchmark's generated
repository (``bench/run.py``'s builders, fixed seed, small size), at several targets, and
records for each (file, target): the new text, the findings, each document's applied
migrations, summary and RFC 6902 patch, and the ``scan`` rows.

    python bench/oracle.py snapshot OUT.jsonl [--targets 1.22,1.29,1.35] [--only GLOB]
    python bench/oracle.py compare OLD.jsonl NEW.jsonl [--show 20]

``compare`` prints each case whose record differs, with the first differing field, and
exits 1 when any does. It is a developer tool (it reads ``../shared``), not part of the
package.
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpus"
SUFFIXES = (".yaml", ".yml", ".json", ".tpl", ".j2", ".txt")


def inputs(only: str | None) -> Iterator[tuple[str, str]]:
    """(name, text) of every input file, in a stable order."""
    for sub in ("files", "charts", "kustomize"):
        folder = SHARED / sub
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or not path.name.endswith(SUFFIXES):
                continue
            name = f"{sub}/{path.relative_to(folder)}"
            if only and not fnmatch.fnmatch(name, only):
                continue
            yield name, path.read_bytes().decode("utf-8", errors="surrogateescape")
    sys.path.insert(0, str(ROOT / "bench"))
    import run as bench

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bench.build_realistic(folder, 1500, 1, bench.deprecated_documents())
        for path in sorted(folder.rglob("*.yaml")):
            name = f"bench/{path.relative_to(folder)}"
            if only and not fnmatch.fnmatch(name, only):
                continue
            yield name, path.read_text(encoding="utf-8")


def plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def record(name: str, text: str, target: str) -> dict[str, Any]:
    import k8smigrate

    out: dict[str, Any] = {"case": f"{name}@{target}"}
    try:
        result = k8smigrate.migrate_text(text, target_version=target, filename=name)
        out["text"] = result.text if result.text != text else None
        out["findings"] = [plain(f) for f in result.findings]
        out["documents"] = [
            {"index": d.index, "applied": list(d.applied), "summary": list(d.summary), "patch": plain(d.patch)}
            for d in result.documents
        ]
    except Exception as exc:  # a crash is a recorded outcome too
        out["crash"] = f"{type(exc).__name__}: {exc}"
    try:
        out["scan"] = [plain(row) for row in k8smigrate.scan_text(text, target_version=target, filename=name)]
    except Exception as exc:
        out["scan_crash"] = f"{type(exc).__name__}: {exc}"
    return out


def snapshot(args: argparse.Namespace) -> int:
    targets = args.targets.split(",")
    count = 0
    with open(args.out, "w", encoding="utf-8") as fh:
        for name, text in inputs(args.only):
            for target in targets:
                fh.write(json.dumps(record(name, text, target), sort_keys=True, ensure_ascii=True) + "\n")
                count += 1
    print(f"{count} cases written to {args.out}")
    return 0


def load(path: str) -> dict[str, dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return {(r := json.loads(line))["case"]: r for line in fh}


def compare(args: argparse.Namespace) -> int:
    old, new = load(args.old), load(args.new)
    differing = []
    for case in sorted(old.keys() | new.keys()):
        a, b = old.get(case), new.get(case)
        if a == b:
            continue
        if a is None or b is None:
            differing.append((case, "only in " + ("new" if a is None else "old")))
            continue
        field = next(k for k in sorted(a.keys() | b.keys()) if a.get(k) != b.get(k))
        differing.append((case, f"{field}: {str(a.get(field))[:300]!r} -> {str(b.get(field))[:300]!r}"))
    for case, why in differing[: args.show]:
        print(f"DIFF {case}: {why}")
    print(f"{len(old)} old cases, {len(new)} new cases, {len(differing)} differ")
    return 1 if differing else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("out")
    s.add_argument("--targets", default="1.22,1.29,1.35")
    s.add_argument("--only")
    c = sub.add_parser("compare")
    c.add_argument("old")
    c.add_argument("new")
    c.add_argument("--show", type=int, default=20)
    args = ap.parse_args()
    if args.command == "snapshot":
        if not SHARED.is_dir():
            print("the corpus (../shared/corpus) is needed", file=sys.stderr)
            return 2
        return snapshot(args)
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
