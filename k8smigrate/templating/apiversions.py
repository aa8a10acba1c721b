"""apiVersions that chart templates compute: what each release gets, and the edits that fix it.

Many charts do not write their apiVersions: a ``_helpers.tpl`` define picks one with
``semverCompare ">=1.9-0" .Capabilities.KubeVersion.GitVersion`` or
``.Capabilities.APIVersions.Has "apps/v1"``, an ``if``/``else`` around ``apiVersion:`` lines
does, or ``values.yaml`` holds it (``rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}``).
A manifest migration cannot see those; this module runs that logic, as Helm would, for every
release of a ``--min-version``/``--target-version`` window, and rewrites its sources.

The library is pure: texts in (``ChartSources``), data out. Public functions (stable):

``plan(sources, window, *, kinds=None, remove_dead=False, scenarios=SCENARIOS) -> ApiVersionPlan``
    Every computed apiVersion (``sites.find_sites``) evaluated per release of the window, per
    rendering scenario (``helm template``, a cluster, a managed cluster with a version suffix:
    see ``capabilities``) and per values set (``values.yaml``, then each ``ci/*.yaml`` over it).
    Where a release would get an API it does not serve for the document's kind, or where
    releases get different APIs, the plan picks the one apiVersion ``T`` every release of the
    window serves, furthest along the registry's chain (as the engine's plan does), and
    returns ``edits``: the helper branch's literal, the inline or whole-line literal, or the
    ``values.yaml`` default (rewritten through the project's splicing tree, comments kept) is
    set to ``T``. An ``if`` whose arms then all print the same thing is replaced by one arm
    (whitespace-exact, see ``collapse``). Each ``SiteResult`` says which API the body is
    written for now (``body_from``) and which it must be migrated to (``body_to``, None when
    it stays): the caller migrates the document body. The plan re-evaluates the edited chart
    and keeps only edits that verify.

    Reported, never edited: an arm no release of the window takes (``K8SM-TPL-102``, info;
    ``remove_dead=True`` removes it when no release from ``min`` to the newest known takes it
    either, so a branch for future releases stays); a window in which no single apiVersion
    serves every release, so the body would have to differ per branch (``K8SM-TPL-103``, e.g.
    Ingress from 1.18 to 1.22: networking.k8s.io/v1 arrives in 1.19, v1beta1 leaves in 1.22);
    a kind with no served API at some release (``K8SM-TPL-104``, PodSecurityPolicy from 1.25);
    what cannot be evaluated (``K8SM-TPL-105``); a helper or values key whose uses need
    different versions (``K8SM-TPL-106``); a constraint without ``-0`` that branches otherwise
    on managed clusters (``K8SM-TPL-107``).

    ``kinds`` maps ``(path, line)`` of a site to its kind where the caller knows better than
    the ``kind:`` key beside it.

``scan_rows(sources, window, scenarios=SCENARIOS) -> list[ComputedApiVersion]``
    For ``scan``: each computed apiVersion with the releases, scenarios and values sets that
    get it, and the file and line of the helper branch, literal or values key that produces it.

``apply_edits(texts, edits) -> dict[str, str]``
    The changed texts (``ApiVersionPlan.apply`` does the same).

Served-API facts come only from the lifecycle table and the migration registry
(``capabilities.served``); findings are ``results.Finding`` with the codes of ``CODES``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import field, replace
from functools import partial

from ..codes import (
    API_BODY_NOT_MIGRATED,
    API_BODY_PER_BRANCH,
    API_CONFLICT,
    API_DEAD_BRANCH,
    API_IN_ACTION,
    API_NOT_EVALUATED,
    API_NOT_SERVED,
    API_REWRITTEN,
    API_VENDOR_SUFFIX,
    Code,
)
from ..dataclasscode import dataclass
from ..regexcode import regex
from ..results import Finding, Level
from ..runtime_typing import Literal
from ..versions import NEWEST_KNOWN, KubeVersion, Window
from ..yamlio import line_of
from . import valuesfile
from .capabilities import HELM_TEMPLATE, SCENARIOS, Scenario, capabilities, chain, release_ranges, releases, served
from .capabilities import unserved as unserved_releases
from .collapse import arms_alike, collapse_block
from .edits import Edit, apply_edits, edited_span
from .gotmpl import Block, Define, walk
from .sites import ChartSources, ParsedChart, Site, find_sites, parsed, run_site, variables_before
from .tmpleval import Evaluator, TemplateFailure, TemplateOrigin, Traced, ValuesOrigin

__all__ = [
    "CODES",
    "ApiVersionPlan",
    "ChartSources",
    "Code",
    "ComputedApiVersion",
    "Edit",
    "Site",
    "SiteResult",
    "Yield",
    "apply_edits",
    "plan",
    "scan_rows",
]


IN_ACTION = API_IN_ACTION
BODY_NOT_MIGRATED = API_BODY_NOT_MIGRATED
REWRITTEN = API_REWRITTEN
DEAD_BRANCH = API_DEAD_BRANCH
BODY_PER_BRANCH = API_BODY_PER_BRANCH
NOT_SERVED = API_NOT_SERVED
NOT_EVALUATED = API_NOT_EVALUATED
CONFLICT = API_CONFLICT
VENDOR_SUFFIX = API_VENDOR_SUFFIX
CODES: tuple[Code, ...] = (
    REWRITTEN,
    DEAD_BRANCH,
    BODY_PER_BRANCH,
    NOT_SERVED,
    NOT_EVALUATED,
    CONFLICT,
    VENDOR_SUFFIX,
    IN_ACTION,
    BODY_NOT_MIGRATED,
)


@dataclass(frozen=True)
class Yield:
    """What one site prints for one release, scenario and values set."""

    release: KubeVersion
    scenario: str
    values: str
    api: str | None
    """None: nothing known (see ``problem``)."""
    served: bool | None
    """Whether the release serves ``api`` for the kind (None: the tables do not know it)."""
    problem: str = ""
    """Empty, ``absent`` (the arm taken prints no apiVersion), ``unknown: …`` or ``fails: …``."""
    value: Traced | None = field(default=None, compare=False, repr=False)


Status = Literal["ok", "branches", "rewritten", "blocked", "unknown", "untracked"]


@dataclass
class SiteResult:
    """The outcome for one site.

    ``status``: ``ok`` (every release gets one served API), ``branches`` (every release gets
    an API it serves, not the same one, and no one API serves them all: the chart already
    branches as it must; ``chartplan`` checks that one body serves every branch), ``rewritten``
    (edits make every release get one served API),
    ``blocked`` (an error finding says why nothing is edited), ``unknown`` (not evaluated),
    ``untracked`` (an API the tables do not know, such as an add-on's).
    """

    site: Site
    kind: str | None
    status: Status
    yields: list[Yield]
    body_from: str | None = None
    """The API the document body is written for (what the chart gives the window's first release)."""
    body_to: str | None = None
    """The API to migrate the body to (None: the body stays as it is)."""
    target: str | None = None
    """For ``rewritten``: the apiVersion every release of the window gets once the edits apply."""
    findings: list[Finding] = field(default_factory=list)


@dataclass
class ApiVersionPlan:
    """Edits and findings for one chart and window."""

    window: Window
    sites: list[SiteResult]
    edits: list[Edit]
    findings: list[Finding]
    sources: ChartSources | None = field(default=None, repr=False, compare=False)
    """The texts the edits apply to."""

    def apply(self, texts: Mapping[str, str] | None = None) -> dict[str, str]:
        """The new text of every file the edits change (``ci/*.yaml`` included).

        ``texts`` (chart-relative path → text) must hold the texts the plan was made from; a
        file the edits name but ``texts`` lacks is taken from the plan's own sources.
        """
        base: dict[str, str] = {}
        if self.sources is not None:
            base.update(self.sources.lent)
            base.update(self.sources.templates)
            base[self.sources.values_path] = self.sources.values
            base.update(self.sources.ci_values)
        base.update(texts or {})
        return apply_edits(base, self.edits)


@dataclass(frozen=True)
class ComputedApiVersion:
    """A row of ``scan``: one apiVersion a site gives some releases of the window."""

    path: str
    line: int
    kind: str | None
    idiom: str
    api_version: str | None
    served: bool | None
    releases: str
    """``1.22–1.29`` (several ranges joined with ``, ``)."""
    scenarios: tuple[str, ...]
    values: tuple[str, ...]
    source_path: str
    source_line: int
    source: str
    """``define "name"``, ``values key a.b`` or ``literal``."""
    problem: str = ""


# ---------------------------------------------------------------------------- evaluation


@dataclass
class _Evaluation:
    """Yields of every site for every release from ``min`` to the newest known, and the arms taken."""

    window: Window
    yields: dict[int, list[Yield]] = field(default_factory=lambda: defaultdict(list))
    taken_window: dict[tuple[str, int], set[int]] = field(default_factory=lambda: defaultdict(set))
    taken_all: dict[tuple[str, int], set[int]] = field(default_factory=lambda: defaultdict(set))
    caps_blocks: dict[int, set[tuple[str, int]]] = field(default_factory=lambda: defaultdict(set))
    values_blocks: set[tuple[str, int]] = field(default_factory=set)
    """Blocks whose conditions read ``.Values``: an arm they skip is not dead, a user may take it."""

    def in_window(self, site: int) -> list[Yield]:
        w = self.window
        return [y for y in self.yields[site] if w.min_version <= y.release <= w.target]


def _evaluate(
    chart: ParsedChart,
    sites: list[Site],
    kinds: list[str | None],
    window: Window,
    scenarios: Iterable[Scenario],
) -> _Evaluation:
    result = _Evaluation(window)
    known = releases(window.min_version, max(window.target, NEWEST_KNOWN))
    runs = [(scenario, release) for scenario in scenarios for release in known]
    for i, site in enumerate(sites):
        constant: tuple[list[Yield], dict[tuple[str, int], set[int]]] | None = None
        for scenario, release in runs:
            if constant is not None:  # the site reads no .Capabilities: every release gets the same API
                same, taken = constant  # (whether the release serves it is the release's own)
                kind = kinds[i]
                result.yields[i] += [
                    replace(
                        y,
                        release=release,
                        scenario=scenario.name,
                        served=served(y.api, kind, release) if y.api is not None and kind else y.served,
                    )
                    for y in same
                ]
                _merge_taken(result, taken, release <= window.target)
                continue
            caps = capabilities(scenario, release, chart.sources.api_versions)
            first: tuple[Yield, dict[tuple[str, int], set[int]]] | None = None
            per_values: list[Yield] = []
            caps_read = False
            for values_name, values in chart.values_sets:
                if first is not None:  # the site reads no .Values: every values set gets the same
                    per_values.append(replace(first[0], values=values_name))
                    continue
                ev = Evaluator(chart.sources.runnable, chart.defines, values, caps, chart=chart.chart_meta)
                ev.var_fallback = variables_before(chart, ev, site.path, site.start)
                y = _yield(ev, chart, site, kinds[i], release, scenario.name, values_name)
                per_values.append(y)
                _merge_taken(result, ev.taken, release <= window.target)
                result.caps_blocks[i] |= ev.caps_blocks
                result.values_blocks |= ev.values_blocks
                caps_read = caps_read or ev.caps_reads > 0
                if ev.values_reads == 0:
                    first = (y, ev.taken)
            result.yields[i] += per_values
            if not caps_read and first is not None:
                constant = (per_values, first[1])
    return result


def _merge_taken(result: _Evaluation, taken: Mapping[tuple[str, int], set[int]], in_window: bool) -> None:
    for key, arms in taken.items():
        result.taken_all[key] |= arms
        if in_window:
            result.taken_window[key] |= arms


def _yield(
    ev: Evaluator, chart: ParsedChart, site: Site, kind: str | None, release: KubeVersion, scenario: str, values: str
) -> Yield:
    try:
        value = run_site(ev, chart, site)
    except TemplateFailure as exc:
        return Yield(release, scenario, values, None, None, f"fails: {' '.join(str(exc).split())}")
    except RecursionError:
        return Yield(release, scenario, values, None, None, "unknown: the helpers recurse too deep")
    if value is None:
        return Yield(release, scenario, values, None, None, "absent")
    if value.unknown:
        return Yield(release, scenario, values, None, None, "unknown: it depends on something not modelled", value)
    api = value.text
    return Yield(release, scenario, values, api, served(api, kind, release) if kind else None, "", value)


# ---------------------------------------------------------------------------- decisions


def _target(apis: list[str], kind: str, releases: list[KubeVersion]) -> str | None:
    """The furthest API on every one's chain that every release serves."""
    chains = [chain(api, kind) for api in apis]
    common = set(chains[0]).intersection(*chains[1:])
    fit = [a for a in chains[0] if a in common and all(served(a, kind, r) for r in releases)]
    return fit[-1] if fit else None


def _rewrite(value: Traced, target: str) -> tuple[TemplateOrigin | ValuesOrigin, str] | None:
    """The one origin to change, and its new text, for ``value`` to read ``target``."""
    pieces = [p for p in value.pieces if p.text]
    order = sorted(range(len(pieces)), key=lambda i: not isinstance(pieces[i].origin, ValuesOrigin))
    for i in order:
        origin = pieces[i].origin
        if origin is None:
            continue
        prefix = "".join(p.text for p in pieces[:i])
        suffix = "".join(p.text for p in pieces[i + 1 :])
        if len(prefix) + len(suffix) < len(target) and target.startswith(prefix) and target.endswith(suffix):
            return origin, target[len(prefix) : len(target) - len(suffix)]
    return None


_OriginKey = tuple[str, str, int, int] | tuple[str, str, tuple[str, ...]]


class _Planner:
    def __init__(
        self,
        sources: ChartSources,
        window: Window,
        kinds: Mapping[tuple[str, int], str] | None,
        remove_dead: bool,
        scenarios: tuple[Scenario, ...],
        keep_actions: bool = True,
        refused: Mapping[tuple[str, int], str] | None = None,
    ) -> None:
        self.sources = sources
        self.window = window
        self.remove_dead = remove_dead
        self.keep_actions = keep_actions
        self.refused = dict(refused or {})
        self.scenarios = scenarios
        self.chart = parsed(sources)
        self.sites = find_sites(self.chart)
        given = kinds or {}
        self.kinds = [given.get((s.path, s.line), s.kind) for s in self.sites]
        self.releases = releases(window.min_version, window.target)
        self.findings: list[Finding] = []
        self.results: list[SiteResult] = []
        self.collapsed: set[tuple[str, int]] = set()
        self.off: dict[int, frozenset[KubeVersion]] = {}
        """Per site, the releases at which a version condition around it writes nothing (``gates``):
        a site no release of the window writes is left alone (a gated document is ``migrate``'s)."""
        self.users: dict[Edit, set[int]] = {}
        """The sites each edit serves."""

    # ------------------------------------------------------------------ helpers

    def finding(self, code: Code, path: str, line: int, message: str, level: Level | None = None) -> Finding:
        text = self.sources.text(path) or ""
        pos = _offset_of_line(text, line)
        document = sum(1 for ln in text[:pos].split("\n") if ln.startswith("---"))
        return Finding(level or code.level, code.code, message, None, path, document, line)

    def where(self, site: Site) -> str:
        return f"{site.path}:{site.line}"

    # ------------------------------------------------------------------ main

    def run(self) -> ApiVersionPlan:
        for path, exc in sorted(self.chart.errors.items()):
            line = line_of(self.sources.templates[path], exc.offset)
            self.findings.append(self.finding(NOT_EVALUATED, path, line, f"template not read: {exc}"))
        if not self.sites:
            return ApiVersionPlan(self.window, [], [], self.findings, self.sources)
        evaluation = _evaluate(self.chart, self.sites, self.kinds, self.window, self.scenarios)
        self.off = _gated_off(self.sources, self.window, self.sites, evaluation)
        for path, message in sorted(self.chart.values_errors.items()):
            self.findings.append(self.finding(NOT_EVALUATED, path, 0, f"values file not read: {message}"))
        wanted: dict[_OriginKey, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        for i, site in enumerate(self.sites):
            result = self.decide(i, site, evaluation, wanted)
            self.results.append(result)
            reason = self.refused.get((site.path, site.start))
            if reason is not None and result.status == "rewritten":
                self.block(i, BODY_NOT_MIGRATED, f"apiVersion left as it is: {reason}")
        edits = self.edits_from(wanted)
        edits = self.verify(edits)
        edits = self.collapse(edits, evaluation)
        self.report_dead(evaluation, edits)
        for result in self.results:
            self.findings += result.findings
        edits = sorted(edits, key=lambda e: (e.path, e.start))
        return ApiVersionPlan(self.window, self.results, edits, self.findings, self.sources)

    def decide(
        self, i: int, site: Site, evaluation: _Evaluation, wanted: dict[_OriginKey, dict[str, list[int]]]
    ) -> SiteResult:
        kind = self.kinds[i]
        yields = evaluation.in_window(i)
        if yields and all(y.release in self.off.get(i, ()) for y in yields):
            return SiteResult(site, kind, "ok", [])  # in an arm no release takes: reported dead, never rewritten
        result = SiteResult(site, kind, "ok", yields)
        known = [y for y in yields if y.api is not None]
        first = next((y for y in known if y.release == self.window.min_version), known[0] if known else None)
        result.body_from = first.api if first is not None else None
        # where the chart calls fail (traefik's IngressClass before networking.k8s.io/v1beta1),
        # Helm renders no object: nothing to migrate there when other releases print an API
        failing = ("unknown",) if known else ("unknown", "fails")
        problems = sorted({y.problem for y in yields if y.problem.startswith(failing)})
        if kind is None:
            result.status = "unknown"
            result.findings.append(
                self.finding(
                    NOT_EVALUATED, site.path, site.line, "computed apiVersion left alone: the kind is not known"
                )
            )
            return result
        if problems or not known:
            if known and all(y.served is None for y in known):
                result.status = "untracked"  # an add-on's API wherever it is known: nothing to decide
                return result
            result.status = "unknown"
            why = "; ".join(problems) or "no release prints it"
            level: Level = "warning" if any(y.served is False for y in known) else "info"
            result.findings.append(
                self.finding(NOT_EVALUATED, site.path, site.line, f"computed apiVersion left alone: {why}", level)
            )
            return result
        if all(y.served is None for y in known):
            result.status = "untracked"
            return result
        apis = list(dict.fromkeys(y.api for y in known if y.api is not None))
        if len(apis) == 1 and all(y.served for y in known):
            return result
        if any(y.served is None for y in known):
            result.status = "unknown"
            result.findings.append(
                self.finding(
                    NOT_EVALUATED,
                    site.path,
                    site.line,
                    f"computed apiVersion left alone: {', '.join(apis)} mix APIs the tables do not know",
                )
            )
            return result
        target = _target(apis, kind, self.releases)
        window = release_ranges(self.releases)
        if target is None and all(y.served for y in known):
            result.status = "branches"
            return result
        if target is None:
            result.status = "blocked"
            unserved = unserved_releases(apis, kind, self.releases)
            if unserved:
                result.findings.append(
                    self.finding(
                        NOT_SERVED,
                        site.path,
                        site.line,
                        f"{kind}: no apiVersion of {', '.join(apis)} or their successors is served at "
                        f"{release_ranges(unserved)}; the template is left as it is",
                    )
                )
            else:
                serving = _serving([a for api in apis for a in chain(api, kind)], kind, self.releases)
                result.findings.append(
                    self.finding(
                        BODY_PER_BRANCH,
                        site.path,
                        site.line,
                        f"{kind}: no one apiVersion serves every release of {window} ({serving}; the chart gives "
                        f"{per_release(known)}): the body would have to differ per branch, left as it is",
                    )
                )
            return result
        result.target = target
        result.body_to = target if target != result.body_from else None
        for y in known:
            if y.api == target or y.value is None:
                continue
            found = _rewrite(y.value, target)
            if found is None:
                result.status = "blocked"
                result.findings.append(
                    self.finding(
                        CONFLICT,
                        site.path,
                        site.line,
                        f"{y.api} must become {target} but is not written as a literal or a values key",
                    )
                )
                result.body_to = result.target = None
                return result
            origin, new = found
            wanted[self.origin_key(origin, y.values)][new].append(i)
        result.status = "rewritten"
        return result

    def origin_key(self, origin: TemplateOrigin | ValuesOrigin, values_set: str) -> _OriginKey:
        if isinstance(origin, TemplateOrigin):
            return ("template", origin.path, origin.start, origin.end)
        provider = self.sources.values_path
        ci = self.sources.ci_values.get(values_set)
        if ci is not None and valuesfile.find_scalar(ci, origin.key) is not None:
            provider = values_set
        return ("values", provider, origin.key)

    # ------------------------------------------------------------------ edits

    def edits_from(self, wanted: dict[_OriginKey, dict[str, list[int]]]) -> list[Edit]:
        """One edit per source to change; ``self.users`` says which sites each serves."""
        edits: list[Edit] = []
        for key, choices in wanted.items():
            if len(choices) > 1:
                users = sorted({i for uses in choices.values() for i in uses})
                detail = ", ".join(
                    f"{new} for {self.where(self.sites[i])}" for new, uses in choices.items() for i in uses
                )
                for i in users:
                    self.block(i, CONFLICT, f"the same source must read {detail}")
                continue
            ((new, uses),) = choices.items()
            if key[0] == "template":
                _kind, path, start, end = key  # type: ignore[misc]
                action = _action_around(self.sources.text(path) or "", start, end)
                if action is not None and self.keep_actions:
                    for i in uses:
                        self.block(
                            i,
                            IN_ACTION,
                            f"{path}:{line_of(self.sources.text(path) or '', start)}: the apiVersion is written inside "
                            f"the action {action}{self._only_helm_template(i, new)}; actions are carried as written: "
                            f"change it to {new} by hand (--set template-actions=rewrite does)",
                        )
                    continue
                edit = Edit(path, start, end, new)
            else:
                _kind, path, values_key = key  # type: ignore[misc]
                change = valuesfile.set_scalar(self.sources.text(path) or "", values_key, new)
                if change is None:
                    for i in uses:
                        self.block(i, CONFLICT, f"{path}: {'.'.join(values_key)} cannot be rewritten")
                    continue
                edit = Edit(path, *change)
            edits.append(edit)
            self.users[edit] = set(uses)
        return [e for e in edits if not any(self.results[i].status == "blocked" for i in self.users[e])]

    def _only_helm_template(self, i: int, target: str) -> str:
        """Where only ``helm template`` prints another API than ``target`` (keycloak's ``Has
        "networking.k8s.io/v1/Ingress"``: a cluster lists group/version/Kind entries, ``helm
        template`` does not), the words that say so; else nothing."""
        scenarios = {y.scenario for y in self.results[i].yields if y.api is not None and y.api != target}
        if scenarios != {HELM_TEMPLATE.name}:
            return ""
        return (
            f", which only `helm template` reaches (a cluster gets {target}: helm template's "
            ".Capabilities.APIVersions is client-go's list, with removed APIs and without group/version/Kind "
            "entries, unless --api-versions gives them)"
        )

    def block(self, i: int, code: Code, message: str) -> None:
        result = self.results[i]
        if result.status != "blocked":
            result.status = "blocked"
            result.body_to = result.target = None
            result.findings.append(self.finding(code, result.site.path, result.site.line, message))

    def verify(self, edits: list[Edit]) -> list[Edit]:
        """Keep the edits whose sites, evaluated again on the edited chart, get their target."""
        while edits:
            sources = self._with_texts(apply_edits(self._all_texts(), edits))
            chart = ParsedChart(sources)
            sites = find_sites(chart)
            if len(sites) != len(self.sites):  # an edit added or removed a site: keep nothing rather than guess
                failed = [i for i, r in enumerate(self.results) if r.status == "rewritten"]
            else:
                evaluation = _evaluate(chart, sites, self.kinds, self.window, self.scenarios)
                failed = [
                    i
                    for i, result in enumerate(self.results)
                    if result.status == "rewritten"
                    and any(
                        y.api != result.target or not y.served for y in evaluation.in_window(i) if y.problem != "absent"
                    )
                ]
            if not failed:
                self._rewritten_message(edits)
                return edits
            for i in failed:
                self.block(i, CONFLICT, "the rewrite did not give every release its target; left as it is")
            edits = [e for e in edits if not self.users[e] & set(failed)]
        return edits

    def _rewritten_message(self, edits: list[Edit]) -> None:
        window = release_ranges(self.releases)
        for i, result in enumerate(self.results):
            if result.status != "rewritten":
                continue
            site = result.site
            before = sorted({y.api for y in result.yields if y.api and y.api != result.target})
            source = f"define {site.helper!r}" if site.helper else site.idiom
            note = ""
            if any(isinstance(p.origin, ValuesOrigin) for y in result.yields if y.value for p in y.value.pieces):
                note = " (a values default: a user's own values file may still set the old version)"
            vendored = sorted(
                {e.path for e in edits if self.users.get(e, set()) & {i} and e.path.startswith("charts/")}
            )
            if vendored:
                note += f" (in a subchart, {', '.join(vendored)}: updating the dependency undoes it; fix it upstream)"
            body = (
                f"migrate the body from {result.body_from} to {result.body_to}"
                if result.body_to
                else "the body stays as it is"
            )
            result.findings.append(
                self.finding(
                    REWRITTEN,
                    site.path,
                    site.line,
                    f"{result.kind} apiVersion ({source}) {', '.join(before)} → {result.target}, served by every "
                    f"release of {window}; {body}{note}",
                )
            )

    def _all_texts(self) -> dict[str, str]:
        texts = {**self.sources.lent, **self.sources.templates}
        texts[self.sources.values_path] = self.sources.values
        texts.update(self.sources.ci_values)
        return texts

    def _with_texts(self, texts: Mapping[str, str]) -> ChartSources:
        return replace(
            self.sources,
            templates={p: texts.get(p, t) for p, t in self.sources.templates.items()},
            lent={p: texts.get(p, t) for p, t in self.sources.lent.items()},
            values=texts.get(self.sources.values_path, self.sources.values),
            ci_values={p: texts.get(p, t) for p, t in self.sources.ci_values.items()},
        )

    # ------------------------------------------------------------------ collapsing arms

    def collapse(self, edits: list[Edit], evaluation: _Evaluation) -> list[Edit]:
        if self.keep_actions and not self.remove_dead:  # collapsing an if drops its actions
            return edits
        blocks = self._site_blocks(evaluation)
        done: list[tuple[str, int, int]] = []
        for (path, start), block in sorted(blocks.items(), key=lambda kv: kv[1].end - kv[1].start):
            if any(p == path and s <= start < e for p, s, e in done):
                continue
            arm = self._arm_to_keep(path, block, edits, evaluation)
            if arm is None:
                continue
            text = self.sources.templates[path]
            inner = [e for e in edits if e.path == path and block.start <= e.start and e.end <= block.end]
            mine = [e for e in edits if e.path == path]
            lines = self._line_level(path, block)
            change = collapse_block(text, block, arm, partial(edited_span, text, mine), lines)
            if change is None:
                continue
            edits = [e for e in edits if e not in inner] + [Edit(path, *change)]
            done.append((path, change[0], change[1]))
            self.collapsed.add((path, start))
        return edits

    def _site_blocks(self, evaluation: _Evaluation) -> dict[tuple[str, int], Block]:
        keys = set().union(*evaluation.caps_blocks.values()) if evaluation.caps_blocks else set()
        out: dict[tuple[str, int], Block] = {}
        for path, tree in self.chart.trees.items():
            for node in walk(tree):
                if isinstance(node, Block) and (path, node.start) in keys:
                    out[(path, node.start)] = node
        return out

    def _arm_to_keep(self, path: str, block: Block, edits: list[Edit], evaluation: _Evaluation) -> int | None:
        taken = evaluation.taken_all.get((path, block.start), set())
        if not taken or -2 in taken or block.keyword != "if":
            return None
        text = self.sources.templates[path]
        mine = [e for e in edits if e.path == path]
        edited_inside = any(block.start <= e.start and e.end <= block.end for e in mine)
        if (
            not self.keep_actions
            and edited_inside
            and arms_alike(text, block, lambda lo, hi: edited_span(text, mine, lo, hi), self._line_level(path, block))
        ):
            return 0
        if (
            self.remove_dead
            and len(taken) == 1
            and min(taken) >= 0
            and (path, block.start) not in evaluation.values_blocks
        ):
            return next(iter(taken))
        return None

    def _line_level(self, path: str, block: Block) -> bool:
        """A ``branches`` site's block: it stands on lines of its own between mapping keys."""
        return any(s.idiom == "branches" and (s.path, s.block) == (path, block.start) for s in self.sites)

    def report_dead(self, evaluation: _Evaluation, edits: list[Edit]) -> None:
        window = release_ranges(self.releases)
        for (path, start), block in sorted(self._site_blocks(evaluation).items()):
            taken = evaluation.taken_window.get((path, start), set())
            if not taken or -2 in taken or (path, start) in evaluation.values_blocks:
                continue
            text = self.sources.templates[path]
            define = _define_around(self.chart, path, start)
            where = f' in define "{define}"' if define else ""
            for i, arm in enumerate(block.branches):
                if i in taken:
                    continue
                action = arm.action
                written = text[action.start : action.end]
                removed = (path, start) in self.collapsed
                # the option replaces a whole if by its one live arm: only where one arm is all
                # that is ever taken (traefik's IngressClass: helm template takes none of them)
                whole = len(taken) == 1 and min(taken) >= 0
                fate = (
                    "removed"
                    if removed
                    else "kept (--set dead-branches=remove removes it)"
                    if whole
                    else "kept (the if has more than one outcome, so the option leaves it: remove the arm by hand)"
                )
                self.findings.append(
                    self.finding(
                        DEAD_BRANCH,
                        path,
                        line_of(text, action.start),
                        f"{written}{where} is taken by no release of {window}: {fate}",
                    )
                )
        self._vendor_warnings(evaluation)

    def _vendor_warnings(self, evaluation: _Evaluation) -> None:
        for i, result in enumerate(self.results):
            if result.status == "rewritten":
                continue
            by_key: dict[tuple[KubeVersion, str, str], str | None] = {}
            for y in evaluation.in_window(i):
                by_key[(y.release, y.scenario, y.values)] = y.api
            differs = sorted(
                {
                    (r, by_key[(r, "cluster", v)], api)
                    for (r, s, v), api in by_key.items()
                    if s == "cluster-vendor" and (r, "cluster", v) in by_key and by_key[(r, "cluster", v)] != api
                },
                key=lambda t: t[0],
            )
            if differs:
                r, plain, vendor = differs[0]
                result.findings.append(
                    self.finding(
                        VENDOR_SUFFIX,
                        result.site.path,
                        result.site.line,
                        f"on a cluster whose version has a suffix (v{r}.0-gke.100) this gives {vendor} instead of "
                        f"{plain}: write the constraint with -0 (e.g. >=1.14-0)",
                    )
                )


def _serving(apis: list[str], kind: str, releases: list[KubeVersion]) -> str:
    """``A serves 1.18–1.21, B serves 1.19–1.22`` for the APIs that serve part of the window."""
    parts = []
    for api in dict.fromkeys(apis):
        at = [r for r in releases if served(api, kind, r)]
        if at:
            parts.append(f"{api} serves {release_ranges(at)}")
    return ", ".join(parts) or "none is served"


def per_release(known: list[Yield]) -> str:
    """``A at 1.19–1.20; B at 1.21–1.29``: which API the chart gives which releases."""
    by_api: dict[str, set[KubeVersion]] = defaultdict(set)
    for y in known:
        if y.api is not None:
            by_api[y.api].add(y.release)
    return "; ".join(f"{api} at {release_ranges(rs)}" for api, rs in by_api.items())


def _offset_of_line(text: str, line: int) -> int:
    pos = 0
    for _ in range(max(line - 1, 0)):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    return pos


def _define_around(chart: ParsedChart, path: str, offset: int) -> str | None:
    for node in walk(chart.trees.get(path, [])):
        if isinstance(node, Define) and node.action.start <= offset < node.end_action.end:
            return node.name
    return None


# ---------------------------------------------------------------------------- public functions


def plan(
    sources: ChartSources,
    window: Window,
    *,
    kinds: Mapping[tuple[str, int], str] | None = None,
    remove_dead: bool = False,
    scenarios: tuple[Scenario, ...] = SCENARIOS,
    keep_actions: bool = True,
    refused: Mapping[tuple[str, int], str] | None = None,
) -> ApiVersionPlan:
    """Evaluate every computed apiVersion of a chart over ``window`` and plan the edits (see the
    module docstring).

    ``keep_actions``: never change a template action (a literal inside ``{{ print "…" }}`` is
    reported, not rewritten; an ``if`` whose arms were made alike is kept). ``refused``: sites
    (template path, offset) whose apiVersion must stay, with the reason (the caller could not
    migrate the document's body); they are blocked with ``K8SM-TPL-109``.
    """
    return _Planner(sources, window, kinds, remove_dead, scenarios, keep_actions, refused).run()


_ACTION_TEXT = regex(r"\{\{.*?\}\}", re.S)


def _action_around(text: str, start: int, end: int) -> str | None:
    """The template action that holds ``text[start:end]``, or None when it is plain text."""
    for m in _ACTION_TEXT.finditer(text, 0, end + 2048 if end + 2048 < len(text) else len(text)):
        if m.start() <= start and end <= m.end():
            return m.group()
        if m.start() >= end:
            break
    return None


def scan_rows(
    sources: ChartSources, window: Window, scenarios: tuple[Scenario, ...] = SCENARIOS
) -> list[ComputedApiVersion]:
    """Each computed apiVersion per window, with the file and line that produces it."""
    chart = ParsedChart(sources)
    sites = find_sites(chart)
    kinds = [s.kind for s in sites]
    evaluation = _evaluate(chart, sites, kinds, window, scenarios)
    off = _gated_off(sources, window, sites, evaluation)
    rows: list[ComputedApiVersion] = []
    for i, site in enumerate(sites):
        groups: dict[tuple[str | None, str, int, str, str, bool | None], list[Yield]] = defaultdict(list)
        for y in evaluation.in_window(i):
            if y.problem == "absent" or y.release in off.get(i, ()):
                continue
            source_path, source_line, source = _source_of(sources, site, y)
            groups[(y.api, source_path, source_line, source, y.problem, y.served)].append(y)
        for (api, source_path, source_line, source, problem, is_served), ys in groups.items():
            rows.append(
                ComputedApiVersion(
                    site.path,
                    site.line,
                    site.kind,
                    site.idiom,
                    api,
                    is_served,
                    release_ranges(y.release for y in ys),
                    tuple(dict.fromkeys(y.scenario for y in ys)),
                    tuple(dict.fromkeys(y.values for y in ys)),
                    source_path,
                    source_line,
                    source,
                    problem,
                )
            )
    return rows


def _gated_off(
    sources: ChartSources, window: Window, sites: list[Site], evaluation: _Evaluation
) -> dict[int, frozenset[KubeVersion]]:
    """Per site that some release of the window does not serve, the releases at which a version
    condition of the chart around it writes nothing there (``gates``): not rows, as in ``apply``."""
    from .gates import gates

    unserved = [i for i, _site in enumerate(sites) if any(y.served is False for y in evaluation.in_window(i))]
    if not unserved:
        return {}
    found = gates(sources, window, sorted({sites[i].path for i in unserved}))
    out: dict[int, frozenset[KubeVersion]] = {}
    for i in unserved:
        site = sites[i]
        around = [g.off for g in found.get(site.path, []) if g.start <= site.start < g.end]
        if around:
            out[i] = frozenset().union(*around)
    return out


def _source_of(sources: ChartSources, site: Site, y: Yield) -> tuple[str, int, str]:
    """Where the version a yield prints is written: (path, line, description)."""
    pieces = [p for p in y.value.pieces if p.text] if y.value is not None else []
    for p in pieces:
        if isinstance(p.origin, ValuesOrigin):
            key = p.origin.key
            ci = sources.ci_values.get(y.values)
            for path, text in ((y.values, ci), (sources.values_path, sources.values)):
                if text is None:
                    continue
                found = valuesfile.find_scalar(text, key)
                if found is not None:
                    return path, found.line, f"values key {'.'.join(key)}"
    for p in reversed(pieces):
        if isinstance(p.origin, TemplateOrigin):
            text = sources.text(p.origin.path) or ""
            source = f"define {site.helper!r}" if site.helper else "literal"
            return p.origin.path, line_of(text, p.origin.start), source
    return site.path, site.line, site.idiom
