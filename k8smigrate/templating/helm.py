"""Proof with the real ``helm``: render a chart before and after, compare with the plain migration.

A chart is migrated right when rendering the migrated chart gives what migrating the
rendering of the original gives. ``verify`` renders both with ``helm template`` at the
window's releases (``--kube-version``), with the chart's default values and with each
``ci/*.yaml``, migrates the original rendering as plain manifests, and reports each
rendered document whose data differs, each one still on an API removed at the target,
and each rendering that breaks. Data that a chart draws at random (``randAlphaNum``,
``genCA``) differs between any two renderings: a document that differs between two
renderings of the original chart is not compared.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from ..dataclasscode import dataclass
from ..engine import migrate_stream
from ..registry import Registry, default_registry
from ..results import Finding
from ..runtime_typing import Any
from ..settings import Settings
from ..versions import KubeVersion
from ..yamlio import read_data
from .capabilities import lifecycle, served

HELM_ENV = "K8SMIGRATE_HELM"
"""The helm to run (the Helm plugin sets it to the helm that runs it); default: ``helm`` on PATH."""


class HelmMissing(RuntimeError):
    """No ``helm`` to render with."""


def helm_binary() -> str:
    found = os.environ.get(HELM_ENV) or shutil.which("helm")
    if not found:
        raise HelmMissing("--verify-render needs helm on PATH (or its path in K8SMIGRATE_HELM)")
    return found


def charts_in(paths: list[Path]) -> list[Path]:
    """The chart folders that ``paths`` name or contain (not their subcharts, which render with
    them), or that a named file belongs to."""
    from .chart import chart_root

    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            tops = sorted(p.parent for p in path.rglob("Chart.yaml"))
            found += [c for c in tops if not any(o != c and o in c.parents for o in tops)]
        elif (root := chart_root(path)) is not None:
            found.append(root)
    unique: dict[Path, Path] = {}
    for chart in found:
        unique.setdefault(chart.resolve(), chart)
    return list(unique.values())


@contextmanager
def snapshots(charts: list[Path]) -> Iterator[dict[Path, Path]]:
    """Copies of ``charts`` as they are now, removed on exit."""
    with tempfile.TemporaryDirectory(prefix="k8smigrate-verify-") as tmp:
        copies = {}
        for n, chart in enumerate(charts):
            copy = Path(tmp) / str(n) / chart.name
            shutil.copytree(chart, copy, symlinks=True)
            copies[chart] = copy
        yield copies


@dataclass
class Rendering:
    """One ``helm template`` run of a chart: what it is called, the release and its arguments."""

    label: str
    version: str
    args: list[str]


def renderings(chart: Path, versions: list[str]) -> list[Rendering]:
    sets: list[tuple[str, list[str]]] = [("default values", [])]
    ci = chart / "ci"
    if ci.is_dir():
        sets += [(f"ci/{f.name}", ["-f", str(f.relative_to(chart))]) for f in sorted(ci.glob("*.yaml"))]
    return [Rendering(label, v, args) for v in versions for label, args in sets]


def render(helm: str, chart: Path, rendering: Rendering) -> tuple[str | None, str]:
    """(stdout or None, stderr) of ``helm template`` for one rendering, run in the chart folder."""
    args = [a if a == "-f" else str(chart / a) if a.startswith("ci/") else a for a in rendering.args]
    cmd = [helm, "template", "release", str(chart), "--namespace", "default"]
    cmd += ["--kube-version", f"{rendering.version}.0", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    return (proc.stdout if proc.returncode == 0 else None), proc.stderr.strip()


def verify(
    before: Path,
    after: Path,
    settings: Settings,
    shown_as: Path,
    registry: Registry | None = None,
) -> list[Finding]:
    """Findings that prove (or disprove) the migration of chart ``before`` into ``after``."""
    helm = helm_binary()
    registry = registry or default_registry()
    window = settings.window
    versions = sorted({str(window.min_version), str(window.target)})
    findings: list[Finding] = []
    name = str(shown_as)
    checked = documents = 0
    for rendering in renderings(before, versions):
        original, _err = render(helm, before, rendering)
        if original is None:
            continue  # the chart does not render with these values: nothing to compare
        checked += 1
        where = f"helm template at {rendering.version} with {rendering.label}"
        migrated, err = render(helm, after, rendering)
        if migrated is None:
            last = err.splitlines()[-1] if err else "failed"
            findings.append(
                Finding("error", "K8SM-TPL-010", f"{where}: the migrated chart does not render: {last}", None, name)
            )
            continue
        again, _ = render(helm, before, rendering)
        unstable = _unstable(original, again or "")
        reference = migrate_stream(original, settings, "<rendered>", registry).text
        want = {_ident(d): d for _src, d in _documents(reference)}
        at_release: dict[str, dict[tuple[str, str, str], dict[str, Any]]] = {}
        for source, doc in _documents(migrated):
            documents += 1
            ident = _ident(doc)
            at = source or name
            api, kind = str(doc.get("apiVersion")), str(doc.get("kind"))
            life = lifecycle(api, kind)
            # judged at the release it was rendered for: a chart that branches by version
            # (policy/v1beta1 before 1.21) gives an older release an API only that release serves
            if (
                life is not None
                and life.removed_in is not None
                and life.removed_in <= KubeVersion.parse(rendering.version)
            ):
                message = f"{where}: {kind} {ident[2]} is still on {api}, removed in {life.removed_in}"
                findings.append(Finding("error", "K8SM-TPL-011", message, None, at))
            expected = want.get(ident)
            if expected is None or expected == doc or ident in unstable:
                continue
            if _as_the_release_needs(original, doc, ident, rendering.version, settings, registry, at_release):
                continue
            message = (
                f"{where}: {kind} {ident[2]} differs from migrating the rendered output: {_first_diff(expected, doc)}"
            )
            findings.append(Finding("error", "K8SM-TPL-012", message, None, at))
    if not findings:
        message = f"helm proves it: {checked} renderings, {documents} documents equal to migrating the rendered output"
        findings.append(Finding("info", "K8SM-TPL-013", message, None, name))
    return findings


def _as_the_release_needs(
    original: str,
    doc: dict[str, Any],
    ident: tuple[str, str, str],
    version: str,
    settings: Settings,
    registry: Registry,
    cache: dict[str, dict[tuple[str, str, str], dict[str, Any]]],
) -> bool:
    """Whether ``doc`` is what migrating the rendered output for the one release it was rendered
    at gives. A chart may give each release the API it serves (``--set api-branches=write``),
    which a plain manifest for the whole window cannot (it keeps the older API, K8SM-GEN-009).

    Also proven: the document migrated for the target, under an apiVersion served at that
    release whose step to the target's declares the same fields (``Step.same_fields``: a
    ``v2beta1`` HorizontalPodAutoscaler written as ``v2``'s body under ``autoscaling/v2beta2``)."""

    def reference(release: str) -> dict[tuple[str, str, str], dict[str, Any]]:
        if release not in cache:
            narrowed = replace(settings, min_version=release, target_version=release)
            migrated = migrate_stream(original, narrowed, "<rendered>", registry).text
            cache[release] = {_ident(d): d for _src, d in _documents(migrated)}
        return cache[release]

    if reference(version).get(ident) == doc:
        return True
    api, kind = doc.get("apiVersion"), doc.get("kind")
    if not isinstance(api, str) or not isinstance(kind, str):
        return False
    step = registry.step(api, kind)
    if step is None or not step.same_fields or served(api, kind, KubeVersion.parse(version)) is not True:
        return False
    return reference(str(settings.window.target)).get(ident) == {**doc, "apiVersion": step.to_api}


def _documents(text: str) -> list[tuple[str | None, dict[str, Any]]]:
    out: list[tuple[str | None, dict[str, Any]]] = []
    for chunk in re.split(r"^---[ \t]*$", text, flags=re.M):
        m = re.search(r"^# Source: (.+)$", chunk, re.M)
        try:
            docs = read_data(chunk)
        except ValueError:  # a document helm printed but YAML cannot read: helm's own output, kept out
            continue
        for d in docs:
            if isinstance(d, dict):
                out.append((m.group(1).strip() if m else None, d))
    return out


def _ident(d: dict[str, Any]) -> tuple[str, str, str]:
    meta = d.get("metadata") or {}
    meta = meta if isinstance(meta, dict) else {}
    return str(d.get("kind")), str(meta.get("namespace", "")), str(meta.get("name"))


def _unstable(a: str, b: str) -> set[tuple[str, str, str]]:
    """Documents that two renderings of the same chart give differently (random data)."""
    first = {_ident(d): d for _s, d in _documents(a)}
    return {_ident(d) for _s, d in _documents(b) if first.get(_ident(d)) != d}


def _first_diff(a: Any, b: Any, path: str = "") -> str:
    if type(a) is not type(b):
        return f"{path or '/'}: {str(a)[:60]!r} expected, {str(b)[:60]!r} rendered"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k, "<absent>") != b.get(k, "<absent>"):
                if k in a and k in b:
                    return _first_diff(a[k], b[k], f"{path}/{k}")
                return f"{path}/{k}: {'missing' if k in a else 'not expected'}"
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items expected, {len(b)} rendered"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_diff(x, y, f"{path}/{i}")
    return f"{path}: {str(a)[:60]!r} expected, {str(b)[:60]!r} rendered"
