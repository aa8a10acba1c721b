"""The documented entry points: migrate a string, a file, or a set of paths.

Keyword arguments mirror the CLI options; ``settings=`` takes a ready ``Settings`` (and
wins over the keywords). Settings are checked as the CLI checks them (``check_settings``):
an unknown migration or decision, or a bad version, raises ``SettingsError``. Nothing here
prints or exits.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from .codes import OWNER_NOT_KEPT
from .engine import migrate_stream
from .facts import Facts, gather, merge
from .files import InputError, Loaded, Skipped, Swept, WritePolicy, iter_entries, read_manifest, write_atomic
from .outcomes import UNREADABLE_CODES as UNREADABLE_CODES
from .outcomes import FileOutcome as FileOutcome
from .outcomes import input_error as input_error
from .outcomes import scanned as scanned
from .prefilter import collectors_for
from .registry import Registry, check_settings, default_registry
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
    components: Mapping[str, str] | None = None,
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
        components={str(k): str(v) for k, v in (components or {}).items()},
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
    components: Mapping[str, str] | None = None,
    filename: str = "<string>",
    settings: Settings | None = None,
    registry: Registry | None = None,
) -> FileResult:
    """Migrate a YAML or JSON stream; returns the new text, findings and per-document patches.

    ``components`` names the release of each add-on the manifests must run on
    (``{"cert-manager": "1.14"}``); a document an add-on's migration would change while its
    release is not given is left as it is with K8SM-GEN-016.
    """
    s = _settings(settings, target_version, min_version, decisions, only, skip, adopt_new_defaults, components)
    registry = registry or default_registry()
    check_settings(s, registry)
    return migrate_stream(text, s, filename, registry)


def scan_text(
    text: str,
    *,
    target_version: str | None = None,
    min_version: str | None = None,
    components: Mapping[str, str] | None = None,
    filename: str = "<string>",
    settings: Settings | None = None,
    registry: Registry | None = None,
) -> list[ScanEntry]:
    """Every document on a deprecated or removed API, with its replacement and releases.

    An add-on whose release ``components`` does not give is judged at the newest release
    k8smigrate knows.
    """
    s = _settings(settings, target_version, min_version, None, None, None, False, components)
    registry = registry or default_registry()
    check_settings(s, registry)
    return scan_stream(text, s, filename, registry)


def migrate_file(
    path: Path | str,
    *,
    in_place: bool = False,
    settings: Settings | None = None,
    write_policy: WritePolicy | None = None,
    facts: Facts | None = None,
) -> FileOutcome:
    """Migrate one file; with ``in_place`` write it atomically when it changed and had no error.

    ``write_policy`` allows splitting hard links and rewriting read-only files (``files``).
    ``facts``: the run's (``run_facts``), for the checks that join files; without them, the file's own.
    """
    p = Path(path)
    settings = settings or Settings()
    check_settings(settings, default_registry())
    try:
        loaded: Loaded = read_manifest(p)
    except InputError as exc:
        return FileOutcome(p, error=input_error(p, str(exc)))
    result = migrate_stream(loaded.text, settings, str(p), default_registry(), facts=facts)
    outcome = FileOutcome(p, result)
    unreadable = any(f.code in UNREADABLE_CODES for f in result.findings)
    if in_place and result.changed and not unreadable:
        try:
            written = write_atomic(loaded, result.text, write_policy)
        except (InputError, OSError) as exc:
            outcome.error = input_error(p, str(exc))
        else:
            outcome.written = written.written
            result.findings += [
                Finding(OWNER_NOT_KEPT.level, OWNER_NOT_KEPT.code, note, None, str(p)) for note in written.notes
            ]
    return outcome


def scan_file(path: Path | str, *, settings: Settings | None = None, facts: Facts | None = None) -> FileOutcome:
    """Scan one file: its rows in ``outcome.scan``; unreadable YAML and duplicate keys as findings."""
    p = Path(path)
    settings = settings or Settings()
    check_settings(settings, default_registry())
    try:
        loaded = read_manifest(p)
    except InputError as exc:
        return FileOutcome(p, error=input_error(p, str(exc)))
    return scanned(p, loaded.text, str(p), settings, facts)


def skipped_outcome(skipped: Skipped) -> FileOutcome:
    """A path that recursion reported instead of reading (a link out of the tree, an unreadable folder)."""
    return FileOutcome(skipped.path, error=input_error(skipped.path, skipped.reason))


def facts_of_file(path: Path, settings: Settings) -> Facts:
    """The facts one file holds for the checks of ``settings`` (an unreadable file holds none)."""
    collectors = collectors_for(settings, default_registry())
    try:
        text = read_manifest(path).text
    except InputError:
        return Facts(frozenset(c.name for c in collectors))
    return gather(text, str(path), collectors)


def run_facts(files: Iterable[Path], settings: Settings) -> Facts | None:
    """The facts of every file of a run, in order, for the checks that join files (None: no such check).

    A first, cheap pass: a file is parsed only when its text holds what a collector looks for.
    """
    if not collectors_for(settings, default_registry()):
        return None
    return merge(facts_of_file(f, settings) for f in files)


def as_paths(paths: object) -> list[Path]:
    """``paths`` as a list: one ``str`` or ``os.PathLike`` path, or an iterable of them; else TypeError.

    A single string is one path, never iterated character by character.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    elif isinstance(paths, (bytes, bytearray)) or not isinstance(paths, Iterable):
        raise TypeError(f"paths must be a str or os.PathLike path or an iterable of them, not {type(paths).__name__}")
    out: list[Path] = []
    for item in paths:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"each path must be a str or os.PathLike, not {type(item).__name__}: {item!r}")
        path = os.fspath(item)
        if not isinstance(path, str):
            raise TypeError(f"each path must be a str or os.PathLike of str, not {type(path).__name__}: {item!r}")
        out.append(Path(path))
    return out


def migrate_paths(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    in_place: bool = False,
    settings: Settings | None = None,
    write_policy: WritePolicy | None = None,
) -> Iterator[FileOutcome]:
    """Migrate files and folders (recursing into ``*.yaml``, ``*.yml``, ``*.json``), one outcome per file.

    ``paths`` is one path (``str`` or ``os.PathLike``) or an iterable of them; anything else
    raises TypeError at the call. A failure costs only its own file: every other file is still
    migrated (and written). With ``in_place``, stale temporary files of an interrupted run are
    removed from the folders searched. Kustomize trees under the folders are migrated as wholes
    (docs/kustomize.md): their files' outcomes come in the same order, and a ``Kustomization``
    file (no suffix) after the others. The checks that join files see every file of the run
    (``run_facts``), read before any is written.
    """
    given = as_paths(paths)
    entries = list(iter_entries(given, sweep=in_place))
    return _migrate_entries(entries, given, in_place, settings or Settings(), write_policy)


def _migrate_entries(
    entries: list[Path | Skipped | Swept],
    given: list[Path],
    in_place: bool,
    settings: Settings,
    policy: WritePolicy | None,
) -> Iterator[FileOutcome]:
    from .kustomize.run import migrate_trees

    check_settings(settings, default_registry())  # as migrate_file would, before the facts are read
    facts = run_facts([e for e in entries if isinstance(e, Path)], settings)
    folders = [p for p in given if p.is_dir()]
    trees = migrate_trees(folders, settings, default_registry(), in_place=in_place, write_policy=policy, facts=facts)
    listed: set[Path] = set()
    for entry in entries:
        if isinstance(entry, Skipped):
            yield skipped_outcome(entry)
        elif isinstance(entry, Path) and (owned := trees.owner_key(entry)) is not None:
            listed.add(owned)
            yield trees.outcomes[owned]
        elif isinstance(entry, Path):
            yield migrate_file(entry, in_place=in_place, settings=settings, write_policy=policy, facts=facts)
    yield from (o for path, o in sorted(trees.outcomes.items()) if path not in listed)
