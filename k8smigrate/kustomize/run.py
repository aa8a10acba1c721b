"""Migrating kustomize trees as wholes: bases, overlays, components and patches together.

``migrate_trees`` finds the kustomizations under the run's folders, decides what must move
together (``analysis``) and writes it (``assemble``): every object they use is migrated as
``apply`` would; each patch moves with the objects it targets, each reference (patch
``target``\\ s, ``vars``, ``replacements``, ``configurations``) with the objects it selects;
and *all or nothing per object identity*: when one member of a group is held back (an error,
a decision not given, a template, a patch that cannot follow), the whole group stays as it
is, with a finding that names the files. A tree never builds worse than before.

Files the kustomizations read as data (generator inputs, plugin configurations, ``crds``)
are never migrated as manifests. Files in the folders that no kustomization references are
left to the ordinary per-file run. ``scan_trees`` is the same analysis, as scan rows.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..api import UNREADABLE_CODES, FileOutcome
from ..files import WritePolicy
from ..registry import Registry
from ..results import FileResult
from ..scan import ScanEntry
from ..settings import Settings
from .graph import NAMES

__all__ = ["TreeRun", "find_kustomizations", "migrate_trees", "scan_trees"]


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

    def row(self, path: Path, entry: ScanEntry) -> None:
        self.rows.setdefault(path, []).append(entry)


def find_kustomizations(paths: Iterable[Path]) -> list[Path]:
    """Every kustomization file at or below the given folders (hidden folders skipped)."""
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            continue
        for folder, dirs, files in os.walk(path, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            names = [n for n in NAMES if n in files]
            if names:
                found.append(Path(folder, names[0]))
    return sorted(found)


def migrate_trees(
    paths: list[Path],
    settings: Settings,
    registry: Registry,
    *,
    in_place: bool = False,
    write_policy: WritePolicy | None = None,
) -> TreeRun:
    """Migrate every kustomize tree under ``paths`` (folders); nothing outside them is read.

    With ``in_place`` the files are written (atomically, each only when it changed and has
    no error that makes it unreadable; ``write_policy`` as for any file); otherwise the
    outcomes say what would change.
    """
    out = TreeRun()
    found = find_kustomizations(paths)
    if not found:
        return out
    from .analysis import Analysis  # only when there is a tree: a plain run does not import it
    from .assemble import settle

    run = Analysis([p for p in paths if p.is_dir()], settings, registry)
    run.load(found)
    run.migrate_objects()
    run.hold_unsound()
    run.migrate_patches()
    run.migrate_references()
    settle(run, out, in_place, write_policy)
    return out


def scan_trees(paths: list[Path], settings: Settings, registry: Registry) -> TreeRun:
    """What ``scan`` says about the kustomize trees under ``paths``: each file's rows as a plain
    scan gives them (objects and strategic merge patches on deprecated or removed APIs), and
    the rows only the tree can tell (JSON patch paths and targets that stop matching, inline
    patches, ``vars``/``replacements``/``configurations``, what must be held back together).
    Generator inputs are data: no rows. Nothing is written."""
    from ..api import scanned

    tree = migrate_trees(paths, settings, registry)
    for path, outcome in list(tree.outcomes.items()):
        role = tree.roles.get(path)
        rows = tree.rows.get(path, [])
        result = outcome.result
        if result is None:
            continue
        if role in ("resource", "patch"):
            plain = scanned(outcome.path, result.original, result.filename, settings)
            plain.scan = sorted([*plain.scan, *rows], key=lambda e: (e.document, e.line))
            tree.outcomes[path] = plain
            continue
        problems = [f for f in result.findings if f.code in UNREADABLE_CODES or f.code == "K8SM-KUS-001"]
        slim = FileResult(result.filename, result.original, result.original, problems)
        slim.slim(keep_diff=False)
        tree.outcomes[path] = FileOutcome(outcome.path, slim, outcome.error, scan=sorted(rows, key=lambda e: e.line))
    return tree
