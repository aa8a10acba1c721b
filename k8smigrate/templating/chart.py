"""A Helm chart as a unit: which of its files are migrated, and its values.

A folder with a ``Chart.yaml`` is a chart. Its manifests are ``templates/**`` (Go
templates; ``_*`` partials and ``.tpl`` files hold defines, not documents) and ``crds/**``
(plain YAML that Helm installs as it is); subcharts under ``charts/`` are charts of their
own. ``values.yaml``, ``ci/*.yaml`` and ``Chart.yaml`` are not manifests: they are never
migrated as such, and ``values.yaml`` gives the defaults that resolve ``.Values`` paths; the
chart-level step migrates the objects the values files hold (``values_objects``).
Objects a template renders from another file of the chart (``{{ tpl (.Files.Get
"CRD/x.yaml") . }}``, ``.Files.Glob "crds/*"``) are manifests too: those files, named by a
path written in a template, are migrated as they are (``loaded_files``).
"""

from __future__ import annotations

import fnmatch
import os
import re
from functools import lru_cache
from pathlib import Path

from ..lazyre import lazy
from ..readlimits import CHART_FILE
from ..runtime_typing import Any

MANIFEST_FOLDERS = ("templates", "crds")
SUFFIXES = (".yaml", ".yml", ".json")


def is_chart(folder: Path) -> bool:
    return (folder / CHART_FILE).is_file()


def chart_root(path: Path) -> Path | None:
    """The chart a file belongs to: one under its templates/ or crds/, its values.yaml, or a
    values file of its ci/."""
    here, name = _where(path)
    if name != "values.yaml" and not _may_hold_chart_files(here):
        return None  # no folder of it can be a chart's templates/ or crds/: spare a stat per folder up to /
    resolved = here / name
    for folder in (here, *here.parents):
        if is_chart(folder):
            parts = resolved.relative_to(folder).parts
            if parts and (parts[0] in MANIFEST_FOLDERS or parts == ("values.yaml",) or _ci_values(parts)):
                return folder
            return None
    return None


def _ci_values(parts: tuple[str, ...]) -> bool:
    return len(parts) == 2 and parts[0] == "ci" and parts[1].endswith(".yaml")


def _resolved(path: Path) -> Path:
    """``path.resolve()``, from ``_where``."""
    here, name = _where(path)
    return here / name


def _where(path: Path) -> tuple[Path, str]:
    """The folder a file stands in, resolved, and its name there. The folder's resolution is
    remembered: a run asks for every file, several times, and ``resolve`` stats each folder up
    to the root each time. A file that is itself a link is resolved in full."""
    if os.path.islink(path):
        resolved = path.resolve()
        return resolved.parent, resolved.name
    return _resolved_folder(_absolute(os.path.dirname(path))), path.name


def _absolute(folder: str) -> str:
    """The folder as the remembered answers are keyed: from the working folder of the moment
    (a library caller may change it between calls)."""
    return folder if os.path.isabs(folder) else os.path.join(os.getcwd(), folder)


@lru_cache(maxsize=1024)
def _may_hold_chart_files(folder: Path) -> bool:
    """Whether a file of ``folder`` (resolved) may be a chart's: the folder is a ci/ or has a
    templates/ or crds/ among its parts."""
    return folder.name == "ci" or any(part in MANIFEST_FOLDERS for part in folder.parts)


@lru_cache(maxsize=1024)
def _resolved_folder(folder: str) -> Path:
    return Path(folder).resolve()


def is_support_file(rel: str) -> bool:
    """A chart file that is not a manifest: values.yaml, ci/*.yaml and the templates' partials
    (``_*``, ``*.tpl``)."""
    name = rel.rsplit("/", 1)[-1]
    return (
        rel == "values.yaml"
        or _ci_values(tuple(rel.split("/")))
        or (rel.startswith("templates/") and (name.startswith("_") or name.endswith(".tpl")))
    )


def is_values_file(path: Path, chart: Path) -> bool:
    """Whether ``path`` is the values.yaml or a ci/*.yaml values file of ``chart``."""
    parts = _resolved(path).relative_to(chart.resolve()).parts
    return parts == ("values.yaml",) or _ci_values(parts)


def manifest_files(chart: Path) -> list[Path]:
    """The files of a chart that a run reads, sorted, subcharts included: its manifests, the
    partials and values.yaml that computed apiVersions may be rewritten in, and the values
    files (values.yaml, ci/*.yaml) for the objects they may hold (``values_objects``)."""
    found: list[Path] = [chart / "values.yaml"] if (chart / "values.yaml").is_file() else []
    found += [p for p in (chart / "ci").glob("*.yaml") if p.is_file()]  # values files that may hold objects
    for sub in MANIFEST_FOLDERS:
        folder = chart / sub
        if folder.is_dir():
            found += [
                p
                for p in folder.rglob("*")
                if p.is_file()
                and (p.name.endswith(SUFFIXES) or (sub == "templates" and p.name.endswith(".tpl")))
                and not any(part.startswith(".") for part in p.relative_to(chart).parts)
            ]
    found += loaded_files(chart, found)
    charts = chart / "charts"
    if charts.is_dir():
        for child in sorted(charts.iterdir()):
            if child.is_dir() and is_chart(child):
                found += manifest_files(child)
    return sorted(found)


_FILES_CALL = lazy(r"\.Files\.(?:Get|Glob|Lines)\b")
_LITERAL = lazy(r""""([^"\s{}|]+)"|`([^`\s{}|]+)`""")
_OBJECT = lazy(r"^apiVersion[ \t]*:.*\n(?:.*\n)*?kind[ \t]*:|^kind[ \t]*:.*\n(?:.*\n)*?apiVersion[ \t]*:", re.M)
_NOT_MANIFESTS = ("templates", "crds", "charts", "ci")


def loaded_files(chart: Path, templates: list[Path]) -> list[Path]:
    """The chart's other files that its templates read with ``.Files`` by a path (or glob) written
    in a template, and that hold Kubernetes objects (top-level ``apiVersion`` and ``kind``).

    A template that renders such a file (``tpl (.Files.Get "CRD/x.yaml") .``) puts its objects
    in the chart's output, so they need the migration a template's own objects get. Files under
    templates/, crds/, charts/ and ci/, and values files, are never among them.
    """
    texts = []
    for path in templates:
        if path.parent != chart:  # templates/ and crds/: values.yaml reads no file
            try:
                texts.append(path.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
    written = {a or b for text in texts if _FILES_CALL.search(text) for a, b in _LITERAL.findall(text)}
    if not written:
        return []
    candidates = [
        p
        for p in chart.rglob("*")
        if p.name.endswith(SUFFIXES)
        and p.relative_to(chart).parts[0] not in _NOT_MANIFESTS
        and not p.name.startswith("values")
        and p.name not in (CHART_FILE, "requirements.yaml")
        and not any(part.startswith(".") for part in p.relative_to(chart).parts)
        and p.is_file()
    ]
    found = []
    for p in candidates:
        rel = p.relative_to(chart).as_posix()
        if any(rel == w or fnmatch.fnmatchcase(rel, w) for w in written if "/" in w or "." in w):
            try:
                text = p.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if _OBJECT.search(text) or ('"apiVersion"' in text and '"kind"' in text):
                found.append(p)
    return found


@lru_cache(maxsize=32)
def _values(path: str, mtime: float) -> Any:
    return load_values(Path(path).read_text(encoding="utf-8", errors="replace"))


def load_values(text: str) -> Any:
    """The data of a values file (its first document), or None when it cannot be read."""
    from ..yamlio import read_data

    try:
        docs = read_data(text)
    except ValueError:  # a values file we cannot read resolves nothing; helm reports it
        return None
    return docs[0] if docs else None


def chart_values(chart: Path | None) -> Any:
    """The parsed ``values.yaml`` of a chart (None when absent or unreadable)."""
    if chart is None:
        return None
    path = chart / "values.yaml"
    if not path.is_file():
        return None
    return _values(str(path), path.stat().st_mtime)
