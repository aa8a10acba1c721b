"""Colour for people at a terminal, never for programs and files.

``--color auto`` (the default) colours a stream only when it is a TTY and ``NO_COLOR`` is
unset or empty (https://no-color.org); ``always`` and ``never`` override both. Colour is
applied to whole lines only, so that the uncoloured text is exactly what a pipe receives.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from .results import Finding
from .runtime_typing import IO, Any

LEVEL_COLORS = {"error": "red", "warning": "yellow", "info": "cyan"}

_ANSI_COLORS = {"black": 30, "red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "white": 37}
"""The SGR codes of the colours we paint with: the bytes ``typer.style`` writes (a test compares),
without importing typer on a run that ``argv`` parsed."""


def use_color(choice: str, stream: IO[Any] | Any, environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour ``stream`` for ``--color choice`` (``auto``, ``always`` or ``never``)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if (environ if environ is not None else os.environ).get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # a closed stream
        return False


def paint(text: str, color: str | None, on: bool, *, bold: bool = False) -> str:
    if not on or (color is None and not bold):
        return text
    start = f"\033[{_ANSI_COLORS[color]}m" if color else ""
    return start + ("\033[1m" if bold else "") + text + "\033[0m"


def paint_diff(diff: str, on: bool) -> str:
    """A unified diff with headers bold, removals red, additions green and hunk marks cyan."""
    if not on:
        return diff
    out: list[str] = []
    for line in diff.splitlines(keepends=True):
        body, end = (line[:-1], "\n") if line.endswith("\n") else (line, "")
        if line.startswith(("+++ ", "--- ")):
            out.append(paint(body, None, on, bold=True) + end)
        elif line.startswith("+"):
            out.append(paint(body, "green", on) + end)
        elif line.startswith("-"):
            out.append(paint(body, "red", on) + end)
        elif line.startswith("@@"):
            out.append(paint(body, "cyan", on) + end)
        else:
            out.append(line)
    return "".join(out)


def paint_finding(finding: Finding, on: bool) -> str:
    return paint(finding.format(), LEVEL_COLORS.get(finding.level), on)
