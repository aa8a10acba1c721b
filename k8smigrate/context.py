"""What a migration body gets besides the object: findings, decisions and answers about versions.

Bodies report through ``ctx.info`` / ``ctx.warn`` / ``ctx.error`` (each code at the level its
migration declares), ask the user through ``ctx.decision``, pin changed defaults through
``ctx.pin`` and describe their edits through ``ctx.note`` (the human summary). An error
leaves the whole document untouched: the engine throws the edited tree away.

Bodies never read the window of releases: they ask ``ctx.needs_met`` (every release of the
window has what the check declares it ``needs``), ``ctx.everywhere_from(release)``,
``ctx.target_from(release)`` and ``ctx.final_api`` (the apiVersion the object ends at in
this run), and name releases in messages with ``ctx.oldest`` and ``ctx.target``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field

from .codes import CONDITIONAL_DEFAULT, DECISION_NEEDED, NEW_DEFAULT, Code, CodeError, declared
from .dataclasscode import dataclass
from .decisions import Decision
from .facts import Collector, FactSource, Located, T
from .lifecycles import ApiLifecycle, Lifecycles, lookup
from .results import Finding, Level
from .runtime_typing import Protocol
from .scalars import Data
from .settings import Settings
from .templating.values import written_under
from .tree import Mapping, Node, Sequence
from .versions import KubeVersion, Window

Body = Callable[[Mapping, "Context"], None]
"""A migration's edit: it receives the object (the document, or one item of a ``List``)."""


class Declared(Protocol):
    """What the context needs to know of the migration it runs for (a ``Step`` or a ``Check``)."""

    @property
    def name(self) -> str: ...

    @property
    def codes(self) -> tuple[Code, ...]: ...

    @property
    def decisions(self) -> tuple[Decision, ...]: ...


Sibling = tuple[str | None, str | None, Data]
"""``(apiVersion, kind, data)`` of one document of the stream, as read from the input."""


Place = tuple[Node, int, int, str | int]
"""Where a node stands: itself, its line (or the last line seen before it), its parent's
``id`` (0 for the root) and its key or index in that parent."""


class _Places:
    """``id(node)`` → its ``Place``, walked only as far as the nodes asked for.

    A finding names a node; its path is its chain of parents, which nodes do not hold. The
    walk goes in document order and stops at the node asked for, so a CRD's warning on
    ``spec`` walks ``apiVersion``, ``kind`` and ``metadata``, not the thousands of nodes of
    its schema; the next finding resumes where it stopped. A path is written out only for
    a node a finding names (``_path``).
    """

    def __init__(self, root: Mapping, doc_line: int) -> None:
        self.out: dict[int, Place] = {}
        self.line = doc_line
        self.stack: list[tuple[int, str | int, Node]] = [(0, "", root)]
        self.paused = False  # the walk stopped half-way once: the tree may have changed behind it since

    def find(self, node: Node) -> Place | None:
        """The place of ``node`` (None when the rest of the walk does not meet it)."""
        target = id(node)
        found = self.out.get(target)
        if found is not None and found[0] is node:
            return found
        out, stack = self.out, self.stack
        line = self.line
        while stack:
            parent, part, child = stack.pop()
            line = child.line or line
            key = id(child)
            out[key] = place = (child, line, parent, part)
            if isinstance(child, Mapping):
                stack.extend((key, e.name, e.value) for e in reversed(child.entries))
            elif isinstance(child, Sequence):
                stack.extend((key, i, item.value) for i, item in reversed(list(enumerate(child.items))))
            if key == target and child is node:
                self.line = line
                self.paused = self.paused or bool(stack)
                return place
        self.line = line
        return None


def _path(places: dict[int, Place], key: int) -> str:
    """The YAML path (``spec.rules[0].host``) of the node whose ``Place`` is under ``key``."""
    parts: list[str | int] = []
    while True:
        _node, _line, parent, part = places[key]
        if not parent:
            break
        parts.append(part)
        key = parent
    path = ""
    for part in reversed(parts):
        path = f"{path}[{part}]" if isinstance(part, int) else (f"{path}.{part}" if path else part)
    return path


@dataclass
class Context:
    """Per object and migration: settings, findings, decisions, version answers and the change summary."""

    migration: Declared
    settings: Settings
    root: Mapping
    window: Window
    filename: str = "<string>"
    document: int = 0
    doc_line: int = 0
    final_api: str | None = None
    """The apiVersion the object has once this run's version steps are done (its own when none runs)."""
    needs: KubeVersion | None = None
    """The release the migration declares it needs (a check's ``needs``)."""
    lifecycles: Lifecycles = field(default_factory=dict, repr=False)
    check_codes: bool = False
    """Whether a code reported at another level than declared raises (``raise_errors``, the tests)."""
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    read_siblings: Callable[[], list[Sibling]] | None = None
    read_facts: FactSource | None = None
    source: str = field(default="", repr=False)
    """The text of the stream the object was read from (``text_of`` cuts a node's lines out of it)."""
    plan_api: Callable[[str, str], str | None] | None = field(default=None, repr=False)
    """What ``migrated_api`` asks the engine: the apiVersion an object of that API and kind ends at."""
    _places: _Places | None = field(default=None, repr=False)
    """Where the nodes of the tree stand, walked on the first finding: a body that reports on
    every volume of a large object walks the tree once, not once per finding."""

    @property
    def adopt_new_defaults(self) -> bool:
        return self.settings.adopt_new_defaults

    # ------------------------------------------------------------------ versions

    @property
    def oldest(self) -> KubeVersion:
        """The oldest release the manifests must still run on (``--min-version``)."""
        return self.window.min_version

    @property
    def target(self) -> KubeVersion:
        """The release the manifests must run on after the upgrade (``--target-version``)."""
        return self.window.target

    def everywhere_from(self, release: KubeVersion) -> bool:
        """Whether every release of the window is ``release`` or later."""
        return self.window.min_version >= release

    def target_from(self, release: KubeVersion) -> bool:
        """Whether the target release is ``release`` or later."""
        return self.window.target >= release

    @property
    def needs_met(self) -> bool:
        """Whether every release of the window has what the migration ``needs`` (true without a need)."""
        return self.needs is None or self.everywhere_from(self.needs)

    def migrated_api(self, api_version: str, kind: str) -> str | None:
        """The apiVersion an object of ``api_version`` and ``kind`` ends at in this run (None: it stays).

        For a reference to another object by apiVersion and kind (a Flux ``healthChecks`` entry, a
        ``sourceRef``): the referenced object is migrated by the same run, so the reference follows.
        """
        return self.plan_api(api_version, kind) if self.plan_api is not None else None

    def lifecycle(self, api_version: str, kind: str) -> ApiLifecycle | None:
        """When ``api_version`` of ``kind`` is deprecated and removed (None when the table does not say)."""
        return lookup(self.lifecycles, api_version, kind)

    # ------------------------------------------------------------------ the stream

    @property
    def siblings(self) -> list[Sibling]:
        """Every readable document of the same stream (this one included), read-only, as in the input.

        For the rare step whose value crosses documents (kubeadm's ``timeoutForControlPlane``):
        each side reads the other's input data and edits only its own document.
        """
        return self.read_siblings() if self.read_siblings is not None else []

    def facts(self, collector: Collector[T]) -> list[Located[T]]:
        """The values ``collector`` found in the run (every file), or in this stream without a run.

        For a check that joins objects of different files: it reads the input of the other
        documents, edits only its own, and names the files it joined in its messages.
        """
        if self.read_facts is None:
            return []
        return self.read_facts(collector)

    def text_of(self, node: Node) -> str | None:
        """The lines a parsed block node was written on, dedented, comments included.

        None for a new node, a flow collection or a scalar: for a value that moves into a
        string (a Flux patch written inline becomes a ``patch: |`` text), the author's own lines.
        """
        if not self.source or node.src is None or not isinstance(node, (Mapping, Sequence)) or node.flow:
            return None
        start = self.source.rfind("\n", 0, node.src.start) + 1
        if self.source[start : node.src.start].strip(" -"):
            return None  # the node starts after a key on its first line: its lines are not its own
        lines = self.source[start : node.src.end].split("\n")
        lines[0] = " " * node.src.col + lines[0][node.src.start - start :]
        import textwrap  # here: only a finding that quotes a block of the text needs it

        return textwrap.dedent("\n".join(line.rstrip("\r") for line in lines)).rstrip("\n") + "\n"

    # ------------------------------------------------------------------ findings

    def locate(self, node: Node | None) -> tuple[int, str]:
        """The input line and YAML path of ``node`` (nearest parsed ancestor for new nodes)."""
        if node is None:
            return self.doc_line, ""
        if self._places is None:
            self._places = _Places(self.root, self.doc_line)
        found = self._places.find(node)
        if found is None and (node.line == 0 or self._places.paused):
            # a node added, or moved, where the walk had already been: walk the tree as it is now
            self._places = _Places(self.root, self.doc_line)
            found = self._places.find(node)
        if found is None:
            return node.line or self.doc_line, ""  # a mapping key, or a node outside the tree
        return node.line or found[1], _path(self._places.out, id(node))

    def report(self, level: Level, code: str, message: str, node: Node | None = None) -> None:
        """Record a finding; ``code`` must be declared (by the migration, or generally) at ``level``."""
        if self.check_codes:
            want = declared(self.migration.codes, code)
            if want is None or want.level != level:
                said = f"declared as {want.level}" if want is not None else "not declared"
                raise CodeError(f"{self.migration.name} reports {code} as {level}, but it is {said}")
        line, path = self.locate(node)
        self.findings.append(
            Finding(level, code, message, self.migration.name, self.filename, self.document, line, path)
        )

    def info(self, code: str, message: str, node: Node | None = None) -> None:
        self.report("info", code, message, node)

    def warn(self, code: str, message: str, node: Node | None = None) -> None:
        self.report("warning", code, message, node)

    def error(self, code: str, message: str, node: Node | None = None) -> None:
        """No correct output without a human: the document is left unchanged."""
        self.report("error", code, message, node)

    @property
    def failed(self) -> bool:
        return any(f.level == "error" for f in self.findings)

    def note(self, change: str) -> None:
        """One line of the human summary, such as ``spec.backend → spec.defaultBackend``."""
        if change not in self.notes:
            self.notes.append(change)

    # ------------------------------------------------------------------ decisions and defaults

    def _declared(self, name: str) -> Decision:
        found = next((d for d in self.migration.decisions if d.name == name), None)
        if found is None:
            raise KeyError(f"{self.migration.name} asks for undeclared decision {name!r}")
        return found

    def decided(self, name: str) -> str | None:
        """The value given for a declared decision, or its default, or None; never reports."""
        declared_decision = self._declared(name)
        value = self.settings.decisions.get(name, declared_decision.default)
        return value if value in declared_decision.allowed else None

    def decision(self, name: str, node: Node | None = None) -> str | None:
        """The value given for a declared decision (or its default), or None after an error finding."""
        declared_decision = self._declared(name)
        value = self.decided(name)
        if value is not None:
            return value
        given = self.settings.decisions.get(name)
        options = " | ".join(declared_decision.allowed)
        why = f" ({given!r} is not one of them)" if given is not None else ""
        self.error(
            DECISION_NEEDED.code,
            f"needs a decision: --set {name}={options}{why}. {declared_decision.help}",
            node,
        )
        return None

    def pin(self, mapping: Mapping, key: str, value: Data, code: str, why: str, *, after: str | None = None) -> bool:
        """Write an old default explicitly where the key is absent, unless new defaults are adopted.

        A key a template writes only under a condition is absent where the condition is false:
        there the new default applies, which is said (``K8SM-TPL-016``)."""
        if key in mapping:
            condition = written_under(mapping.entry(key))
            if condition is not None:
                self.warn(
                    CONDITIONAL_DEFAULT.code,
                    f"{key} is written only under {condition}: where that is false the new API's default "
                    f"applies, not the old one ({why}); write {key}: {value} in the other case too",
                    mapping.get(key),
                )
            return False
        if self.adopt_new_defaults:
            self.info(NEW_DEFAULT.code, f"{key} left unset: {why}", mapping)
            return False
        mapping.set(key, value, after=after)
        self.info(code, f"pinned {key}: {value} ({why})", mapping.get(key))
        return True


def mappings_at(node: Node | None, *path: str) -> list[Mapping]:
    """Every mapping reached by following ``path``, fanning out over sequences on the way."""
    current: list[Node] = [node] if node is not None else []
    for key in path:
        current = [child for n in current for m in as_mappings(n) if (child := m.get(key)) is not None]
    return [m for n in current for m in as_mappings(n)]


def as_mappings(node: Node) -> list[Mapping]:
    """``node`` itself when it is a mapping, its mapping items when it is a sequence."""
    if isinstance(node, Mapping):
        return [node]
    if isinstance(node, Sequence):
        return [v for v in node if isinstance(v, Mapping)]
    return []
