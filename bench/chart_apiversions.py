"""Survey of the apiVersions that charts compute, and what the plan does with them.

    python bench/chart_apiversions.py [--charts DIR] [--min 1.22] [--target 1.29] [--sites]

For every chart of the folder (default ../shared/corpus/charts): the computed apiVersion sites
by idiom and by the kind of condition that decides them, and the plan's status for each
(``ok``, ``rewritten``, ``blocked``, ``unknown``, ``untracked``), with the edits and findings.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from k8smigrate.templating.apiversions import plan  # noqa: E402
from k8smigrate.templating.sites import Site  # noqa: E402
from k8smigrate.versions import Window  # noqa: E402
from tests.templating_helpers import read_chart  # noqa: E402


def condition_kind(site: Site) -> str:
    kinds = set()
    for text in site.conditions:
        if "semverCompare" in text:
            source = "variable"
            if "GitVersion" in text or "KubeVersion.Version" in text:
                source = "GitVersion" if "GitVersion" in text else "Version"
            kinds.add(f"semverCompare {source}" + ("" if re.search(r'"[^"]*-0[," ]', text) else " without -0"))
        elif "APIVersions.Has" in text:
            found = re.search(r'Has "([^"]+)"', text)
            kinds.add("APIVersions.Has group/version/Kind" if found and found[1].count("/") == 2 else "APIVersions.Has")
    if site.idiom == "values":
        kinds.add("values.yaml key")
    return " + ".join(sorted(kinds)) or "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--charts", type=Path, default=ROOT.parent / "shared" / "corpus" / "charts")
    parser.add_argument("--min", default="1.22")
    parser.add_argument("--target", default="1.29")
    parser.add_argument("--sites", action="store_true", help="print every site")
    args = parser.parse_args()
    window = Window.of(args.target, args.min)
    idioms: Counter[tuple[str, str]] = Counter()
    statuses: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    charts = edits = 0
    started = time.perf_counter()
    for folder in sorted(p for p in args.charts.iterdir() if (p / "Chart.yaml").is_file()):
        result = plan(read_chart(folder), window)
        charts += bool(result.sites)
        edits += len(result.edits)
        codes.update(f.code for f in result.findings)
        for site in result.sites:
            idioms[(site.site.idiom, condition_kind(site.site))] += 1
            statuses[site.status] += 1
            if args.sites:
                where = f"{folder.name}/{site.site.path}:{site.site.line}"
                print(f"{where:70} {site.kind or '?':22} {site.status:10} {site.body_from} -> {site.target or '-'}")
    print(f"window {window.min_version}–{window.target}: {sum(statuses.values())} sites in {charts} charts")
    for (idiom, kind), count in sorted(idioms.items()):
        print(f"  {count:4}  {idiom:10} {kind}")
    print("  status: " + ", ".join(f"{k}={v}" for k, v in sorted(statuses.items())))
    print(f"  edits={edits} findings: " + ", ".join(f"{k}={v}" for k, v in sorted(codes.items())))
    print(f"  {time.perf_counter() - started:.1f}s")


if __name__ == "__main__":
    main()
