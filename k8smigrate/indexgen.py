"""Writes the built-in migrations' index (``k8smigrate/migrations_index.py``) from their modules,
the lifecycle table's (``k8smigrate/lifecycles_index.py``) from ``data/removals.tsv``, the
code of the library's dataclasses' methods (``k8smigrate/dataclasses_index.py``) and of its
regular expressions (``k8smigrate/regex_index.py``).

A developer tool: ``python -m k8smigrate.indexgen --write`` after changing a migration's
declaration, the table or a dataclass, ``--check`` to learn whether one is stale
(``tests/test_indexed.py``, ``tests/test_lifecycles.py``, ``tests/test_dataclasscode.py`` and
``tests/test_regexcode.py`` fail when one is). What they are for, and how a run reads them:
``k8smigrate.indexed``, ``k8smigrate.lifecycles``, ``k8smigrate.dataclasscode`` and
``k8smigrate.regexcode``.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import fields
from functools import lru_cache
from types import ModuleType

from .codes import Code
from .facts import Collector
from .indexed import INDEX_FILE, PACKAGE, module_files, package_dir
from .lifecycles import checksum, parse_table, rows
from .model import Check, Migration
from .packagedata import data_text
from .runtime_typing import Any

LIFECYCLES_FILE = INDEX_FILE.parent / "lifecycles_index.py"
DATACLASSES_FILE = INDEX_FILE.parent / "dataclasses_index.py"
RECIPES_FILE = INDEX_FILE.parent / "dataclass_recipes.py"
REGEXES_FILE = INDEX_FILE.parent / "regex_index.py"

_RECORD = """
import importlib, json, pkgutil, sys
import k8smigrate, k8smigrate.dataclasscode as code, k8smigrate.regexcode as regexcode
code.RECORDED = []
code.RECORDED_RECIPES = []
regexcode.RECORDED = []
import k8smigrate.migrations  # its own folder in a source tree: not under k8smigrate.__path__
for pkg in (k8smigrate, k8smigrate.migrations):
    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        if info.name != "k8smigrate.__main__":
            importlib.import_module(info.name)
json.dump({"dataclasses": code.RECORDED, "recipes": code.RECORDED_RECIPES, "regexes": regexcode.RECORDED}, sys.stdout)
"""
"""Imports every module of the library and its migrations in a new interpreter (nothing made before the recording
starts) and prints the text of every method its dataclasses have compiled, and every pattern given to ``regex``
or ``lazy``."""


def _literal(value: object, codes: dict[tuple[str, str, str], int]) -> str:
    """Python source that evaluates to ``value`` (the declarations' field values); a code is
    ``CODES[i]``, its row added to ``codes`` (its position) the first time it is seen."""
    if isinstance(value, re.Pattern):
        flags = value.flags & ~re.UNICODE
        return f"regex({value.pattern!r}, {flags})" if flags else f"regex({value.pattern!r})"
    if isinstance(value, tuple):
        inner = ", ".join(_literal(v, codes) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, frozenset):
        return f"frozenset({_literal(tuple(sorted(value)), codes)})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k, codes)}: {_literal(v, codes)}" for k, v in value.items()) + "}"
    if isinstance(value, (str, int, bool, type(None))):
        return repr(value)
    if isinstance(value, Collector):
        return (
            f"Collector(name={value.name!r}, trigger={_literal(value.trigger, codes)}, "
            f"collect={_function(value.collect)}, kinds={_literal(value.kinds, codes)})"
        )
    if isinstance(value, Code):
        row = (value.code, value.level, value.summary)
        return f"CODES[{codes.setdefault(row, len(codes))}]"
    if type(value).__name__ == "Decision":
        args = ", ".join(f"{f.name}={_literal(getattr(value, f.name), codes)}" for f in fields(value))  # type: ignore[arg-type]
        return f"Decision({args})"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} into the index")


def _function(function: object) -> str:
    """``LazyFunction(module, name)`` for a function its module holds under that name."""
    module, name = getattr(function, "__module__", None), getattr(function, "__qualname__", "")
    if not module or not name.isidentifier() or getattr(importlib.import_module(module), name, None) is not function:
        raise TypeError(f"{function!r} is not a module-level function: the index cannot name it")
    return f"LazyFunction({module!r}, {name!r})"


def _writable(found: list[Migration]) -> bool:
    """Whether every collector of these migrations can be written (its function named)."""
    try:
        for m in found:
            if isinstance(m, Check):
                _literal(m.facts, {})
    except TypeError:
        return False
    return True


def _declaration(m: Migration, module: str, position: int, codes: dict[tuple[str, str, str], int]) -> str:
    args = []
    for f in fields(m):
        if not f.init:
            continue
        value = getattr(m, f.name)
        if f.name == "body":
            text = "None" if value is None else f"LazyBody({module!r}, {position})"
        else:
            if value == f.default:
                continue
            text = _literal(value, codes)
        args.append(f"{f.name}={text}")
    return f"made({type(m).__name__}, {', '.join(args)})"


def generate(named: Callable[[ModuleType], list[Migration]]) -> str:
    """The source of the index, from the modules (``named``: a module's migrations, named and documented)."""
    folder = package_dir()
    if folder is None:
        raise RuntimeError(f"{PACKAGE} is not one folder")
    lines = [
        '"""The built-in migrations\' declarations, generated by ``python -m k8smigrate.indexgen --write``.',
        "",
        "Do not edit: change the migration modules and regenerate (see ``k8smigrate/indexed.py``).",
        '"""',
        "",
        "from k8smigrate.codes import Code",
        "from k8smigrate.decisions import Decision",
        "from k8smigrate.facts import Collector",
        "from k8smigrate.dataclasscode import made, made_rows",
        "from k8smigrate.indexed import LazyBody, LazyFunction",
        "from k8smigrate.model import Check, Migration, Step",
        "from k8smigrate.regexcode import regex",
        "",
    ]
    codes: dict[tuple[str, str, str], int] = {}
    modules = ["MODULES: tuple[tuple[str, str, int, tuple[Migration, ...] | None], ...] = ("]
    for sub, name, size in module_files(folder):
        module_name = f"{PACKAGE}.{sub}.{name}"
        module = importlib.import_module(module_name)
        found = named(module)
        if not _writable(found):
            modules.append(f"    ({sub!r}, {name!r}, {size}, None),")
            continue
        written = [_declaration(m, module_name, i, codes) for i, m in enumerate(found)]
        body = "".join(f"        {w},\n" for w in written)
        modules.append(f"    ({sub!r}, {name!r}, {size}, (\n{body}    )),")
    lines += [
        "CODES: tuple[Code, ...] = made_rows(Code, (",
        *(f"    {row!r},  # {i}" for row, i in codes.items()),
        "))",
    ]
    lines += ["", *modules, ")", ""]
    return "\n".join(lines)


def generate_lifecycles(text: str) -> str:
    """The source of the lifecycle table's module, from the text of ``data/removals.tsv``."""
    lines = [
        '"""The lifecycle table (``k8smigrate/data/removals.tsv``) as literals, generated by',
        "``python -m k8smigrate.indexgen --write``.",
        "",
        "Do not edit: change the table and regenerate (see ``k8smigrate/lifecycles.py``).",
        '"""',
        "",
        f"SOURCE_CRC32 = {checksum(text)}",
        "",
        "ROWS: tuple[tuple[str, str, str | None, str | None, str | None, str], ...] = (",
        *(f"    {row!r}," for row in rows(parse_table(text))),
        ")",
        "",
    ]
    return "\n".join(lines)


@lru_cache(maxsize=1)
def _recorded() -> dict[str, list[Any]]:
    import json
    import subprocess

    out = subprocess.run([sys.executable, "-c", _RECORD], capture_output=True, text=True, check=True).stdout
    found: dict[str, list[Any]] = json.loads(out)
    return found


def generate_dataclasses() -> tuple[str, str]:
    """The sources of the dataclasses' code index (see ``k8smigrate.dataclasscode``) and of their
    recipes (``k8smigrate.dataclassrecipe``)."""
    import dataclasses
    import marshal

    from .dataclasscode import exec_code, fingerprint
    from .dataclassrecipe import compiled, standard_fingerprint

    recorded = _recorded()
    texts = sorted(set(recorded["dataclasses"]))
    recipes = {key: _tuples(recipe) for key, recipe in recorded["recipes"] if recipe is not None}
    standard = dataclasses._create_fn  # type: ignore[attr-defined]
    lines = [
        f'"""The code of the library\'s dataclasses\' methods (Python {sys.version_info[0]}.{sys.version_info[1]}), '
        "generated by",
        "``python -m k8smigrate.indexgen --write``.",
        "",
        "Do not edit: see ``k8smigrate/dataclasscode.py``. Each key is a text that",
        "``dataclasses._create_fn`` compiles; its value, the ``marshal`` of the code of the",
        "``__create_fn__`` it defines, compiled as ``exec`` compiles it (loaded when a class first",
        "needs it: loading all of them was a millisecond of every start).",
        '"""',
        "",
        f"PYTHON = {tuple(sys.version_info[:2])!r}",
        "",
        f"CREATE_FN = {fingerprint(standard.__code__)!r}",
        "",
        "CODE: dict[str, bytes] = {",
    ]
    for text in texts:
        lines.append(f"    {text!r}: {marshal.dumps(exec_code(text))!r},")
    lines += ["}", ""]
    recipe_lines = [
        f'"""The recipes of the library\'s dataclasses (Python {sys.version_info[0]}.{sys.version_info[1]}), '
        "generated by",
        "``python -m k8smigrate.indexgen --write``.",
        "",
        "Do not edit: see ``k8smigrate/dataclassrecipe.py``. Each key is a class of the library",
        "(``module:qualname``); its value, the ``marshal`` of what ``replay`` builds it from, recorded",
        "from the standard decorator (``recipe_of``).",
        '"""',
        "",
        f"PYTHON = {tuple(sys.version_info[:2])!r}",
        "",
        f"STANDARD = {standard_fingerprint()!r}",
        "",
        "RECIPES: dict[str, bytes] = {",
    ]
    for key in sorted(recipes):
        recipe_lines.append(f"    {key!r}: {marshal.dumps(compiled(recipes[key], exec_code))!r},")
    recipe_lines += ["}", ""]
    return "\n".join(lines), "\n".join(recipe_lines)


def _tuples(value: Any) -> Any:
    """``value`` read back from JSON, its lists tuples again (as the recorder made them)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def generate_regexes() -> str:
    """The source of the patterns' code index (see ``k8smigrate.regexcode``)."""
    from .regexcode import engine, entry_for

    patterns = sorted({(pattern, flags) for pattern, flags in _recorded()["regexes"]})
    lines = [
        f'"""The code of the library\'s regular expressions (Python {sys.version_info[0]}.{sys.version_info[1]}), '
        "generated by",
        "``python -m k8smigrate.indexgen --write``.",
        "",
        "Do not edit: see ``k8smigrate/regexcode.py``. Each entry: (pattern, flags) -> (final flags,",
        "code words, groups - 1, group names -> numbers, numbers -> names).",
        '"""',
        "",
        f"ENGINE = {engine()!r}",
        "",
        "CODE: dict[tuple[str, int], tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]] = {",
    ]
    for pattern, flags in patterns:
        lines.append(f"    ({pattern!r}, {flags}): {entry_for(pattern, flags)!r},")
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from . import argvgen
    from .registry import named_migrations

    args = sys.argv[1:] if argv is None else argv
    dataclass_code, dataclass_recipes = generate_dataclasses()
    texts = {
        INDEX_FILE: generate(named_migrations),
        LIFECYCLES_FILE: generate_lifecycles(data_text("removals.tsv")),
        DATACLASSES_FILE: dataclass_code,
        RECIPES_FILE: dataclass_recipes,
        REGEXES_FILE: generate_regexes(),
        argvgen.TARGET: argvgen.render(),
    }
    if args == ["--write"]:
        for path, text in texts.items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    if args == ["--check"]:
        stale = [p for p, text in texts.items() if (p.read_text(encoding="utf-8") if p.is_file() else "") != text]
        for path in stale:
            print(f"{path} is stale: run python -m k8smigrate.indexgen --write", file=sys.stderr)
        return 1 if stale else 0
    print("usage: python -m k8smigrate.indexgen --write | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
