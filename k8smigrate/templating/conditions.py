"""Which arm of a ``.Capabilities`` condition the releases of a window take, anywhere in a chart.

Charts branch on the cluster's version in document bodies too: ``{{- if semverCompare
">=1.16-0" .Capabilities.KubeVersion.GitVersion }}`` around a Deployment's ``selector``, a
``startupProbe`` from 1.18, ``{{ if .Capabilities.APIVersions.Has "batch/v1alpha1" }}``. A
YAML skeleton cannot hold both arms when they give a key two shapes, yet within a window such
a condition is often constant. This module says so, per block:

``capability_blocks(sources, window, scenarios=SCENARIOS) -> list[CapabilityBlock]``
    Every ``if`` whose condition reads ``.Capabilities`` (directly or through a variable), with
    the arms the releases of the window take in every scenario and values set, and
    ``constant``: the one arm all of them take (``-1``: none, the block prints nothing),
    provided the condition reads no ``.Values`` (a user's values could change it).

``remove_dead_blocks(sources, window, scenarios=SCENARIOS, paths=None) -> list[Edit]``
    Opt-in: each constant block replaced by its arm, whitespace-exact (``collapse``), when no
    release from the window's first to the newest known takes another arm (an arm for a future
    release stays).

Blocks inside ``with`` or ``range`` are left out: their ``.`` is not the chart's.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from ..dataclasscode import dataclass
from ..versions import NEWEST_KNOWN, KubeVersion, Window
from ..yamlio import line_of
from .capabilities import SCENARIOS, Scenario, capabilities, releases
from .collapse import collapse_block
from .edits import Edit, edited_span
from .gotmpl import Block, Define, Node
from .sites import ChartSources, ParsedChart, variables_before
from .tmpleval import UNKNOWN, Evaluator, TemplateFailure, truthy

__all__ = ["CapabilityBlock", "capability_blocks", "remove_dead_blocks"]

UNDECIDED = -2
NO_ARM = -1


@dataclass(frozen=True)
class CapabilityBlock:
    """An ``if`` on ``.Capabilities`` and the arms the window's releases take.

    ``arms``: indices of the arms taken somewhere in the window (``-1``: no arm, the block
    has no ``else``; ``-2``: a condition could not be evaluated).
    """

    path: str
    line: int
    start: int
    end: int
    conditions: tuple[str, ...]
    arms: frozenset[int]
    constant: int | None
    reads_values: bool
    later_arms: frozenset[int]
    """Arms taken from the window's first release to the newest known (for removal)."""


def _blocks(nodes: list[Node]) -> list[Block]:
    """``if`` blocks whose ``.`` is the template's (not inside ``with`` or ``range``)."""
    out: list[Block] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        if isinstance(node, Block):
            if node.keyword != "if":
                continue
            out.append(node)
            for branch in reversed(node.branches):
                stack.extend(reversed(branch.body))
        elif isinstance(node, Define):
            stack.extend(reversed(node.body))
    return out


def _reads_capabilities(chart: ParsedChart, path: str, block: Block) -> bool:
    text = chart.sources.templates[path]
    conditions = [text[b.action.inner_start : b.action.inner_end] for b in block.branches if b.pipe is not None]
    if any("Capabilities" in c for c in conditions):
        return True
    tainted = {
        name for start, name, pipe in chart.declarations(path) if "Capabilities" in text[start : text.find("}}", start)]
    }
    return any(name in c for name in tainted for c in conditions)


def _arm(ev: Evaluator, path: str, block: Block) -> int:
    dot = ev.root(path)
    scope = ev.scope(dot)
    saved, ev._path = ev._path, path
    try:
        for index, branch in enumerate(block.branches):
            if branch.pipe is None:
                return index
            value = ev.pipe(branch.pipe, dot, scope)
            truth = truthy(value) if value is not UNKNOWN else None
            if truth is None:
                return UNDECIDED
            if truth:
                return index
        return NO_ARM
    except TemplateFailure:
        return UNDECIDED
    finally:
        ev._path = saved


def capability_blocks(
    sources: ChartSources, window: Window, scenarios: tuple[Scenario, ...] = SCENARIOS
) -> list[CapabilityBlock]:
    """Every ``if`` on ``.Capabilities`` of the chart, with the arms the window takes."""
    return _capability_blocks(ParsedChart(sources), window, scenarios)


def _capability_blocks(chart: ParsedChart, window: Window, scenarios: tuple[Scenario, ...]) -> list[CapabilityBlock]:
    sources = chart.sources
    found = [(path, b) for path in sorted(chart.trees) for b in _blocks(chart.trees[path])]
    found = [(path, b) for path, b in found if _reads_capabilities(chart, path, b)]
    if not found:
        return []
    out: list[CapabilityBlock] = []
    last = max(window.target, NEWEST_KNOWN)
    for path, block in found:
        arms: set[int] = set()
        later: set[int] = set()
        reads_values = False
        for scenario in scenarios:
            for release in releases(window.min_version, last):
                taken, values_read = _arms_at(chart, path, block, scenario, release)
                reads_values = reads_values or values_read
                later |= taken
                if release <= window.target:
                    arms |= taken
        text = sources.templates[path]
        constant = None
        if len(arms) == 1 and not reads_values and min(arms) >= NO_ARM:
            constant = next(iter(arms))
        conditions = tuple(
            text[b.action.inner_start : b.action.inner_end].strip() for b in block.branches if b.pipe is not None
        )
        out.append(
            CapabilityBlock(
                path,
                line_of(text, block.start),
                block.start,
                block.end,
                conditions,
                frozenset(arms),
                constant,
                reads_values,
                frozenset(later),
            )
        )
    return out


def _arms_at(
    chart: ParsedChart, path: str, block: Block, scenario: Scenario, release: KubeVersion
) -> tuple[set[int], bool]:
    caps = capabilities(scenario, release, chart.sources.api_versions)
    taken: set[int] = set()
    reads_values = False
    for _name, values in chart.values_sets:
        ev = Evaluator(chart.sources.runnable, chart.defines, values, caps, chart=chart.chart_meta)
        ev.var_fallback = variables_before(chart, ev, path, block.start)
        taken.add(_arm(ev, path, block))
        if ev.values_reads == 0:
            break  # the condition reads no values: every values set takes the same arm
        reads_values = True
    return taken, reads_values


def remove_dead_blocks(
    sources: ChartSources,
    window: Window,
    scenarios: tuple[Scenario, ...] = SCENARIOS,
    paths: Iterable[str] | None = None,
) -> list[Edit]:
    """Edits replacing each block constant from the window's first release on by its arm."""
    wanted = set(paths) if paths is not None else None
    chart = ParsedChart(sources)
    blocks = {(b.path, b.start): b for b in _capability_blocks(chart, window, scenarios)}
    nodes = {(path, b.start): b for path in chart.trees for b in _blocks(chart.trees[path])}
    edits: list[Edit] = []
    done: list[tuple[str, int, int]] = []
    for key, fact in sorted(blocks.items(), key=lambda kv: kv[1].end - kv[1].start):
        path = fact.path
        if wanted is not None and path not in wanted:
            continue
        if fact.constant is None or fact.later_arms != {fact.constant}:
            continue
        if any(
            p == path and s < fact.end and fact.start < e for p, s, e in done if not (s >= fact.start and e <= fact.end)
        ):
            continue
        text = sources.templates[path]
        mine = [e for e in edits if e.path == path]
        change = collapse_block(text, nodes[key], fact.constant, partial(edited_span, text, mine))
        if change is None:
            continue
        inside = [e for e in mine if change[0] <= e.start and e.end <= change[1]]
        edits = [e for e in edits if e not in inside] + [Edit(path, *change)]
        done.append((path, change[0], change[1]))
    return sorted(edits, key=lambda e: (e.path, e.start))
