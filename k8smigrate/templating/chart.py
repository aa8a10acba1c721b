"""A Helm chart as a unit: which of its files are migrated, and its values.

A folder with a ``Chart.yaml`` is a chart. Its manifests are ``templates/**`` (Go
templates; ``_*`` partials and ``.tpl`` files hold defines, not documents) and ``crds/**``
(plain YAML that Helm installs as it is); subcharts under ``charts/`` are charts of their
own. ``values.yaml``, ``ci/*.yaml`` and ``Chart.yaml`` are not manifests: they are never
migrated as such, and ``values.yaml`` gives the defaults that resolve ``.Values`` paths.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

CHART_FILE = "Chart.yaml"
MANIFEST_FOLDERS = ("templates", "crds")
SUFFIXES = (".yaml", ".yml", ".json")


def is_chart(folder: Path) -> bool:
    return (folder / CHART_FILE).is_file()


def chart_root(path: Path) -> Path | None:
    """The chart a manifest file belongs to (it lies under the chart's templates/ or crds/)."""
    here = path.resolve().parent
    for folder in (here, *here.parents):
        if is_chart(folder):
            try:
                first = path.resolve().relative_to(folder).parts[0]
            except (ValueError, IndexError):
                return None
            return folder if first in MANIFEST_FOLDERS else None
    return None


def manifest_files(chart: Path) -> list[Path]:
    """The files of a chart that hold manifests, sorted; subcharts included."""
    found: list[Path] = []
    for sub in MANIFEST_FOLDERS:
        folder = chart / sub
        if folder.is_dir():
            found += [
                p
                for p in folder.rglob("*")
                if p.is_file()
                and p.name.endswith(SUFFIXES)
                and not p.name.startswith("_")
                and not any(part.startswith(".") for part in p.relative_to(chart).parts)
            ]
    charts = chart / "charts"
    if charts.is_dir():
        for sub in sorted(charts.iterdir()):
            if sub.is_dir() and is_chart(sub):
                found += manifest_files(sub)
    return sorted(found)


@lru_cache(maxsize=32)
def _values(path: str, mtime: float) -> Any:
    from ruamel.yaml import YAML

    try:
        return YAML(typ="safe", pure=True).load(Path(path).read_text(encoding="utf-8"))
    except Exception:  # a values file we cannot read resolves nothing; helm reports it
        return None


def chart_values(chart: Path | None) -> Any:
    """The parsed ``values.yaml`` of a chart (None when absent or unreadable)."""
    if chart is None:
        return None
    path = chart / "values.yaml"
    if not path.is_file():
        return None
    return _values(str(path), path.stat().st_mtime)
