"""What the registry says about its migrations, as text and data: ``list`` and ``explain``.

Steps show their kinds, ``from → to`` and the releases that gate them (the release that
first serves the target API, and the source API's deprecation and removal from the
lifecycle table); checks show their category, the targets they run for and what they look
at. The CLI only prints these lines; the generated docs (``docgen``) read the same data.
"""

from __future__ import annotations

from typing import Any

from .components import is_addon
from .model import Check, Migration, Step
from .registry import Registry


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


def list_lines(registry: Registry) -> list[str]:
    """``k8smigrate list``: by component (Kubernetes first, then each add-on), one line per step (per
    lifecycle of its kinds) and one per check, by name."""
    groups: dict[str, list[str]] = {}
    for name in sorted(registry.names()):
        entries = registry.named(name)
        group = _group(entries[0].component)
        lines = groups.setdefault(group, [])
        checks = [m for m in entries if isinstance(m, Check)]
        if checks:
            lines.append(f"{name:34} {check_line(checks)}")
        for step in (m for m in entries if isinstance(m, Step)):
            for kinds, deprecated, removed in step_rows(step, registry):
                gates = f"to available {step.available_in}"
                if deprecated:
                    gates += f", from deprecated {deprecated}"
                if removed:
                    gates += f", removed {removed}"
                target = step.to_api if step.to_kind is None else f"{step.to_api} {step.to_kind}"
                lines.append(f"{name:34} {','.join(kinds):40} {step.from_api} → {target} ({gates})")
    out: list[str] = []
    for group in sorted(groups, key=lambda g: (g != "kubernetes", g)):
        out.append(_heading(group))
        out += groups[group]
    return out


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


def explain_lines(name: str, registry: Registry) -> list[str] | None:
    """``k8smigrate explain NAME``: what a migration does, its rules, codes and decisions (None: unknown)."""
    entries: list[Migration] = registry.named(name)
    if not entries:
        return None
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
    lines += ["", first.doc or first.summary]
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
