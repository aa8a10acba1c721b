"""``scan --format text`` on a large tree: rows printed as each file's outcome arrives, counts kept.

The text report is one row per finding in file order, then a summary line of counts. Holding
every file's outcome and rows until the end made the peak memory grow with the number of
files (issue 19); outcomes already arrive in file order, so each file's rows are written as
soon as it is done (in chunks, not one write per row), and what the summary and the exit code
need is kept as counts: the outcomes that carry findings (unreadable input: few) are kept for
the findings printed after the rows. The JSON, Markdown and SARIF reports are their rows, so
they still collect them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .api import FileOutcome
from .report import outcome_findings, scan_counts_line
from .results import Finding
from .scan import FAIL_ON, ScanEntry

CHUNK = 64 * 1024
"""Characters of rows gathered before a write."""


class ScanRows:
    """Takes outcomes in file order: writes their rows, keeps the counts of the summary."""

    def __init__(self, line: Callable[[ScanEntry], str], emit: Callable[[str], None]) -> None:
        self._line = line
        self._emit = emit
        self._pending: list[str] = []
        self._size = 0
        self.files = 0
        self.statuses: Counter[str] = Counter()
        self.components: set[str] = set()
        """Whose releases the rows are about (the CLI names the add-ons judged at a default release)."""

    def take(self, outcome: FileOutcome) -> bool:
        """Write the rows of one file; True when the outcome must be kept (it has findings)."""
        self.files += 1
        for entry in outcome.scan:
            self.statuses[entry.status] += 1
            self.components.add(entry.component)
            row = self._line(entry) + "\n"
            self._pending.append(row)
            self._size += len(row)
        outcome.scan = []
        if self._size >= CHUNK:
            self.flush()
        return bool(outcome_findings(outcome))

    def flush(self) -> None:
        if self._pending:
            self._emit("".join(self._pending))
            self._pending, self._size = [], 0

    def failing(self, fail_on: str) -> bool:
        """``scan.failing`` from the counts."""
        return any(self.statuses[s] for s in FAIL_ON[fail_on])

    def summary(self, findings: list[Finding]) -> str:
        return scan_counts_line(self.files, self.statuses, findings)
