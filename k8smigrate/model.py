"""What a migration is: a version **step** or a readiness **check**, each declared as plain data.

- A ``Step`` moves ``kinds`` of ``from_api`` to ``to_api`` (one adjacent API version step).
  It declares the release that first serves ``to_api``; when ``from_api`` is deprecated and
  removed is the lifecycle table's to say (``lifecycles``), never the step's.
- A ``Check`` looks at every document of the APIs and kinds it ``applies_to`` for what breaks
  at the target inside APIs that are still served (a removed field, an annotation that
  stopped working, a feature gate…). It runs before the steps, for targets from its
  ``matters_from`` release on. A check that ``edits`` repairs what it finds; one that does
  not only reports.

Both share a name (the module's), a summary, the finding ``codes`` they emit, the
``decisions`` they may ask for, their documentation (the module docstring), ``opt_in`` and
the ``component`` whose release gates them. A module declares ``MIGRATION`` or a list
``MIGRATIONS`` of either kind; the registry finds and validates them.
"""

from __future__ import annotations

from dataclasses import field

from .codes import Code
from .context import Body
from .dataclasscode import dataclass
from .decisions import Decision
from .facts import Collector
from .runtime_typing import Any
from .triggers import Trigger, Triggers
from .versions import KubeVersion


class DeclarationError(AssertionError):
    """A migration does what its declaration says it does not (a check that edits without ``edits=True``)."""


ANY = "*"
"""Kind and apiVersion of a check that applies to every object: ``applies_to={ANY: (ANY,)}``."""


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
    "controller": "ingress controllers and cluster add-ons (CoreDNS) that must read the APIs the target serves",
    "node-port": "the API server's NodePort range against the nodes' ephemeral ports",
    "token": "service account token Secrets that are no longer generated, and token lifetimes",
    "default": "a default that changed at the target release (the old one is written explicitly)",
    "reference": "an apiVersion naming another object, which the same run migrates",
    "rbac": "RBAC rules that grant what no longer exists",
    "component-flag": "command-line flags and admission plugins a control-plane component refuses at the target",
}
"""What a check looks at (``scan`` prints it as a column; a step's rows are ``removed-api`` or
``deprecated-api``)."""


@dataclass(frozen=True)
class Step:
    """One API version step: ``kinds`` of ``from_api`` become ``to_api``; ``body`` edits the fields.

    Without a body the step is a pure ``apiVersion`` rename. The engine sets ``apiVersion``
    after the body and gates the step by the window: it runs while every release of the
    window serves ``to_api`` (from ``available_in`` until the table says it is removed).
    """

    kinds: tuple[str, ...]
    from_api: str
    to_api: str
    available_in: str
    """The first release that serves ``to_api``."""
    body: Body | None = None
    name: str = ""
    summary: str = ""
    codes: tuple[Code, ...] = ()
    decisions: tuple[Decision, ...] = ()
    doc: str = ""
    opt_in: bool = False
    """Runs only when named in ``--only``."""
    component: str = "kubernetes"
    deprecated_in: str | None = None
    """Only for an API the lifecycle table does not list (a third-party API): when ``from_api`` is
    deprecated. The registry adds it to the table and refuses a step that restates a listed API."""
    removed_in: str | None = None
    """Only for an API the lifecycle table does not list: when ``from_api`` is removed."""
    to_kind: str | None = None
    """The kind the objects have after the step when it renames the kind (Gateway API's
    ReferencePolicy → ReferenceGrant); the engine sets it with the apiVersion. One kind only."""

    formerly: tuple[str, ...] = ()
    """Old names that still select it in ``--only``/``--skip``/``explain``, with a deprecation note."""
    same_fields: bool = False
    """The two versions have the same fields and defaults: a body written for ``to_api`` reads
    the same under ``from_api`` (``autoscaling/v2beta2`` and ``v2``). A chart that picks the
    apiVersion by release may then write ``to_api``'s body under both (``branching``)."""

    @property
    def available(self) -> KubeVersion:
        return KubeVersion.parse(self.available_in)

    def target_kind(self, kind: str) -> str:
        """The kind an object of ``kind`` has after this step."""
        return self.to_kind or kind


@dataclass(frozen=True)
class Check:
    """A readiness check: looks at every document of ``applies_to`` before the steps run.

    ``applies_to`` maps each apiVersion to the kinds looked at (``{ANY: (ANY,)}``: every
    object). The check runs for targets from ``matters_from`` (every target without it),
    and only on documents whose text holds its ``trigger`` (a string, a compiled pattern, or
    a tuple of either: any one of them; every document of its APIs without one).
    """

    applies_to: dict[str, tuple[str, ...]]
    body: Body
    name: str = ""
    summary: str = ""
    codes: tuple[Code, ...] = ()
    decisions: tuple[Decision, ...] = ()
    doc: str = ""
    opt_in: bool = False
    """Runs only when named in ``--only`` (a check the user must ask for)."""
    component: str = "kubernetes"
    matters_from: str | None = None
    """The first target release at which what it looks for breaks (every target when None)."""
    needs: str | None = None
    """The release its edit needs on every release of the window (the field it writes exists
    there); the body asks ``ctx.needs_met`` and only reports when the window starts earlier."""
    trigger: Trigger | tuple[Trigger, ...] = ""
    category: str = ""
    """What it looks at, one of ``CATEGORIES`` (``scan`` prints it as the row's column)."""
    edits: bool = False
    """Whether it may change the document (a check that does not only reports)."""
    cleanup: bool = False
    """Its edits tidy up (a deprecated alias, a field the server ignores, an annotation still
    honoured) rather than repair what breaks at the target; ``scan`` lists them as ``info``."""
    facts: tuple[Collector[Any], ...] = ()
    """For a check that relates objects of different files: the collectors whose values it asks
    for (``ctx.facts``); a run gathers them from every file before any document is checked."""

    last_wins: tuple[str, ...] = ()
    """Dotted paths from the object's root (``apiServer.extraArgs``) of maps whose repeated keys
    the component reads by keeping the last one. Repeated keys there do not stop the document
    (K8SM-GEN-006): this check reports them, and every reader of those maps keeps the last."""

    formerly: tuple[str, ...] = ()
    """Old names that still select it in ``--only``/``--skip``/``explain``, with a deprecation note."""
    _triggers: tuple[Trigger, ...] = field(default=(), init=False, repr=False, compare=False)
    _found: Triggers = field(default=Triggers(()), init=False, repr=False, compare=False)
    _matters: KubeVersion | None = field(default=None, init=False, repr=False, compare=False)
    _needed: KubeVersion | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # frozen: computed once here, asked per document
        found = self.trigger if isinstance(self.trigger, tuple) else (self.trigger,) if self.trigger else ()
        object.__setattr__(self, "_triggers", found)
        object.__setattr__(self, "_found", Triggers(found))
        object.__setattr__(self, "_matters", KubeVersion.parse(self.matters_from) if self.matters_from else None)
        object.__setattr__(self, "_needed", KubeVersion.parse(self.needs) if self.needs else None)

    @property
    def triggers(self) -> tuple[Trigger, ...]:
        """``trigger`` as a tuple (empty without one)."""
        return self._triggers

    def triggered_by(self, text: str) -> bool:
        """Whether ``text`` holds this check's trigger (always true without one)."""
        return not self._triggers or self._found.found_in(text)

    @property
    def matters(self) -> KubeVersion | None:
        """``matters_from`` as a release."""
        return self._matters

    @property
    def needed(self) -> KubeVersion | None:
        """``needs`` as a release."""
        return self._needed


Migration = Step | Check
"""A migration is a version step or a readiness check."""
