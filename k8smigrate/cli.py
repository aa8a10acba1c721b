"""The command line: parse options into Settings, call the library, print, pick the exit code.

Exit codes: 0 nothing to do, 1 changed / would change / findings at ``--fail-on``, 2 usage
error, 3 needs a human (a file that could not be processed, a decision not given, a
removed API left in place). 3 wins over 1.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from . import __version__
from .api import FileOutcome, migrate_file, scan_text
from .engine import migrate_stream
from .files import InputError, decode, iter_manifests, read_manifest
from .registry import default_registry
from .report import change_summary, json_report, summary_line, unified_diff
from .results import FileResult, Finding
from .scan import ScanEntry
from .settings import Settings, SettingsError, find_config, from_table
from .versions import NEWEST_KNOWN

EXIT_OK, EXIT_CHANGED, EXIT_USAGE, EXIT_HUMAN = 0, 1, 2, 3

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    help="Rewrite Kubernetes manifests off deprecated and removed API versions.",
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Format(str, Enum):
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


Paths = Annotated[
    list[str], typer.Argument(help="Files, folders (recursed: *.yaml, *.yml, *.json) or - for stdin.")
]
Target = Annotated[
    str | None, typer.Option("--target-version", help="Release the manifests must run on after the upgrade.")
]
MinVersion = Annotated[
    str | None,
    typer.Option("--min-version", help="Oldest release they must still run on (default: the target)."),
]
Only = Annotated[list[str] | None, typer.Option("--only", help="Run only this migration (repeatable).")]
Skip = Annotated[list[str] | None, typer.Option("--skip", help="Do not run this migration (repeatable).")]
SetOpt = Annotated[
    list[str] | None, typer.Option("--set", help="Settle a decision: NAME=VALUE (repeatable).")
]
Adopt = Annotated[
    bool, typer.Option("--adopt-new-defaults", help="Do not pin old defaults; say what changes.")
]
FormatOpt = Annotated[Format, typer.Option("--format", help="Output format.")]
Output = Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to this file.")]
ColorOpt = Annotated[Color, typer.Option("--color", help="Colour the terminal output.")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=0, help="Worker processes (0: all cores).")]


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
    typer.echo(message, err=True)


def _use_color(color: Color, stream: Any) -> bool:
    if color is Color.always:
        return True
    if color is Color.never or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


_LEVEL_COLORS = {"error": "red", "warning": "yellow", "info": "cyan"}


def _paint(text: str, color: str, on: bool) -> str:
    return typer.style(text, fg=color) if on else text


def _paint_diff(diff: str, on: bool) -> str:
    if not on:
        return diff
    out: list[str] = []
    for line in diff.splitlines(keepends=True):
        if line.startswith(("+++", "---")):
            out.append(typer.style(line, bold=True))
        elif line.startswith("+"):
            out.append(typer.style(line, fg="green"))
        elif line.startswith("-"):
            out.append(typer.style(line, fg="red"))
        elif line.startswith("@@"):
            out.append(typer.style(line, fg="cyan"))
        else:
            out.append(line)
    return "".join(out)


def build_settings(
    target: str | None,
    min_version: str | None,
    only: list[str] | None,
    skip: list[str] | None,
    sets: list[str] | None,
    adopt: bool,
    cwd: Path | None = None,
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
        if not sep or not name:
            raise SettingsError(f"--set takes NAME=VALUE, got {item!r}")
        decisions[name.strip()] = value.strip()
    registry = default_registry()
    for name in [*(only or []), *(skip or [])]:
        if registry.get(name) is None:
            raise SettingsError(f"unknown migration {name!r} (see 'k8smigrate list')")
    settings = Settings(
        target_version=target or base.get("target_version"),
        min_version=min_version or base.get("min_version"),
        decisions=decisions,
        only=tuple(only) if only else tuple(base.get("only", ())),
        skip=tuple(skip) if skip else tuple(base.get("skip", ())),
        adopt_new_defaults=adopt or bool(base.get("adopt_new_defaults", False)),
        strict=bool(base.get("strict", False)),
    )
    settings.window  # noqa: B018 - validates the versions now, as a usage error
    return settings, source


def _settings_or_exit(*args: Any) -> Settings:
    try:
        settings, source = build_settings(*args)
    except SettingsError as exc:
        _err(f"k8smigrate: {exc}")
        raise typer.Exit(EXIT_USAGE) from exc
    window = settings.window
    default = "" if settings.target_version else " (newest known; set --target-version)"
    span = (
        f"{window.min_version}–{window.target}" if window.min_version != window.target else f"{window.target}"
    )
    _err(f"k8smigrate: target {span}{default}" + (f"; settings from {source}" if source else ""))
    return settings


def _run(paths: list[str], settings: Settings, in_place: bool) -> list[FileOutcome]:
    outcomes: list[FileOutcome] = []
    for raw in paths:
        if raw == "-":
            outcomes.append(_stdin_outcome(settings))
            continue
        path = Path(raw)
        if not path.exists() and not path.is_symlink():
            outcomes.append(
                FileOutcome(path, error=Finding("error", "K8SM-GEN-013", "no such file or folder", None, raw))
            )
            continue
        for file in iter_manifests([path]):
            outcomes.append(migrate_file(file, in_place=in_place, settings=settings))
    return outcomes


def _stdin_outcome(settings: Settings) -> FileOutcome:
    raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    try:
        text = decode(raw)
    except InputError as exc:
        return FileOutcome(Path("-"), error=Finding("error", "K8SM-GEN-013", str(exc), None, "<stdin>"))
    return FileOutcome(Path("-"), migrate_stream(text, settings, "<stdin>", default_registry()))


def _print_findings(outcomes: list[FileOutcome], color: bool) -> list[Finding]:
    findings: list[Finding] = []
    for o in outcomes:
        for f in o.findings:
            findings.append(f)
            _err(_paint(f.format(), _LEVEL_COLORS[f.level], color))
    return findings


def _exit_code(outcomes: list[FileOutcome], changed: bool) -> int:
    if any(f.level == "error" for o in outcomes for f in o.findings):
        return EXIT_HUMAN
    return EXIT_CHANGED if changed else EXIT_OK


def _emit(text: str, output: Path | None) -> None:
    if output is not None:
        output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _json(outcomes: list[FileOutcome], settings: Settings, scan: list[ScanEntry] | None = None) -> str:
    results: list[FileResult] = [o.result for o in outcomes if o.result is not None and o.error is None]
    errors = [o.error for o in outcomes if o.error is not None]
    window = settings.window
    meta = {"targetVersion": str(window.target), "minVersion": str(window.min_version)}
    return json_report(results, errors, meta, scan)


@app.command()
def scan(
    paths: Paths,
    target_version: Target = None,
    min_version: MinVersion = None,
    fail_on: Annotated[
        FailOn, typer.Option("--fail-on", help="Lowest status that fails the run.")
    ] = FailOn.removed,
    format: FormatOpt = Format.text,
    output: Output = None,
    color: ColorOpt = Color.auto,
    jobs: Jobs = 0,
) -> None:
    """List documents on deprecated or removed APIs, with replacement and releases."""
    settings = _settings_or_exit(target_version, min_version, None, None, None, False)
    entries: list[ScanEntry] = []
    errors: list[FileOutcome] = []
    for raw in paths:
        files = [Path("-")] if raw == "-" else list(iter_manifests([Path(raw)]))
        if raw != "-" and not Path(raw).exists():
            errors.append(
                FileOutcome(
                    Path(raw), error=Finding("error", "K8SM-GEN-013", "no such file or folder", None, raw)
                )
            )
            continue
        for file in files:
            try:
                text = decode(sys.stdin.buffer.read()) if raw == "-" else read_manifest(file).text
            except InputError as exc:
                errors.append(
                    FileOutcome(file, error=Finding("error", "K8SM-GEN-013", str(exc), None, str(file)))
                )
                continue
            entries += scan_text(text, settings=settings, filename="<stdin>" if raw == "-" else str(file))
    on = _use_color(color, sys.stdout)
    if format is Format.json:
        _emit(_json(errors, settings, entries), output)
    else:
        lines = [_paint(e.format(), "red" if e.status == "removed" else "yellow", on) for e in entries]
        _emit("".join(line + "\n" for line in lines), output)
        _print_findings(errors, _use_color(color, sys.stderr))
        removed = sum(1 for e in entries if e.status == "removed")
        _err(f"{len(entries)} documents on deprecated or removed APIs ({removed} removed at the target)")
    if errors:
        raise typer.Exit(EXIT_HUMAN)
    failing = {"removed": {"removed"}, "deprecated": {"removed", "deprecated"}, "never": set()}[fail_on.value]
    raise typer.Exit(EXIT_CHANGED if any(e.status in failing for e in entries) else EXIT_OK)


@app.command()
def diff(
    paths: Paths,
    target_version: Target = None,
    min_version: MinVersion = None,
    only: Only = None,
    skip: Skip = None,
    set_: SetOpt = None,
    adopt_new_defaults: Adopt = False,
    format: FormatOpt = Format.text,
    output: Output = None,
    color: ColorOpt = Color.auto,
    jobs: Jobs = 0,
) -> None:
    """Dry run: print the unified diff and the findings; write nothing."""
    settings = _settings_or_exit(target_version, min_version, only, skip, set_, adopt_new_defaults)
    outcomes = _run(paths, settings, in_place=False)
    changed = any(o.result is not None and o.result.changed for o in outcomes)
    if format is Format.json:
        _emit(_json(outcomes, settings), output)
    else:
        on = _use_color(color, sys.stdout) and output is None
        _emit("".join(_paint_diff(o.result.diff, on) for o in outcomes if o.result is not None), output)
        _report_text(outcomes, color, "would change")
    raise typer.Exit(_exit_code(outcomes, changed))


def _report_text(outcomes: list[FileOutcome], color: Color, verb: str) -> None:
    on = _use_color(color, sys.stderr)
    for o in outcomes:
        if o.result is not None:
            for line in change_summary(o.result):
                _err(f"{o.result.filename}: {line}")
    findings = _print_findings(outcomes, on)
    changed = sum(1 for o in outcomes if o.result is not None and o.result.changed)
    _err(summary_line(len(outcomes), changed, findings, verb))


@app.command()
def apply(
    paths: Paths,
    in_place: Annotated[
        bool, typer.Option("--in-place", "-i", help="Rewrite the files (atomically).")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if anything would change.")
    ] = False,
    target_version: Target = None,
    min_version: MinVersion = None,
    only: Only = None,
    skip: Skip = None,
    set_: SetOpt = None,
    adopt_new_defaults: Adopt = False,
    format: FormatOpt = Format.text,
    output: Output = None,
    color: ColorOpt = Color.auto,
    jobs: Jobs = 0,
) -> None:
    """Migrate: the new stream on stdout (one file or -), or rewrite files with --in-place."""
    if in_place and check:
        _err("k8smigrate: --in-place and --check exclude each other")
        raise typer.Exit(EXIT_USAGE)
    single = len(paths) == 1 and (paths[0] == "-" or Path(paths[0]).is_file())
    if not (in_place or check or single):
        _err("k8smigrate: apply writes one file or - to stdout; use --in-place or --check for several files")
        raise typer.Exit(EXIT_USAGE)
    if in_place and "-" in paths:
        _err("k8smigrate: --in-place cannot rewrite stdin")
        raise typer.Exit(EXIT_USAGE)
    settings = _settings_or_exit(target_version, min_version, only, skip, set_, adopt_new_defaults)
    outcomes = _run(paths, settings, in_place=in_place)
    changed = any(o.result is not None and o.result.changed for o in outcomes)
    if format is Format.json:
        _emit(_json(outcomes, settings), output)
    elif not (in_place or check):
        result = outcomes[0].result
        if result is not None:
            _emit(result.text, output)
    verb = "written" if in_place else "would change"
    if format is Format.text:
        _report_text(outcomes, color, verb)
    raise typer.Exit(_exit_code(outcomes, changed))


@app.command("list")
def list_(
    format: FormatOpt = Format.text,
) -> None:
    """The migrations: kinds, from → to, and the releases that gate them."""
    registry = default_registry()
    if format is Format.json:
        import json

        rows = [
            {
                "name": m.name,
                "component": m.component,
                "kinds": list(m.kinds),
                "from": m.from_api,
                "to": m.to_api,
                "availableIn": m.available_in,
                "deprecatedIn": m.deprecated_in,
                "removedIn": m.removed_in,
            }
            for m in registry.migrations
        ]
        typer.echo(json.dumps(rows, indent=2))
        return
    for m in registry.migrations:
        gates = f"to available {m.available_in}"
        if m.deprecated_in:
            gates += f", from deprecated {m.deprecated_in}"
        if m.removed_in:
            gates += f", removed {m.removed_in}"
        typer.echo(f"{m.name:34} {','.join(m.kinds):40} {m.from_api} → {m.to_api} ({gates})")


@app.command()
def explain(name: Annotated[str, typer.Argument(help="A migration name from 'k8smigrate list'.")]) -> None:
    """What a migration does, its rules, finding codes and decisions."""
    registry = default_registry()
    m = registry.get(name)
    if m is None:
        _err(f"k8smigrate: unknown migration {name!r} (see 'k8smigrate list')")
        raise typer.Exit(EXIT_USAGE)
    typer.echo(f"{m.name}: {', '.join(m.kinds)} {m.from_api} → {m.to_api}")
    gates = [f"{m.to_api} served from {m.available_in}"]
    if m.deprecated_in:
        gates.append(f"{m.from_api} deprecated in {m.deprecated_in}")
    if m.removed_in:
        gates.append(f"removed in {m.removed_in}")
    typer.echo("; ".join(gates))
    typer.echo("")
    typer.echo(m.doc or m.summary)
    if m.codes:
        typer.echo("\nFindings:")
        for code, meaning in sorted(m.codes.items()):
            typer.echo(f"  {code}  {meaning}")
    if m.decisions:
        typer.echo("\nDecisions:")
        for d in m.decisions:
            typer.echo(f"  --set {d.name}={'|'.join(d.allowed)}  {d.help}")


def main() -> None:
    """Console-script entry point."""
    app(prog_name="k8smigrate")


__all__ = ["NEWEST_KNOWN", "app", "main", "unified_diff"]
