"""The chart-level step before each template is migrated: apiVersions the chart computes.

``apiversions.plan`` evaluates every computed apiVersion of a chart over the window and
edits its sources (a ``_helpers.tpl`` branch, a literal, a ``values.yaml`` default) so that
every release gets an API it serves. Each file of the chart then starts from its edited
text; a document whose apiVersion was moved has its body migrated from the API it was
written for (``body_from``) to the new one (``body_to``) by ``migrate.migrate_template``.

One plan per chart and settings, computed on the first file that asks and kept while the
chart's files are unchanged (a run migrates the chart file by file). A file this process
wrote from the plan (``note_written``) counts as unchanged: with ``--in-place`` the helper
rewritten first must not make the next template look already migrated (its body would then
be left in the old shape).

A site whose document body cannot be migrated to the new API (a decision is missing, the
skeleton cannot represent it…) keeps its apiVersion (``K8SM-TPL-109``): an apiVersion moved
without its body would give an object the API server rejects.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from contextlib import suppress
from dataclasses import field, replace
from pathlib import Path
from stat import S_ISREG

from ..codes import API_CONFLICT
from ..dataclasscode import dataclass
from ..decisions import chart_decision
from ..regexcode import regex
from ..results import DocumentResult, Finding
from ..runtime_typing import TYPE_CHECKING, Any
from ..settings import Settings
from .chart import chart_values, is_chart, load_values

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..versions import KubeVersion, Window
    from .apiversions import ApiVersionPlan, ChartSources, Edit, SiteResult
    from .gates import Gate

_DOC_MARKER = regex(r"^(?:---|\.\.\.)(?=[ \t\r\n]|$)", re.M)


@dataclass
class ChartPlan:
    """What the chart-level step gives each file of a chart (paths relative to the chart)."""

    texts: dict[str, str] = field(default_factory=dict)
    """The edited text of each file the plan changes."""
    bodies: dict[str, dict[int, tuple[str, str]]] = field(default_factory=dict)
    """Per template, per document index: (the API its body is written for, the API to migrate it to)."""
    findings: dict[str, list[Finding]] = field(default_factory=dict)
    gates: dict[str, list[Gate]] = field(default_factory=dict)
    """Per template the plan leaves as it is, its version conditions (``gates.gates``)."""
    values: Any = None
    """values.yaml as the plan edited it (parsed), or None when the plan left it as it is."""
    documents: dict[str, list[DocumentResult]] = field(default_factory=dict)
    """Per values file, the objects it holds that the plan migrated (``values_objects``)."""
    newline_defines: frozenset[str] = frozenset()
    """The chart's defines whose output starts with a line break (``define_output``)."""


_CACHE: OrderedDict[tuple[object, ...], ChartPlan] = OrderedDict()
_CACHE_SIZE = 8
_WRITTEN: dict[tuple[int, int], tuple[int, int]] = {}
"""Files this process wrote: (device, inode) → (modification time after the write, the one
before). The file's identity, not its path: the key of every plan lookup stats each file of
the chart, which must cost no more than that (resolving each path made a chart's run quadratic
in system calls: 5 of the 8 seconds of Bitnami thanos's 175 files)."""


def note_written(path: Path, before_ns: int) -> None:
    """Record that ``path`` (a chart file) was just written by this run (see the module docstring)."""
    with suppress(OSError):
        st = os.stat(path)
        _WRITTEN[(st.st_dev, st.st_ino)] = (st.st_mtime_ns, before_ns)


def forget_written() -> None:
    """A new run starts: what earlier runs of this process wrote is a change to read again."""
    _WRITTEN.clear()


def _stamps(root: Path) -> tuple[tuple[str, int], ...]:
    """(path, modification time) of each source file of the chart, a file this run wrote at
    the time it had before (``note_written``)."""
    out: list[tuple[str, int]] = []
    for path in _sources(root):
        try:
            st = os.stat(path)
        except OSError:
            continue
        if not S_ISREG(st.st_mode):
            continue
        written = _WRITTEN.get((st.st_dev, st.st_ino))
        out.append((path, written[1] if written is not None and written[0] == st.st_mtime_ns else st.st_mtime_ns))
    return tuple(sorted(out))


def plan_for(root: Path, settings: Settings) -> ChartPlan:
    """The plan of the chart at ``root`` for the settings' window and decisions."""
    stamp = _stamps(root)
    key = (
        str(root.resolve()),
        settings.window,
        tuple(sorted(settings.decisions.items())),
        settings.only,
        settings.skip,
        settings.adopt_new_defaults,
        stamp,
    )
    found = _CACHE.get(key)
    if found is None:
        found = _plan(Path(key[0]), settings)
        _CACHE[key] = found
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return found


def _sources(root: Path) -> list[str]:
    """The paths a plan reads (the templates, values, Chart.yaml and ci files), whatever they are."""
    base = str(root)
    out = [os.path.join(d, f) for d, _dirs, files in os.walk(os.path.join(base, "templates")) for f in files]
    ci = os.path.join(base, "ci")
    if os.path.isdir(ci):
        out += [os.path.join(ci, f) for f in os.listdir(ci) if f.endswith(".yaml")]
    return [*out, os.path.join(base, "values.yaml"), os.path.join(base, "Chart.yaml")]


def sources_of(root: Path) -> ChartSources:
    """The texts of the chart at ``root`` (templates, values.yaml, ci/*.yaml, Chart.yaml)."""
    from .apiversions import ChartSources

    templates: dict[str, str] = {}
    for path in sorted((root / "templates").rglob("*")) if (root / "templates").is_dir() else []:
        if path.is_file():
            try:
                templates[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
    ci = {p.relative_to(root).as_posix(): _read(p) for p in sorted((root / "ci").glob("*.yaml"))}
    return ChartSources(
        templates, _read(root / "values.yaml"), ci, _read(root / "Chart.yaml"), lent=_lent_templates(root)
    )


def with_parents_edits(
    root: Path, path: Path, settings: Settings, text: str, original: str
) -> tuple[str, Finding | None]:
    """``text`` (the file's new text by its own chart's plan) with the rewrites that the charts
    above ``root`` make in it: a subchart's define (a library chart's apiVersion helper) is
    rewritten by the charts that use it, in the file that holds it. Two different rewrites of
    one file leave it as it is, with an error."""
    if "define" not in original:
        return text, None
    parent = root.parent.parent
    while root.parent.name == "charts" and is_chart(parent):
        rel = path.resolve().relative_to(parent.resolve()).as_posix()
        new = plan_for(parent, settings).texts.get(rel)
        if new is not None and new != text:
            if text != original:
                message = (
                    f"the charts that use this subchart's defines need different rewrites of it "
                    f"({parent.name} and another); left as it is"
                )
                return original, Finding(API_CONFLICT.level, API_CONFLICT.code, message, None, str(path))
            text = new
        root, parent = parent, parent.parent.parent
    return text, None


def _lent_templates(root: Path) -> dict[str, str]:
    """The templates with defines of every subchart folder under ``root/charts`` (at any depth),
    by path from ``root``: Helm shares defines across a chart and its subcharts."""
    out: dict[str, str] = {}
    charts = root / "charts"
    if not charts.is_dir():
        return out
    for sub in sorted(charts.iterdir()):
        if not (sub.is_dir() and is_chart(sub)):
            continue
        for path in sorted((sub / "templates").rglob("*")) if (sub / "templates").is_dir() else []:
            if path.is_file():
                text = _read(path)
                if "define" in text:
                    out[path.relative_to(root).as_posix()] = text
        out.update({f"charts/{sub.name}/{p}": t for p, t in _lent_templates(sub).items()})
    return out


def _plan(root: Path, settings: Settings) -> ChartPlan:
    from .apiversions import plan
    from .sites import parsed

    sources = sources_of(root)
    templates = dict(sources.templates)
    refused: dict[tuple[str, int], str] = {}
    for _round in range(4):  # each round can only refuse more sites
        result = plan(
            sources,
            settings.window,
            refused=refused,
            keep_actions=chart_decision(settings.decisions, "template-actions") == "keep",
            remove_dead=chart_decision(settings.decisions, "dead-branches") == "remove",
        )
        dead = chart_decision(settings.decisions, "dead-branches") == "remove"
        out = _chart_plan(root, sources, templates, result, drop_dead=dead)
        out.newline_defines = parsed(sources).newline_defines
        more = _bodies_refused(out, result, settings, root)
        if not more.keys() - refused.keys():
            break
        refused.update(more)
    _branch_bodies(out, result, settings, root)
    _unserved_sites(out, result, sources, settings, root)
    out.gates = {**version_conditions(sources, out.texts, settings.window), **out.gates}  # (the plan's own first)
    from .chart_findings import chart_findings

    for path, found in chart_findings(parsed(sources), root, settings.window).items():
        out.findings.setdefault(path, []).extend(found)
    return _with_values_objects(_with_values_defaults(out, root, sources.values, settings), root, sources, settings)


def version_conditions(sources: ChartSources, edited: Mapping[str, str], window: Window) -> dict[str, list[Gate]]:
    """Every template's version conditions (``gates.gates``), read from its text as the plan
    left it (``edited``: an apiVersion rewritten moves the offsets, never a condition): they
    tell a template's migration which documents and lines no release of the window renders."""
    from .gates import gates

    changed = {path: text for path, text in edited.items() if path in sources.templates}
    current = replace(sources, templates={**sources.templates, **changed}) if changed else sources
    return gates(current, window, list(current.templates))


def _with_values_defaults(out: ChartPlan, root: Path, values: str, settings: Settings) -> ChartPlan:
    """The plan, with values.yaml's defaults that render into pod specs migrated too: scheduling
    (``values_scheduling``) and pod annotations (``values_annotations``)."""
    from ..registry import default_registry
    from . import values_annotations, values_scheduling

    for step in (values_scheduling.migrate_values, values_annotations.migrate_values):
        before = out.texts.get("values.yaml", values)
        after, findings = step(before, settings, str(root / "values.yaml"), default_registry())
        if after != before:
            out.texts["values.yaml"] = after
            out.values = load_values(after)
        if findings:
            out.findings.setdefault("values.yaml", []).extend(findings)
    return out


def _with_values_objects(out: ChartPlan, root: Path, sources: ChartSources, settings: Settings) -> ChartPlan:
    """The plan, with the objects that values.yaml and ci/*.yaml hold migrated (``values_objects``)."""
    from ..registry import default_registry
    from .values_objects import migrate_objects

    files = {"values.yaml": out.texts.get("values.yaml", sources.values), **sources.ci_values}
    for rel, before in files.items():
        after, findings, documents = migrate_objects(before, settings, str(root / rel), default_registry())
        if after != before:
            out.texts[rel] = after
            out.documents[rel] = documents
            if rel == "values.yaml":
                out.values = load_values(after)
        if findings:
            out.findings.setdefault(rel, []).extend(findings)
    return out


def _api_at(site: SiteResult, release: KubeVersion) -> str | None:
    return next((y.api for y in site.yields if y.release == release and y.api is not None), None)


def _document_of(result: ApiVersionPlan, site: SiteResult) -> int:
    """The index, in its template, of the document a site's apiVersion belongs to."""
    text = result.sources.templates.get(site.site.path, "") if result.sources else ""
    return len(_DOC_MARKER.findall(text, 0, site.site.start))


def _document_span(text: str, index: int) -> tuple[int, int]:
    markers = [m.start() for m in _DOC_MARKER.finditer(text)]
    return (markers[index - 1] if index else 0), (markers[index] if index < len(markers) else len(text))


def _trial(
    out: ChartPlan,
    result: ApiVersionPlan,
    settings: Settings,
    root: Path,
    site: SiteResult,
    body: tuple[str, str],
) -> tuple[bool, list[Finding]]:
    """Whether the site's document comes out as it is when its body is migrated from ``body[0]``
    to ``body[1]``, and the errors that migration gives the document."""
    from .migrate import migrate_template

    path = site.site.path
    index = _document_of(result, site)
    text = out.texts.get(path, result.sources.templates.get(path, "") if result.sources else "")
    values = out.values if out.values is not None else chart_values(root)
    trial = migrate_template(
        text, settings, str(root / path), values=values, api_bodies={index: body}, newline_defines=out.newline_defines
    )
    start, end = _document_span(text, index)
    first = text.count("\n", 0, start) + 1
    stop = text.count("\n", 0, end) + 1 if end < len(text) else text.count("\n") + 2  # the next document's line
    errors = [f for f in trial.findings if f.level == "error" and first <= f.line < stop]
    after_start, after_end = _document_span(trial.text, index)
    return trial.text[after_start:after_end] == text[start:end], errors


def _branch_bodies(out: ChartPlan, result: ApiVersionPlan, settings: Settings, root: Path) -> None:
    """An error (``K8SM-TPL-103``) for each document whose apiVersion the chart already branches
    (a release gets the API it serves: ``policy/v1beta1`` before 1.21, ``policy/v1`` from it)
    while its one body does not serve every branch: migrated from an older branch's API to the
    target's, it would change (an Ingress ``serviceName`` under ``networking.k8s.io/v1``).
    """
    from ..codes import API_BODY_PER_BRANCH
    from .apiversions import per_release

    for site in result.sites:
        newest = _api_at(site, result.window.target)
        if site.status != "branches" or not site.site.root or newest is None:
            continue
        since = min(y.release for y in site.yields if y.api == newest)
        at_newest = replace(settings, min_version=str(since))
        for older in dict.fromkeys(y.api for y in site.yields if y.api is not None and y.api != newest):
            same, errors = _trial(out, result, at_newest, root, site, (older, newest))
            if same and not errors:
                continue
            why = f"{errors[0].code}: {errors[0].message}" if errors else "its fields change"
            message = (
                f"{site.kind}: the chart gives {per_release(site.yields)}, each served there, but one body "
                f"cannot serve every branch: migrated from {older} to {newest} it does not stay as it is "
                f"({why}); write the body per branch, or raise --min-version"
            )
            path = site.site.path
            finding = Finding("error", API_BODY_PER_BRANCH.code, message, None, str(root / path), 0, site.site.line)
            out.findings.setdefault(path, []).append(finding)
            break


def _unserved_sites(
    out: ChartPlan, result: ApiVersionPlan, sources: ChartSources, settings: Settings, root: Path
) -> None:
    """Computed apiVersions of a kind that nothing serves from some release of the window on
    (``K8SM-TPL-104``, PodSecurityPolicy from 1.25): left alone (``K8SM-TPL-008``) where a version
    condition of the chart already keeps the document from those releases; else, with
    ``--set unserved-kinds=gate``, written only for the releases before (``unserved``), or the
    error names that option."""
    from ..codes import API_NOT_SERVED, TEMPLATE_VERSION_GATED
    from . import unserved
    from .capabilities import release_ranges, releases
    from .capabilities import unserved as unserved_releases
    from .gates import gates

    window = result.window
    in_window = releases(window.min_version, window.target)
    blocked: list[tuple[SiteResult, Finding, list[KubeVersion], list[str]]] = []
    for site in result.sites:
        kind, path = site.kind, site.site.path
        if site.status != "blocked" or kind is None or not site.site.root:
            continue
        finding = next(
            (f for f in out.findings.get(path, []) if f.code == API_NOT_SERVED.code and f.line == site.site.line), None
        )
        apis = list(dict.fromkeys(y.api for y in site.yields if y.api is not None))
        gone = unserved_releases(apis, kind, in_window)
        if finding is not None and gone:
            blocked.append((site, finding, gone, apis))
    if not blocked:
        return
    found = gates(sources, window, sorted({site.site.path for site, *_ in blocked}))
    gate = chart_decision(settings.decisions, unserved.DECISION) == "gate"
    wraps: list[tuple[SiteResult, Finding, KubeVersion, list[str]]] = []
    for site, finding, gone, apis in blocked:
        path, kind = site.site.path, site.kind or ""
        findings = out.findings[path]
        at = findings.index(finding)
        by = next((g for g in found.get(path, []) if g.start <= site.site.start < g.end and set(gone) <= g.off), None)
        if by is not None:
            message = (
                f"{kind} (apiVersion computed by the chart: {', '.join(apis)}) is written only where "
                f"{by.condition.removeprefix('if').strip()} holds, which no release of {release_ranges(gone)} "
                "meets: nothing to migrate"
            )
            findings[at] = replace(finding, level="info", code=TEMPLATE_VERSION_GATED.code, message=message)
            continue
        end = unserved.kind_end(apis, kind)
        before = [y for y in site.yields if window.min_version <= y.release < gone[0] and y.api is not None]
        if end is None or gone != in_window[in_window.index(gone[0]) :] or not all(y.served for y in before):
            continue
        wraps.append((site, finding, end, apis))
    _wrap_unserved(out, result, sources, wraps, gate, in_window)


def _wrap_unserved(
    out: ChartPlan,
    result: ApiVersionPlan,
    sources: ChartSources,
    wraps: list[tuple[SiteResult, Finding, KubeVersion, list[str]]],
    gate: bool,
    in_window: list[KubeVersion],
) -> None:
    """Each site's document inside an ``if`` on the version (``gate``), or its error naming the
    option; neither where the ``if`` does not fit the template."""
    from ..hints import INSTEAD
    from . import gotemplate, unserved
    from .gates import Gate

    for site, finding, end, apis in sorted(wraps, key=lambda w: (w[0].site.path, -w[0].site.start)):
        path, kind = site.site.path, site.kind or ""
        text = out.texts.get(path, sources.templates.get(path, ""))
        span = _document_span(text, _document_of(result, site))
        done = unserved.wrapped(text, gotemplate.tags(text)[0], span, end)
        findings = out.findings[path]
        at = findings.index(finding)
        if done is None:
            if gate:
                findings[at] = unserved.not_wrapped(finding)
            continue  # (not offered: it would not work)
        if not gate:
            findings[at] = unserved.offered(finding, unserved.GatePlan(end))
            continue
        out.texts[path] = done.text
        # the file's own migration must read the document as gated, not wrap it a second time;
        # the gates recorded before are of later documents (done last first): they move whole
        added = len(done.text) - len(text)
        moved = [replace(g, start=g.start + added, end=g.end + added) for g in out.gates.get(path, [])]
        off = frozenset(r for r in in_window if r >= end)
        out.gates[path] = [Gate(done.body_start, done.body_end, "if " + unserved.condition(end), off), *moved]
        hint = next((INSTEAD[(api, kind)] for api in apis if (api, kind) in INSTEAD), "")
        api_text = f"(apiVersion computed by the chart: {', '.join(apis)})"
        findings[at] = unserved.gated_finding(kind, api_text, end, hint, finding.filename, finding.line)


def _bodies_refused(
    out: ChartPlan, result: ApiVersionPlan, settings: Settings, root: Path
) -> dict[tuple[str, int], str]:
    """Sites whose apiVersion moves while their document's body cannot be migrated with it."""
    refused: dict[tuple[str, int], str] = {}
    for site in result.sites:
        if site.status != "rewritten" or not site.body_to or site.body_to == site.body_from or not site.site.root:
            continue
        body = out.bodies.get(site.site.path, {}).get(_document_of(result, site))
        if body is None:
            continue
        _same, errors = _trial(out, result, settings, root, site, body)
        if errors:
            refused[(site.site.path, site.site.start)] = (
                f"its body cannot be migrated from {site.body_from} to {site.body_to} ({errors[0].code}: "
                f"{errors[0].message})"
            )
    return refused


def _chart_plan(
    root: Path, sources: ChartSources, templates: dict[str, str], result: ApiVersionPlan, *, drop_dead: bool = False
) -> ChartPlan:
    """The plan's texts and findings; ``drop_dead`` (``--set dead-branches=remove``): an ``if``
    the plan replaces by its live arm is replaced, its actions going with it, as asked."""
    out = ChartPlan()
    texts = {**sources.lent, **templates}  # a subchart's define is rewritten where it is written
    texts["values.yaml"] = sources.values
    keep = result.edits and not drop_dead
    out.texts = _apply_keeping_actions(texts, result.edits) if keep else result.apply(texts)
    if out.texts.get("values.yaml", sources.values) != sources.values:
        out.values = load_values(out.texts["values.yaml"])  # None when unreadable: nothing resolves
    for site in result.sites:
        if not site.site.root:
            continue
        # the body is migrated as written for body_from (to body_to when the apiVersion moves):
        # where the chart computes the apiVersion, that is how the migrations learn the API.
        # Where the chart already branches, the checks read it as the target's API, and
        # _branch_bodies checks that the other branches' APIs take the same body.
        body = None
        if site.body_from and site.status in ("ok", "rewritten"):
            body = (site.body_from, site.body_to or site.body_from)
        elif site.status == "branches" and (newest := _api_at(site, result.window.target)) is not None:
            body = (newest, newest)
        if body is not None:
            out.bodies.setdefault(site.site.path, {})[_document_of(result, site)] = body
    for finding in result.findings:
        name = finding.filename
        out.findings.setdefault(name, []).append(replace(finding, filename=str(root / name)))
    return out


_ACTION = regex(r"\{\{.*?\}\}", re.S)
_API_VALUE = regex(r"[a-z0-9.-]+/v\d\w*|\bv\d+(?:alpha|beta)\d+\b")


def _apply_keeping_actions(texts: dict[str, str], edits: list[Edit]) -> dict[str, str]:
    """The plan's edits, with each one that would drop actions (an ``if`` replaced by its one
    arm) turned into the same rewrite of the arms' literals, the ``if`` kept.

    Both render the same; keeping every action is the promise the rest of a migration keeps.
    """
    from .apiversions import apply_edits

    kept: list[Edit] = []
    for edit in edits:
        old = texts.get(edit.path, "")[edit.start : edit.end]
        if _actions(old) != _actions(edit.text):
            literal = _literal_rewrite(old, edit.text)
            if literal is not None:
                edit = replace(edit, text=literal)
        kept.append(edit)
    return apply_edits(texts, kept)


def _actions(text: str) -> list[str]:
    return sorted(" ".join(a.split()) for a in _ACTION.findall(text))


def _literal_rewrite(old: str, new: str) -> str | None:
    """``old`` with the API literals of its apiVersion lines (outside actions) set to the one API
    that ``new`` writes there; None when that is not what ``new`` does."""
    blank = _ACTION.sub(lambda m: "\0" * len(m.group()), new)
    targets = {m.group() for m in _API_VALUE.finditer(blank)}
    if len(targets) != 1:
        return None
    target = targets.pop()
    masked = _ACTION.sub(lambda m: "\0" * len(m.group()), old)
    lines = list(re.finditer(r"^.*apiVersion:.*$", masked, re.M)) if "apiVersion:" in masked else [None]
    spans = [
        (m.start(), m.end())
        for line in lines
        for m in _API_VALUE.finditer(masked, *((line.start(), line.end()) if line else (0, len(masked))))
    ]
    result = old
    for start, end in reversed(spans):
        result = result[:start] + target + result[end:]
    return result if result != old and _actions(result) == _actions(old) else None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
