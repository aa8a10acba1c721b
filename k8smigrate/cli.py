"""The command line as typer declares it: options, help, usage errors, shell completion.

Exit codes follow one policy for every command (``exits``; the table in docs/usage.md): 0
nothing to do, 1 changed / would change, 2 usage error, 3 needs a human, 4 internal error.
What ``scan``, ``diff`` and ``apply`` do is ``commands``; this module declares their options
(names, metavars, help) and hands typer's parsed values over. Typer is the source of truth for
the command line: ``argv``, the fast path a run takes without importing typer, reads a table
generated from this module (``python -m k8smigrate.indexgen --write``), and any command line
that table cannot parse exactly is parsed here.
"""

from __future__ import annotations

import copy
import errno
import inspect
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand

from . import __version__, commands
from .commands import Color, FailOn, Format, ListFormat, MinLevel
from .exits import EXIT_CHANGED, EXIT_CRASH, EXIT_HUMAN, EXIT_OK, EXIT_USAGE, Exit
from .guides import guide
from .registry import default_registry, renamed_note, unknown_migration
from .versions import NEWEST_KNOWN


class _Command(TyperCommand):
    """Usage lines as people write them: ``k8smigrate scan [OPTIONS] PATH...`` (typer would
    print ``{paths}...``)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:  # click's Context (typer vendors click)
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                pieces.append(name if param.required else f"[{name}]")
        return pieces


app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    help="Rewrite Kubernetes manifests off deprecated and removed API versions.",
    context_settings={"help_option_names": ["-h", "--help"]},
)


Paths = Annotated[
    list[str],
    typer.Argument(metavar="PATH...", help="Files, folders (recursed: *.yaml, *.yml, *.json) or - for stdin."),
]
Target = Annotated[
    str | None,
    typer.Option(
        "--target-version", metavar="X.Y", help="Release the manifests must run on after the upgrade, e.g. 1.29."
    ),
]
MinVersion = Annotated[
    str | None,
    typer.Option("--min-version", metavar="X.Y", help="Oldest release they must still run on (default: the target)."),
]
Only = Annotated[list[str] | None, typer.Option("--only", metavar="NAME", help="Run only this migration (repeatable).")]
Skip = Annotated[
    list[str] | None, typer.Option("--skip", metavar="NAME", help="Do not run this migration (repeatable).")
]
SetOpt = Annotated[
    list[str] | None, typer.Option("--set", metavar="NAME=VALUE", help="Settle a decision (repeatable).")
]
ComponentOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--component",
        metavar="NAME=VERSION",
        help="The release of an add-on the manifests must run on, e.g. cert-manager=1.14 "
        "(repeatable). Without it scan assumes the newest release known, apply and diff ask for it.",
    ),
]
Adopt = Annotated[bool, typer.Option("--adopt-new-defaults", help="Do not pin old defaults; say what changes.")]
Strict = Annotated[bool, typer.Option("--strict", help="Unknown fields in kubeadm configs are errors, not warnings.")]
FormatOpt = Annotated[
    Format,
    typer.Option("--format", metavar="FORMAT", help="text, or a report: json, markdown (PR comments), sarif."),
]
Output = Annotated[
    Path | None,
    typer.Option("--output", "-o", metavar="FILE", help="Write the output (diff, stream or report) to this file."),
]
ColorOpt = Annotated[Color, typer.Option("--color", metavar="WHEN", help="auto, always or never (NO_COLOR respected).")]


def _jobs(value: int) -> int:
    # argv's fast path reads only digits for an int option: keep what this accepts a superset of those
    if value < 0:
        raise typer.BadParameter(f"{value} is not a number of processes: give 0 (every core) or more")
    return value


Jobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N",
        callback=_jobs,
        help="Worker processes (0: every core, this process on one of them).",
    ),
]
ExitZero = Annotated[
    bool,
    typer.Option("--exit-zero", help="Exit 0 where changes or findings would exit 1 (3 still means: needs a human)."),
]


FailOnOpt = Annotated[
    FailOn,
    typer.Option(
        "--fail-on",
        metavar="LEVEL",
        help="What exits 1: removed (the default: what apply would change), deprecated (also any warning: "
        "deprecated APIs, readiness warnings), never (exit 0 unless a human is needed: 3).",
    ),
]


MinLevelOpt = Annotated[
    MinLevel,
    typer.Option(
        "--min-level",
        metavar="LEVEL",
        help="Print only findings (and scan rows) at this level or above: info, warning, error. Counts and "
        "JSON/SARIF reports stay complete.",
    ),
]
Quiet = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", help="Print only errors, what needs a human and the summary line (--min-level error)."
    ),
]


def _version(value: bool) -> None:
    if value:
        _echo(f"k8smigrate {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def main_callback(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Rewrite Kubernetes manifests off deprecated and removed API versions."""


OPTIONS: dict[str, Any] = {
    "paths": Paths,
    "in_place": Annotated[bool, typer.Option("--in-place", "-i", help="Rewrite the files (atomically).")],
    "check": Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 if anything would change.")],
    "target_version": Target,
    "min_version": MinVersion,
    "only": Only,
    "skip": Skip,
    "set_": SetOpt,
    "component": ComponentOpt,
    "adopt_new_defaults": Adopt,
    "strict": Strict,
    "format": FormatOpt,
    "output": Output,
    "color": ColorOpt,
    "jobs": Jobs,
    "fail_on": FailOnOpt,
    "exit_zero": ExitZero,
    "min_level": MinLevelOpt,
    "quiet": Quiet,
    "break_hardlinks": Annotated[
        bool,
        typer.Option(
            "--break-hardlinks",
            help="With --in-place: also rewrite files with other hard links (those keep the old text).",
        ),
    ],
    "force_readonly": Annotated[
        bool, typer.Option("--force-readonly", help="With --in-place: also rewrite read-only files (mode kept).")
    ],
    "verify_render": Annotated[
        bool,
        typer.Option(
            "--verify-render",
            help="Prove it with helm: render each chart before and after (default values and ci/*.yaml) "
            "and report rendered documents that differ from migrating the rendered output.",
        ),
    ],
}
"""How typer declares each parameter of the commands in ``commands`` (their defaults are theirs)."""


def _declared(body: Callable[..., None]) -> Callable[..., None]:
    """``body`` as typer sees a command: its parameters (order, defaults) with ``OPTIONS``'
    declarations, its docstring as the help; ``commands.Exit`` becomes typer's."""

    def command(**options: Any) -> None:
        try:
            body(**options)
        except Exit as exc:
            raise typer.Exit(exc.code) from None

    signature = inspect.signature(body)
    parameters = [p.replace(annotation=OPTIONS[p.name]) for p in signature.parameters.values()]
    command.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    command.__name__ = body.__name__
    command.__doc__ = body.__doc__
    return command


for _body in commands.COMMANDS.values():  # scan, diff, apply: the commands argv may run too
    app.command(cls=_Command)(_declared(_body))


@app.command("list")
def list_(
    format: Annotated[ListFormat, typer.Option("--format", metavar="FORMAT", help="text or json.")] = ListFormat.text,
) -> None:
    """The migrations: steps with kinds, from → to and the releases that gate them; readiness checks."""
    from .catalog import list_lines, list_rows  # list and explain only

    registry = default_registry()
    if format is ListFormat.json:
        import json

        _echo(json.dumps(list_rows(registry), indent=2, ensure_ascii=False))
        return
    for line in list_lines(registry, width=_list_width()):
        _echo(line)


def _list_width() -> int | None:
    """The terminal's width when stdout is one (or ``COLUMNS`` says it); None: lines are not cut."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    if sys.stdout.isatty():
        import shutil

        return shutil.get_terminal_size().columns
    return None


@app.command(cls=_Command)
def explain(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="A migration name from 'k8smigrate list', a decision (--set NAME=…), or: podsecuritypolicy.",
        ),
    ],
) -> None:
    """What a migration does, its rules, finding codes and decisions; what a decision settles; what a
    finding code means; or a guide."""
    text = guide(name)
    if text is not None:
        _echo(text, nl=False)
        return
    from .catalog import explain_lines, unknown_code  # list and explain only

    registry = default_registry()
    new = registry.renamed(name)
    if new is not None:
        commands.err(f"k8smigrate: warning: {renamed_note(name, new)}")
        name = new
    lines = explain_lines(name, registry)
    if lines is None:
        raise typer.Exit(commands.usage(unknown_code(name) or unknown_migration(name, registry)).code)
    for line in lines:
        _echo(line)


def _echo(text: str, nl: bool = True) -> None:
    """``typer.echo`` to stdout; a stdout that cannot take it ends the command as in ``commands``."""
    try:
        typer.echo(text, nl=nl)
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise  # typer's to handle: a reader that closed the pipe
        raise typer.Exit(commands.unwritable_stdout(exc).code) from None


def app_for(argv: list[str]) -> typer.Typer:
    """``app``, with only the command ``argv`` starts with when it starts with one.

    typer builds the click command of every registered command at each start (signatures,
    type hints, parameters): about 4 % of a one-file run. A command line that names its
    command first needs only that one; the group (its callback, ``--help``, ``--version``,
    completion options) is built as before. Anything else (no command, an option first, a
    misspelled name that deserves suggestions, shell completion, which lists every command)
    gets the whole app.
    """
    first = argv[0] if argv else ""
    names = [info.name or info.callback.__name__.replace("_", "-") for info in app.registered_commands]  # type: ignore[union-attr]
    if first not in names or any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return app
    lean = copy.copy(app)
    lean.registered_commands = [
        info for info, name in zip(app.registered_commands, names, strict=True) if name == first
    ]
    return lean


def main(prog_name: str = "k8smigrate") -> None:
    """The command line parsed by typer (``console.main`` tries ``argv`` first)."""
    commands.guarded(lambda: app_for(sys.argv[1:])(prog_name=prog_name))


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
    "kubectl_plugin",
    "main",
]
