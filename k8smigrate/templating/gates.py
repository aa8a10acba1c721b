"""Where a chart writes text only for some releases: an ``if`` on the cluster's version around it.

Charts keep an object of an API that later releases removed behind a version condition, which
is how the upstream charts moved on: ``{{- if semverCompare "<1.25-0"
.Capabilities.KubeVersion.GitVersion }}`` around a PodSecurityPolicy, or bitnami's ``{{- if and
(include "common.capabilities.psp.supported" .) .Values.podSecurityPolicy.create }}``. Such a
document is never rendered at a release that no longer serves its API: nothing to migrate,
nothing for a human to do (``migrate`` and ``scanning`` leave it alone with an info).
Inside a document, lines under such a condition are no part of it at those releases
(``unreached``): the skeleton leaves them out.

``gates(sources, window, paths, scenarios=SCENARIOS) -> dict[str, list[Gate]]``
    Per template at ``paths``, the arms of every ``if`` whose condition reads ``.Capabilities``
    (directly, through a variable or through the defines it calls), with the releases of the
    window at which an arm is never taken. The first arm is off at a release when its
    condition, or one of the terms of its top-level ``and``, is false there in every rendering
    scenario and with every values set of the chart (``values.yaml``, each ``ci/*.yaml``) and
    reads ``.Capabilities``: a term that only reads values (the ``podSecurityPolicy.create``
    switch) can be turned on by a user, the release cannot. The other arms (``else``, ``else
    if``) are off where the first is always taken: each term of its ``and`` true, by the
    release, in every scenario and values set (deliveryhero's CRDs write ``versions:`` under
    ``{{- if semverCompare ">=1.11" … }}`` and the old ``version:`` under the ``else``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ..dataclasscode import dataclass
from ..versions import KubeVersion, Window
from .capabilities import SCENARIOS, Scenario, capabilities, releases
from .conditions import _blocks, _reads_capabilities
from .gotmpl import Arg, Block, Cmd, Ident, Pipe, Sub
from .markers import TOP_LEVEL
from .sites import ChartSources, ParsedChart, parsed, variables_before
from .tmpleval import UNKNOWN, Evaluator, TemplateFailure, truthy


@dataclass(frozen=True)
class Gate:
    """The body of an arm of an ``if`` (template offsets) and the releases that never take it."""

    start: int
    end: int
    condition: str
    off: frozenset[KubeVersion]


def gates(
    sources: ChartSources, window: Window, paths: list[str], scenarios: tuple[Scenario, ...] = SCENARIOS
) -> dict[str, list[Gate]]:
    """The first arms of the ``if`` blocks on ``.Capabilities`` of the templates at ``paths``
    that some release of ``window`` never takes."""
    if not paths:
        return {}
    chart = parsed(sources)
    out: dict[str, list[Gate]] = defaultdict(list)
    for path in sorted(p for p in paths if p in chart.trees):
        text = sources.templates[path]
        for block in _blocks(chart.trees[path]):
            first = block.branches[0]
            condition = text[first.action.inner_start : first.action.inner_end]
            if first.pipe is None or not (
                _reads_capabilities(chart, path, block) or chart.may_read_capabilities(condition)
            ):
                continue
            window_releases = releases(window.min_version, window.target)
            off = frozenset(
                release
                for release in window_releases
                if all(_never(chart, path, block, first.pipe, scenario, release) for scenario in scenarios)
            )
            ends = [b.action.start for b in block.branches[1:]] + [block.end_action.start]
            if off:
                out[path].append(Gate(first.action.end, ends[0], condition.strip(), off))
            if len(block.branches) == 1:
                continue
            taken = frozenset(
                release
                for release in window_releases
                if release not in off
                and all(_always(chart, path, block, first.pipe, scenario, release) for scenario in scenarios)
            )
            for arm, end in zip(block.branches[1:], ends[1:], strict=True):
                if taken:  # the first arm is taken there: no other arm is
                    out[path].append(Gate(arm.action.end, end, f"not ({condition.strip()})", taken))
    return dict(out)


def _never(chart: ParsedChart, path: str, block: Block, pipe: Pipe, scenario: Scenario, release: KubeVersion) -> bool:
    """Whether the first arm is not taken at ``release`` in ``scenario``, whatever values a user
    gives: a term of its top-level ``and`` is false and reads ``.Capabilities``."""
    return all(
        any(_by_release(ev, path, term, False) for term in and_terms(pipe))
        for ev in _evaluators(chart, path, block, scenario, release)
    )


def _always(chart: ParsedChart, path: str, block: Block, pipe: Pipe, scenario: Scenario, release: KubeVersion) -> bool:
    """Whether the first arm is taken at ``release`` in ``scenario``, whatever values a user
    gives: each term of its top-level ``and`` is true and reads ``.Capabilities``."""
    return all(
        all(_by_release(ev, path, term, True) for term in and_terms(pipe))
        for ev in _evaluators(chart, path, block, scenario, release)
    )


def _evaluators(
    chart: ParsedChart, path: str, block: Block, scenario: Scenario, release: KubeVersion
) -> Iterator[Evaluator]:
    """An evaluator of the block's condition for each values set of the chart."""
    caps = capabilities(scenario, release, chart.sources.api_versions)
    for _name, values in chart.values_sets:
        ev = Evaluator(chart.sources.runnable, chart.defines, values, caps, chart=chart.chart_meta)
        ev.var_fallback = variables_before(chart, ev, path, block.start)
        yield ev


def and_terms(pipe: Pipe) -> list[Pipe]:
    """``and A B …`` as its terms (each a pipeline), any other condition as itself."""
    if len(pipe.cmds) == 1 and not pipe.decl:
        args = pipe.cmds[0].args
        if len(args) > 2 and isinstance(args[0], Ident) and args[0].name == "and":
            return [_as_pipe(a) for a in args[1:]]
    return [pipe]


def _as_pipe(arg: Arg) -> Pipe:
    if isinstance(arg, Sub) and not arg.names:
        return arg.pipe
    return Pipe((Cmd((arg,)),))


def _by_release(ev: Evaluator, path: str, term: Pipe, wanted: bool) -> bool:
    """Whether ``term`` is ``wanted`` (true or false) and reads ``.Capabilities`` (so that the
    release makes it so)."""
    dot = ev.root(path)
    saved, ev._path = ev._path, path
    before = ev.caps_reads
    try:
        value = ev.pipe(term, dot, ev.scope(dot))
    except TemplateFailure:
        return False
    finally:
        ev._path = saved
    return value is not UNKNOWN and truthy(value) is wanted and ev.caps_reads > before


def unreached(text: str, gates: list[Gate], window: Window) -> list[tuple[int, int]]:
    """The arms of ``gates`` inside a document, on lines of their own, that no release of
    ``window`` takes: a rendering at those releases never holds them, so neither does the
    skeleton (``migrate``), and no migration or check acts on them.

    Bitnami's cilium writes its AppArmor annotations under ``{{- if semverCompare "<1.30-0" … }}``
    and the fields that replace them under the other arm: at 1.35 the annotations are no part of
    the pod. An arm that holds a line at column 0 (a document, or its top-level keys) is not
    one: a document written only for some releases is ``version_gated``'s case.
    """
    every = frozenset(releases(window.min_version, window.target))
    return [
        (gate.start, gate.end)
        for gate in gates
        if every <= gate.off
        and _own_lines(text, gate.start, gate.end)
        and not TOP_LEVEL.search(text, gate.start, gate.end)
    ]


def _own_lines(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` starts at a line end and ends at an indentation: whole lines."""
    line_end = text.find("\n", start)
    return (
        line_end >= 0
        and line_end < end
        and not text[start:line_end].strip()
        and not text[text.rfind("\n", 0, end) + 1 : end].strip()
    )
