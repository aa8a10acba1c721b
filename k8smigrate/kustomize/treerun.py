"""What the kustomize part of a run decided for the files it owns (``TreeRun``).

Apart from ``run`` so that ``assemble``, which fills it, does not import ``run`` back.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from ..dataclasscode import dataclass
from ..outcomes import FileOutcome
from ..runtime_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..scan import ScanEntry

__all__ = ["TreeRun"]


@dataclass
class TreeRun:
    """What the kustomize part of a run did: one outcome per file it owns."""

    outcomes: dict[Path, FileOutcome] = field(default_factory=dict)
    """By resolved path."""
    owned: set[Path] = field(default_factory=set)
    """Resolved paths the kustomize part decides for (the per-file run must skip them)."""
    roles: dict[Path, str] = field(default_factory=dict)
    """What each owned file is to kustomize: resource, patch, configuration, data, kustomization."""
    rows: dict[Path, list[ScanEntry]] = field(default_factory=dict)
    """Scan rows only the tree can tell (patches' targets and paths, references, held groups)."""

    def owner_key(self, path: Path | str) -> Path | None:
        """``path`` resolved when the trees own it; None otherwise (a link loop, a path too deep
        to resolve: the per-file run reports those)."""
        if not self.owned:
            return None  # no tree in the run: no path to resolve (a system call per file)
        try:
            key = Path(path).resolve()
        except (OSError, RuntimeError):
            return None
        return key if key in self.owned else None

    def row(self, path: Path, entry: ScanEntry) -> None:
        self.rows.setdefault(path, []).append(entry)
