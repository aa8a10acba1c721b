"""The command line: parse options into Settings, call the library, print, pick the exit code.

Exit codes: 0 nothing to do, 1 changed / would change / findings at ``--fail-on``, 2 usage
error, 3 needs a human (a file that could not be processed, a decision not given, a
removed API left in place), 4 internal error (a bug: the traceback is printed). 3 wins over
1, and every other file is still processed. SIGINT and SIGTERM stop a run with 130 and 143
after saying which files were written (``_run_files``).

Streams: what a command produces (diffs, the migrated stream, scan lines, a report in
``--format json|markdown|sarif``) goes to stdout or ``--output FILE``; the settings line,
change summaries, findings and the one-line summary go to stderr. Colour only on a TTY
(``--color auto``, ``NO_COLOR`` respected), never in a file.
"""

from __future__ import annotations

import errno
import gc
import os
import re
import signal
import sys
import traceback
from collections.abc import Callable, Generator
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer

from . import __version__, parallel
from .api import FileOutcome, input_error, migrate_file, scan_file, scanned, skipped_outcome
from .catalog import explain_lines, list_lines, list_rows
from .codes import FILE_ERROR, RELEASE_NEEDED
from .components import ComponentError, newest, parse_option
from .engine import migrate_stream
from .files import InputError, Skipped, Swept, WritePolicy, decode, iter_entries, read_limited, write_output
from .guides import guide
from .interrupt import Interrupted, signals_raise
from .kustomize.run import TreeRun, migrate_trees, scan_trees
from .parallel import Journal, Worker, parallel_facts, parallel_map, progress
from .prefilter import collectors_for
from .quoting import quote_path
from .registry import check_settings, default_registry
from .report import Run, change_summary, json_report, outcome_findings, scan_summary_line, summary_line
from .results import Finding
from .scan import ScanEntry, failing
from .settings import Settings, SettingsError, find_config, from_table
from .terminal import paint, paint_diff, paint_finding, use_color
from .versions import NEWEST_KNOWN

EXIT_OK, EXIT_CHANGED, EXIT_USAGE, EXIT_HUMAN, EXIT_CRASH = 0, 1, 2, 3, 4

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    help="Rewrite Kubernetes manifests off deprecated and removed API versions.",
    context_settings={"help_option_names": ["-h", "--help"]},
)


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


Paths = Annotated[list[str], typer.Argument(help="Files, folders (recursed: *.yaml, *.yml, *.json) or - for stdin.")]
Target = Annotated[
    str | None, typer.Option("--target-version", help="Release the manifests must run on after the upgrade.")
]
MinVersion = Annotated[
    str | None,
    typer.Option("--min-version", help="Oldest release they must still run on (default: the target)."),
]
Only = Annotated[list[str] | None, typer.Option("--only", help="Run only this migration (repeatable).")]
Skip = Annotated[list[str] | None, typer.Option("--skip", help="Do not run this migration (repeatable).")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Settle a decision: NAME=VALUE (repeatable).")]
ComponentOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--component",
        help="The release of an add-on the manifests must run on: NAME=VERSION, e.g. cert-manager=1.14 "
        "(repeatable). Without it scan assumes the newest release known, apply and diff ask for it.",
    ),
]
Adopt = Annotated[bool, typer.Option("--adopt-new-defaults", help="Do not pin old defaults; say what changes.")]
Strict = Annotated[bool, typer.Option("--strict", help="Unknown fields in kubeadm configs are errors, not warnings.")]
FormatOpt = Annotated[Format, typer.Option("--format", help="text, or a report: json, markdown (PR comments), sarif.")]
Output = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Write the output (diff, stream or report) to this file."),
]
ColorOpt = Annotated[Color, typer.Option("--color", help="Colour the terminal output (NO_COLOR respected).")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=0, help="Worker processes (0: all cores).")]
ExitZero = Annotated[
    bool,
    typer.Option("--exit-zero", help="Exit 0 where changes or findings would exit 1 (3 still means: needs a human)."),
]


def _finish(code: int, exit_zero: bool) -> typer.Exit:
    return typer.Exit(EXIT_OK if exit_zero and code == EXIT_CHANGED else code)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"k8smigrate {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def main_callback(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Rewrite Kubernetes manifests off deprecated and removed API versions."""


def _err(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _usage(message: str) -> typer.Exit:
    _err(f"k8smigrate: {message}")
    return typer.Exit(EXIT_USAGE)


# ------------------------------------------------------------------ settings


def build_settings(
    target: str | None,
    min_version: str | None,
    only: list[str] | None,
    skip: list[str] | None,
    sets: list[str] | None,
    adopt: bool,
    cwd: Path | None = None,
    strict: bool = False,
    components: list[str] | None = None,
) -> tuple[Settings, str | None]:
    """Settings from the config file (if any) overlaid with explicit options; and where they came from."""
    base: dict[str, Any] = {}
    source = None
    found = find_config(cwd or Path.cwd())
    if found is not None:
        path, table = found
        base = from_table(table, str(path))
        source = str(path)
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
    check_settings(settings, default_registry())
    return settings, source


def _settings_or_exit(*args: Any, **kwargs: Any) -> tuple[Settings, str | None]:
    try:
        settings, source = build_settings(*args, **kwargs)
    except SettingsError as exc:
        raise _usage(str(exc)) from exc
    window = settings.window
    default = "" if settings.target_version else " (newest known; set --target-version)"
    span = f"{window.min_version}–{window.target}" if window.min_version != window.target else f"{window.target}"
    given = ", ".join(f"{name} {release}" for name, release in settings.windows.given)
    _err(
        f"k8smigrate: target {span}{default}"
        + (f"; components: {given}" if given else "")
        + (f"; settings from {source}" if source else "")
    )
    return settings, source


def _new_run(command: str, settings: Settings, source: str | None) -> Run:
    window = settings.window
    return Run(command, str(window.target), str(window.min_version), source)


def _check_output(output: Path | None) -> None:
    if output is not None and not output.parent.is_dir():
        raise _usage(f"--output {output}: folder {output.parent} does not exist")


# ------------------------------------------------------------------ inputs


def _missing(raw: str) -> FileOutcome:
    return FileOutcome(Path(raw), error=Finding(FILE_ERROR.level, FILE_ERROR.code, "no such file or folder", None, raw))


def _read_stdin() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    return read_limited(stream) if stream is not None else sys.stdin.read().encode("utf-8")


def _files(raw: str, sweep: bool) -> list[Path | Skipped | Swept] | None:
    """The files behind one PATH argument (and what recursion refused); None when it does not exist."""
    path = Path(raw)
    if not path.exists() and not _link_loop(path):
        return None
    return list(iter_entries([path], sweep=sweep))


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
) -> list[FileOutcome]:
    """One outcome per file, in order; over several processes with ``jobs`` != 1 (0: all cores).

    Kustomize trees under the folders given are migrated as wholes first (``kustomize``).
    """
    worker = partial(migrate_file, in_place=in_place, write_policy=policy)
    trees = partial(migrate_trees, registry=default_registry(), in_place=in_place, write_policy=policy)
    return _run_files(
        paths, settings, worker, jobs, keep, _stdin_outcome, parallel.SERIAL_BYTES, sweep=in_place, trees=trees
    )


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
) -> list[FileOutcome]:
    """``worker`` over every file behind ``paths`` (``-``: ``stdin``), one outcome each, in order.

    ``keep``: what of each result the command still needs ("all", "diff", "none"); inputs
    smaller than ``serial_bytes`` stay in this process (see ``parallel_map``).
    ``sweep``: remove stale temporary files of interrupted runs (writing runs only). SIGINT and
    SIGTERM stop the run (workers too) and exit 130/143 after listing the files written.
    ``trees``: what decides for the files of kustomize trees under the folders given (they are
    not given to ``worker``).
    """
    journal = Journal()
    work: list[Path] = []
    try:
        with signals_raise():
            todo: list[Path | Skipped | Swept | FileOutcome] = []
            for raw in paths:
                if raw == "-":
                    todo.append(stdin(settings))
                    continue
                files = _files(raw, sweep)
                todo += [_missing(raw)] if files is None else files
            every = [t for t in todo if isinstance(t, Path)]
            jobs = jobs or os.cpu_count() or 1
            # the checks that join files see every file of the run, read before any is written
            facts = (
                parallel_facts(every, settings, jobs, serial_bytes)
                if collectors_for(settings, default_registry())
                else None
            )
            folders = [Path(raw) for raw in paths if raw != "-" and Path(raw).is_dir()]
            tree = trees(folders, settings, facts=facts) if trees is not None and folders else TreeRun()
            for owned in tree.outcomes.values():
                if keep != "all" and owned.result is not None:
                    owned.result.slim(keep_diff=keep == "diff")
            work = [t for t in every if tree.owner_key(t) is None]
            done = parallel_map(worker, work, settings, jobs, keep, journal, facts, serial_bytes)
            return _collect(todo, done, tree)
    except Interrupted as exc:
        raise _interrupted(exc.signum, [work[i] for i in journal.written()]) from None


def _collect(
    todo: list[Path | Skipped | Swept | FileOutcome], done: Generator[FileOutcome, None, None], tree: TreeRun
) -> list[FileOutcome]:
    """The outcomes of ``todo`` in order, taking those of its files from ``done`` (and those of
    kustomize trees' files from ``tree``, with the files only the trees found last)."""
    outcomes: list[FileOutcome] = []
    listed: set[Path] = set()
    try:
        with progress(sum(isinstance(t, Path) and tree.owner_key(t) is None for t in todo)) as advance:
            for item in todo:
                if isinstance(item, FileOutcome):
                    outcomes.append(item)
                elif isinstance(item, Skipped):
                    outcomes.append(skipped_outcome(item))
                elif isinstance(item, Swept):
                    _err(f"k8smigrate: removed {quote_path(str(item.path))} (left by an interrupted run)")
                elif (owned := tree.owner_key(item)) is not None:
                    listed.add(owned)
                    outcomes.append(tree.outcomes[owned])
                else:
                    outcomes.append(next(done))
                    advance()
        next(done, None)  # lets the workers shut down normally
    finally:
        done.close()  # when interrupted: stops the workers, so the journal is complete
    outcomes += [o for path, o in sorted(tree.outcomes.items()) if path not in listed]
    return outcomes


def _interrupted(signum: int, written: list[Path]) -> typer.Exit:
    name = signal.Signals(signum).name
    if not written:
        _err(f"k8smigrate: interrupted by {name}; no file was written")
    else:
        _err(f"k8smigrate: interrupted by {name}; {len(written)} file{'s' if len(written) > 1 else ''} written:")
        for path in written:
            _err(f"  {quote_path(str(path))}")
    return typer.Exit(128 + signum)


def _from_stdin(work: Callable[[str], FileOutcome]) -> FileOutcome:
    try:
        text = decode(_read_stdin())
    except InputError as exc:
        return FileOutcome(Path("-"), error=input_error("<stdin>", str(exc)))
    return work(text)


def _stdin_outcome(settings: Settings) -> FileOutcome:
    return _from_stdin(
        lambda text: FileOutcome(Path("-"), migrate_stream(text, settings, "<stdin>", default_registry()))
    )


def _scan(paths: list[str], settings: Settings, run: Run, jobs: int) -> list[ScanEntry]:
    """The rows of every file, in order (over several processes like ``_migrate``)."""
    trees = partial(scan_trees, registry=default_registry())
    run.outcomes = _run_files(
        paths, settings, scan_file, jobs, "none", _stdin_scan, parallel.SCAN_SERIAL_BYTES, trees=trees
    )
    return [entry for o in run.outcomes for entry in o.scan]


def _stdin_scan(settings: Settings) -> FileOutcome:
    return _from_stdin(lambda text: scanned(Path("-"), text, "<stdin>", settings))


# ------------------------------------------------------------------ outputs


def _exit_code(outcomes: list[FileOutcome], changed: bool) -> int:
    if any(f.level == "error" for o in outcomes for f in outcome_findings(o)):
        return EXIT_HUMAN
    return EXIT_CHANGED if changed else EXIT_OK


def _emit(text: str, output: Path | None) -> None:
    """``text`` to stdout or, atomically, to ``output``; always UTF-8 (a lone surrogate becomes ``\\udXXX``,
    which in a JSON string is its escape)."""
    data = text.encode("utf-8", "backslashreplace")
    if output is None:
        sys.stdout.flush()
        stream = getattr(sys.stdout, "buffer", None)
        if stream is None:
            sys.stdout.write(data.decode("utf-8"))
        else:
            stream.write(data)
            stream.flush()
        return
    try:
        write_output(output, data)
    except OSError as exc:
        _err(f"k8smigrate: cannot write --output {output}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_HUMAN) from exc


def _report(run: Run, format: Format, verb: str) -> str:
    """The report of a non-text format."""
    if format is Format.json:
        return json_report(run, __version__)
    if format is Format.markdown:
        from .markdown import markdown_report

        return markdown_report(run, verb=verb)
    from .sarif import sarif_report

    return sarif_report(run, __version__, default_registry())


def _print_findings(run: Run, color: Color) -> None:
    on = use_color(color.value, sys.stderr)
    for f in run.findings:
        _err(paint_finding(f, on))


def _print_changes(run: Run, color: Color, verb: str) -> None:
    on = use_color(color.value, sys.stderr)
    for o in run.outcomes:
        if o.result is not None:
            for line in change_summary(o.result):
                _err(paint(f"{quote_path(o.result.filename)}: {line}", None, on, bold=True))
    _print_findings(run, color)
    count = run.written if verb == "written" else run.changed
    _err(summary_line(len(run.outcomes), count, run.findings, verb))


_OPTION = re.compile(r"--component ([\w.-]+)=VERSION")


def _releases_needed(run: Run) -> list[str]:
    """The add-ons whose release the run must be told (K8SM-GEN-016 findings); the exit code becomes 2.

    apply and diff migrate everything else; those documents stay as they are.
    """
    names = sorted({m for f in run.findings if f.code == RELEASE_NEEDED.code for m in _OPTION.findall(f.message)})
    if names:
        run.exit_code = EXIT_USAGE
    return names


def _ask_for_releases(run: Run, names: list[str]) -> None:
    """Name the option that settles K8SM-GEN-016, on stderr."""
    if not names:
        return
    count = sum(1 for f in run.findings if f.code == RELEASE_NEEDED.code)
    options = " ".join(f"--component {name}=VERSION" for name in names)
    known = ", ".join(f"{n} {newest(n)}" for n in names if newest(n) is not None)
    _err(
        f"k8smigrate: {count} document{'s' if count != 1 else ''} of {', '.join(names)} left unchanged: "
        f"say which release they must run on with {options}" + (f" (k8smigrate knows up to {known})" if known else "")
    )


_SCAN_COLORS = {"removed": "red", "breaking": "red", "deprecated": "yellow", "warning": "yellow"}


@app.command()
def scan(
    paths: Paths,
    target_version: Target = None,
    min_version: MinVersion = None,
    fail_on: Annotated[
        FailOn,
        typer.Option(
            "--fail-on",
            help="Lowest status that fails the run (exit 1): removed (APIs removed at the target, readiness errors "
            "and what apply would change), deprecated (also deprecated APIs and readiness warnings), never.",
        ),
    ] = FailOn.removed,
    only: Only = None,
    skip: Skip = None,
    set_: SetOpt = None,
    component: ComponentOpt = None,
    format: FormatOpt = Format.text,
    output: Output = None,
    color: ColorOpt = Color.auto,
    jobs: Jobs = 0,
    exit_zero: ExitZero = False,
) -> None:
    """List documents on deprecated or removed APIs, and what else breaks at the target, by category."""
    _check_output(output)
    settings, source = _settings_or_exit(target_version, min_version, only, skip, set_, False, components=component)
    run = _new_run("scan", settings, source)
    run.scan = entries = _scan(paths, settings, run, jobs)
    run.exit_code = _exit_code(run.outcomes, failing(entries, fail_on.value))
    if format is not Format.text:
        _emit(_report(run, format, "scanned"), output)
    else:
        on = use_color(color.value, sys.stdout) and output is None
        lines = [paint(e.format(), _SCAN_COLORS.get(e.status), on) for e in entries]
        _emit("".join(line + "\n" for line in lines), output)
        _print_findings(run, color)
        _err(scan_summary_line(len(run.outcomes), entries, run.findings))
    assumed = sorted({e.component for e in entries if settings.windows.assumed(e.component)})
    if assumed:
        judged = ", ".join(f"{c} {settings.windows.of(c).target}" for c in assumed)
        options = " ".join(f"--component {c}=VERSION" for c in assumed)
        _err(f"k8smigrate: add-ons judged at the newest release known: {judged} (set {options})")
    raise _finish(run.exit_code, exit_zero)


@app.command()
def diff(
    paths: Paths,
    target_version: Target = None,
    min_version: MinVersion = None,
    only: Only = None,
    skip: Skip = None,
    set_: SetOpt = None,
    component: ComponentOpt = None,
    adopt_new_defaults: Adopt = False,
    strict: Strict = False,
    format: FormatOpt = Format.text,
    output: Output = None,
    color: ColorOpt = Color.auto,
    jobs: Jobs = 0,
    exit_zero: ExitZero = False,
) -> None:
    """Dry run: print the unified diff and the findings; write nothing."""
    _check_output(output)
    settings, source = _settings_or_exit(
        target_version, min_version, only, skip, set_, adopt_new_defaults, strict=strict, components=component
    )
    run = _new_run("diff", settings, source)
    run.outcomes = _migrate(paths, settings, in_place=False, jobs=jobs, keep="diff" if format is Format.text else "all")
    run.exit_code = _exit_code(run.outcomes, run.changed > 0)
    needed = _releases_needed(run)
    if format is not Format.text:
        _emit(_report(run, format, "would change"), output)
    else:
        on = use_color(color.value, sys.stdout) and output is None
        _emit("".join(paint_diff(r.diff, on) for r in run.results), output)
        _print_changes(run, color, "would change")
    _ask_for_releases(run, needed)
    raise _finish(run.exit_code, exit_zero)


@app.command()
def apply(
    paths: Paths,
    in_place: Annotated[bool, typer.Option("--in-place", "-i", help="Rewrite the files (atomically).")] = False,
    check: Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 if anything would change.")] = False,
    target_version: Target = None,
    min_version: MinVersion = None,
    only: Only = None,
    skip: Skip = None,
    set_: SetOpt = None,
    component: ComponentOpt = None,
    adopt_new_defaults: Adopt = False,
    strict: Strict = False,
    format: FormatOpt = Format.text,
    output: Output = None,
    color: ColorOpt = Color.auto,
    jobs: Jobs = 0,
    exit_zero: ExitZero = False,
    break_hardlinks: Annotated[
        bool,
        typer.Option(
            "--break-hardlinks",
            help="With --in-place: also rewrite files with other hard links (those keep the old text).",
        ),
    ] = False,
    force_readonly: Annotated[
        bool, typer.Option("--force-readonly", help="With --in-place: also rewrite read-only files (mode kept).")
    ] = False,
) -> None:
    """Migrate: the new stream on stdout (one file or -), or rewrite files with --in-place."""
    if in_place and check:
        raise _usage("--in-place and --check exclude each other")
    single = len(paths) == 1 and (paths[0] == "-" or not Path(paths[0]).is_dir())
    if not (in_place or check or single):
        raise _usage("apply writes one file or - to stdout; use --in-place or --check for several files")
    if in_place and "-" in paths:
        raise _usage("--in-place cannot rewrite stdin")
    _check_output(output)
    settings, source = _settings_or_exit(
        target_version, min_version, only, skip, set_, adopt_new_defaults, strict=strict, components=component
    )
    run = _new_run("apply", settings, source)
    keep = "all" if format is not Format.text or not (in_place or check) else "none"
    policy = WritePolicy(break_hardlinks=break_hardlinks, force_readonly=force_readonly)
    run.outcomes = _migrate(paths, settings, in_place=in_place, jobs=jobs, keep=keep, policy=policy)
    run.exit_code = _exit_code(run.outcomes, run.changed > 0)
    needed = _releases_needed(run)
    verb = "written" if in_place else "would change" if check else "changed"
    if format is not Format.text:
        _emit(_report(run, format, verb), output)
    elif not (in_place or check):
        result = run.outcomes[0].result
        if result is not None:
            _emit(result.text, output)
    if format is Format.text:
        _print_changes(run, color, verb)
    _ask_for_releases(run, needed)
    raise _finish(run.exit_code, exit_zero)


@app.command("list")
def list_(
    format: Annotated[ListFormat, typer.Option("--format", help="Output format.")] = ListFormat.text,
) -> None:
    """The migrations: steps with kinds, from → to and the releases that gate them; readiness checks."""
    registry = default_registry()
    if format is ListFormat.json:
        import json

        typer.echo(json.dumps(list_rows(registry), indent=2, ensure_ascii=False))
        return
    for line in list_lines(registry):
        typer.echo(line)


@app.command()
def explain(
    name: Annotated[str, typer.Argument(help="A migration name from 'k8smigrate list', or: podsecuritypolicy.")],
) -> None:
    """What a migration does, its rules, finding codes and decisions; or a guide (podsecuritypolicy)."""
    text = guide(name)
    if text is not None:
        typer.echo(text, nl=False)
        return
    lines = explain_lines(name, default_registry())
    if lines is None:
        raise _usage(f"unknown migration {name!r} (see 'k8smigrate list')")
    for line in lines:
        typer.echo(line)


def main(prog_name: str = "k8smigrate") -> None:
    """Console-script entry point."""
    # Trees are acyclic and freed by reference counting; the cyclic collector only rescans
    # them. Rarer collections save about a seventh of a large run (the library leaves GC alone).
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    try:
        app(prog_name=prog_name)
    except Exception:  # an internal error: its own exit code, never 1 ("would change")
        traceback.print_exc()
        _err(
            f"k8smigrate: internal error (a bug in k8smigrate {__version__}; please report it with the "
            f"traceback above); exit code {EXIT_CRASH}"
        )
        sys.exit(EXIT_CRASH)


def kubectl_plugin() -> None:
    """The ``kubectl-k8smigrate`` executable: kubectl finds it on PATH and runs it for
    ``kubectl k8smigrate …`` with the arguments after the plugin name (kubectl's plugin
    mechanism, ``kubectl plugin list``). Same commands; usage lines say ``kubectl k8smigrate``."""
    main("kubectl k8smigrate")


__all__ = [
    "EXIT_CHANGED",
    "EXIT_CRASH",
    "EXIT_HUMAN",
    "EXIT_OK",
    "EXIT_USAGE",
    "NEWEST_KNOWN",
    "app",
    "build_settings",
    "kubectl_plugin",
    "main",
]
