"""Regular expressions whose code is generated once per install, not at every start.

Why: ``re.compile`` parses a pattern and writes its matching code in Python (``re._parser``,
``re._compiler``): 0.05–0.4 ms a pattern, and a one-file run compiles some thirty of the
library's patterns while it imports (about 5 % of the run, issue 19). That code depends only
on the pattern, its flags and the regular expression engine of the Python that runs it.

How: the library writes its module-level patterns as ``regex(pattern, flags)`` (and ``lazy``
patterns compile through it). ``regex_index.CODE`` holds, for each, what ``re._compiler``
hands to the engine (``_sre.compile``): the final flags, the code (as bytes) and the groups.
``regex`` hands that to the engine directly, which takes microseconds. A pattern the index
does not hold, or another Python release or engine than the index was made for (the exact
version, whose ``re`` wrote the code; ``_sre.MAGIC``, code size, byte order), is compiled by
``re.compile`` as usual. The pattern is the same object either way:
``tests/test_regexcode.py`` compares every entry with ``re.compile``'s.

The index is generated with the others: ``python -m k8smigrate.indexgen --write``.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable

from .runtime_typing import Any

RECORDED: list[tuple[str, int]] | None = None
"""When a list, every pattern ``regex`` and ``lazy`` see is appended to it (the generator sets it)."""

Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]
"""What ``re._compiler.compile`` gives ``_sre.compile`` besides the pattern: the flags, the code
(native ``_sre.CODESIZE``-byte words), the number of groups less one, the names of the groups
both ways."""

_CODE: dict[tuple[str, int], Entry] | None = None
_ENGINE: Callable[..., re.Pattern[str]] | None = None


def regex(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, its code taken from the index (see the module)."""
    flags = int(flags)
    note(pattern, flags)
    if _CODE is None:
        _load()
    entry = _CODE.get((pattern, flags)) if _CODE else None
    if entry is None or _ENGINE is None:
        return re.compile(pattern, flags)
    final, code, groups, groupindex, indexgroup = entry
    return _ENGINE(pattern, final, memoryview(code).cast("I").tolist(), groups, dict(groupindex), indexgroup)


def note(pattern: str, flags: int = 0) -> None:
    """Record a pattern that will be compiled later through ``regex`` (a ``lazy`` one)."""
    if RECORDED is not None:
        RECORDED.append((pattern, int(flags)))


def engine() -> tuple[int, int, str, tuple[int, int, int]]:
    """What the index's code is for: the engine's magic number, its code word size, the byte
    order, and the Python release (its ``re`` wrote the code: a fix there may change it)."""
    sre: Any = importlib.import_module("_sre")
    major, minor, micro = sys.version_info[:3]
    return int(sre.MAGIC), int(sre.CODESIZE), sys.byteorder, (major, minor, micro)


def entry_for(pattern: str, flags: int) -> Entry:
    """The index entry of a pattern: ``re._compiler.compile``'s arguments to the engine."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return flags | parsed.state.flags, _words(code), parsed.state.groups - 1, groupindex, tuple(indexgroup)


def _words(code: list[int]) -> bytes:
    from array import array

    return array("I", code).tobytes()


def _load() -> None:
    global _CODE, _ENGINE
    _CODE = {}
    try:
        from .regex_index import CODE, ENGINE
    except ImportError:
        return
    if engine() != ENGINE or memoryview(b"\0\0\0\0").cast("I").itemsize != ENGINE[1]:
        return
    _CODE = CODE
    _ENGINE = importlib.import_module("_sre").compile
