"""The fast path of the command line: ``scan``/``diff``/``apply`` with well-formed options, no typer.

Importing typer is over a third of a one-file run's start (issue 19), and most runs are a hook
or a CI job with a plain command line. ``parse`` reads such a command line with the table
``argvgen`` generates from typer's own declarations (``argv_options``), and gives up (None)
on anything it cannot read exactly as typer would: help, an unknown or misspelled option, a
missing or odd value (empty, starting with ``-``, not a choice, not digits), an option given
twice that is not repeatable, ``--``, stacked or glued short options, shell completion, and
Windows, where typer expands wildcards in the arguments itself. typer
(``cli``) then parses the command line, so every message and exit code of a usage error stays
typer's. ``tests/test_argv.py`` checks that what this returns is what typer passes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from .argv_options import ARGUMENTS, OPTIONS
from .runtime_typing import Any

EXPANDS_WILDCARDS = os.name == "nt"
"""typer (click) expands ``*.yaml`` in the arguments on Windows, whose shells do not: left to it there."""


def parse(argv: list[str], environ: Mapping[str, str]) -> tuple[str, dict[str, str | bool | list[str]]] | None:
    """(command, its parameters as typer gives them before conversion) or None: let typer parse.

    Values stay text here (``typed`` converts them): deciding costs no import.
    """
    if not argv or argv[0] not in ARGUMENTS or EXPANDS_WILDCARDS:
        return None
    if any(k.startswith("_") and k.endswith("_COMPLETE") for k in environ):
        return None
    given: dict[str, str | bool | list[str]] = {}
    paths: list[str] = []
    tokens = argv[1:]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "-" or not token.startswith("-"):
            paths.append(token)
            continue
        name, eq, inline = token.partition("=") if token.startswith("--") else (token, "", "")
        spec = OPTIONS.get(name)
        if spec is None or argv[0] not in spec[4]:
            return None
        param, kind, choices, _enum, _commands = spec
        if kind == "flag":
            if eq or param in given:
                return None
            given[param] = True
            continue
        if eq:
            value = inline
        elif i < len(tokens):
            value = tokens[i]
            i += 1
        else:
            return None
        if not value or value.startswith("-") or (choices and value not in choices):
            return None
        if kind == "count" and not (value.isascii() and value.isdigit()):
            return None
        if kind == "many":
            listed = given.setdefault(param, [])
            assert isinstance(listed, list)
            listed.append(value)
        elif param in given:
            return None
        else:
            given[param] = value
    if not paths:
        return None
    given[ARGUMENTS[argv[0]]] = paths
    return argv[0], given


def typed(command: str, given: dict[str, str | bool | list[str]]) -> dict[str, Any]:
    """``parse``'s values as typer converts them: numbers, paths, the enums of ``commands``."""
    from pathlib import Path

    from . import commands

    table = {spec[0]: spec for spec in OPTIONS.values() if command in spec[4]}
    options: dict[str, Any] = {}
    for param, value in given.items():
        _param, kind, _choices, enum, _commands = table.get(param, (param, "", (), "", ()))
        if kind == "count":
            options[param] = int(str(value))
        elif kind == "path":
            options[param] = Path(str(value))
        elif kind == "choice":
            options[param] = getattr(commands, enum)(value)
        else:
            options[param] = value
    return options
