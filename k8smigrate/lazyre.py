"""Regular expressions compiled the first time they are used, not when their module is imported.

Compiling a pattern costs 0.05–0.6 ms, at every start of the CLI (the ``re`` cache lives in
the process). Several modules a one-file run imports hold patterns for inputs most runs never
see (flow-style and JSON documents, explicit keys, Lists, chart templates, lone surrogates):
compiled eagerly, they were a few per cent of a one-file run (issue 19). ``lazy(pattern)``
stands for ``re.compile(pattern)`` where the pattern is only searched with, and compiles it
on first use (its code taken from the index of ``regexcode``). Patterns that other modules
take as ``re.Pattern`` (migration triggers) are made when their module is imported.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator

from .regexcode import note, regex
from .runtime_typing import Any


class LazyPattern:
    """``re.compile(pattern, flags)``, done on first use; the methods are the pattern's."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None
        note(pattern, flags)  # for the index of compiled patterns (``regexcode``)

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = regex(self.pattern, self.flags)
        return self._compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled.findall(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self.flags})"


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """A pattern compiled when it is first searched with."""
    return LazyPattern(pattern, flags)
