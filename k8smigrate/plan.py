"""The gate: which checks and which chain of steps one (apiVersion, kind) gets in a window.

A document's chain is walked step by step while the step's target API is served by every
release of the window (``--min-version`` to ``--target-version``), as the lifecycle table
says. Intermediate versions are only stages of the conversion: extensions/v1beta1 Ingress
goes to networking.k8s.io/v1 for target 1.22 although networking.k8s.io/v1beta1 is gone
there, and stops at networking.k8s.io/v1beta1 when the window starts at 1.18. The checks of
the (apiVersion, kind) run first, for targets from their ``matters_from`` release on.
"""

from __future__ import annotations

from dataclasses import field

from .components import is_addon
from .dataclasscode import dataclass
from .model import Check, Step
from .registry import Registry
from .settings import Settings
from .tree import Mapping, Node, Scalar, Sequence, resolve
from .versions import Window

LIST_KIND = "List"


def element_kind(kind: str) -> str:
    """The kind of a typed list's items (``RoleList`` → ``Role``); any other kind as it is."""
    return kind[: -len(LIST_KIND)] if kind.endswith(LIST_KIND) and kind != LIST_KIND else kind


def list_items(root: Mapping, api: str, kind: str) -> list[tuple[Mapping, str | None, str | None]] | None:
    """The objects of a ``List`` (or ``RoleList``…) with their apiVersion and kind; None for any other kind.

    An item without its own apiVersion or kind takes a typed list's (``RoleList`` items are
    Roles of the list's apiVersion); an item of a plain ``List`` must say what it is.
    """
    items = root.get("items")
    items = resolve(items) if items is not None else None
    if not (kind.endswith(LIST_KIND) and isinstance(items, Sequence)):
        return None
    element = kind[: -len(LIST_KIND)]
    out: list[tuple[Mapping, str | None, str | None]] = []
    for node in items:
        item = resolve(node)
        if isinstance(item, Mapping):
            item_api = _text(item.get("apiVersion")) or (api if element else None)
            out.append((item, item_api, _text(item.get("kind")) or element or None))
    return out


def _text(node: Node | None) -> str | None:
    node = resolve(node) if node is not None else None
    return node.value if isinstance(node, Scalar) and node.value else None


@dataclass
class Plan:
    """The checks and steps one (apiVersion, kind) gets inside the window, and why its chain stops."""

    steps: list[Step] = field(default_factory=list)
    blocked: Step | None = None
    """The first step of a chain that no release of the window lets run (its target is not served)."""
    checks: list[Check] = field(default_factory=list)
    final_kind: str | None = None
    """The kind the object has after the steps, when a step renames it (None: unchanged)."""

    @property
    def final_api(self) -> str | None:
        return self.steps[-1].to_api if self.steps else None

    @property
    def empty(self) -> bool:
        return not (self.steps or self.checks)


def window_of(component: str, settings: Settings, window: Window) -> Window:
    """The window that gates a migration or a lifecycle of ``component``.

    Kubernetes' own components get ``window`` (the run's ``--min-version`` … ``--target-version``);
    an add-on gets its release (``--component NAME=VERSION``, or the newest one k8smigrate knows).
    """
    return window if not is_addon(component) else settings.windows.of(component)


_PLANS: dict[tuple[int, int, int], tuple[Settings, Registry, Window, dict[tuple[str, str], Plan]]] = {}
"""``plan``'s answers, by the objects asked with (held, so that no other object takes their ids): a
run asks with one registry and window, and its settings or those of its checks alone (``scan``),
for each document; a plan depends on nothing else, and no caller changes one."""


def plan(api_version: str, kind: str, settings: Settings, registry: Registry, window: Window) -> Plan:
    """The enabled checks, and the chain up to the furthest step whose target every release serves.

    Each migration is gated by the window of its component (``window_of``).
    """
    key = (id(settings), id(registry), id(window))
    held = _PLANS.get(key)
    if held is None:
        if len(_PLANS) >= 8:
            _PLANS.clear()
        held = _PLANS[key] = (settings, registry, window, {})
    plans = held[3]
    found = plans.get((api_version, kind))
    if found is None:
        found = plans[(api_version, kind)] = _plan(api_version, kind, settings, registry, window)
    return found


def _plan(api_version: str, kind: str, settings: Settings, registry: Registry, window: Window) -> Plan:
    checks = [
        c
        for c in registry.checks_for(api_version, kind)
        if settings.enabled(c.name, c.opt_in)
        and (c.matters is None or c.matters <= window_of(c.component, settings, window).target)
    ]
    chain: list[tuple[Step, str]] = []  # each step with the kind it leaves the object with
    api, at = api_version, kind
    seen = {(api, at)}
    while (step := registry.step(api, at)) is not None and settings.enabled(step.name, step.opt_in):
        at = step.target_kind(at)
        chain.append((step, at))
        api = step.to_api
        if (api, at) in seen:  # pragma: no cover - the registry rejects cycles when it is built
            break
        seen.add((api, at))
    served = [
        i
        for i, (step, out_kind) in enumerate(chain)
        if served_by(step, out_kind, registry, window_of(step.component, settings, window))
    ]
    if not served:
        return Plan([], chain[0][0] if chain else None, checks)
    last = served[-1]
    final_kind = chain[last][1]
    return Plan([s for s, _k in chain[: last + 1]], None, checks, final_kind if final_kind != kind else None)


def served_by(step: Step, kind: str, registry: Registry, window: Window) -> bool:
    """Whether every release of the window serves the step's target API (``kind``: the kind it yields)."""
    target = registry.lifecycle(step.to_api, kind)
    return window.serves(step.available, target.removed_in if target else None)


def full_chain(api: str, kind: str, registry: Registry) -> list[Step]:
    """Every step from ``api`` on, enabled or not."""
    chain: list[Step] = []
    while (step := registry.step(api, kind)) is not None and step not in chain:
        chain.append(step)
        api, kind = step.to_api, step.target_kind(kind)
    return chain


def is_candidate(api: str | None, kind: str | None, registry: Registry) -> bool:
    """Whether a document of this apiVersion and kind could need migrating (a step, or a lifecycle)."""
    if api is None or kind is None:
        return False
    return registry.step(api, element_kind(kind)) is not None or registry.lifecycle(api, kind) is not None
