"""Finding the migrations, validating them together, and answering lookups for the engine.

Built-in migrations are modules of ``k8smigrate.migrations.steps`` and
``k8smigrate.migrations.checks`` (the ``migrations/`` folder of the repository), each with a
``MIGRATION`` or a list ``MIGRATIONS`` (``model.Step`` / ``model.Check``); the module name
is the migration's name and its docstring its documentation. Third-party modules or objects
are found through the entry-point group ``k8smigrate.migrations``.

The registry refuses, when it is built: two steps claiming the same ``(component, kind,
from_api)``, cycles, ``from_api == to_api``, a target API available only after the source
API is removed, a step restating a lifecycle the table already holds, an unknown check
category, one finding code declared twice with different meanings, and an old name
(``formerly``) that is another migration's name. It also checks a run's settings
(``check_settings``): unknown migration names and decisions are errors, for the CLI and the
library alike, with suggestions (by kind, by a close name); an old name still selects its
migration, with a deprecation note.

The default registry skips that validation when it holds exactly the built-in migrations of a
current index and the generated lifecycle table (``indexed``, ``lifecycles``): their checks cost
about 1 % of a one-file run at every start, for a graph that changes only with a release, and
the test-suite validates that very graph (``tests/test_registry.py``; the index and the table
module fail their tests when stale). A registry with a third-party migration, one built from
the modules (no current index) or from a parsed table, and every ``Registry`` a caller builds,
are validated as before.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Iterable
from dataclasses import replace
from types import ModuleType

from .codes import GENERAL, Code
from .components import ComponentError, check_components
from .decisions import CHART_DECISIONS, check_decisions
from .entrypoints import GROUP, declared
from .facts import Collector
from .indexed import PACKAGE as INDEXED_PACKAGE
from .indexed import SUBPACKAGES, declarations, load
from .kustomize.codes import KUSTOMIZE
from .lifecycles import ApiLifecycle, Lifecycles, builtin, builtin_is_generated, lookup
from .model import ANY, CATEGORIES, Check, Migration, Step
from .runtime_typing import Any
from .settings import Settings, SettingsError
from .versions import KubeVersion


class RegistryError(Exception):
    """The migrations are inconsistent; raised when the registry is built, never at run time."""


class Registry:
    """All migrations, indexed by the (apiVersion, kind) they accept, and the API lifecycles."""

    def __init__(
        self, migrations: Iterable[Migration], lifecycles: Lifecycles | None = None, *, validated: bool = False
    ) -> None:
        """``validated``: the caller knows that ``validate`` accepts these migrations with these
        lifecycles (``default_registry`` for the built-in ones only: see the module's docstring)."""
        self.migrations: list[Migration] = list(migrations)
        self.steps = [m for m in self.migrations if isinstance(m, Step)]
        self.checks = [m for m in self.migrations if isinstance(m, Check)]
        self.lifecycles: Lifecycles = dict(builtin() if lifecycles is None else lifecycles)
        self.lifecycles.update(_declared_lifecycles(self.steps, self.lifecycles))
        if not validated:
            validate(self.migrations, self.lifecycles)
        self._steps: dict[tuple[str, str], Step] = {}
        self._checks: dict[tuple[str, str], list[Check]] = {}
        self._named: dict[str, list[Migration]] = {}
        for step in self.steps:
            for kind in step.kinds:
                self._steps[(kind, step.from_api)] = step
        for check in self.checks:
            for api, kinds in check.applies_to.items():
                for kind in kinds:
                    self._checks.setdefault((kind, api), []).append(check)
        for m in self.migrations:
            self._named.setdefault(m.name, []).append(m)
        self._formerly: dict[str, str] = {}
        for m in self.migrations:
            for old in m.formerly:
                if old in self._named or self._formerly.get(old, m.name) != m.name:
                    raise RegistryError(f"{m.name}: its old name {old!r} is another migration's name")
                self._formerly[old] = m.name
        self.codes: dict[str, Code] = {c.code: c for m in self.migrations for c in m.codes}
        self.codes.update(GENERAL)
        self.codes.update(KUSTOMIZE)

    def step(self, api_version: str, kind: str) -> Step | None:
        return self._steps.get((kind, api_version))

    def checks_for(self, api_version: str, kind: str) -> list[Check]:
        """The checks that look at every document of this (apiVersion, kind), in registry order.

        A check that applies to ``{ANY: (ANY,)}`` looks at every object.
        """
        return self._checks.get((kind, api_version), []) + self._checks.get((ANY, ANY), [])

    def get(self, name: str) -> Migration | None:
        found = self._named.get(name)
        return found[0] if found else None

    def named(self, name: str) -> list[Migration]:
        """Every declaration of one migration (a module may declare several)."""
        return list(self._named.get(name, []))

    def names(self) -> list[str]:
        return list(self._named)

    def renamed(self, name: str) -> str | None:
        """The current name of a migration that was called ``name`` before (None: not an old name)."""
        return self._formerly.get(name)

    def suggest(self, word: str, limit: int = 6) -> list[str]:
        """Migrations ``word`` may mean: those of a kind it names (``Ingress``), then close names."""
        low = word.lower().replace("-", "_")
        by_kind = [m.name for m in self.migrations if low in {k.lower() for k in _kinds_of(m)}]
        names = sorted(self._named)
        import difflib  # only for a name nobody declares

        near = difflib.get_close_matches(low, names, n=limit, cutoff=0.6)
        part = [n for n in names if len(low) >= 3 and low in n]
        return list(dict.fromkeys([*by_kind, *near, *part]))[:limit]

    def lifecycle(self, api_version: str, kind: str) -> ApiLifecycle | None:
        """When ``api_version`` of ``kind`` is deprecated and removed, and what replaces it."""
        return lookup(self.lifecycles, api_version, kind)

    def code(self, code: str) -> Code | None:
        """The declaration of a finding code (a general one: its general meaning)."""
        return self.codes.get(code)

    def collectors(self, enabled: Callable[[Migration], bool]) -> list[Collector[Any]]:
        """The fact collectors of the enabled checks, each once, in registry order."""
        found: dict[str, Collector[Any]] = {}
        for check in self.checks:
            if enabled(check):
                for c in check.facts:
                    found.setdefault(c.name, c)
        return list(found.values())

    def components(self) -> list[str]:
        """Every component whose releases gate a migration or a lifecycle row, sorted."""
        found = {m.component for m in self.migrations} | {life.component for life in self.lifecycles.values()}
        return sorted(found)

    def source_apis(self) -> frozenset[str]:
        """Every apiVersion some step or check accepts."""
        return frozenset(
            {s.from_api for s in self.steps} | {api for c in self.checks for api in c.applies_to if api != ANY}
        )


def _declared_lifecycles(steps: list[Step], table: Lifecycles) -> Lifecycles:
    """The lifecycles third-party steps declare for APIs the table does not list."""
    out: Lifecycles = {}
    for step in steps:
        if step.deprecated_in is None and step.removed_in is None:
            continue
        for kind in step.kinds:
            if (step.from_api, kind) in table:
                raise RegistryError(
                    f"{step.name}: the lifecycle of {step.from_api} {kind} is in the lifecycle table; "
                    "a step does not restate it"
                )
            out[(step.from_api, kind)] = ApiLifecycle(
                step.from_api,
                kind,
                KubeVersion.parse(step.deprecated_in) if step.deprecated_in else None,
                KubeVersion.parse(step.removed_in) if step.removed_in else None,
                step.to_api,
                step.component,
            )
    return out


def validate(migrations: Iterable[Migration], lifecycles: Lifecycles | None = None) -> None:
    """Reject duplicate claims, self-loops, impossible windows, cycles and inconsistent codes."""
    table = builtin() if lifecycles is None else lifecycles
    claims: dict[tuple[str, str, str], str] = {}
    edges: dict[tuple[str, str], tuple[str, str]] = {}
    codes: dict[str, tuple[Code, str]] = {}
    for m in migrations:
        if not m.name:
            raise RegistryError(f"a migration ({m.summary or type(m).__name__}) has no name")
        _check_codes(m, codes)
        if isinstance(m, Check):
            if not m.applies_to or not all(m.applies_to.values()):
                raise RegistryError(f"{m.name}: a check applies to no apiVersion or kind")
            if m.category and m.category not in CATEGORIES:
                raise RegistryError(f"{m.name}: unknown category {m.category!r}")
            continue
        if m.from_api == m.to_api and (m.to_kind is None or m.to_kind in m.kinds):
            raise RegistryError(f"{m.name}: from_api and to_api are both {m.from_api}")
        if m.to_kind is not None and len(m.kinds) != 1:
            raise RegistryError(f"{m.name}: a step that renames the kind migrates one kind")
        for kind in m.kinds:
            life = table.get((m.from_api, kind))
            if life is not None and life.removed_in is not None and m.available > life.removed_in:
                raise RegistryError(
                    f"{m.name}: {m.to_api} available in {m.available} after removal in {life.removed_in}"
                )
            key = (m.component, kind, m.from_api)
            if key in claims:
                raise RegistryError(f"{m.name} and {claims[key]} both migrate {kind} {m.from_api}")
            claims[key] = m.name
            edges[(kind, m.from_api)] = (m.target_kind(kind), m.to_api)
    for start in edges:
        seen = {start}
        node = edges.get(start)
        while node is not None:
            if node in seen:
                raise RegistryError(f"cycle in the migrations of {start[0]} through {node[1]} {node[0]}")
            seen.add(node)
            node = edges.get(node)


def _check_codes(m: Migration, seen: dict[str, tuple[Code, str]]) -> None:
    """A code means one thing: one level everywhere, one summary outside the general codes."""
    for c in m.codes:
        general = GENERAL.get(c.code)
        if general is not None:
            if c.level != general.level:
                raise RegistryError(f"{m.name}: {c.code} is a general code reported as {general.level}, not {c.level}")
            continue
        earlier = seen.get(c.code)
        if earlier is not None and earlier[0] != c:
            raise RegistryError(f"{m.name} and {earlier[1]} declare {c.code} differently; declare it once and share it")
        seen[c.code] = (c, m.name)


def _kinds_of(m: Migration) -> set[str]:
    if isinstance(m, Step):
        return set(m.kinds)
    return {k for kinds in m.applies_to.values() for k in kinds if k != ANY}


def unknown_migration(name: str, registry: Registry) -> str:
    """``unknown migration 'ingres' (did you mean …?)``: the message for a name nothing answers to."""
    close = registry.suggest(name)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    return f"unknown migration {name!r} ({hint}see 'k8smigrate list')"


def renamed_note(old: str, new: str) -> str:
    return f"migration name {old!r} is deprecated; use {new!r}"


def check_settings(settings: Settings, registry: Registry, *, note: Callable[[str], None] | None = None) -> Settings:
    """The settings a run uses: unknown migrations, unknown or invalid decisions and bad versions
    are errors (``SettingsError``), not silence; an old migration name is replaced by its new one.

    The one check of a run's settings, used by the CLI (a usage error) and the library:
    ``migrate_text(only=["ingres_typo"])`` must not quietly do nothing. (The types of the
    values were checked when the ``Settings`` were made.) Each old name is reported to
    ``note`` (the CLI prints it), or as a ``DeprecationWarning``.
    """
    known = _CHECKED.get(id(settings))
    if known is not None and known[0] is settings and known[1] is registry:
        return settings  # checked already (a run checks once, then passes them to every file)
    picked: dict[str, tuple[str, ...]] = {}
    for field_name in ("only", "skip"):
        names: list[str] = []
        for name in getattr(settings, field_name):
            if registry.get(name) is None:
                new = registry.renamed(name)
                if new is None:
                    raise SettingsError(unknown_migration(name, registry))
                message = renamed_note(name, new)
                if note is not None:
                    note(message)
                else:
                    warnings.warn(message, DeprecationWarning, stacklevel=3)
                name = new
            names.append(name)
        picked[field_name] = tuple(names)
    check_decisions(settings.decisions, [*(d for m in registry.migrations for d in m.decisions), *CHART_DECISIONS])
    settings.window  # noqa: B018 - raises SettingsError for a bad or inverted version
    try:
        check_components(settings.components, registry.components())
    except ComponentError as exc:
        raise SettingsError(str(exc)) from exc
    if picked["only"] != settings.only or picked["skip"] != settings.skip:
        settings = replace(settings, only=picked["only"], skip=picked["skip"])
    if len(_CHECKED) >= 16:
        _CHECKED.clear()
    _CHECKED[id(settings)] = (settings, registry)
    return settings


_CHECKED: dict[int, tuple[Settings, Registry]] = {}
"""Settings that ``check_settings`` returned, by identity, with the registry they were checked
against (held, so that an identity is not reused while it is here). ``Settings`` are frozen."""


def named_migrations(module: ModuleType) -> list[Migration]:
    """The migrations a module declares, named after the module and documented by its docstring
    unless they say otherwise."""
    short = module.__name__.rsplit(".", 1)[-1]
    doc = (module.__doc__ or "").strip()
    return [replace(m, name=m.name or short, doc=m.doc or doc) for m in declarations(module)]


def discover(package: str = "k8smigrate.migrations", entry_points: bool = True) -> list[Migration]:
    """Every migration module of ``package`` (its ``steps`` and ``checks``), plus third-party ones.

    The built-in ones come from their index (``k8smigrate.indexed``: declarations without
    importing the modules) while it describes the modules installed; else from the modules.
    """
    return _discover(package, entry_points)[0]


def _discover(package: str, entry_points: bool) -> tuple[list[Migration], bool]:
    """``discover``, and whether what it found is the built-in migrations of a current index alone."""
    indexed = load(named_migrations) if package == INDEXED_PACKAGE else None
    migrations: list[Migration] = list(indexed) if indexed is not None else []
    if indexed is None:
        import pkgutil  # without a current index only
    for sub in SUBPACKAGES if indexed is None else ():
        pkg = importlib.import_module(f"{package}.{sub}")
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
            if not info.name.startswith("_"):
                migrations += named_migrations(importlib.import_module(f"{package}.{sub}.{info.name}"))
    only_indexed = indexed is not None
    if entry_points and declared():
        only_indexed = False
        from importlib import metadata  # costly to import, and almost never needed: see entrypoints

        for ep in metadata.entry_points(group=GROUP):
            loaded = ep.load()
            if isinstance(loaded, ModuleType):
                migrations += named_migrations(loaded)
            elif isinstance(loaded, (Step, Check)):
                migrations.append(loaded if loaded.name else replace(loaded, name=ep.name))
    return migrations, only_indexed


_REGISTRY: Registry | None = None


def default_registry() -> Registry:
    """The registry of every installed migration, built once (validated unless it is the built-in
    graph the tests validate: see the module's docstring)."""
    global _REGISTRY
    if _REGISTRY is None:
        migrations, only_indexed = _discover(INDEXED_PACKAGE, True)
        _REGISTRY = Registry(migrations, validated=only_indexed and builtin_is_generated())
    return _REGISTRY
