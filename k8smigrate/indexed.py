"""The built-in migrations' declarations, read without importing their modules.

A run needs every migration's metadata (what it accepts, its codes, decisions and lifecycle)
to plan, but only the bodies of the one to three migrations its documents use. Importing all
~150 modules for their metadata was the largest part of a short run's start. So the
declarations are written out once, as Python literals, in ``k8smigrate/migrations_index.py``
(loaded from its bytecode like any module), and each body is a ``LazyBody`` that imports its
module the first time a document runs it.

The index is generated from the modules and checked in:

    python -m k8smigrate.indexgen --write     # after changing a migration's declaration
    python -m k8smigrate.indexgen --check     # exit 1 when the index differs from the modules

``tests/test_indexed.py`` fails when it is stale. At run time the index is used only while it
still describes the files beside it (the same module names, each of the size it had when the
index was written); otherwise, as in a checkout whose index was not regenerated, the registry
imports every module as before, so a stale index costs time, never correctness.

Checks that gather facts across files (``Check.facts``) hold collectors whose ``collect`` is a
function: the index writes it as a ``LazyFunction`` (module and name), so those modules too are
imported only when a file holds what one of their collectors or checks looks for. A collector
whose function is not a module-level name cannot be written: its module is imported when the
index is read, as before.

The declarations are written as ``made(Step, ...)`` (``dataclasscode.made``) rather than ``Step(...)``: a frozen
dataclass's ``__init__`` sets each of its twenty fields through ``object.__setattr__``, which
made building the ~160 declarations and ~500 codes a third of the index's cost at every start.
``made`` fills the instance's ``__dict__`` in one step (the same values, in the same order, then
``__post_init__``); ``tests/test_indexed.py`` compares every field with what the modules build.
The codes are built once each (``CODES``, from one constant tuple of rows: the ~500 codes the
migrations list are ~300 distinct ones) and shared by the declarations that list them.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

from .model import Check, Migration, Step
from .runtime_typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .context import Body, Context
    from .tree import Mapping

PACKAGE = "k8smigrate.migrations"
SUBPACKAGES = ("steps", "checks")
INDEX_MODULE = "k8smigrate.migrations_index"
INDEX_FILE = Path(__file__).resolve().parent / "migrations_index.py"


class LazyBody:
    """A migration's body, imported from its module the first time it runs."""

    __slots__ = ("_body", "module", "position")

    def __init__(self, module: str, position: int) -> None:
        self.module = module
        self.position = position
        self._body: Body | None = None

    def resolve(self) -> Body:
        """The body itself (imports its module once)."""
        if self._body is None:
            found = declarations(importlib.import_module(self.module))
            body = found[self.position].body if self.position < len(found) else None
            if body is None:
                raise LookupError(f"{self.module}: no body for migration {self.position} (regenerate the index)")
            self._body = body
        return self._body

    def __call__(self, obj: Mapping, ctx: Context) -> None:
        self.resolve()(obj, ctx)

    def __repr__(self) -> str:
        return f"LazyBody({self.module!r}, {self.position})"


class LazyFunction:
    """A module-level function (a fact collector's ``collect``), imported the first time it is called.

    Equal to another reference to the same name, so two readings of the index compare equal."""

    __slots__ = ("_function", "module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self._function: Callable[..., Any] | None = None

    def resolve(self) -> Callable[..., Any]:
        """The function itself (imports its module once)."""
        if self._function is None:
            self._function = getattr(importlib.import_module(self.module), self.name)
        return self._function

    def __call__(self, *args: Any) -> Any:
        return self.resolve()(*args)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LazyFunction) and (self.module, self.name) == (other.module, other.name)

    def __hash__(self) -> int:
        return hash((self.module, self.name))

    def __repr__(self) -> str:
        return f"LazyFunction({self.module!r}, {self.name!r})"


def declarations(module: ModuleType) -> list[Migration]:
    """The migrations a module declares (``MIGRATIONS``, or ``MIGRATION``), as written."""
    found = getattr(module, "MIGRATIONS", None) or [getattr(module, "MIGRATION", None)]
    return [m for m in found if isinstance(m, (Step, Check))]


def module_files(folder: Path) -> Iterator[tuple[str, str, int]]:
    """(subpackage, module name, file size) of every migration module, in discovery order."""
    for sub in SUBPACKAGES:
        with os.scandir(folder / sub) as entries:
            found = sorted((e.name[:-3], e.stat().st_size) for e in entries if e.name.endswith(".py"))
        for name, size in found:
            if not name.startswith("_"):
                yield sub, name, size


def package_dir() -> Path | None:
    """The folder of ``k8smigrate.migrations`` (None when it is not one folder)."""
    paths = list(getattr(importlib.import_module(PACKAGE), "__path__", []))
    return Path(paths[0]) if len(paths) == 1 else None


def load(named: Callable[[ModuleType], list[Migration]]) -> list[Migration] | None:
    """The built-in migrations from the index (``named``: a module's migrations, named and
    documented, for the modules the index imports); None when the index is missing or stale."""
    folder = package_dir()
    if folder is None or not INDEX_FILE.is_file():
        return None
    try:
        index = importlib.import_module(INDEX_MODULE)
    except ImportError:
        return None
    modules: tuple[tuple[str, str, int, tuple[Migration, ...] | None], ...] = index.MODULES
    try:
        on_disk = list(module_files(folder))
    except OSError:
        return None
    if [(sub, name, size) for sub, name, size, _ in modules] != on_disk:
        return None
    out: list[Migration] = []
    for sub, name, _, migrations in modules:
        if migrations is None:
            out += named(importlib.import_module(f"{PACKAGE}.{sub}.{name}"))
        else:
            out += migrations
    return out
