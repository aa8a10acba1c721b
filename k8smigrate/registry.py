"""Migration metadata, automatic discovery and import-time validation of the graph.

A migration is one adjacent version step for a set of kinds, declared as data in its own
module under ``migrations/`` (installed as ``k8smigrate.migrations``)::

    MIGRATION = Migration(
        kinds=("Ingress",), from_api="extensions/v1beta1", to_api="networking.k8s.io/v1beta1",
        available_in="1.14", deprecated_in="1.14", removed_in="1.22",
    )

Modules are found automatically, as are third-party ones published under the entry-point
group ``k8smigrate.migrations``. The registry refuses, at import, two steps claiming the
same ``(component, kind, from_api)``, cycles, ``from_api == to_api`` and a target API that
would only be available after the source API is removed.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from importlib import metadata
from types import ModuleType
from typing import TYPE_CHECKING

from .versions import KubeVersion
from .yamlio import raw_api_versions

if TYPE_CHECKING:
    from .context import Context
    from .tree import Mapping

Body = Callable[["Mapping", "Context"], None]
Trigger = str | re.Pattern[str]


ANY = "*"
"""Kind and apiVersion of a fixer that applies to every object."""


CATEGORIES = {
    "removed-field": "a field the API no longer has (strict field validation rejects it)",
    "annotation": "an annotation that silently stopped working, or a field that replaced it",
    "node-role": "selectors and tolerations of the node-role.kubernetes.io/master label and taint",
    "feature-gate": "a feature gate removed or locked at the target",
    "runtime": "dockershim, CRI sockets, kubelet runtime flags and the Docker socket",
    "component-config": "kubelet, kube-proxy and kube-scheduler configuration files",
    "kubeadm": "kubeadm configuration beyond its apiVersion",
    "port": "the removed insecure ports of kube-scheduler and kube-controller-manager",
    "volume": "in-tree volume plugins removed or requiring a CSI driver",
    "cloud-provider": "in-tree cloud providers",
    "kustomize": "kustomization files: deprecated fields (kustomize edit fix)",
}
"""The upgrade-readiness categories of fixers (``scan`` adds ``removed-api`` and ``deprecated-api``)."""


class RegistryError(Exception):
    """The migration graph is inconsistent; raised at import, never at run time."""


@dataclass(frozen=True)
class Decision:
    """A value only a human can choose, settled with ``--set NAME=VALUE``."""

    name: str
    allowed: tuple[str, ...]
    help: str


@dataclass(frozen=True)
class Migration:
    """One version step: metadata as data, plus an optional body that edits the document."""

    kinds: tuple[str, ...]
    from_api: str
    to_api: str
    available_in: str
    deprecated_in: str | None = None
    removed_in: str | None = None
    body: Body | None = None
    component: str = "kubernetes"
    name: str = ""
    summary: str = ""
    codes: dict[str, str] = field(default_factory=dict)
    decisions: tuple[Decision, ...] = ()
    doc: str = ""
    opt_in: bool = False
    """Runs only when named in ``--only`` (a fixer the user must ask for)."""
    trigger: Trigger | tuple[Trigger, ...] = ""
    """For a fixer: text that must appear in a document of its apiVersion for it to matter
    (the field or annotation it fixes); documents without it are never parsed for this
    fixer. A tuple means any one of its strings; a compiled pattern is searched for (where a
    plain string would also wake up on, say, a CRD schema that describes the field)."""
    fixer: bool = False
    """Not a version step: a pass over every document of ``from_api`` (``to_api`` is the same API)
    that runs before the version chain, whatever the window; a check is a fixer that only reports."""
    category: str = ""
    """For a fixer: what it looks at, one of ``CATEGORIES`` (``scan`` prints it as a column;
    a version step's rows are ``removed-api`` or ``deprecated-api``)."""
    cleanup: bool = False
    """For a fixer: its edits tidy up (a deprecated alias, a field the server ignores, an
    annotation still honoured) rather than repair what breaks at the target; ``scan`` lists
    them as ``info``, not ``breaking``."""

    @property
    def available(self) -> KubeVersion:
        return KubeVersion.parse(self.available_in)

    @property
    def removed(self) -> KubeVersion | None:
        return KubeVersion.parse(self.removed_in) if self.removed_in else None

    @property
    def deprecated(self) -> KubeVersion | None:
        return KubeVersion.parse(self.deprecated_in) if self.deprecated_in else None

    @property
    def triggers(self) -> tuple[Trigger, ...]:
        """``trigger`` as a tuple (empty without one)."""
        if isinstance(self.trigger, tuple):
            return self.trigger
        return (self.trigger,) if self.trigger else ()

    def triggered_by(self, text: str) -> bool:
        """Whether ``text`` holds this fixer's trigger (always true without one)."""
        return not self.triggers or _holds(text, self.triggers)

    def handles(self, api_version: str, kind: str) -> bool:
        return api_version == self.from_api and kind in self.kinds


@dataclass
class Registry:
    """All migrations, indexed by the (kind, from_api) they accept."""

    migrations: list[Migration]
    by_step: dict[tuple[str, str], Migration] = field(default_factory=dict)
    by_pass: dict[tuple[str, str], list[Migration]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        validate(self.migrations)
        for m in self.migrations:
            for kind in m.kinds:
                if m.fixer:
                    self.by_pass.setdefault((kind, m.from_api), []).append(m)
                else:
                    self.by_step[(kind, m.from_api)] = m

    def step(self, api_version: str, kind: str) -> Migration | None:
        return self.by_step.get((kind, api_version))

    def passes(self, api_version: str, kind: str) -> list[Migration]:
        """The fixers and checks that look at every document of this (apiVersion, kind).

        A fixer declared with ``kinds=("*",)`` and ``from_api="*"`` looks at every object.
        """
        return self.by_pass.get((kind, api_version), []) + self.by_pass.get((ANY, ANY), [])

    def get(self, name: str) -> Migration | None:
        for m in self.migrations:
            if m.name == name:
                return m
        return None

    def names(self) -> list[str]:
        return [m.name for m in self.migrations]

    def source_apis(self) -> frozenset[str]:
        """Every apiVersion some migration accepts: the raw-text pre-filter uses this."""
        return frozenset(m.from_api for m in self.migrations if m.from_api != ANY)

    def wants(self, enabled: Callable[[Migration], bool]) -> Callable[[str], bool]:
        """A predicate over a document's raw text: could any enabled migration need its tree?

        True when the text names an apiVersion some enabled step accepts, or an apiVersion of
        an enabled fixer together with that fixer's ``trigger`` (a fixer without one wants
        every document of its apiVersion; a fixer for every object wants every document that
        holds its trigger, and every document when it has none).
        """
        active = [m for m in self.migrations if enabled(m)]
        apis = {m.from_api for m in active if m.from_api != ANY and not (m.fixer and m.trigger)}
        anywhere: set[Trigger] = set()  # triggers of fixers for every apiVersion
        by_api: dict[str, set[Trigger]] = {}
        for m in active:
            if not (m.fixer and m.trigger) and m.from_api != ANY:
                continue
            if not m.triggers:
                return lambda _piece: True  # a fixer for every object that looks at every document
            (anywhere if m.from_api == ANY else by_api.setdefault(m.from_api, set())).update(m.triggers)
        ordered = {api: _cheap_first(ts) for api, ts in by_api.items()}
        everywhere = _cheap_first(anywhere)

        def wanted(piece: str) -> bool:
            if _holds(piece, everywhere):
                return True
            # a set: a stream names apps/v1 a hundred times
            found = set(raw_api_versions(piece))
            return any(api in apis or (api in ordered and _holds(piece, ordered[api])) for api in found)

        return wanted


def _holds(text: str, triggers: Iterable[Trigger]) -> bool:
    """Whether ``text`` holds any of ``triggers`` (a substring, or a pattern's match)."""
    return any(t in text if isinstance(t, str) else t.search(text) is not None for t in triggers)


def _cheap_first(triggers: Iterable[Trigger]) -> tuple[Trigger, ...]:
    """Substrings before patterns: they are the cheap test."""
    return tuple(sorted(triggers, key=lambda t: (not isinstance(t, str), str(t))))


def validate(migrations: Iterable[Migration]) -> None:
    """Reject duplicate claims, self-loops, impossible windows and cycles."""
    claims: dict[tuple[str, str, str], str] = {}
    edges: dict[tuple[str, str], str] = {}
    for m in migrations:
        if not m.name:
            raise RegistryError(f"a migration from {m.from_api} has no name")
        if m.fixer:
            if m.from_api != m.to_api:
                raise RegistryError(f"{m.name}: a fixer keeps its API, but goes {m.from_api} → {m.to_api}")
            if m.category and m.category not in CATEGORIES:
                raise RegistryError(f"{m.name}: unknown category {m.category!r}")
            continue
        if m.from_api == m.to_api:
            raise RegistryError(f"{m.name}: from_api and to_api are both {m.from_api}")
        if m.removed is not None and m.available > m.removed:
            raise RegistryError(f"{m.name}: {m.to_api} available in {m.available} after removal in {m.removed}")
        for kind in m.kinds:
            key = (m.component, kind, m.from_api)
            if key in claims:
                raise RegistryError(f"{m.name} and {claims[key]} both migrate {kind} {m.from_api}")
            claims[key] = m.name
            edges[(kind, m.from_api)] = m.to_api
    for kind, start in edges:
        seen = {start}
        api = edges.get((kind, start))
        while api is not None:
            if api in seen:
                raise RegistryError(f"cycle in the migrations of {kind} through {api}")
            seen.add(api)
            api = edges.get((kind, api))


def _from_module(module: ModuleType) -> list[Migration]:
    found = getattr(module, "MIGRATIONS", None) or [getattr(module, "MIGRATION", None)]
    short = module.__name__.rsplit(".", 1)[-1]
    out: list[Migration] = []
    for m in found:
        if not isinstance(m, Migration):
            continue
        out.append(replace(m, name=m.name or short, doc=m.doc or (module.__doc__ or "").strip()))
    return out


def discover(package: str = "k8smigrate.migrations", entry_points: bool = True) -> list[Migration]:
    """Every migration module of ``package``, plus third-party ones from entry points."""
    pkg = importlib.import_module(package)
    migrations: list[Migration] = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        migrations += _from_module(importlib.import_module(f"{package}.{info.name}"))
    if entry_points:
        for ep in metadata.entry_points(group="k8smigrate.migrations"):
            loaded = ep.load()
            if isinstance(loaded, ModuleType):
                migrations += _from_module(loaded)
            elif isinstance(loaded, Migration):
                migrations.append(loaded if loaded.name else replace(loaded, name=ep.name))
    return migrations


_REGISTRY: Registry | None = None


def default_registry() -> Registry:
    """The registry of every installed migration, built once."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = Registry(discover())
    return _REGISTRY
