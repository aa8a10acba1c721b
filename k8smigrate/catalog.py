"""What the registry says about its migrations, as text and data: ``list`` and ``explain``.

Steps show their kinds, ``from → to`` and the releases that gate them (the release that
first serves the target API, and the source API's deprecation and removal from the
lifecycle table); checks show their category, the targets they run for and what they look
at. The CLI only prints these lines; the generated docs (``docgen``) read the same data.

``list`` prints two aligned tables (steps, then checks), one row per step lifecycle or check,
fitted to the terminal's width when there is one: the last column (kinds, summary) wraps
under itself. ``explain`` prints a docstring's reStructuredText literals (````x````) as
Markdown ones (```x```), which is what a terminal reader expects.
"""

from __future__ import annotations

import re
import textwrap

from .codes import GENERAL
from .components import is_addon
from .model import Check, Migration, Step
from .regexcode import regex
from .registry import Registry
from .runtime_typing import Any


def step_rows(step: Step, registry: Registry) -> list[tuple[tuple[str, ...], str | None, str | None]]:
    """``(kinds, deprecated in, removed in)`` of a step, kinds grouped by their lifecycle in the table."""
    rows: dict[tuple[str | None, str | None], list[str]] = {}
    for kind in step.kinds:
        life = registry.lifecycle(step.from_api, kind)
        deprecated = str(life.deprecated_in) if life and life.deprecated_in else None
        removed = str(life.removed_in) if life and life.removed_in else None
        rows.setdefault((deprecated, removed), []).append(kind)
    return [(tuple(kinds), deprecated, removed) for (deprecated, removed), kinds in rows.items()]


def check_line(entries: list[Check]) -> str:
    """``[category] targets from 1.25: summary (opt-in)`` for a readiness check (all its entries)."""
    first = entries[0]
    gates = [e.matters for e in entries]
    earliest = None if None in gates else min(g for g in gates if g is not None)
    when = f"targets from {earliest}" if earliest else "every target"
    return f"[{first.category or 'readiness'}] {when}: {first.summary}{' (opt-in: --only)' if first.opt_in else ''}"


def applies_to(entries: list[Check]) -> tuple[list[str], list[str]]:
    """The kinds and the apiVersions a check (all its entries) looks at, in declaration order."""
    kinds = sorted({k for c in entries for ks in c.applies_to.values() for k in ks})
    apis = list(dict.fromkeys(api for c in entries for api in c.applies_to))
    return kinds, apis


def _short_to(from_api: str, to_api: str) -> str:
    """``to_api`` without the group when it is ``from_api``'s (``networking.k8s.io/v1beta1 → v1``)."""
    group, _, _ = from_api.rpartition("/")
    to_group, _, version = to_api.rpartition("/")
    return version if group == to_group else to_api


_GATE_NOTE = regex(r"\s*\((?:targets|window) from [0-9.]+\)$")


def _table(header: list[str], rows: list[list[str]], width: int | None) -> list[str]:
    """Aligned columns, one line per row; the last one fits ``width`` (None: no limit): it wraps
    under itself when there is room for that (16 columns), else on indented lines below the row."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    indent = sum(w + 2 for w in widths)
    out: list[str] = []
    for row in [header, *rows]:
        head = "".join(cell.ljust(w + 2) for cell, w in zip(row, widths, strict=False))  # the last cell is not padded
        last = row[-1]
        if not width or len(last) <= width - indent:
            out.append((head + last).rstrip())
        elif width - indent >= 16:
            parts = textwrap.wrap(last, width - indent, break_on_hyphens=False, break_long_words=False)
            out += [head + parts[0], *(" " * indent + part for part in parts[1:])]
        else:  # too narrow to wrap under itself: on the lines below the row, indented
            below = textwrap.wrap(last, width, initial_indent="    ", subsequent_indent="    ", break_long_words=False)
            out += [head.rstrip(), *below]
    return out


def list_lines(registry: Registry, width: int | None = None) -> list[str]:
    """``k8smigrate list``: by component (Kubernetes first, then each add-on, each under a ``#``
    heading), a table of the steps (one row per lifecycle of their kinds) and one of the checks,
    by name, fitted to ``width`` columns when given."""
    groups: dict[str, tuple[list[list[str]], list[list[str]]]] = {}
    for name in sorted(registry.names()):
        entries = registry.named(name)
        steps, checks = groups.setdefault(_group(entries[0].component), ([], []))
        found = [m for m in entries if isinstance(m, Check)]
        if found:
            gates = [e.matters for e in found]
            earliest = None if None in gates else min(g for g in gates if g is not None)
            summary = _GATE_NOTE.sub("", found[0].summary) + (" (opt-in: --only)" if found[0].opt_in else "")
            checks.append([name, found[0].category or "readiness", str(earliest) if earliest else "any", summary])
        for step in (m for m in entries if isinstance(m, Step)):
            for kinds, deprecated, removed in step_rows(step, registry):
                target = _short_to(step.from_api, step.to_api)
                if step.to_kind is not None:
                    target += f" {step.to_kind}"
                steps.append([name, deprecated or "-", removed or "-", f"{step.from_api} → {target}", ", ".join(kinds)])
    lines: list[str] = []
    for group in sorted(groups, key=lambda g: (g != "kubernetes", g)):
        steps, checks = groups[group]
        if lines:
            lines.append("")
        lines.append(_heading(group))
        if steps:
            lines += _table(["STEP", "DEPRECATED", "REMOVED", "APIVERSION → NEW", "KINDS"], steps, width)
        if checks:
            if steps:
                lines.append("")
            lines += _table(["CHECK", "CATEGORY", "FROM", "WHAT IT LOOKS FOR"], checks, width)
    return lines


def _group(component: str) -> str:
    return "kubernetes" if not is_addon(component) else component


def _heading(group: str) -> str:
    if group == "kubernetes":
        return "# kubernetes (releases of Kubernetes: --target-version, --min-version)"
    return f"# {group} (--component {group}=VERSION)"


def list_rows(registry: Registry) -> list[dict[str, Any]]:
    """``k8smigrate list --format json``: one row per declaration (a step per lifecycle of its kinds)."""
    rows: list[dict[str, Any]] = []
    for name in sorted(registry.names()):
        for m in registry.named(name):
            if isinstance(m, Check):
                looked_at, apis = applies_to([m])
                rows.append(
                    {
                        "name": m.name,
                        "type": "check",
                        "component": m.component,
                        "kinds": looked_at,
                        "appliesTo": apis,
                        "mattersFrom": m.matters_from,
                        "summary": m.summary,
                        "category": m.category or None,
                        "edits": m.edits,
                        "optIn": m.opt_in,
                    }
                )
                continue
            for kinds, deprecated, removed in step_rows(m, registry):
                rows.append(
                    {
                        "name": m.name,
                        "type": "step",
                        "component": m.component,
                        "kinds": list(kinds),
                        "from": m.from_api,
                        "to": m.to_api,
                        "availableIn": m.available_in,
                        "deprecatedIn": deprecated,
                        "removedIn": removed,
                        "summary": m.summary,
                        "optIn": m.opt_in,
                    }
                )
    return rows


_LITERAL = regex(r"``(.+?)``", re.DOTALL)


def plain_literals(text: str) -> str:
    """reStructuredText literals (````x````) as Markdown ones (```x```), for a terminal."""
    return _LITERAL.sub(lambda m: f"`{m.group(1)}`", text)


def explain_lines(name: str, registry: Registry) -> list[str] | None:
    """``k8smigrate explain NAME``: what a migration does, its rules, codes and decisions; what
    a decision (``--set NAME=…``) settles and who asks for it; or what a finding code means and
    who reports it (None: unknown)."""
    entries: list[Migration] = registry.named(name)
    if not entries:
        return decision_lines(name, registry) or code_lines(name, registry)
    lines: list[str] = []
    checks = [m for m in entries if isinstance(m, Check)]
    if checks:
        looked_at, apis = applies_to(checks)
        lines.append(f"{name}: a readiness check {check_line(checks)}")
        lines.append(f"looks at {', '.join(looked_at)} ({', '.join(apis)})")
    for step in (m for m in entries if isinstance(m, Step)):  # a module may declare several steps
        for kinds, deprecated, removed in step_rows(step, registry):
            lines.append(f"{step.name}: {', '.join(kinds)} {step.from_api} → {step.to_api}")
            gates = [f"{step.to_api} served from {step.available_in}"]
            if deprecated:
                gates.append(f"{step.from_api} deprecated in {deprecated}")
            if removed:
                gates.append(f"removed in {removed}")
            lines.append("; ".join(gates))
    first = entries[0]
    lines += ["", plain_literals(first.doc or first.summary)]
    codes = {c.code: c for m in entries for c in m.codes}
    if codes:
        lines += ["", "Findings:"]
        lines += [f"  {c.code}  {c.level}: {c.summary}" for _code, c in sorted(codes.items())]
    decisions = {d.name: d for m in entries for d in m.decisions}
    if decisions:
        lines += ["", "Decisions:"]
        for d in decisions.values():
            default = f" (default {d.default})" if d.default else ""
            lines.append(f"  --set {d.name}={'|'.join(d.allowed)}  {d.help}{default}")
    return lines


def decision_lines(name: str, registry: Registry) -> list[str] | None:
    """``k8smigrate explain DECISION``: a decision that findings name (``--set NAME=VALUE``), what
    each value does and which migrations (or the chart-level step) ask for it; None: no such one."""
    from .decisions import CHART_DECISIONS

    askers = [m.name for m in registry.migrations if any(d.name == name for d in m.decisions)]
    declared = [d for m in registry.migrations for d in m.decisions if d.name == name]
    chart = [d for d in CHART_DECISIONS if d.name == name]
    if chart:
        askers.append("the chart-level step (Helm charts)")
    found = (chart or declared)[:1]
    if not found:
        return None
    d = found[0]
    default = f", default {d.default}" if d.default else ", no default: a finding asks for it"
    return [
        f"{name}: a decision (--set {name}={'|'.join(d.allowed)}{default})",
        "",
        plain_literals(d.help),
        "",
        f"Asked by: {', '.join(dict.fromkeys(askers))}",
    ]


_CODE = regex(r"K8SM-[A-Z]+-\d+", re.IGNORECASE)
_CORE_REPORTERS = {
    "TPL": "the template reader (Helm and Jinja2 templates; docs/templates.md)",
    "KUS": "the kustomize tree step (docs/kustomize.md)",
}


def code_lines(name: str, registry: Registry) -> list[str] | None:
    """``k8smigrate explain K8SM-…``: a finding code's level and meaning, and who reports it (the
    migrations that declare it, or the core); None when ``name`` is no known code."""
    if not _CODE.fullmatch(name):
        return None
    code = registry.code(name.upper())
    if code is None:
        return None
    declaring = [m.name for m in registry.migrations if any(c.code == code.code for c in m.codes)]
    prefix = code.code.split("-")[1]
    core = _CORE_REPORTERS.get(prefix, "the core (any migration, or reading the input)")
    general = code.code in GENERAL
    reporters = list(dict.fromkeys([core, *declaring] if general or not declaring else declaring))
    lines = [f"{code.code}: {code.level}", "", plain_literals(code.summary), "", f"Reported by: {'; '.join(reporters)}"]
    if declaring and not general:
        lines.append(f"(k8smigrate explain {declaring[0]} says what it does)")
    return lines


def unknown_code(name: str) -> str | None:
    """The message for a name that looks like a finding code but is none (None: it does not)."""
    if not _CODE.fullmatch(name):
        return None
    return f"unknown finding code {name!r} (docs/migrations.md lists every code)"
