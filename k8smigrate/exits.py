"""Exit codes: one policy for every command (the table in docs/usage.md, "Exit codes").

A command's exit code depends on what it found, never on which command found it: ``scan``
answers as ``apply --check`` would for what it sees.

| situation | code |
|---|---|
| nothing to change, no error (warnings and infos only) | 0 |
| a document changed, was written, or would change (``scan``: a migration would change it) | 1 |
| with ``--fail-on deprecated``: also any warning (a deprecated API, a readiness warning) | 1 |
| an error: a file not read or written, a removed API nothing migrates, a decision not given | 3 (wins) |
| a usage error (nothing is read) | 2 |
| an internal error (a bug), or a package k8smigrate needs is not installed | 4 |

``--exit-zero`` and ``--fail-on never`` turn 1 into 0; 3 always stays, it means "needs a
human". What needs a human is listed by ``needs`` (the same items this counts).
"""

from __future__ import annotations

from .dataclasscode import dataclass
from .needs import needs
from .registry import Registry
from .report import Run

EXIT_OK, EXIT_CHANGED, EXIT_USAGE, EXIT_HUMAN, EXIT_CRASH = 0, 1, 2, 3, 4


class Exit(Exception):
    """How a command ends: with this exit code (what typer's ``Exit`` is for the typer path)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


FAIL_ON = ("removed", "deprecated", "never")
"""``--fail-on``: ``removed`` (the default: changes and errors), ``deprecated`` (warnings too),
``never`` (only errors: 3)."""


@dataclass(frozen=True)
class Tally:
    """What a run found, as the exit code reads it."""

    changes: int
    """Documents a migration changed or would change (files for diff/apply, rows for scan)."""
    human: int
    """Items that need a human (``needs``)."""
    warnings: int
    """Warnings: findings, and for scan the rows at level warning."""


def tally(run: Run, registry: Registry) -> Tally:
    """The counts of ``run`` that decide its exit code."""
    findings = run.findings
    warnings = sum(1 for f in findings if f.level == "warning")
    if run.counts is not None:  # the rows were printed as they came; their counts were kept
        changes = run.counts.fixable
        warnings += run.counts.warnings
    elif run.scan is not None:
        changes = sum(1 for e in run.scan if e.action == "apply")
        warnings += sum(1 for e in run.scan if e.level == "warning")
    else:
        changes = run.changed
    return Tally(changes, len(needs(run, registry)), warnings)


def exit_code(found: Tally, fail_on: str = "removed", exit_zero: bool = False) -> int:
    """The exit code of a run that found ``found`` (see the module doc)."""
    if fail_on not in FAIL_ON:
        raise ValueError(f"fail_on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
    if found.human:
        return EXIT_HUMAN
    if exit_zero or fail_on == "never":
        return EXIT_OK
    if found.changes or (fail_on == "deprecated" and found.warnings):
        return EXIT_CHANGED
    return EXIT_OK
