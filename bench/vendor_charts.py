#!/usr/bin/env python3
"""Make a chart repository's folder of charts render offline: a held-out set for chart-check.

Charts of a repository such as bitnami/charts declare their dependencies (the ``common``
library chart, databases) by repository URL, which ``helm template`` cannot fetch here. This
copies every chart of ``SRC`` (library charts aside) to ``OUT`` with each dependency that ``SRC`` also holds (by
name, recursively) copied under its ``charts/``, as ``helm dependency build`` would unpack it.
Dependencies are read from Chart.yaml, or from ``requirements.yaml`` for a Helm 2 chart.

    python bench/vendor_charts.py SRC OUT
    # e.g. SRC = bitnami/ of github:bitnami/charts at f01935dbde4e (2021-09), then
    # ../shared/tools/chart-check --charts OUT --k8smigrate k8smigrate
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from ruamel.yaml import YAML


def meta(chart: Path) -> dict[str, object]:
    data = YAML(typ="safe").load((chart / "Chart.yaml").read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def dependencies(chart: Path, src: Path) -> list[str]:
    """The names of the chart's dependencies that ``src`` holds a chart of."""
    declared = meta(chart).get("dependencies")
    requirements = chart / "requirements.yaml"  # Helm 2 charts (apiVersion v1) declare them there
    if declared is None and requirements.is_file():
        data = YAML(typ="safe").load(requirements.read_text(encoding="utf-8"))
        declared = data.get("dependencies") if isinstance(data, dict) else None
    names = [str(d.get("name")) for d in (declared if isinstance(declared, list) else []) if isinstance(d, dict)]
    return [n for n in names if (src / n / "Chart.yaml").is_file()]


def vendor(chart: Path, src: Path, above: tuple[str, ...]) -> None:
    """Copy the chart's dependencies under its charts/, theirs under theirs (no cycles)."""
    for name in dependencies(chart, src):
        target = chart / "charts" / name
        if name in above or target.exists():
            continue
        shutil.copytree(src / name, target)
        vendor(target, src, (*above, name))


def main(src: Path, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    for chart in sorted(p for p in src.iterdir() if (p / "Chart.yaml").is_file()):
        if meta(chart).get("type") == "library":
            continue  # not installable: it only lends its defines to the charts that depend on it
        target = out / chart.name
        if target.exists():
            continue
        shutil.copytree(chart, target)
        vendor(target, src, (chart.name,))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
