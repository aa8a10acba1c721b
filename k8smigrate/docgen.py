"""Generate ``docs/migrations.md`` from the registry, so the docs cannot drift from the code.

Run ``python -m k8smigrate.docgen > docs/migrations.md``; ``tests/test_docs.py`` fails when
the committed page differs from what the registry says. The page has the general finding
codes of the core, then one section per migration module: its steps (with the lifecycle
table's releases) or what its check looks at, its documentation (the module docstring),
its finding codes with their levels, and its decisions.
"""

from __future__ import annotations

import sys
from itertools import groupby

from .catalog import step_rows
from .codes import GENERAL
from .model import Check, Migration, Step
from .registry import Registry, default_registry


def _step_table(steps: list[Step], registry: Registry) -> list[str]:
    rows = ["| kinds | from | to | to served from | deprecated | removed |", "|---|---|---|---|---|---|"]
    for step in steps:
        for kinds, deprecated, removed in step_rows(step, registry):
            rows.append(
                f"| {', '.join(kinds)} | `{step.from_api}` | `{step.to_api}` | {step.available_in} "
                f"| {deprecated or '-'} | {removed or '-'} |"
            )
    return [*rows, ""]


def _check_table(checks: list[Check]) -> list[str]:
    rows = ["| kinds | apiVersion | runs for targets from |", "|---|---|---|"]
    for check in checks:
        for api, kinds in check.applies_to.items():
            rows.append(f"| {', '.join(kinds)} | {api} | {check.matters_from or 'every target'} |")
    return [*rows, ""]


def _section(group: list[Migration], registry: Registry) -> list[str]:
    first = group[0]
    out = [f"## `{first.name}`", ""]
    steps = [m for m in group if isinstance(m, Step)]
    checks = [m for m in group if isinstance(m, Check)]
    out += _step_table(steps, registry) if steps else _check_table(checks)
    components = sorted({m.component for m in group} - {"kubernetes"})
    check = checks[0] if checks else None
    flags = [
        f
        for f, on in (
            ("component: " + ", ".join(components), bool(components)),
            ("opt-in: runs only with `--only`", first.opt_in),
            ("readiness check: runs on every matching document, before the version steps", check is not None),
            (f"scan category: `{check.category}`" if check else "", bool(check and check.category)),
            (
                f"needs {check.needs} on every release of the window to edit" if check else "",
                bool(check and check.needs),
            ),
            ("edits the document" if check else "", bool(check and check.edits)),
            ("clean-up: nothing breaks without it (`scan` rows are info)", bool(check and check.cleanup)),
        )
        if on
    ]
    if flags:
        out += ["; ".join(flags), ""]
    out += [first.doc.strip() or first.summary, ""]
    codes = {c.code: c for m in group for c in m.codes}
    if codes:
        out += ["| finding | level | meaning |", "|---|---|---|"]
        out += [f"| `{c.code}` | {c.level} | {c.summary} |" for _code, c in sorted(codes.items())]
        out.append("")
    decisions = {d.name: d for m in group for d in m.decisions}
    if decisions:
        out += ["Decisions:", ""]
        for d in decisions.values():
            default = f" Default: `{d.default}`." if d.default else ""
            out.append(f"- `--set {d.name}={'|'.join(d.allowed)}`: {d.help}{default}")
        out.append("")
    return out


def render(registry: Registry) -> str:
    """The whole page: the general codes, then one section per migration module, in name order."""
    lines = [
        "# Migrations",
        "",
        "Generated from the registry by `python -m k8smigrate.docgen`; do not edit by hand.",
        "Each section is one migration module: a version step (its kinds, the releases that gate it:",
        "`to served from` is the step's own, `deprecated` and `removed` come from the lifecycle table),",
        "or a readiness check (what it looks at and the targets it runs for); then what it does (the",
        "module's docstring), its finding codes with their levels, and its decisions.",
        "",
        "## General findings",
        "",
        "Reported by the core for any document, or by any migration in its own context.",
        "",
        "| finding | level | meaning |",
        "|---|---|---|",
        *(f"| `{c.code}` | {c.level} | {c.summary} |" for c in GENERAL.values()),
        "",
    ]
    ordered = sorted(registry.migrations, key=lambda m: m.name)
    for _name, group in groupby(ordered, key=lambda m: m.name):
        lines += _section(list(group), registry)
    return "\n".join(lines).rstrip("\n") + "\n"


def main() -> None:
    sys.stdout.write(render(default_registry()))


if __name__ == "__main__":
    main()
