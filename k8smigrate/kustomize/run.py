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
from pathlib import Path

from ..facts import Facts
from ..files import WritePolicy
from ..outcomes import UNREADABLE_CODES, FileOutcome
from ..registry import Registry
from ..results import FileResult
from ..settings import Settings
from .names import NAMES
from .treerun import TreeRun

__all__ = ["TreeRun", "find_kustomizations", "migrate_trees", "scan_trees"]


def find_kustomizations(paths: Iterable[Path]) -> list[Path]:
    """Every kustomization file at or below the given folders (hidden folders skipped; links to
    folders not followed). A loop, not recursion: a folder thousands of levels deep is walked
    like any other (the per-file run reports what it cannot read)."""
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            continue
        stack = [str(path)]
        while stack:
            folder = stack.pop()
            try:
                with os.scandir(folder) as listing:
                    entries = list(listing)
            except OSError:
                continue
            files = {e.name for e in entries if _is_file(e)}
            names = [n for n in NAMES if n in files]
            if names:
                found.append(Path(folder, names[0]))
            dirs = sorted(e.path for e in entries if not e.name.startswith(".") and _is_dir(e))
            stack.extend(reversed(dirs))
    return sorted(found)


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def migrate_trees(
    paths: list[Path],
    settings: Settings,
    registry: Registry,
    *,
    in_place: bool = False,
    write_policy: WritePolicy | None = None,
    facts: Facts | None = None,
    found: list[Path] | None = None,
) -> TreeRun:
    """Migrate every kustomize tree under ``paths`` (folders); nothing outside them is read.

    With ``in_place`` the files are written (atomically, each only when it changed and has
    no error that makes it unreadable; ``write_policy`` as for any file); otherwise the
    outcomes say what would change. ``facts``: the run's, for the checks that join files.
    ``found``: ``find_kustomizations(paths)``, when the caller has it already.
    """
    out = TreeRun()
    found = find_kustomizations(paths) if found is None else found
    if not found:
        return out
    from .analysis import Analysis  # only when there is a tree: a plain run does not import it
    from .assemble import settle

    run = Analysis([p for p in paths if p.is_dir()], settings, registry, facts)
    run.load(found)
    run.migrate_objects()
    run.hold_unsound()
    run.migrate_patches()
    run.migrate_references()
    settle(run, out, in_place, write_policy)
    return out


def scan_trees(
    paths: list[Path],
    settings: Settings,
    registry: Registry,
    facts: Facts | None = None,
    found: list[Path] | None = None,
) -> TreeRun:
    """What ``scan`` says about the kustomize trees under ``paths``: each file's rows as a plain
    scan gives them (objects and strategic merge patches on deprecated or removed APIs), and
    the rows only the tree can tell (JSON patch paths and targets that stop matching, inline
    patches, ``vars``/``replacements``/``configurations``, what must be held back together).
    Generator inputs are data: no rows. Nothing is written."""
    from ..outcomes import scanned

    tree = migrate_trees(paths, settings, registry, facts=facts, found=found)
    for path, outcome in list(tree.outcomes.items()):
        role = tree.roles.get(path)
        rows = tree.rows.get(path, [])
        result = outcome.result
        if result is None:
            continue
        if role in ("resource", "patch"):
            plain = scanned(outcome.path, result.original, result.filename, settings, facts)
            plain.scan = sorted([*plain.scan, *rows], key=lambda e: (e.document, e.line))
            tree.outcomes[path] = plain
            continue
        problems = [f for f in result.findings if f.code in UNREADABLE_CODES or f.code == "K8SM-KUS-001"]
        slim = FileResult(result.filename, result.original, result.original, problems)
        slim.slim(keep_diff=False)
        tree.outcomes[path] = FileOutcome(outcome.path, slim, outcome.error, scan=sorted(rows, key=lambda e: e.line))
    return tree
