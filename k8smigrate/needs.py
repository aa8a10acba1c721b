"""What needs a human after a run: every error and every decision, each with what to do.

``scan``, ``diff`` and ``apply`` end their text and Markdown output with this list, and it
is what exit code 3 means (``exits``): a file that could not be read or written, a removed
API nothing migrates, a decision not given (``--set NAME=VALUE``), an error a migration
reported. Each item names the place, the code and the exact action: the ``--set`` to add
(with the values it takes) where a decision settles it, else the finding's own message, which
says what to do.
"""

from __future__ import annotations

from .codes import DECISION_NEEDED
from .dataclasscode import dataclass
from .hints import hint
from .quoting import quote_path
from .regexcode import regex
from .registry import Registry
from .report import Run, document_label, outcome_findings
from .results import Finding
from .runtime_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scan import ScanEntry

_SET = regex(r"--set ([A-Za-z_][\w.-]*)=")


@dataclass(frozen=True)
class Need:
    """One thing a human must do: where, about what, which code, and the action."""

    filename: str
    line: int
    subject: str
    code: str
    action: str
    decisions: tuple[str, ...] = ()
    """``NAME=A|B`` for each ``--set`` that settles it."""

    @property
    def where(self) -> str:
        name = quote_path(self.filename)
        return f"{name}:{self.line}" if self.line else name


def needs(run: Run, registry: Registry) -> list[Need]:
    """Every item of the run that needs a human, in file order."""
    out: list[Need] = []
    rows = run.scan or []
    by_file: dict[str, list[ScanEntry]] = {}
    for row in rows:
        by_file.setdefault(row.filename, []).append(row)
    for outcome in run.outcomes:
        subjects = {}
        if outcome.result is not None:
            subjects = {d.index: document_label(d.kind, d.name, d.index) for d in outcome.result.documents}
        found = [
            _from_finding(f, subjects.get(f.document, ""), registry)
            for f in outcome_findings(outcome)
            if f.level == "error"
        ]
        name = outcome.result.filename if outcome.result is not None else None
        found += [_from_row(row) for row in by_file.pop(name, []) if row.action == "human"] if name is not None else []
        out += sorted(found, key=lambda n: n.line)
    for leftover in by_file.values():  # rows of a run without outcomes (a library caller's Run)
        out += [_from_row(row) for row in leftover if row.action == "human"]
    return out


def _decision_values(names: list[str], migration: str | None, registry: Registry) -> tuple[str, ...]:
    declared = {d.name: d for m in registry.named(migration or "") for d in m.decisions}
    return tuple(f"{n}={'|'.join(declared[n].allowed)}" for n in dict.fromkeys(names) if n in declared)


def _from_finding(f: Finding, subject: str, registry: Registry) -> Need:
    decisions = _decision_values(_SET.findall(f.message), f.migration, registry)
    if decisions:
        action = " ".join(f"--set {d}" for d in decisions)
        if f.code != DECISION_NEEDED.code:
            action += f" ({f.message})"
    else:
        action = f.message + (f" (at {f.path})" if f.path else "")
    return Need(f.filename, f.line, subject, f.code, action, decisions)


def _from_row(row: ScanEntry) -> Need:
    subject = document_label(row.kind, row.name, row.document)
    if row.decisions:
        action = " ".join(f"--set {d}" for d in row.decisions)
        if row.migration:
            action += f" (then {row.migration} migrates it)"
    elif row.readiness:
        action = row.message
    elif row.migration and row.templated:
        action = f"templated: render it, then migrate the output ({row.migration} migrates it once rendered)"
    elif row.migration:
        action = f"the migration stops at {row.replacement}, which the target does not serve: raise --min-version"
    elif row.replacement and row.replacement_served is False:
        action = f"{row.replacement} is not served by every release of the window; raise --min-version"
    elif row.replacement:
        action = f"no automatic migration; move to {row.replacement} by hand"
    else:
        action = f"{row.api_version} {row.kind} has no replacement{hint(row.api_version, row.kind)}"
    return Need(row.filename, row.line, subject, row.code, action, row.decisions)


def need_lines(items: list[Need]) -> list[str]:
    """The text section: a heading, one line per item, and each decision once with its values."""
    if not items:
        return []
    lines = [f"needs a human ({len(items)}):"]
    for item in items:
        about = f" {item.subject}:" if item.subject else ""
        lines.append(f"  {item.where}:{about} {item.code} {item.action}")
    settle = decision_counts(items)
    if settle:
        lines.append("  decide with: " + " ".join(f"--set {d}" for d in settle))
    return lines


def decision_counts(items: list[Need]) -> dict[str, int]:
    """Each ``NAME=A|B`` to settle, with how many items ask for it, in first-seen order."""
    counts: dict[str, int] = {}
    for item in items:
        for d in item.decisions:
            counts[d] = counts.get(d, 0) + 1
    return counts
