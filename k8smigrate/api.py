"""The documented entry points: migrate a string, a file, or a set of paths.

Keyword arguments mirror the CLI options; ``settings=`` takes a ready ``Settings`` (and
wins over the keywords). Nothing here prints or exits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .engine import migrate_stream
from .files import InputError, Loaded, Skipped, iter_entries, read_manifest, write_atomic
from .registry import Registry, default_registry
from .results import FileResult, Finding
from .scan import ScanEntry, scan_stream
from .settings import Settings


def _settings(
    settings: Settings | None,
    target_version: str | None,
    min_version: str | None,
    decisions: dict[str, str] | None,
    only: Iterable[str] | None,
    skip: Iterable[str] | None,
    adopt_new_defaults: bool,
) -> Settings:
    if settings is not None:
        return settings
    return Settings(
        target_version=target_version,
        min_version=min_version,
        decisions=dict(decisions or {}),
        only=tuple(only or ()),
        skip=tuple(skip or ()),
        adopt_new_defaults=adopt_new_defaults,
    )


def migrate_text(
    text: str,
    *,
    target_version: str | None = None,
    min_version: str | None = None,
    decisions: dict[str, str] | None = None,
    only: Iterable[str] | None = None,
    skip: Iterable[str] | None = None,
    adopt_new_defaults: bool = False,
    filename: str = "<string>",
    settings: Settings | None = None,
    registry: Registry | None = None,
) -> FileResult:
    """Migrate a YAML or JSON stream; returns the new text, findings and per-document patches."""
    s = _settings(settings, target_version, min_version, decisions, only, skip, adopt_new_defaults)
    return migrate_stream(text, s, filename, registry or default_registry())


def scan_text(
    text: str,
    *,
    target_version: str | None = None,
    min_version: str | None = None,
    filename: str = "<string>",
    settings: Settings | None = None,
    registry: Registry | None = None,
) -> list[ScanEntry]:
    """Every document on a deprecated or removed API, with its replacement and releases."""
    s = _settings(settings, target_version, min_version, None, None, None, False)
    return scan_stream(text, s, filename, registry or default_registry())


@dataclass
class FileOutcome:
    """One file of a run: its result, or the input error that stopped it, and whether it was written."""

    path: Path
    result: FileResult | None = None
    error: Finding | None = None
    written: bool = False
    scan: list[ScanEntry] = field(default_factory=list)
    """The rows of ``scan_file``."""

    @property
    def findings(self) -> list[Finding]:
        if self.error is not None:
            return [self.error]
        return self.result.findings if self.result is not None else []


UNREADABLE_CODES = frozenset({"K8SM-GEN-005", "K8SM-GEN-006", "K8SM-GEN-011", "K8SM-GEN-012"})
"""Findings that make a whole file failed: it is never written, even where other documents migrated."""


def input_error(name: Path | str, message: str) -> Finding:
    """An unreadable file as a finding; ``line N: …`` messages give the finding its line."""
    line = 0
    head, sep, rest = message.partition(": ")
    if sep and head.startswith("line ") and head[5:].isdigit():
        line, message = int(head[5:]), rest
    return Finding("error", "K8SM-GEN-013", message, None, str(name), 0, line, "")


def migrate_file(path: Path | str, *, in_place: bool = False, settings: Settings | None = None) -> FileOutcome:
    """Migrate one file; with ``in_place`` write it atomically when it changed and had no error."""
    p = Path(path)
    settings = settings or Settings()
    try:
        loaded: Loaded = read_manifest(p)
    except InputError as exc:
        return FileOutcome(p, error=input_error(p, str(exc)))
    result = migrate_stream(loaded.text, settings, str(p), default_registry())
    outcome = FileOutcome(p, result)
    unreadable = any(f.code in UNREADABLE_CODES for f in result.findings)
    if in_place and result.changed and not unreadable:
        try:
            outcome.written = write_atomic(loaded, result.text)
        except (InputError, OSError) as exc:
            outcome.error = input_error(p, str(exc))
    return outcome


def scan_file(path: Path | str, *, settings: Settings | None = None) -> FileOutcome:
    """Scan one file: its rows in ``outcome.scan``; unreadable YAML and duplicate keys as findings."""
    p = Path(path)
    settings = settings or Settings()
    try:
        loaded = read_manifest(p)
    except InputError as exc:
        return FileOutcome(p, error=input_error(p, str(exc)))
    return scanned(p, loaded.text, str(p), settings)


def scanned(path: Path, text: str, name: str, settings: Settings) -> FileOutcome:
    """The scan outcome of a text read from ``path`` (reported as ``name``)."""
    problems: list[Finding] = []
    entries = scan_stream(text, settings, name, default_registry(), problems)
    result = FileResult(name, text, text, problems)
    result.slim(keep_diff=False)  # findings only: memory follows one file
    return FileOutcome(path, result, scan=entries)


def skipped_outcome(skipped: Skipped) -> FileOutcome:
    """A path that recursion reported instead of reading (a link out of the tree, an unreadable folder)."""
    return FileOutcome(skipped.path, error=input_error(skipped.path, skipped.reason))


def migrate_paths(
    paths: Iterable[Path | str], *, in_place: bool = False, settings: Settings | None = None
) -> Iterator[FileOutcome]:
    """Migrate files and folders (recursing into ``*.yaml``, ``*.yml``, ``*.json``), one outcome per file.

    A failure costs only its own file: every other file is still migrated (and written).
    Kustomize trees under the folders are migrated as wholes (docs/kustomize.md): their
    files' outcomes come in the same order, and a ``Kustomization`` file without a suffix last.
    """
    from .kustomize.run import migrate_trees

    settings = settings or Settings()
    given = [Path(p) for p in paths]
    trees = migrate_trees([p for p in given if p.is_dir()], settings, default_registry(), in_place=in_place)
    listed: set[Path] = set()
    for entry in iter_entries(given):
        if isinstance(entry, Skipped):
            yield skipped_outcome(entry)
        elif entry.resolve() in trees.owned:
            listed.add(entry.resolve())
            yield trees.outcomes[entry.resolve()]
        else:
            yield migrate_file(entry, in_place=in_place, settings=settings)
    yield from (o for path, o in sorted(trees.outcomes.items()) if path not in listed)
