"""What ``scan``, ``diff`` and ``apply`` do: options in, the library called, text out, an exit code.

The command line's parser (``cli``, typer) and its fast path (``argv``) both end here, with
the same plain values (strings, lists, enums, a ``Path``), so a command behaves the same
whichever parsed it. Nothing here imports typer: a one-file run parsed by ``argv`` never pays
for it (issue 19). A command ends by raising ``Exit`` with its code.

Exit codes follow one policy for every command (``exits``; the table in docs/usage.md): 0
nothing to do, 1 changed / would change (``--fail-on deprecated``: also warnings), 2 usage
error, 3 needs a human (``needs``: a file that could not be processed, a decision not given,
a removed API left in place), 4 internal error (a bug: the traceback is printed). 3 wins over
1, and every other file is still processed. SIGINT and SIGTERM stop a run with 130 and 143
after saying which files were written (``_run_files``).

``diff`` and ``apply`` rewrite for one target, so they need ``--target-version`` (or
``target-version`` in a config file) and exit 2 without; ``scan`` defaults to the newest
release k8smigrate knows and says so.

Streams: what a command produces (diffs, the migrated stream, scan lines, a report in
``--format json|markdown|sarif``) goes to stdout or ``--output FILE``; the settings line,
change summaries, findings, the "needs a human" section and the one-line summary go to
stderr. ``--min-level``/``--quiet`` only choose what is printed, never what is counted or
what a JSON or SARIF report holds. Colour only on a TTY (``--color auto``, ``NO_COLOR``
respected), never in a file.
"""

from __future__ import annotations

import errno
import gc
import os
import signal
import sys
from collections.abc import Callable, Generator
from enum import Enum
from functools import partial
from pathlib import Path

from . import __version__, parallel
from .api import (
    FileOutcome,
    flag_unwritten_chart_edits,
    input_error,
    migrate_any,
    migrate_file,
    new_run,
    scan_file,
    scanned,
    skipped_outcome,
)
from .codes import FILE_ERROR, RELEASE_NEEDED
from .components import ComponentError, newest, parse_option
from .dataclasscode import dataclass
from .dependencies import exit_if_missing
from .exits import EXIT_CRASH, EXIT_HUMAN, EXIT_OK, EXIT_USAGE, Exit, exit_code, tally
from .files import (
    Found,
    InputError,
    Skipped,
    Swept,
    WritePolicy,
    decode,
    found_files,
    read_limited,
    remove_live_temps,
    write_output,
)
from .interrupt import Interrupted, signals_raise
from .kustomize.run import TreeRun, find_kustomizations, migrate_trees, scan_trees
from .needs import need_lines, needs
from .parallel import (
    Journal,
    Worker,
    facts_in_process,
    local_facts,
    parallel_facts,
    parallel_map,
    progress,
)
from .prefilter import collectors_for
from .quoting import quote_path
from .regexcode import regex
from .registry import check_settings, default_registry
from .report import (
    Run,
    ScanCounts,
    change_summary,
    json_report,
    outcome_findings,
    scan_summary_line,
    summary_line,
)
from .results import LEVELS, Finding
from .runtime_typing import TYPE_CHECKING, Any
from .settings import Settings, SettingsError, find_config
from .terminal import paint, paint_diff, paint_finding, use_color
from .versions import NEWEST_KNOWN

if TYPE_CHECKING:
    from .scan import ScanEntry


class Format(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"
    sarif = "sarif"


class ListFormat(str, Enum):
    text = "text"
    json = "json"


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class FailOn(str, Enum):
    removed = "removed"
    deprecated = "deprecated"
    never = "never"


class MinLevel(str, Enum):
    info = "info"
    warning = "warning"
    error = "error"


@dataclass(frozen=True)
class Shown:
    """What the text and Markdown outputs print (``--min-level``, ``--quiet``)."""

    min_level: str = "info"
    quiet: bool = False

    def level(self, level: str | None) -> bool:
        floor = "error" if self.quiet else self.min_level
        return _RANK.get(level or "warning", 1) >= _RANK[floor]


_RANK: dict[str, int] = {level: rank for rank, level in enumerate(LEVELS)}


def err(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def usage(message: str) -> Exit:
    err(f"k8smigrate: {message}")
    return Exit(EXIT_USAGE)


# ------------------------------------------------------------------ settings


def build_settings(
    target: str | None,
    min_version: str | None,
    only: list[str] | None,
    skip: list[str] | None,
    sets: list[str] | None,
    adopt: bool,
    *,
    cwd: Path | None = None,
    strict: bool = False,
    components: list[str] | None = None,
    note: Callable[[str], None] | None = None,
) -> tuple[Settings, str | None]:
    """Settings from the config file (if any) overlaid with explicit options; and where they came from.

    Everything is checked as the library checks it (``Settings``, ``check_settings``); what is
    wrong in the config file is reported with the file's name. ``note`` gets deprecation notes.
    """
    registry = default_registry()
    base: dict[str, Any] = {}
    source = None
    config = find_config(cwd or Path.cwd())
    if config is not None:
        source = str(config.path)
        base = config.settings()
        try:
            check_settings(Settings(**base), registry, note=lambda _message: None)
        except SettingsError as exc:
            raise SettingsError(f"{source}: {exc}") from exc
    decisions = dict(base.get("decisions", {}))
    for item in sets or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise SettingsError(f"--set takes NAME=VALUE, got {item!r}")
        decisions[name.strip()] = value.strip()
    releases = dict(base.get("components", {}))
    for item in components or []:
        try:
            name, version = parse_option(item)
        except ComponentError as exc:
            raise SettingsError(str(exc)) from exc
        releases[name] = version
    settings = Settings(
        target_version=target or base.get("target_version"),
        min_version=min_version or base.get("min_version"),
        decisions=decisions,
        only=tuple(only) if only else tuple(base.get("only", ())),
        skip=tuple(skip) if skip else tuple(base.get("skip", ())),
        adopt_new_defaults=adopt or bool(base.get("adopt_new_defaults", False)),
        strict=strict or bool(base.get("strict", False)),
        components=releases,
    )
    return check_settings(settings, registry, note=note), source


REWRITING = ("diff", "apply")
"""Commands that rewrite for one target: they never guess it."""


def _settings_or_exit(
    command: str, *args: Any, quiet: bool = False, strict: bool = False, components: list[str] | None = None
) -> tuple[Settings, str | None]:
    """The run's settings, or exit 2; prints the settings line (and what to know about the target)."""
    try:
        settings, source = build_settings(
            *args, strict=strict, components=components, note=lambda m: err(f"k8smigrate: warning: {m}")
        )
    except SettingsError as exc:
        raise usage(str(exc)) from exc
    if settings.target_version is None and command in REWRITING:
        raise usage(
            f"{command} needs --target-version X.Y, the release the manifests must run on after the upgrade "
            f"(or target-version in .k8smigrate.toml or [tool.k8smigrate] of pyproject.toml); "
            f"the newest release k8smigrate knows is {NEWEST_KNOWN}"
        )
    window = settings.window
    default = ""
    if settings.target_version is None:
        default = f" (no --target-version given: the newest release k8smigrate knows, {NEWEST_KNOWN})"
    span = f"{window.min_version}–{window.target}" if window.min_version != window.target else f"{window.target}"
    given = ", ".join(f"{name} {release}" for name, release in settings.windows.given)
    if not quiet or default:
        err(
            f"k8smigrate: target {span}{default}"
            + (f"; components: {given}" if given else "")
            + (f"; settings from {source}" if source else "")
        )
    if window.target > NEWEST_KNOWN:
        err(
            f"k8smigrate: warning: target {window.target} is newer than {NEWEST_KNOWN}, the newest release "
            f"k8smigrate knows: APIs removed or deprecated after {NEWEST_KNOWN} are not reported"
        )
    return settings, source


def _new_run(command: str, settings: Settings, source: str | None) -> Run:
    window = settings.window
    return Run(command, str(window.target), str(window.min_version), source)


def _check_output(output: Path | None) -> None:
    if output is not None and not output.parent.is_dir():
        raise usage(f"--output {output}: folder {output.parent} does not exist")


# ------------------------------------------------------------------ inputs


def _missing(raw: str) -> FileOutcome:
    return FileOutcome(Path(raw), error=Finding(FILE_ERROR.level, FILE_ERROR.code, "no such file or folder", None, raw))


def _read_stdin() -> bytes:
    """The bytes of stdin; ``InputError`` when it cannot be read (the process was started with
    it closed, ``<&-``)."""
    if sys.stdin is None:
        raise InputError("stdin is closed; not read")
    stream = getattr(sys.stdin, "buffer", None)
    try:
        return read_limited(stream) if stream is not None else sys.stdin.read().encode("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from exc


def _files(raw: str, sweep: bool) -> list[Found] | None:
    """The files behind one PATH argument (and what recursion refused); None when it does not exist."""
    path = Path(raw)
    if not path.exists() and not _link_loop(path):
        return None
    return list(found_files([path], sweep=sweep))


def _link_loop(path: Path) -> bool:
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _migrate(
    paths: list[str],
    settings: Settings,
    in_place: bool,
    jobs: int = 1,
    keep: str = "all",
    policy: WritePolicy | None = None,
) -> tuple[list[FileOutcome], int | None]:
    """One outcome per file, in order, over several processes with ``jobs`` != 1 (0: every core);
    and how many files there were when the outcomes do not list them all.

    Kustomize trees under the folders given are migrated as wholes first (``kustomize``). With
    ``keep`` "none" or "diff" (a text report), a file that reports nothing (not changed, no
    finding) is counted, not kept: the memory of a run does not grow with the files that need
    nothing.
    """
    worker = partial(migrate_file, in_place=in_place, write_policy=policy)
    trees = partial(migrate_trees, registry=default_registry(), in_place=in_place, write_policy=policy)
    listed = None if keep == "all" else _reports_a_change
    outcomes, files = _run_files(
        paths,
        settings,
        worker,
        jobs,
        keep,
        _stdin_outcome,
        parallel.SERIAL_BYTES,
        sweep=in_place,
        trees=trees,
        listed=listed,
    )
    flag_unwritten_chart_edits(outcomes)  # it looks only at files changed or with findings
    return outcomes, None if listed is None else files


def _reports_a_change(outcome: FileOutcome) -> bool:
    """Whether a file shows in a text report of ``apply``/``diff``: changed, written, or with a
    finding or an input error."""
    return outcome.written or (outcome.result is not None and outcome.result.changed) or _reports_something(outcome)


def _run_files(
    paths: list[str],
    settings: Settings,
    worker: Worker,
    jobs: int,
    keep: str,
    stdin: Callable[[Settings], FileOutcome],
    serial_bytes: int,
    sweep: bool = False,
    trees: Callable[..., TreeRun] | None = None,
    listed: Callable[[FileOutcome], bool] | None = None,
) -> tuple[list[FileOutcome], int]:
    """``worker`` over every file behind ``paths`` (``-``: ``stdin``), one outcome each, in order,
    and the number of files done.

    ``keep``: what of each result the command still needs ("all", "diff", "none"); inputs
    smaller than ``serial_bytes`` stay in this process (see ``parallel_map``).
    ``sweep``: the run writes files: stale temporary files of interrupted runs are removed, and
    the facts of the checks that join files are gathered before any file is written. SIGINT and
    SIGTERM stop the run (workers too) and exit 130/143 after listing the files written.
    ``trees``: what decides for the files of kustomize trees under the folders given (they are
    not given to ``worker``). ``listed``: which outcomes to keep (the others are only counted,
    so that a run over many files that need nothing holds no memory for them).
    """
    journal = Journal()
    work: list[str] = []
    new_run()
    try:
        with signals_raise():
            todo: list[Found | FileOutcome] = []  # each file as its path's text (files.found_files)
            for raw in paths:
                if raw == "-":
                    todo.append(stdin(settings))
                    continue
                files = _files(raw, sweep)
                todo += [_missing(raw)] if files is None else files
            every = [t for t in todo if isinstance(t, str)]
            main_works = jobs == 0  # every core: this process is one of them (an explicit N: N workers)
            jobs = jobs or os.cpu_count() or 1
            # the checks that join files see every file of the run, read before any is written
            collect = collectors_for(settings, default_registry())
            folders = [Path(raw) for raw in paths if raw != "-" and Path(raw).is_dir()]
            found = find_kustomizations(folders) if trees is not None and folders else []
            facts = gather = None
            if collect and not sweep and not found and facts_in_process(every, jobs):
                # by parallel_map, in this process, while the workers start on files that need none
                gather = partial(local_facts, every, settings, jobs)
            elif collect:
                # first: a writing run's before any file is written, a kustomize tree's for the
                # tree, a large run's in workers of their own
                facts = parallel_facts(every, settings, jobs, main_works=main_works)
            tree = trees(folders, settings, facts=facts, found=found) if trees is not None and found else TreeRun()
            for owned in tree.outcomes.values():
                if keep != "all" and owned.result is not None:
                    owned.result.slim(keep_diff=keep == "diff")
            work = [t for t in every if tree.owner_key(t) is None]
            done = parallel_map(worker, work, settings, jobs, keep, journal, facts, serial_bytes, main_works, gather)
            return _collect(todo, done, tree, listed)
    except Interrupted as exc:
        remove_live_temps()  # one whose write the signal stopped before it could clean up (as a worker's handler does)
        raise _interrupted(exc.signum, [work[i] for i in journal.written()]) from None


def _collect(
    todo: list[Found | FileOutcome],
    done: Generator[FileOutcome, None, None],
    tree: TreeRun,
    keep: Callable[[FileOutcome], bool] | None = None,
) -> tuple[list[FileOutcome], int]:
    """The outcomes of ``todo`` in order, taking those of its files from ``done`` (and those of
    kustomize trees' files from ``tree``, with the files only the trees found last), and how many
    there were: those ``keep`` refuses are counted, not kept."""
    outcomes: list[FileOutcome] = []
    unkept = 0
    listed: set[Path] = set()
    try:
        with progress(sum(isinstance(t, str) and tree.owner_key(t) is None for t in todo)) as advance:
            for item in todo:
                if isinstance(item, FileOutcome):
                    outcome = item
                elif isinstance(item, Skipped):
                    outcome = skipped_outcome(item)
                elif isinstance(item, Swept):
                    err(f"k8smigrate: removed {quote_path(str(item.path))} (left by an interrupted run)")
                    continue
                elif (owned := tree.owner_key(item)) is not None:
                    listed.add(owned)
                    outcome = tree.outcomes[owned]
                else:
                    outcome = next(done)
                    advance()
                if keep is None or keep(outcome):
                    outcomes.append(outcome)
                else:
                    unkept += 1
        next(done, None)  # lets the workers shut down normally
    finally:
        done.close()  # when interrupted: stops the workers, so the journal is complete
    for path, outcome in sorted(tree.outcomes.items()):
        if path in listed:
            continue
        if keep is None or keep(outcome):
            outcomes.append(outcome)
        else:
            unkept += 1
    return outcomes, len(outcomes) + unkept


def _interrupted(signum: int, written: list[str]) -> Exit:
    name = signal.Signals(signum).name
    if not written:
        err(f"k8smigrate: interrupted by {name}; no file was written")
    else:
        err(f"k8smigrate: interrupted by {name}; {len(written)} file{'s' if len(written) > 1 else ''} written:")
        for path in written:
            err(f"  {quote_path(str(path))}")
    return Exit(128 + signum)


def _from_stdin(work: Callable[[str], FileOutcome]) -> FileOutcome:
    try:
        text = decode(_read_stdin())
    except InputError as exc:
        return FileOutcome(Path("-"), error=input_error("<stdin>", str(exc)))
    return work(text)


def _stdin_outcome(settings: Settings) -> FileOutcome:
    return _from_stdin(lambda text: FileOutcome(Path("-"), migrate_any(text, settings, "<stdin>", default_registry())))


def _scan(
    paths: list[str],
    settings: Settings,
    run: Run,
    jobs: int,
    every_file: bool,
    rows: Callable[[FileOutcome], None] | None = None,
) -> list[ScanEntry]:
    """The rows of every file, in order (over several processes like ``_migrate``).

    Without ``every_file`` (the text output), files with no row and no finding are counted in
    ``run.files`` but not kept: the memory of a scan does not grow with the files that need nothing.
    ``rows``: called with each file's outcome as it comes, in order (it may print and drop rows).
    """
    trees = partial(scan_trees, registry=default_registry())
    run.outcomes, run.files = _run_files(
        paths,
        settings,
        scan_file,
        jobs,
        "none",
        _stdin_scan,
        parallel.SCAN_SERIAL_BYTES,
        trees=trees,
        listed=None if every_file else partial(_listed, rows),
    )
    return [entry for o in run.outcomes for entry in o.scan]


def _listed(rows: Callable[[FileOutcome], None] | None, outcome: FileOutcome) -> bool:
    if rows is not None:
        rows(outcome)
    return _reports_something(outcome)


class _RowPrinter:
    """Prints each file's scan rows to stdout as its outcome comes, counts them, and keeps in the
    outcome only the rows a human must act on (what the "needs a human" section lists)."""

    def __init__(self, color: bool, shown: Shown) -> None:
        self.color = color
        self.shown = shown
        self.counts = ScanCounts()
        self.components: set[str] = set()

    def __call__(self, outcome: FileOutcome) -> None:
        if not outcome.scan:
            return
        lines = []
        for e in outcome.scan:
            self.counts.add(e)
            self.components.add(e.component)
            if self.shown.level(e.level):
                lines.append(paint(e.format(), _SCAN_COLORS.get(e.status), self.color) + "\n")
        if lines:
            _write_stdout("".join(lines))
        outcome.scan = [e for e in outcome.scan if e.action == "human"]


def _reports_something(outcome: FileOutcome) -> bool:
    """Whether a scanned file has a row, a finding or an input error (what the text output shows)."""
    return bool(outcome.scan) or outcome.error is not None or bool(outcome_findings(outcome))


def _stdin_scan(settings: Settings) -> FileOutcome:
    return _from_stdin(lambda text: scanned(Path("-"), text, "<stdin>", settings))


# ------------------------------------------------------------------ outputs


def _finish(run: Run, fail_on: FailOn, exit_zero: bool) -> None:
    """Set the run's exit code by the one policy (``exits``), before any report shows it."""
    run.exit_code = exit_code(tally(run, default_registry()), fail_on.value, exit_zero)


def _emit(text: str, output: Path | None) -> None:
    """``text`` to stdout or, atomically, to ``output``; always UTF-8 (a lone surrogate becomes ``\\udXXX``,
    which in a JSON string is its escape)."""
    if output is None:
        _write_stdout(text)
        return
    data = text.encode("utf-8", "backslashreplace")
    try:
        write_output(output, data)
    except OSError as exc:
        err(f"k8smigrate: cannot write --output {output}: {exc.strerror or exc}")
        raise Exit(EXIT_HUMAN) from exc


def _write_stdout(text: str) -> None:
    """``text`` to stdout as UTF-8 (a lone surrogate becomes ``\\udXXX``).

    A stdout that cannot take it (a full disk) ends the run as an unwritable ``--output`` does;
    a reader that closed the pipe is ``run_parsed``'s to handle.
    """
    data = text.encode("utf-8", "backslashreplace")
    try:
        sys.stdout.flush()
        stream = getattr(sys.stdout, "buffer", None)
        if stream is None:
            sys.stdout.write(data.decode("utf-8"))
        else:
            stream.write(data)
            stream.flush()
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise
        raise unwritable_stdout(exc) from exc


def unwritable_stdout(exc: OSError) -> Exit:
    """How a command ends whose stdout cannot take its output (a full disk): the reason said,
    exit 3, as for an unwritable ``--output``."""
    err(f"k8smigrate: cannot write to stdout: {exc.strerror or exc}")
    # what stays in its buffer cannot be written either: no second complaint when it is flushed at exit
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the process ends with it open)
    return Exit(EXIT_HUMAN)


def _report(run: Run, format: Format, verb: str, shown: Shown) -> str:
    """The report of a non-text format."""
    if format is Format.json:
        return json_report(run, __version__)
    if format is Format.markdown:
        from .markdown import markdown_report

        return markdown_report(
            run, verb=verb, needs=needs(run, default_registry()), shown=lambda level: shown.level(level)
        )
    from .sarif import sarif_report

    return sarif_report(run, __version__, default_registry())


def _print_findings(run: Run, color: Color, shown: Shown) -> None:
    on = use_color(color.value, sys.stderr)
    for f in run.findings:
        if shown.level(f.level):
            err(paint_finding(f, on))
    lines = need_lines(needs(run, default_registry()))
    for i, line in enumerate(lines):
        err(paint(line, "red", on, bold=i == 0))


def _print_changes(run: Run, color: Color, verb: str, shown: Shown) -> None:
    on = use_color(color.value, sys.stderr)
    for o in run.outcomes:
        if o.result is not None and not shown.quiet:
            for line in change_summary(o.result):
                err(paint(f"{quote_path(o.result.filename)}: {line}", None, on, bold=True))
    _print_findings(run, color, shown)
    count = run.written if verb == "written" else run.changed
    err(summary_line(run.file_count, count, run.findings, verb))


_OPTION = regex(r"--component ([\w.-]+)=VERSION")


def _releases_needed(run: Run) -> list[str]:
    """The add-ons whose release the run must be told (K8SM-GEN-016 findings).

    apply and diff migrate everything else; those documents stay as they are. The exit code is
    the policy's (``exits``): a release not given is a decision not given, 3 (needs a human);
    2 stays for usage errors, where nothing is read or written.
    """
    return sorted({m for f in run.findings if f.code == RELEASE_NEEDED.code for m in _OPTION.findall(f.message)})


def _ask_for_releases(run: Run, names: list[str]) -> None:
    """Name the option that settles K8SM-GEN-016, on stderr."""
    if not names:
        return
    count = sum(1 for f in run.findings if f.code == RELEASE_NEEDED.code)
    options = " ".join(f"--component {name}=VERSION" for name in names)
    known = ", ".join(f"{n} {newest(n)}" for n in names if newest(n) is not None)
    err(
        f"k8smigrate: {count} document{'s' if count != 1 else ''} of {', '.join(names)} left unchanged: "
        f"say which release they must run on with {options}" + (f" (k8smigrate knows up to {known})" if known else "")
    )


_SCAN_COLORS = {"removed": "red", "breaking": "red", "deprecated": "yellow", "warning": "yellow"}


def scan(
    paths: list[str],
    target_version: str | None = None,
    min_version: str | None = None,
    fail_on: FailOn = FailOn.removed,
    only: list[str] | None = None,
    skip: list[str] | None = None,
    set_: list[str] | None = None,
    component: list[str] | None = None,
    format: Format = Format.text,
    output: Path | None = None,
    color: Color = Color.auto,
    jobs: int = 0,
    exit_zero: bool = False,
    min_level: MinLevel = MinLevel.info,
    quiet: bool = False,
) -> None:
    """List documents on deprecated or removed APIs, and what else breaks at the target, by category."""
    _check_output(output)
    shown = Shown(min_level.value, quiet)
    settings, source = _settings_or_exit(
        "scan", target_version, min_version, only, skip, set_, False, quiet=quiet, components=component
    )
    run = _new_run("scan", settings, source)
    # Printed as they come into a pipe or file (not a terminal, where a progress bar may be drawn):
    # a scan of any number of files then keeps only the rows a human must act on.
    streamed = _RowPrinter(use_color(color.value, sys.stdout), shown) if format is Format.text else None
    if streamed is not None and (output is not None or sys.stdout.isatty()):
        streamed = None
    run.scan = entries = _scan(paths, settings, run, jobs, every_file=format is not Format.text, rows=streamed)
    run.counts = streamed.counts if streamed is not None else None
    _finish(run, fail_on, exit_zero)
    if format is not Format.text:
        _emit(_report(run, format, "scanned", shown), output)
    else:
        if streamed is None:
            on = use_color(color.value, sys.stdout) and output is None
            lines = [paint(e.format(), _SCAN_COLORS.get(e.status), on) for e in entries if shown.level(e.level)]
            _emit("".join(line + "\n" for line in lines), output)
        _print_findings(run, color, shown)
        err(scan_summary_line(run.file_count, run.counts or entries, run.findings))
    components = streamed.components if streamed is not None else {e.component for e in entries}
    assumed = sorted(c for c in components if settings.windows.assumed(c))
    if assumed and not quiet:
        judged = ", ".join(f"{c} {settings.windows.of(c).target}" for c in assumed)
        options = " ".join(f"--component {c}=VERSION" for c in assumed)
        err(f"k8smigrate: add-ons judged at the newest release known: {judged} (set {options})")
    raise Exit(run.exit_code)


def diff(
    paths: list[str],
    target_version: str | None = None,
    min_version: str | None = None,
    only: list[str] | None = None,
    skip: list[str] | None = None,
    set_: list[str] | None = None,
    component: list[str] | None = None,
    adopt_new_defaults: bool = False,
    strict: bool = False,
    format: Format = Format.text,
    output: Path | None = None,
    color: Color = Color.auto,
    jobs: int = 0,
    fail_on: FailOn = FailOn.removed,
    exit_zero: bool = False,
    min_level: MinLevel = MinLevel.info,
    quiet: bool = False,
) -> None:
    """Dry run: print the unified diff and the findings; write nothing."""
    _check_output(output)
    shown = Shown(min_level.value, quiet)
    settings, source = _settings_or_exit(
        "diff",
        target_version,
        min_version,
        only,
        skip,
        set_,
        adopt_new_defaults,
        strict=strict,
        quiet=quiet,
        components=component,
    )
    run = _new_run("diff", settings, source)
    run.outcomes, run.files = _migrate(
        paths, settings, in_place=False, jobs=jobs, keep="diff" if format is Format.text else "all"
    )
    _finish(run, fail_on, exit_zero)
    needed = _releases_needed(run)
    if format is not Format.text:
        _emit(_report(run, format, "would change", shown), output)
    else:
        on = use_color(color.value, sys.stdout) and output is None
        _emit("".join(paint_diff(r.diff, on) for r in run.results), output)
        _print_changes(run, color, "would change", shown)
    _ask_for_releases(run, needed)
    raise Exit(run.exit_code)


def apply(
    paths: list[str],
    in_place: bool = False,
    check: bool = False,
    target_version: str | None = None,
    min_version: str | None = None,
    only: list[str] | None = None,
    skip: list[str] | None = None,
    set_: list[str] | None = None,
    component: list[str] | None = None,
    adopt_new_defaults: bool = False,
    strict: bool = False,
    format: Format = Format.text,
    output: Path | None = None,
    color: Color = Color.auto,
    jobs: int = 0,
    fail_on: FailOn = FailOn.removed,
    exit_zero: bool = False,
    min_level: MinLevel = MinLevel.info,
    quiet: bool = False,
    break_hardlinks: bool = False,
    force_readonly: bool = False,
    verify_render: bool = False,
) -> None:
    """Migrate: the new stream on stdout (one file or -), or rewrite files with --in-place."""
    if in_place and check:
        raise usage("--in-place and --check exclude each other")
    single = len(paths) == 1 and (paths[0] == "-" or not Path(paths[0]).is_dir())
    if not (in_place or check or single):
        raise usage("apply writes one file or - to stdout; use --in-place or --check for several files")
    if in_place and "-" in paths:
        raise usage("--in-place cannot rewrite stdin")
    _check_output(output)
    shown = Shown(min_level.value, quiet)
    settings, source = _settings_or_exit(
        "apply",
        target_version,
        min_version,
        only,
        skip,
        set_,
        adopt_new_defaults,
        strict=strict,
        quiet=quiet,
        components=component,
    )
    run = _new_run("apply", settings, source)
    keep = "all" if format is not Format.text or not (in_place or check) else "none"
    policy = WritePolicy(break_hardlinks=break_hardlinks, force_readonly=force_readonly)
    if verify_render:
        run.outcomes, run.files = _verified(paths, settings, in_place, jobs, keep, policy)
    else:
        run.outcomes, run.files = _migrate(paths, settings, in_place=in_place, jobs=jobs, keep=keep, policy=policy)
    _finish(run, fail_on, exit_zero)
    needed = _releases_needed(run)
    verb = "written" if in_place else "would change" if check else "changed"
    if format is not Format.text:
        _emit(_report(run, format, verb, shown), output)
    elif not (in_place or check):
        result = run.outcomes[0].result
        if result is not None:
            _emit(result.text, output)
    if format is Format.text:
        _print_changes(run, color, verb, shown)
    _ask_for_releases(run, needed)
    raise Exit(run.exit_code)


def _verified(
    paths: list[str], settings: Settings, in_place: bool, jobs: int, keep: str, policy: WritePolicy
) -> tuple[list[FileOutcome], int | None]:
    """``_migrate``, then one outcome per chart with what rendering it with helm proves (and the
    number of files and charts, when the outcomes do not list every file)."""
    from .api import migrate_paths
    from .results import FileResult
    from .templating import helm

    try:
        helm.helm_binary()
    except helm.HelmMissing as exc:
        raise usage(str(exc)) from exc
    charts = helm.charts_in([Path(p) for p in paths if p != "-"])
    with helm.snapshots(charts) as before, helm.snapshots(charts) as scratch:
        outcomes, files = _migrate(paths, settings, in_place=in_place, jobs=jobs, keep=keep, policy=policy)
        for chart in charts:
            after = chart
            if not in_place:  # migrate a copy: the chart itself is not written
                after = scratch[chart]
                scratch_policy = WritePolicy(break_hardlinks=True, force_readonly=True)  # our own copy
                list(migrate_paths([after], in_place=True, settings=settings, write_policy=scratch_policy))
            findings = helm.verify(before[chart], after, settings, chart)
            outcomes.append(FileOutcome(chart, FileResult(str(chart), "", "", findings)))
    return outcomes, None if files is None else files + len(charts)


# ------------------------------------------------------------------ a whole run


def guarded(work: Callable[[], object]) -> None:
    """Run a command line with the run's collection policy; an internal error exits 4.

    Both entries (typer's in ``cli.main`` and ``argv``'s) end here, so a bug is reported the
    same way whichever parsed the command line.
    """
    # Trees are acyclic and freed by reference counting; the cyclic collector only rescans
    # them. Rarer collections save about a seventh of a large run (the library leaves GC alone).
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    try:
        work()
    except Exception as exc:  # an internal error: its own exit code, never 1 ("would change")
        exit_if_missing(exc)
        import traceback  # here: a run without a bug never needs it (nor the modules it imports)

        traceback.print_exc()
        err(
            f"k8smigrate: internal error (a bug in k8smigrate {__version__}; please report it with the "
            f"traceback above); exit code {EXIT_CRASH}"
        )
        sys.exit(EXIT_CRASH)


COMMANDS: dict[str, Callable[..., None]] = {"scan": scan, "diff": diff, "apply": apply}
"""The commands ``argv`` may run without typer (``list`` and ``explain`` print through typer)."""


def run_parsed(command: str, options: dict[str, Any]) -> None:
    """Run ``command`` with options ``argv`` parsed, ending as typer's standalone mode ends.

    As typer does: ``Exit`` leaves with its code, Ctrl-C with 130, and a reader that closed
    the pipe with 1 (no "Broken pipe" noise when Python flushes the streams at exit).
    """
    try:
        COMMANDS[command](**options)
    except Exit as exc:
        sys.exit(exc.code)
    except KeyboardInterrupt:
        sys.exit(130)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout = _QuietFlush(sys.stdout)
        sys.stderr = _QuietFlush(sys.stderr)
        sys.exit(1)
    sys.exit(EXIT_OK)


class _QuietFlush:
    """A stream whose ``flush`` ignores a closed pipe (what click's ``PacifyFlushWrapper`` does)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
