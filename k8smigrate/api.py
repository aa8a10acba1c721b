"""The documented entry points: migrate a string, a file, or a set of paths.

Every entry point takes the same keyword arguments, which mirror the CLI options
(``target_version``, ``min_version``, ``decisions``, ``only``, ``skip`` and, where something
is rewritten, ``adopt_new_defaults`` and ``strict``); ``settings=`` takes a ready
``Settings`` (and wins over the keywords). Settings are checked as the CLI checks them
(``Settings`` itself for types, ``check_settings`` for names and versions): a number for a
release, an unknown migration or decision, or a bad version raises ``SettingsError``. Nothing
here prints or exits.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path

from .codes import API_REWRITTEN, FILE_ERROR, INTERNAL_ERROR, OWNER_NOT_KEPT
from .engine import migrate_stream
from .facts import Facts, gather_each
from .files import (
    InputError,
    Loaded,
    Skipped,
    Swept,
    WritePolicy,
    forget_read_ahead,
    iter_entries,
    read_ahead,
    read_manifest,
    write_atomic,
)
from .outcomes import UNREADABLE_CODES as UNREADABLE_CODES
from .outcomes import FileOutcome as FileOutcome
from .outcomes import input_error as input_error
from .outcomes import scanned as scanned
from .prefilter import collectors_for
from .registry import Registry, check_settings, default_registry
from .results import FileResult, Finding
from .runtime_typing import TYPE_CHECKING, Any
from .settings import KEYWORDS, Settings, names_value

if TYPE_CHECKING:
    from .scan import ScanEntry
    from .templating.gates import Gate


def _settings(
    settings: Settings | None,
    target_version: str | None,
    min_version: str | None,
    decisions: dict[str, str] | None,
    only: Iterable[str] | str | None,
    skip: Iterable[str] | str | None,
    adopt_new_defaults: bool,
    strict: bool,
    registry: Registry,
    components: Mapping[str, str] | None = None,
) -> Settings:
    """The checked settings of a call: ``settings=`` as given, or made from the keywords."""
    if settings is None:
        settings = Settings(
            target_version=target_version,
            min_version=min_version,
            decisions=decisions if decisions is not None else {},
            only=names_value("only", only, KEYWORDS),
            skip=names_value("skip", skip, KEYWORDS),
            adopt_new_defaults=adopt_new_defaults,
            strict=strict,
            components=dict(components) if components is not None else {},
        )
    elif not isinstance(settings, Settings):
        raise TypeError(f"settings must be a k8smigrate.Settings, not {type(settings).__name__}")
    return check_settings(settings, registry)


def migrate_any(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    path: Path | None = None,
    api_bodies: dict[int, tuple[str, str]] | None = None,
    values: Any = None,
    facts: Facts | None = None,
    gates: list[Gate] | None = None,
    newline_defines: frozenset[str] = frozenset(),
) -> FileResult:
    """Migrate a stream, through its YAML skeleton when it is a template (Helm or Jinja2).

    ``path``: where the text was read from, to find the chart whose values.yaml resolves
    ``.Values`` paths (or ``values``, already read); ``api_bodies``, ``gates`` and
    ``newline_defines``: see ``templating.migrate.migrate_template``.
    """
    from .templating.markers import needs_masking

    if not needs_masking(text):
        return migrate_stream(text, settings, filename, registry, facts=facts)
    from .templating.chart import chart_root, chart_values
    from .templating.migrate import migrate_template

    if values is None and path is not None:
        values = chart_values(chart_root(path))
    return migrate_template(
        text,
        settings,
        filename,
        registry,
        values=values,
        api_bodies=api_bodies,
        gates=gates,
        newline_defines=newline_defines,
    )


def _migrate_loaded(
    loaded: Loaded, settings: Settings, name: str, registry: Registry, facts: Facts | None = None
) -> FileResult:
    """A file's result; a chart's file starts from the chart-level step's edits (computed apiVersions)."""
    from .templating.chart import chart_root, chart_values, is_support_file

    root = chart_root(loaded.path)
    if root is None:
        return migrate_any(loaded.text, settings, name, registry, loaded.path, facts=facts)
    from .templating.chartplan import plan_for, with_parents_edits

    try:
        plan = plan_for(root, settings)
        rel = loaded.path.resolve().relative_to(root.resolve()).as_posix()
        text = plan.texts.get(rel, loaded.text)
        text, conflict = with_parents_edits(root, loaded.path, settings, text, loaded.text)
    except Exception as exc:  # the chart-level step must cost its findings, never the file
        if settings.raise_errors:
            raise
        result = migrate_any(loaded.text, settings, name, registry, loaded.path)
        message = f"internal error in the chart-level step: {type(exc).__name__}: {exc}"
        result.findings.append(Finding(INTERNAL_ERROR.level, INTERNAL_ERROR.code, message, None, name))
        return result
    findings = [replace(f, filename=name) for f in plan.findings.get(rel, [])]
    if conflict is not None:
        findings.append(replace(conflict, filename=name))
    if is_support_file(rel):
        return FileResult(name, loaded.text, text, findings, list(plan.documents.get(rel, [])))
    values = plan.values if plan.values is not None else chart_values(root)
    result = migrate_any(
        text,
        settings,
        name,
        registry,
        loaded.path,
        plan.bodies.get(rel),
        values,
        gates=plan.gates.get(rel),
        newline_defines=plan.newline_defines,
    )
    from .templating.unserved import one_error

    result.original = loaded.text
    result.findings = one_error(findings, result.findings)
    return result


def migrate_text(
    text: str,
    *,
    target_version: str | None = None,
    min_version: str | None = None,
    decisions: dict[str, str] | None = None,
    only: Iterable[str] | str | None = None,
    skip: Iterable[str] | str | None = None,
    adopt_new_defaults: bool = False,
    strict: bool = False,
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
    registry = registry or default_registry()
    s = _settings(
        settings, target_version, min_version, decisions, only, skip, adopt_new_defaults, strict, registry, components
    )
    return migrate_any(text, s, filename, registry)


def scan_text(
    text: str,
    *,
    target_version: str | None = None,
    min_version: str | None = None,
    decisions: dict[str, str] | None = None,
    only: Iterable[str] | str | None = None,
    skip: Iterable[str] | str | None = None,
    components: Mapping[str, str] | None = None,
    filename: str = "<string>",
    settings: Settings | None = None,
    registry: Registry | None = None,
) -> list[ScanEntry]:
    """Every document on a deprecated or removed API, with its replacement and releases, and the
    readiness findings of the enabled checks (``only``/``skip`` choose them, as in ``migrate_text``).

    An add-on whose release ``components`` does not give is judged at the newest release
    k8smigrate knows.
    """
    from .scan import scan_stream  # scan's module: not imported by apply and diff

    registry = registry or default_registry()
    s = _settings(settings, target_version, min_version, decisions, only, skip, False, False, registry, components)
    return scan_stream(text, s, filename, registry)


def migrate_file(
    path: Path | str,
    *,
    in_place: bool = False,
    target_version: str | None = None,
    min_version: str | None = None,
    decisions: dict[str, str] | None = None,
    only: Iterable[str] | str | None = None,
    skip: Iterable[str] | str | None = None,
    adopt_new_defaults: bool = False,
    strict: bool = False,
    components: Mapping[str, str] | None = None,
    settings: Settings | None = None,
    write_policy: WritePolicy | None = None,
    facts: Facts | None = None,
) -> FileOutcome:
    """Migrate one file (the keywords of ``migrate_text``); with ``in_place`` write it atomically
    when it changed and had no error.

    ``write_policy`` allows splitting hard links and rewriting read-only files (``files``).
    ``facts``: the run's (``run_facts``), for the checks that join files; without them, the file's own.
    """
    registry = default_registry()
    s = _settings(
        settings, target_version, min_version, decisions, only, skip, adopt_new_defaults, strict, registry, components
    )
    return _migrate_file(Path(path), s, in_place, write_policy, registry, facts)


def _migrate_file(
    p: Path,
    settings: Settings,
    in_place: bool,
    write_policy: WritePolicy | None,
    registry: Registry,
    facts: Facts | None = None,
) -> FileOutcome:
    try:
        loaded: Loaded = read_manifest(p)
    except InputError as exc:
        return FileOutcome(p, error=input_error(p, str(exc)))
    result = _migrate_loaded(loaded, settings, str(p), registry, facts)
    outcome = FileOutcome(p, result)
    unreadable = any(f.code in UNREADABLE_CODES for f in result.findings)
    if in_place and result.changed and not unreadable:
        try:
            before_ns = p.stat().st_mtime_ns
            written = write_atomic(loaded, result.text, write_policy)
        except (InputError, OSError) as exc:
            outcome.error = input_error(p, str(exc))
        else:
            outcome.written = written.written
            if written.written:
                _note_chart_write(p, before_ns)
            result.findings += [
                Finding(OWNER_NOT_KEPT.level, OWNER_NOT_KEPT.code, note, None, str(p)) for note in written.notes
            ]
    return outcome


def flag_unwritten_chart_edits(outcomes: list[FileOutcome]) -> None:
    """Give each template whose computed apiVersion the chart-level step rewrote in another file
    (``values.yaml``, a helper) an error when that file was not written (refused: read-only,
    hard links, changed on disk): the chart still renders the old API, whatever the template says.

    The files of a run come one by one, a chart's templates before its ``values.yaml``: this
    looks at a whole run's outcomes once they are all in.
    """
    from .templating.chart import chart_root, is_support_file

    refused: dict[Path, list[str]] = {}
    for o in outcomes:
        if o.written or o.result is None or not o.result.changed or o.error is None:
            continue
        root = chart_root(o.path)
        if root is not None:
            rel = o.path.resolve().relative_to(root.resolve()).as_posix()
            if is_support_file(rel):
                refused.setdefault(root.resolve(), []).append(rel)
    if not refused:
        return
    for o in outcomes:
        root = chart_root(o.path) if o.result is not None else None
        names = refused.get(root.resolve()) if root is not None else None
        if o.result is None or not names:
            continue
        o.result.findings += [
            Finding(
                FILE_ERROR.level,
                FILE_ERROR.code,
                f"this apiVersion is rewritten in {' and '.join(names)}, which was not written: the chart "
                "still renders the old API",
                f.migration,
                f.filename,
                f.document,
                f.line,
                f.path,
            )
            for f in list(o.result.findings)
            if f.code == API_REWRITTEN.code
        ]


def new_run() -> None:
    """A run starts: chart files that an earlier run of this process wrote are read as changed
    (``chartplan.note_written``), and no text an earlier run read ahead is used (what the console
    started reading for this run is kept: ``prefetch``)."""
    forget_read_ahead(prefetched=False)
    chartplan = sys.modules.get("k8smigrate.templating.chartplan")
    if chartplan is not None:
        chartplan.forget_written()


def _note_chart_write(path: Path, before_ns: int) -> None:
    """A chart's file written from its plan: the rest of the chart is still migrated from that plan."""
    from .templating.chart import chart_root
    from .templating.chartplan import note_written

    if chart_root(path) is not None:
        note_written(path, before_ns)


def scan_file(
    path: Path | str,
    *,
    target_version: str | None = None,
    min_version: str | None = None,
    decisions: dict[str, str] | None = None,
    only: Iterable[str] | str | None = None,
    skip: Iterable[str] | str | None = None,
    components: Mapping[str, str] | None = None,
    settings: Settings | None = None,
    facts: Facts | None = None,
) -> FileOutcome:
    """Scan one file (the keywords of ``scan_text``): its rows in ``outcome.scan``; unreadable YAML
    and duplicate keys as findings. ``facts``: the run's (``run_facts``), for the checks that join files."""
    p = Path(path)
    s = _settings(
        settings, target_version, min_version, decisions, only, skip, False, False, default_registry(), components
    )
    try:
        loaded = read_manifest(p)
    except InputError as exc:
        return FileOutcome(p, error=input_error(p, str(exc)))
    return scanned(p, loaded.text, str(p), s, facts)


def skipped_outcome(skipped: Skipped) -> FileOutcome:
    """A path that recursion reported instead of reading (a link out of the tree, an unreadable folder)."""
    return FileOutcome(skipped.path, error=input_error(skipped.path, skipped.reason))


def facts_of_files(
    paths: Iterable[Path | str], settings: Settings, keep: bool = False, read: Callable[[], None] | None = None
) -> Facts:
    """The facts the files hold for the checks of ``settings``, in order (an unreadable file
    holds none).

    ``keep``: each text is kept for the run's next read of its file (``files.read_ahead``).
    ``read``: called once every file is read, before the facts are gathered (the files are then
    all read first, instead of each just before it is looked at).
    """
    reader = read_ahead if keep else read_manifest

    def texts() -> Iterator[tuple[str, str]]:
        for path in paths:
            try:
                yield str(path), reader(path).text
            except InputError:
                yield str(path), ""  # reading it again reports why

    collectors = collectors_for(settings, default_registry())
    if read is None:
        return gather_each(texts(), collectors)
    every = list(texts())
    read()
    return gather_each(every, collectors)


def run_facts(files: Iterable[Path], settings: Settings) -> Facts | None:
    """The facts of every file of a run, in order, for the checks that join files (None: no such check).

    A first, cheap pass: a file is parsed only when its text holds what a collector looks for.
    """
    if not collectors_for(settings, default_registry()):
        return None
    return facts_of_files(files, settings)


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
    target_version: str | None = None,
    min_version: str | None = None,
    decisions: dict[str, str] | None = None,
    only: Iterable[str] | str | None = None,
    skip: Iterable[str] | str | None = None,
    adopt_new_defaults: bool = False,
    strict: bool = False,
    components: Mapping[str, str] | None = None,
    settings: Settings | None = None,
    write_policy: WritePolicy | None = None,
) -> Iterator[FileOutcome]:
    """Migrate files and folders (recursing into ``*.yaml``, ``*.yml``, ``*.json``), one outcome per file.

    ``paths`` is one path (``str`` or ``os.PathLike``) or an iterable of them; anything else
    raises TypeError at the call, and bad settings raise ``SettingsError`` at the call (the
    keywords are those of ``migrate_text``). A failure costs only its own file: every other
    file is still migrated (and written). With ``in_place``, stale temporary files of an
    interrupted run are removed from the folders searched. Kustomize trees under the folders
    are migrated as wholes (docs/kustomize.md): their files' outcomes come in the same order,
    and a ``Kustomization`` file (no suffix) after the others. The checks that join files see
    every file of the run (``run_facts``), read before any is written.
    """
    registry = default_registry()
    s = _settings(
        settings, target_version, min_version, decisions, only, skip, adopt_new_defaults, strict, registry, components
    )
    given = as_paths(paths)
    new_run()
    entries = list(iter_entries(given, sweep=in_place))
    return _migrate_entries(entries, given, in_place, s, write_policy, registry)


def _migrate_entries(
    entries: list[Path | Skipped | Swept],
    given: list[Path],
    in_place: bool,
    settings: Settings,
    policy: WritePolicy | None,
    registry: Registry,
) -> Iterator[FileOutcome]:
    from .kustomize.run import migrate_trees

    facts = run_facts([e for e in entries if isinstance(e, Path)], settings)
    folders = [p for p in given if p.is_dir()]
    trees = migrate_trees(folders, settings, registry, in_place=in_place, write_policy=policy, facts=facts)
    listed: set[Path] = set()
    for entry in entries:
        if isinstance(entry, Skipped):
            yield skipped_outcome(entry)
        elif isinstance(entry, Path) and (owned := trees.owner_key(entry)) is not None:
            listed.add(owned)
            yield trees.outcomes[owned]
        elif isinstance(entry, Path):
            yield _migrate_file(entry, settings, in_place, policy, registry, facts)
    yield from (o for path, o in sorted(trees.outcomes.items()) if path not in listed)
