"""What chart-check's `removed_after` and `differs` are made of, chart by chart.

chart-check renders the original chart once for its reference and the migrated chart once
more; a chart that renders random data (generated passwords, certificates: `randAlphaNum`,
`genCA`) differs between any two renderings, migrated or not. This script separates that
noise from what a migration changed:

- `noise`: rendered documents of the migrated chart that differ from the reference and that
  differ between two renderings of the *original* chart too (chart-check's `differs` counts
  them even for a tool that changes nothing);
- `real`: rendered documents of the migrated chart that differ from the reference (the
  original rendering migrated as plain manifests) outside the paths that differ between two
  renderings of the original; each is listed with its first paths;
- `removed`: rendered documents still on an API removed at the target, with the error codes
  that `apply` gave their template (the explanation chart-check asks for), each listed.

Usage (helm on PATH, the corpus beside the project):

    python bench/chart_residue.py [--target 1.29] [--min 1.19] [--only GLOB] [--jobs 2]
        [--k8smigrate CMD]

The check tool is read from ../shared/tools/chart-check, so the value sets, the document
identity and the removed-API table are exactly chart-check's. A dev script: not part of the
package.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import fnmatch
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def chart_check() -> ModuleType:
    path = SHARED / "tools" / "chart-check"
    loader = importlib.machinery.SourceFileLoader("chart_check", str(path))
    spec = importlib.util.spec_from_loader("chart_check", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def leaves(data: Any, path: str = "") -> dict[str, Any]:
    """Every scalar of a document by its path (list lengths too)."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(leaves(value, f"{path}/{key}"))
        return out or {path: "{}"}
    if isinstance(data, list):
        out = {f"{path}#len": len(data)}
        for i, value in enumerate(data):
            out.update(leaves(value, f"{path}/{i}"))
        return out
    return {path: data}


def changed(a: dict[str, Any], b: dict[str, Any]) -> set[str]:
    return {k for k in a.keys() | b.keys() if a.get(k, "<absent>") != b.get(k, "<absent>")}


def one_chart(chart: Path, args: argparse.Namespace, cc: ModuleType, removed: dict[Any, str]) -> dict[str, Any]:
    window = ["--target-version", args.target] + (["--min-version", args.min] if args.min else [])
    command = args.k8smigrate.split()
    figures: Counter[str] = Counter()
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        migrated = Path(tmp) / chart.name
        shutil.copytree(chart, migrated, symlinks=True)
        run = subprocess.run(
            [*command, "apply", "--in-place", *window, "--format", "json", "--jobs", "1", str(migrated)],
            capture_output=True,
            text=True,
        )
        errors: dict[str, set[str]] = {}
        try:
            for entry in json.loads(run.stdout).get("files", []):
                rel = os.path.relpath(entry["filename"], migrated.parent).replace(os.sep, "/")
                errors[rel] = {f["code"] for f in entry.get("findings", []) if f.get("level") == "error"}
        except ValueError:
            lines.append(f"UNREADABLE REPORT {chart.name}")
        for label, values in cc.value_sets(chart, args.target, args.helm):
            first = cc.render(chart, args.target, values, args.helm)
            if first is None:
                continue
            second = cc.render(chart, args.target, values, args.helm) or ""
            after = cc.render(migrated, args.target, values, args.helm)
            if after is None:
                figures["broke_render"] += 1
                continue
            figures["renders"] += 1
            a = {cc.ident(d): leaves(d) for _, d in cc.split_rendered(first)}
            b = {cc.ident(d): leaves(d) for _, d in cc.split_rendered(second)}
            plain = subprocess.run([*command, "apply", "-", *window], input=first, capture_output=True, text=True)
            reference = {cc.ident(d): d for _, d in cc.split_rendered(plain.stdout)}
            for source, doc in cc.split_rendered(after):
                ident = cc.ident(doc)
                gone = removed.get((str(doc.get("apiVersion")), str(doc.get("kind"))))
                if gone and cc.vkey(gone) <= cc.vkey(args.target):
                    codes = ",".join(sorted(errors.get(source or "", ()))) or "NO ERROR"
                    figures[f"removed {doc.get('kind')} {codes}"] += 1
                    figures["removed"] += 1
                    what = f"{doc.get('kind')} {doc.get('apiVersion')}"
                    lines.append(f"REMOVED {chart.name} [{label}] {source}: {what} {codes}")
                if ident not in reference:
                    continue
                noise = changed(a.get(ident, {}), b.get(ident, {}))
                if leaves(reference[ident]) != leaves(doc) and noise:
                    figures["noise"] += 1
                real = sorted(changed(leaves(reference[ident]), leaves(doc)) - noise)
                if real:
                    figures["real"] += 1
                    lines.append(f"REAL {chart.name} [{label}] {source}: {real[:3]}")
    return {"figures": figures, "lines": lines}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--charts", default=str(SHARED / "corpus" / "charts"))
    parser.add_argument("--target", default="1.29")
    parser.add_argument("--min")
    parser.add_argument("--only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--k8smigrate", default="k8smigrate")
    parser.add_argument("--helm", default=shutil.which("helm") or "")
    args = parser.parse_args()
    if not args.helm:
        raise SystemExit("chart_residue: helm is not on PATH (.ci/get-tools installs it)")
    cc = chart_check()
    removed = cc.removed_table()
    charts = sorted(p for p in Path(args.charts).iterdir() if (p / "Chart.yaml").exists())
    charts = [c for c in charts if not args.only or fnmatch.fnmatch(c.name, args.only)]
    total: Counter[str] = Counter()
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for result in pool.map(lambda c: one_chart(c, args, cc, removed), charts):
            total.update(result["figures"])
            for line in result["lines"]:
                print("  " + line)
    for key in sorted(k for k in total if k.startswith("removed ")):
        print(f"  {total[key]:4d} {key}")
    window = f"target={args.target}" + (f" min={args.min}" if args.min else "")
    print(
        f"chart_residue {window}: charts={len(charts)} renders={total['renders']} removed={total['removed']} "
        f"differs: noise={total['noise']} real={total['real']} broke_render={total['broke_render']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
