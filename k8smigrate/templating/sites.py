"""Where a chart computes an apiVersion, and how to run just that computation.

A *site* is an ``apiVersion:`` key of a rendered template whose value the template computes:

``helper``
    ``apiVersion: {{ template "x.deployment.apiVersion" . }}`` (or ``include``): a ``define``
    in a partial picks the version.
``inline-if``
    ``apiVersion: {{ if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }}…{{ else }}…{{ end }}``.
``branches``
    whole-line ``{{ if … }}`` / ``{{ else }}`` / ``{{ end }}`` around two or more
    ``apiVersion:`` lines, the condition reading ``.Capabilities`` (directly or through a
    variable such as ``$kubeTargetVersion``).
``values``
    ``apiVersion: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}`` (with ``required``,
    ``default`` …): the version comes from ``values.yaml``.
``expression``
    any other action in the value.

A literal ``apiVersion:`` inside an ``if`` that does not read ``.Capabilities`` (a document
enabled by a value) is not a site: the plain migrations handle it. Keys inside a ``define``
body are not sites either (they belong to whatever includes the define). The document's
kind is read from the ``kind:`` key of the same mapping, evaluated when it is computed
(``kind: {{ include "x.rbac.scope" . | printf "%sRole" }}``); a key below the root (an HPA's
``scaleTargetRef.apiVersion``) is a site too, with the kind beside it, and ``root`` False.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import field
from functools import cached_property

from ..dataclasscode import dataclass
from ..regexcode import regex
from ..runtime_typing import Literal as TypingLiteral
from ..versions import NEWEST_KNOWN
from ..yamlio import line_of
from . import valuesfile
from .capabilities import HELM_TEMPLATE, capabilities
from .gotmpl import (
    Action,
    ActionNode,
    Block,
    Define,
    Field,
    Ident,
    Node,
    Pipe,
    Sub,
    Template,
    TemplateSyntaxError,
    Text,
    read,
    walk,
)
from .tmpleval import Evaluator, Output, Piece, TemplateFailure, Traced, Value, VarFallback, strip_space

__all__ = ["ChartSources", "Idiom", "ParsedChart", "Site", "find_sites", "parsed", "run_site"]

Idiom = TypingLiteral["helper", "inline-if", "branches", "values", "expression"]

_KEY = regex(r"^([ \t]*)((?:-[ \t]+)*)apiVersion[ \t]*:", re.M)
_KIND = regex(r"^([ \t]*)((?:-[ \t]+)*)kind[ \t]*:", re.M)


@dataclass(frozen=True)
class ChartSources:
    """The texts of a chart, by path relative to the chart's folder.

    ``templates`` holds every file under ``templates/`` (partials included), ``lent`` the
    subcharts' templates that hold defines; ``values`` is ``values.yaml``; ``ci_values`` the
    ``ci/*.yaml`` files, each rendered over the defaults as ``helm template -f`` would;
    ``chart_yaml`` feeds ``.Chart``; ``api_versions`` are ``helm template --api-versions``.
    """

    templates: Mapping[str, str]
    values: str = ""
    ci_values: Mapping[str, str] = field(default_factory=dict)
    chart_yaml: str = ""
    values_path: str = "values.yaml"
    api_versions: tuple[str, ...] = ()
    lent: Mapping[str, str] = field(default_factory=dict)
    """The templates of the chart's subcharts that hold defines, by path from this chart
    (``charts/common/templates/_capabilities.tpl``). Helm gives a chart and its subcharts one
    namespace of defines, and a library chart (Bitnami's ``common``) is only that: its defines
    compute the apiVersions of the charts that use it. They lend defines and nothing else:
    never rendered, read or edited as this chart's templates (the subchart's own run does)."""

    def text(self, path: str) -> str | None:
        """Any file of the chart by path: a template, a lent one, the values file or a ci values file."""
        if path in self.templates:
            return self.templates[path]
        if path in self.lent:
            return self.lent[path]
        if path == self.values_path:
            return self.values
        return self.ci_values.get(path)

    @cached_property
    def runnable(self) -> Mapping[str, str]:
        """Every template an evaluation may run, by path: the lent ones and the chart's own."""
        return {**self.lent, **self.templates} if self.lent else self.templates


def rendered(path: str) -> bool:
    """Whether Helm renders ``path`` as this chart's manifests: under ``templates/``, not a ``_``
    partial, not NOTES.txt (a subchart's templates lend their defines, nothing else: their
    documents take the subchart's values)."""
    name = posixpath.basename(path)
    return path.startswith("templates/") and not name.startswith("_") and name != "NOTES.txt"


_NAMED_CALL = regex(r'\b(?:include|template)\s+"([^"]*)"')
_COMPUTED_CALL = regex(r'\b(?:include|template)\s+(?!")')
"""``include (printf "%s.name" .Chart.Name) .``: which define runs is known only by running it."""


def parsed(sources: ChartSources) -> ParsedChart:
    """The ``ParsedChart`` of ``sources``, read once while the same sources object is asked for
    again (the apiVersion planner and the version conditions of one chart read the same)."""
    for known, chart in _PARSED:
        if known is sources:
            return chart
    chart = ParsedChart(sources)
    _PARSED[:] = [(sources, chart), *_PARSED[:1]]
    return chart


class ParsedChart:
    """A chart's templates read into trees, its defines and its values sets."""

    def __init__(self, sources: ChartSources) -> None:
        self.sources = sources
        self.trees: dict[str, list[Node]] = {}
        self.actions: dict[str, list[Action]] = {}
        self.errors: dict[str, TemplateSyntaxError] = {}
        self.defines: dict[str, tuple[str, Define]] = {}
        found: dict[str, list[Define]] = {}
        for path in sources.lent:
            try:
                _actions, lent_tree = read(sources.lent[path])
                found[path] = [node for node in walk(list(lent_tree)) if isinstance(node, Define)]
            except TemplateSyntaxError:
                continue  # the subchart's own run reports it
        for path in sorted(sources.templates):
            try:
                actions_read, tree_read = read(sources.templates[path])
                actions, tree = list(actions_read), list(tree_read)
            except TemplateSyntaxError as exc:
                self.errors[path] = exc
                continue
            self.trees[path] = tree
            self.actions[path] = actions
            found[path] = [node for node in walk(tree) if isinstance(node, Define)]
        # Helm parses the files deepest first (then by name, descending: engine.go sortTemplates)
        # and the last define of a name wins: the chart's own over its subcharts', and of two
        # vendored copies of a library (bitnami's common), the one nearest the chart
        for path in sorted(found, key=lambda p: (p.count("/"), p), reverse=True):
            for node in found[path]:
                self.defines[node.name] = (path, node)
        self.values_errors: dict[str, str] = {}
        self._declarations: dict[str, list[tuple[int, str, Pipe]]] = {}
        self._regions: dict[Site, list[Node]] = {}

    @cached_property
    def newline_defines(self) -> frozenset[str]:
        """The defines whose output is empty or starts with a line break (``define_output``)."""
        from .define_output import newline_first

        return newline_first(self.defines, {**self.sources.lent, **self.sources.templates})

    @cached_property
    def values_sets(self) -> list[tuple[str, dict[str, object]]]:
        """(name, data): the defaults, then each ci file over them (``values_errors`` says what
        could not be read)."""
        try:
            base = valuesfile.load(self.sources.values) if self.sources.values else {}
        except valuesfile.ValuesError as exc:
            self.values_errors[self.sources.values_path] = str(exc)
            base = {}
        out = [(self.sources.values_path, base)]
        for path in sorted(self.sources.ci_values):
            try:
                out.append((path, valuesfile.coalesce(base, valuesfile.load(self.sources.ci_values[path]))))
            except valuesfile.ValuesError as exc:
                self.values_errors[path] = str(exc)
        return out

    @cached_property
    def chart_meta(self) -> dict[str, object] | None:
        """``.Chart``: Chart.yaml's fields under Helm's capitalised names."""
        if not self.sources.chart_yaml:
            return None
        try:
            data = valuesfile.load(self.sources.chart_yaml)
        except valuesfile.ValuesError:
            return None
        return {k[:1].upper() + k[1:]: v for k, v in data.items()}

    @cached_property
    def capability_defines(self) -> frozenset[str]:
        """The defines that may read ``.Capabilities``: their body names it, calls one that does,
        or calls a define whose name it computes (which one is not known without running it)."""
        calls: dict[str, set[str]] = {}
        reads: set[str] = set()
        for name, (path, define) in self.defines.items():
            text = self.sources.templates.get(path) or self.sources.lent.get(path, "")
            body = text[define.action.end : define.end_action.start]
            if "Capabilities" in body or _COMPUTED_CALL.search(body):
                reads.add(name)
            calls[name] = set(_NAMED_CALL.findall(body))
        grew = True
        while grew:
            grew = False
            for name, called in calls.items():
                if name not in reads and called & reads:
                    reads.add(name)
                    grew = True
        return frozenset(reads)

    def may_read_capabilities(self, condition: str) -> bool:
        """Whether an action's text may read ``.Capabilities`` through the defines it calls."""
        if _COMPUTED_CALL.search(condition):
            return True
        return any(name in self.capability_defines for name in _NAMED_CALL.findall(condition))

    def declarations(self, path: str) -> list[tuple[int, str, Pipe]]:
        """``$x := …`` actions of a template, outside defines: (offset, name, pipe)."""
        if path not in self._declarations:
            out: list[tuple[int, str, Pipe]] = []
            for node in _walk_outside_defines(self.trees.get(path, [])):
                if isinstance(node, ActionNode) and node.pipe is not None:
                    out.extend((node.action.start, name, node.pipe) for name in node.pipe.decl)
            self._declarations[path] = out
        return self._declarations[path]

    def region(self, site: Site) -> list[Node]:
        """The nodes run to compute a site (found once)."""
        if site not in self._regions:
            tree = self.trees[site.path]
            if site.idiom == "branches":
                self._regions[site] = [n for n in walk(tree) if isinstance(n, Block) and n.start == site.start]
            else:
                place = _locate(tree, site.keys[0])
                assert place is not None
                self._regions[site] = _nodes_in(place.body, site.start, site.end)
        return self._regions[site]


@dataclass(frozen=True)
class Site:
    """One computed ``apiVersion:`` key (see the module docstring for the idioms)."""

    path: str
    line: int
    column: int
    start: int
    end: int
    """The span that is run to compute the value: the value after the colon to the end of its
    line, or the whole ``if`` block for ``branches``."""
    idiom: Idiom
    root: bool
    kind: str | None
    helper: str | None = None
    block: int | None = None
    """Offset of the ``if`` block of ``branches`` and ``inline-if``."""
    conditions: tuple[str, ...] = ()
    """The conditions that may decide it (the block's and the helper's), as written."""
    keys: tuple[int, ...] = ()
    """Offsets of the ``apiVersion`` keys (several for ``branches``)."""


def _walk_outside_defines(nodes: list[Node]) -> list[Node]:
    out: list[Node] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, Block):
            for branch in reversed(node.branches):
                stack.extend(reversed(branch.body))
    return out


def _span(node: Node) -> tuple[int, int]:
    if isinstance(node, Text):
        return node.start, node.end
    if isinstance(node, (ActionNode, Template)):
        return node.action.start, node.action.end
    if isinstance(node, Block):
        return node.start, node.end
    return node.action.start, node.end_action.end


@dataclass
class _Place:
    """Where an offset stands: the body list holding it and the blocks around it (outermost first)."""

    body: list[Node]
    blocks: list[Block]
    in_define: bool


def _locate(nodes: list[Node], offset: int) -> _Place | None:
    body, in_define = nodes, False
    blocks: list[Block] = []
    while True:
        for node in body:
            lo, hi = _span(node)
            if lo <= offset < hi:
                if isinstance(node, Text):
                    return _Place(body, blocks, in_define)
                if isinstance(node, Block):
                    inner = next(
                        (
                            b.body
                            for b in node.branches
                            if b.body and _span(b.body[0])[0] <= offset < _span(b.body[-1])[1]
                        ),
                        None,
                    )
                    if inner is None:
                        return None
                    blocks = [*blocks, node]
                    body = inner
                    break
                if isinstance(node, Define):
                    in_define = True
                    body = node.body
                    break
                return None
        else:
            return None


def _holds(body: list[Node], offset: int) -> bool:
    return bool(body) and _span(body[0])[0] <= offset < _span(body[-1])[1]


def _actions_in(actions: list[Action], lo: int, hi: int) -> list[Action]:
    return [a for a in actions if a.start < hi and a.end > lo]


def _line_end(text: str, actions: list[Action], pos: int) -> int:
    """End of the line at ``pos``, past any action that starts on it and spans lines."""
    while True:
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl
        spanning = [a for a in actions if a.start < end and a.end > end]
        if not spanning:
            return end
        pos = max(a.end for a in spanning)


def _reads_capabilities(text: str, pipe_text: str, declared: Mapping[str, str]) -> bool:
    if "Capabilities" in pipe_text:
        return True
    return any(name in pipe_text and "Capabilities" in decl for name, decl in declared.items())


def _pipe_text(text: str, action: Action) -> str:
    return text[action.inner_start : action.inner_end].strip()


def find_sites(chart: ParsedChart) -> list[Site]:
    """Every computed apiVersion of the chart's rendered templates, in path and text order."""
    sites: list[Site] = []
    for path in sorted(chart.trees):
        if rendered(path):
            sites += _sites_of(chart, path)
    return sites


def _sites_of(chart: ParsedChart, path: str) -> list[Site]:
    text = chart.sources.templates[path]
    tree = chart.trees[path]
    actions = chart.actions[path]
    declared = {name: text[start : text.find("}}", start)] for start, name, _ in chart.declarations(path)}
    out: list[Site] = []
    blocks_done: dict[int, int] = {}
    for m in _KEY.finditer(text):
        key = m.end(1) + len(m.group(2))
        place = _locate(tree, key)
        if place is None or place.in_define:
            continue
        column = len(m.group(1)) + len(m.group(2))
        root = column == 0
        value_start = m.end()
        value_end = _line_end(text, actions, value_start)
        inside = _actions_in(actions, value_start, value_end)
        line = line_of(text, key)
        if inside:
            idiom, helper, block = _classify_value(place.body, value_start, value_end)
            conditions = _conditions(chart, text, place.body, value_start, value_end)
            kind = _kind(chart, path, text, actions, key, column)
            out.append(
                Site(path, line, column, value_start, value_end, idiom, root, kind, helper, block, conditions, (key,))
            )
            continue
        enclosing = place.blocks[-1] if place.blocks else None
        if enclosing is None or enclosing.keyword != "if":
            continue
        conds = [_pipe_text(text, b.action) for b in enclosing.branches if b.pipe is not None]
        if not any(_reads_capabilities(text, c, declared) for c in conds):
            continue
        keyed = [b for b in enclosing.branches if any(_KEY.search(text, _span(n)[0], _span(n)[1]) for n in b.body)]
        if len(keyed) < 2:
            continue
        if enclosing.start in blocks_done:
            previous = out[blocks_done[enclosing.start]]
            out[blocks_done[enclosing.start]] = _with_key(previous, key)
            continue
        kind = _kind(chart, path, text, actions, key, column)
        blocks_done[enclosing.start] = len(out)
        site = Site(path, line, column, enclosing.start, enclosing.end, "branches", root, kind, None, enclosing.start)
        out.append(_with_key(_with_conditions(site, tuple(conds)), key))
    return out


def _with_key(site: Site, key: int) -> Site:
    return Site(**{**site.__dict__, "keys": (*site.keys, key)})


def _with_conditions(site: Site, conditions: tuple[str, ...]) -> Site:
    return Site(**{**site.__dict__, "conditions": conditions})


def _nodes_in(body: list[Node], lo: int, hi: int) -> list[Node]:
    return [n for n in body if _span(n)[0] < hi and _span(n)[1] > lo]


def _classify_value(body: list[Node], lo: int, hi: int) -> tuple[Idiom, str | None, int | None]:
    nodes = _nodes_in(body, lo, hi)
    for node in nodes:
        if isinstance(node, Template):
            return "helper", node.name, None
        if isinstance(node, ActionNode) and node.pipe is not None:
            called = _called(node.pipe)
            if called is not None:
                return "helper", called, None
    for node in nodes:
        if isinstance(node, Block):
            return "inline-if", None, node.start
    for node in nodes:
        if isinstance(node, ActionNode) and node.pipe is not None and _reads_values(node.pipe):
            return "values", None, None
    return "expression", None, None


def _args(pipe: Pipe) -> list[object]:
    out: list[object] = []
    for cmd in pipe.cmds:
        for arg in cmd.args:
            out.append(arg)
            if isinstance(arg, Sub):
                out += _args(arg.pipe)
    return out


def _called(pipe: Pipe) -> str | None:
    """The define an ``include`` in this pipeline names."""
    for cmd in pipe.cmds:
        if len(cmd.args) >= 2 and cmd.args[0] == Ident("include"):
            name = cmd.args[1]
            value = getattr(name, "value", None)
            if isinstance(value, str):
                return value
        for arg in cmd.args:
            if isinstance(arg, Sub):
                found = _called(arg.pipe)
                if found is not None:
                    return found
    return None


def _reads_values(pipe: Pipe) -> bool:
    return any(isinstance(a, Field) and a.var in (None, "$") and a.names[:1] == ("Values",) for a in _args(pipe))


def _conditions(chart: ParsedChart, text: str, body: list[Node], lo: int, hi: int) -> tuple[str, ...]:
    """Conditions of the blocks run for a value: inline blocks and those of the defines called."""
    out: list[str] = []
    seen: set[str] = set()
    todo: list[tuple[str, list[Node]]] = [("", _nodes_in(body, lo, hi))]
    while todo:
        _where, nodes = todo.pop()
        for node in walk(nodes):
            name: str | None = None
            if isinstance(node, Block):
                source = (chart.sources.text(_where) or text) if _where else text
                out += [_pipe_text(source, b.action) for b in node.branches if b.pipe is not None]
            elif isinstance(node, Template):
                name = node.name
            elif isinstance(node, ActionNode) and node.pipe is not None:
                name = _called(node.pipe)
            if name is not None and name not in seen and name in chart.defines:
                seen.add(name)
                where, define = chart.defines[name]
                todo.append((where, define.body))
    return tuple(out)


def _kind(chart: ParsedChart, path: str, text: str, actions: list[Action], key: int, column: int) -> str | None:
    """The ``kind:`` beside the key at ``column``, evaluated when computed (None: not found or not known)."""
    for m in _kind_candidates(text, key, column):
        value_start = m.end()
        value_end = _line_end(text, actions, value_start)
        if not _actions_in(actions, value_start, value_end):
            return _scalar_text(text[value_start:value_end])
        return _evaluate_kind(chart, path, value_start, value_end)
    return None


def _kind_candidates(text: str, key: int, column: int) -> list[re.Match[str]]:
    """``kind:`` keys at ``column`` in the mapping around ``key`` (after it first, then before)."""
    line_start = text.rfind("\n", 0, key) + 1
    found: list[re.Match[str]] = []
    for direction in (1, -1):
        pos = line_start
        while True:
            if direction > 0:
                nl = text.find("\n", pos)
                if nl < 0:
                    break
                pos = nl + 1
            else:
                if pos == 0:
                    break
                pos = text.rfind("\n", 0, pos - 1) + 1
            end = text.find("\n", pos)
            line = text[pos : len(text) if end < 0 else end]
            stripped = line.strip()
            if not stripped or stripped.startswith(("{{", "#")):
                continue
            if stripped.startswith("---"):
                break
            indent = len(line) - len(line.lstrip(" -"))
            if indent < column:
                break
            m = _KIND.match(text, pos)
            if indent == column and m is not None and len(m.group(1)) + len(m.group(2)) == column:
                found.append(m)
                break
    return found


def _scalar_text(value: str) -> str | None:
    lo, hi = scalar_bounds(value)
    return value[lo:hi] if hi > lo else None


def scalar_bounds(value: str) -> tuple[int, int]:
    """Bounds of a YAML scalar written after ``key:`` (quotes and an end-of-line comment off)."""
    lo, hi = strip_space(value)
    if lo < hi and value[lo] in "'\"":
        close = value.find(value[lo], lo + 1, hi)
        return (lo + 1, close) if close > 0 else (lo, lo)
    comment = value.find(" #", lo, hi)
    if comment >= 0:
        hi = comment
        while hi > lo and value[hi - 1] in " \t":
            hi -= 1
    return lo, hi


def _evaluate_kind(chart: ParsedChart, path: str, lo: int, hi: int) -> str | None:
    _name, values = chart.values_sets[0]
    caps = capabilities(HELM_TEMPLATE, NEWEST_KNOWN)
    ev = Evaluator(chart.sources.runnable, chart.defines, values, caps, chart=chart.chart_meta)
    ev.var_fallback = variables_before(chart, ev, path, lo)
    place = _locate(chart.trees[path], lo)
    if place is None:
        return None
    try:
        out = run_region(ev, path, place.body, lo, hi)
    except Exception:  # a failing kind is not known, never a crash of the caller
        return None
    traced = out.traced()
    if traced.unknown:
        return None
    return _scalar_text(traced.text)


_PARSED: list[tuple[ChartSources, ParsedChart]] = []


def variables_before(chart: ParsedChart, ev: Evaluator, path: str, offset: int) -> VarFallback:
    """Finds a variable the region uses but declares earlier in the template (``$kubeTargetVersion
    := default .Capabilities.KubeVersion.GitVersion .Values.kubeTargetVersionOverride``): the
    nearest declaration before ``offset``, evaluated at the template's root."""
    declarations = [d for d in chart.declarations(path) if d[0] < offset]

    def find(name: str) -> tuple[Value, bool] | None:
        for start, declared, pipe in reversed(declarations):
            if declared != name:
                continue
            dot = ev.root(path)
            scope = ev.scope(dot)
            saved_path, saved_fallback = ev._path, ev.var_fallback
            ev._path, ev.var_fallback = path, variables_before(chart, ev, path, start)
            try:
                ev.pipe(pipe, dot, scope)
            except TemplateFailure:
                return None
            finally:
                ev._path, ev.var_fallback = saved_path, saved_fallback
            return scope.vars.get(name)
        return None

    return find


def run_region(ev: Evaluator, path: str, body: list[Node], lo: int, hi: int) -> Output:
    """Print the nodes of ``body`` that stand in ``lo:hi`` (text clipped to it)."""
    out = Output()
    dot = ev.root(path)
    scope = ev.scope(dot)
    saved, ev._path = ev._path, path
    try:
        for node in _nodes_in(body, lo, hi):
            if isinstance(node, Text):
                ev.run_text(node, path, out, lo, hi)
            else:
                ev.node(node, path, dot, scope, out)
    finally:
        ev._path = saved
    return out


def run_site(ev: Evaluator, chart: ParsedChart, site: Site) -> Traced | None:
    """The apiVersion the site prints with this evaluator's capabilities and values, traced to
    its origins; None when nothing is printed (the branch taken has no ``apiVersion:``)."""
    nodes = chart.region(site)
    if site.idiom == "branches":
        out = Output()
        saved, ev._path = ev._path, site.path
        try:
            dot = ev.root(site.path)
            ev.node(nodes[0], site.path, dot, ev.scope(dot), out)
        finally:
            ev._path = saved
        traced = out.traced()
        text = traced.text
        for m in _KEY.finditer(text):
            if len(m.group(1)) + len(m.group(2)) != site.column:
                continue
            end = text.find("\n", m.end())
            end = len(text) if end < 0 else end
            lo, hi = scalar_bounds(text[m.end() : end])
            return traced.slice(m.end() + lo, m.end() + hi)
        if traced.unknown:
            return Traced((Piece("", None, True),))
        return None
    out = run_region(ev, site.path, nodes, site.start, site.end)
    traced = out.traced()
    text = traced.text
    line = text.split("\n", 1)[0]
    lo, hi = scalar_bounds(line)
    return traced.slice(lo, hi) if hi > lo or traced.unknown else None
