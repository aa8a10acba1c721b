"""Spec: the fast path of the command line (``argv``) reads a command line exactly as typer would, or not at all.

``argv.parse`` either gives up (None: typer parses, so help, errors and exit codes stay typer's)
or gives the parameters typer would hand the command. The second half is checked against
typer itself: a spy command declared the way ``cli`` declares the real one receives what typer
parsed, for listed and for generated command lines. The table ``argv`` reads is generated from
typer's declarations and must be current.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from k8smigrate import argv, argvgen, cli, commands
from k8smigrate.argv_options import OPTIONS
from k8smigrate.terminal import paint

ROOT = Path(__file__).resolve().parent.parent


def parsed(line: list[str], environ: dict[str, str] | None = None) -> tuple[str, dict[str, Any]] | None:
    result = argv.parse(line, environ or {})
    if result is None:
        return None
    command, given = result
    return command, argv.typed(command, given)


def typer_parsed(line: list[str]) -> tuple[int, dict[str, Any]]:
    """The exit code of typer's parse of ``line`` and what the command received (all parameters)."""
    seen: dict[str, Any] = {}
    app = typer.Typer()
    for body in commands.COMMANDS.values():

        def spy(**options: Any) -> None:
            seen.update(options)

        app.command(cls=cli._Command)(cli._declared(functools.wraps(body)(spy)))
    result = CliRunner().invoke(app, line)
    return result.exit_code, seen


def with_defaults(command: str, options: dict[str, Any]) -> dict[str, Any]:
    import inspect

    bound = inspect.signature(commands.COMMANDS[command]).bind(**options)
    bound.apply_defaults()
    return dict(bound.arguments)


# ------------------------------------------------------------------ left to typer


@pytest.mark.parametrize(
    "line",
    [
        [],
        ["list"],
        ["explain", "ingress"],
        ["--version"],
        ["x.yaml", "apply"],
        ["aply", "x.yaml"],
        ["apply"],  # no PATH: typer's "Missing argument"
        ["apply", "--help", "x.yaml"],
        ["scan", "-h"],
        ["apply", "--bogus", "x.yaml"],
        ["apply", "--", "x.yaml"],
        ["apply", "-iq", "x.yaml"],  # stacked short flags
        ["scan", "-j2", "x.yaml"],  # glued short value
        ["scan", "-o=out", "x.yaml"],
        ["scan", "x.yaml", "--target-version"],  # value missing
        ["scan", "--target-version", "", "x.yaml"],
        ["scan", "--target-version=", "x.yaml"],
        ["scan", "--output", "-", "x.yaml"],  # a value that looks like an option
        ["scan", "--target-version", "--quiet", "x.yaml"],
        ["scan", "--format", "JSON", "x.yaml"],  # choices are case-sensitive
        ["scan", "--format", "yaml", "x.yaml"],
        ["scan", "--jobs", "-1", "x.yaml"],
        ["scan", "--jobs", "two", "x.yaml"],
        ["scan", "--jobs", "٣", "x.yaml"],  # a digit to Unicode only: rare enough to leave to typer
        ["scan", "--jobs", "1", "-j", "2", "x.yaml"],  # typer keeps the last: left to it
        ["scan", "--quiet", "--quiet", "x.yaml"],
        ["scan", "--quiet=true", "x.yaml"],
        ["scan", "--in-place", "x.yaml"],  # apply's option, not scan's
    ],
)
def test_a_command_line_it_cannot_read_exactly_is_left_to_typer(line: list[str]) -> None:
    assert argv.parse(line, {}) is None


def test_shell_completion_is_left_to_typer() -> None:
    assert argv.parse(["apply", "x.yaml"], {"_K8SMIGRATE_COMPLETE": "bash_complete"}) is None


def test_on_windows_every_command_line_is_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert argv.parse(["scan", "*.yaml"], {}) is not None
    monkeypatch.setattr(argv, "EXPANDS_WILDCARDS", True)  # typer expands *.yaml there
    assert argv.parse(["scan", "*.yaml"], {}) is None


# ------------------------------------------------------------------ read as typer reads it


@pytest.mark.parametrize(
    "line",
    [
        ["apply", "--check", "--target-version", "1.29", "one.yaml"],
        ["apply", "-i", "--target-version=1.22", "a.yaml", "b.yaml", "--only", "x", "--only", "y"],
        ["scan", "."],
        ["scan", "-", "--format", "sarif", "-o", "report.sarif", "-q", "-j", "0"],
        ["diff", "--target-version", "1.25", "--min-version", "1.19", "--set", "a=b", "--component", "istio=1.20", "d"],
        ["apply", "x", "--adopt-new-defaults", "--strict", "--color", "always", "--fail-on", "deprecated"],
        ["apply", "--exit-zero", "--min-level", "warning", "--break-hardlinks", "--force-readonly", "x"],
        ["apply", "--verify-render", "--skip", "s", "--jobs", "12", "chart/"],
    ],
)
def test_what_it_reads_is_what_typer_hands_the_command(line: list[str]) -> None:
    fast = parsed(line)
    assert fast is not None
    code, seen = typer_parsed(line)
    assert code == 0
    assert with_defaults(*fast) == seen


TOKENS = [*sorted(OPTIONS), "-h", "--help", "--", "-x", "-j2", "-iq"]
VALUES = ["1.29", "0", "7", "-1", "", "x", "-", "a=b", "json", "sarif", "never", "warning", "deprecated", "JSON", "٣"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["scan", "diff", "apply"]),
    st.lists(
        st.one_of(
            st.sampled_from(TOKENS),
            st.sampled_from(VALUES),
            st.sampled_from(["a.yaml", "-", "dir/"]),
            st.builds(lambda o, v: f"{o}={v}", st.sampled_from(TOKENS), st.sampled_from(VALUES)),
        ),
        max_size=8,
    ),
)
def test_any_command_line_it_reads_typer_reads_the_same(command: str, tokens: list[str]) -> None:
    line = [command, *tokens]
    fast = parsed(line)
    if fast is None:
        return  # typer's to parse
    code, seen = typer_parsed(line)
    assert code == 0, line
    assert with_defaults(*fast) == seen, line


def test_the_table_is_generated_from_the_current_typer_declarations() -> None:
    current = (ROOT / "k8smigrate" / "argv_options.py").read_text(encoding="utf-8")
    assert current == argvgen.render(), "run: python -m k8smigrate.indexgen --write"


def test_an_option_shape_the_fast_path_does_not_know_stops_the_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    from typing import Annotated

    def body(paths: list[str], pair: bool = False) -> None:
        """A command with a --pair/--no-pair switch."""

    monkeypatch.setitem(cli.OPTIONS, "pair", Annotated[bool, typer.Option("--pair/--no-pair")])
    app = typer.Typer()
    app.command(cls=cli._Command)(cli._declared(body))
    app.command()(lambda: None)
    monkeypatch.setattr(cli, "app", app)
    monkeypatch.setattr(commands, "COMMANDS", {"body": body})
    with pytest.raises(ValueError, match="shape argv does not parse"):
        argvgen.table()


def test_every_int_option_accepts_every_number_the_fast_path_reads() -> None:
    for value in (0, 1, 7, 4096):
        assert cli._jobs(value) == value


# ------------------------------------------------------------------ whole processes: the same bytes either way

RUN = """
import sys
entry = sys.argv[1]
sys.argv = ["k8smigrate", *sys.argv[2:]]
if entry == "typer":
    from k8smigrate.cli import main
else:
    from k8smigrate.console import main
main()
"""

INGRESS = (
    "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n"
    "spec:\n  backend:\n    serviceName: web\n    servicePort: 80\n"
)


@pytest.mark.parametrize(
    "args",
    [
        ["apply", "--target-version", "1.29", "ing.yaml"],
        ["apply", "--check", "--target-version", "1.29", "."],
        ["diff", "--target-version", "1.29", "--color", "always", "."],
        ["scan", ".", "--format", "json"],
        ["scan", ".", "--target-version", "1.29", "-q"],
        ["apply", "--target-version", "1.29", "--in-place", "--check", "."],  # a usage error of the command
        ["apply", "--target-version", "1.29", "nothing-here.yaml"],
        ["diff", "."],  # no target: exit 2 from the command
        ["apply", "--target-version", "1.29", "--output", "no/such/folder/out", "ing.yaml"],
    ],
)
def test_the_fast_path_and_typer_print_and_exit_alike(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "ing.yaml").write_text(INGRESS)
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
    env = {**os.environ, "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    assert argv.parse(args, {}) is not None  # the console takes the fast path for this line

    def run(entry: str) -> tuple[int, str, str]:
        proc = subprocess.run(
            [sys.executable, "-c", RUN, entry, *args], capture_output=True, text=True, cwd=tmp_path, env=env
        )
        return proc.returncode, proc.stdout, proc.stderr

    assert run("console") == run("typer")


def test_painted_text_is_what_typer_style_writes() -> None:
    for color in (None, "red", "green", "yellow", "cyan"):
        for bold in (False, True):
            if color is None and not bold:
                continue
            assert paint("text", color, True, bold=bold) == typer.style("text", fg=color, bold=bold or None)


def test_the_commands_module_does_not_import_typer() -> None:
    probe = "import sys, k8smigrate.commands, k8smigrate.argv; print('typer' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"
