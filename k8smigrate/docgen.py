"""Generate ``docs/migrations.md`` from the registry, so the docs cannot drift from the code.

Run ``python -m k8smigrate.docgen > docs/migrations.md``; ``tests/test_docs.py`` fails when
the committed page differs from what the registry says.
"""

from __future__ import annotations

import sys
from itertools import groupby

from .registry import Migration, Registry, default_registry


def _section(group: list[Migration]) -> list[str]:
    first = group[0]
    out = [f"## `{first.name}`", ""]
    rows = ["| kinds | from | to | to served from | deprecated | removed |", "|---|---|---|---|---|---|"]
    for m in group:
        removed = m.removed_in or "-"
        deprecated = m.deprecated_in or "-"
        if m.fixer:
            rows.append(f"| {', '.join(m.kinds)} | {m.from_api} | (same) | - | - | applies from {removed} |")
        else:
            kinds = ", ".join(m.kinds)
            rows.append(f"| {kinds} | `{m.from_api}` | `{m.to_api}` | {m.available_in} | {deprecated} | {removed} |")
    out += [*rows, ""]
    components = sorted({m.component for m in group} - {"kubernetes"})
    flags = [
        f
        for f, on in (
            ("component: " + ", ".join(components), bool(components)),
            ("opt-in: runs only with `--only`", first.opt_in),
            ("fixer: runs on every matching document, whatever its version", first.fixer),
            (f"scan category: `{first.category}`", bool(first.category)),
            ("clean-up: nothing breaks without it (`scan` rows are info)", first.cleanup),
        )
        if on
    ]
    if flags:
        out += ["; ".join(flags), ""]
    out += [first.doc.strip() or first.summary, ""]
    if first.codes:
        out += ["| finding | meaning |", "|---|---|"]
        out += [f"| `{code}` | {meaning} |" for code, meaning in sorted(first.codes.items())]
        out.append("")
    if first.decisions:
        out += ["Decisions:", ""]
        out += [f"- `--set {d.name}={'|'.join(d.allowed)}`: {d.help}" for d in first.decisions]
        out.append("")
    return out


def render(registry: Registry) -> str:
    """The whole page: one section per migration module, in name order."""
    lines = [
        "# Migrations",
        "",
        "Generated from the registry by `python -m k8smigrate.docgen`; do not edit by hand.",
        "Each section is one migration module: its version steps, the releases that gate them,",
        "what it does (the module's docstring), its finding codes and its decisions.",
        "",
    ]
    ordered = sorted(registry.migrations, key=lambda m: m.name)
    for _name, group in groupby(ordered, key=lambda m: m.name):
        lines += _section(list(group))
    return "\n".join(lines).rstrip("\n") + "\n"


def main() -> None:
    sys.stdout.write(render(default_registry()))


if __name__ == "__main__":
    main()
