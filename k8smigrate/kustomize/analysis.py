"""What in a kustomize tree must move together, and how each patch and reference moves.

``Analysis`` reads the graph (``graph``), migrates every object the kustomizations use as
``apply`` would, then each patch through the objects it targets (``partial``), in the order
kustomize applies them (inner kustomizations first; strategic merge patches, then
``patches``, then JSON 6902 patches), each seeing its objects as the inner kustomizations left
them, and each reference (``references``). Every member that must change with an object is
tied to it (``Groups``); ``held`` says which groups have a member held back. Nothing here
writes or reports: ``assemble`` does.
"""

from __future__ import annotations

from dataclasses import field, replace
from pathlib import Path

from ..dataclasscode import dataclass
from ..engine import migrate_stream
from ..facts import Facts
from ..plan import element_kind, plan
from ..registry import Registry
from ..results import FileResult
from ..scalars import Data
from ..settings import Settings
from ..tree import Mapping, Sequence, TreeError
from ..yamlio import EVERY, read_stream
from . import partial, smp
from .graph import DocRef, Graph, Kustomization, PatchEntry, Source, object_id, widen
from .partial import Base, Outcome
from .references import Edits, ReferenceWork, configuration_work, replacement_work, var_work
from .selectors import ObjectId, Selector

MemberKey = tuple[object, ...]
Scoped = tuple[DocRef, ObjectId, "Kustomization | None"]
"""An object in a kustomization's scope: its id there, and the child it came through."""
_RANK = {"patchesStrategicMerge": 0, "patches": 1, "patchesJson6902": 2}


def _patch_rank(entry: PatchEntry) -> int:
    """Kustomize runs strategic merge patches, then ``patches``, then (after the name, namespace
    and label transformers) JSON 6902 patches (``kusttarget_configplugin.go``)."""
    return _RANK.get(entry.field, 1)


def _apply_json(data: Data, ops: Data) -> Data:
    if not isinstance(ops, list) or not all(isinstance(op, dict) for op in ops):
        return None
    import jsonpatch  # a JSON patch to apply: only then

    operations = [op for op in ops if isinstance(op, dict)]
    try:
        result: Data = jsonpatch.apply_patch(data, operations)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError):
        return None
    return result


@dataclass
class Planned:
    """A patch document (or a JSON patch) of a kustomization and the objects it targets."""

    key: MemberKey
    entry: PatchEntry
    doc_index: int | None
    text: str
    label: str
    chosen: list[Scoped]
    api: tuple[str, str] | None


@dataclass
class ObjectDoc:
    """One object of a resource file, before and after its own migration."""

    ref: DocRef
    source: Source
    api_version: str
    kind: str
    before: Data
    after: Data
    failure: str | None
    """Why the object stays as it is (its own error, a template), or None."""
    reported: frozenset[tuple[str, str]] = frozenset()
    rescued: str | None = None
    """The object's new root text when only its patch let it migrate (``Analysis._rescue``)."""
    rescued_by: str = ""

    _base: Base | None = None

    @property
    def changes(self) -> bool:
        return self.after != self.before

    def base(self) -> Base:
        """The object as patches and references see it (one per run: it caches its probes)."""
        if self._base is not None:
            return self._base
        doc = self.source.document(self.ref.index)
        self._base = Base(
            str(self.source.path),
            self.ref.index,
            self.api_version,
            self.kind,
            self.before,
            self.after,
            self.source.stream.text[doc.start : doc.end],
            self.reported,
        )
        return self._base


@dataclass
class PatchWork:
    """A patch document (or a JSON patch) of one kustomization, and what migrating it gave."""

    key: MemberKey
    entry: PatchEntry
    doc_index: int | None
    outcome: Outcome
    bases: list[DocRef]
    target_edits: Edits = field(default_factory=Edits)
    api: tuple[str, str] | None = None
    """The patch's own (apiVersion, kind), for a strategic merge patch."""

    @property
    def where(self) -> str:
        if self.entry.file is not None:
            return f"{self.entry.file}" + (f" (document {self.doc_index})" if self.doc_index else "")
        return self.entry.where()


class Groups:
    """Union-find over members (objects, patches, references)."""

    def __init__(self) -> None:
        self.parent: dict[MemberKey, MemberKey] = {}

    def find(self, key: MemberKey) -> MemberKey:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: MemberKey, b: MemberKey) -> None:
        self.parent[self.find(a)] = self.find(b)


class Analysis:
    """One run's kustomize trees: their objects before and after migration, each patch's and
    reference's outcome, the states patches see, the groups and what holds them back."""

    def __init__(self, roots: list[Path], settings: Settings, registry: Registry, facts: Facts | None = None) -> None:
        self.settings = settings
        self.registry = registry
        self.facts = facts
        self.graph = Graph(roots)
        self.docs: dict[DocRef, ObjectDoc] = {}
        self.results: dict[Path, FileResult] = {}
        self.patches: list[PatchWork] = []
        self.references: list[ReferenceWork] = []
        self.groups = Groups()
        self.failures: dict[MemberKey, tuple[str, str]] = {}
        """member → (where, why) for members held back on their own."""
        self._scopes: dict[int, list[Scoped]] = {}
        self.state_at: dict[tuple[int, DocRef], tuple[Data, Data]] = {}
        self._includers: dict[int, list[Kustomization]] = {}
        self._by_file: dict[Path, list[tuple[DocRef, ObjectDoc]]] | None = None

    # ------------------------------------------------------------------ phase 1: objects

    def load(self, files: list[Path]) -> None:
        for f in files:
            self.graph.load(self.graph.remember(f))
        for k in list(self.graph.kustomizations.values()):
            for comp in k.components:
                self._includers.setdefault(id(comp), []).append(k)

    def resource_files(self) -> list[Path]:
        seen: dict[Path, None] = {}
        for k in self.graph.kustomizations.values():
            for f in k.resource_files:
                seen.setdefault(f)
        return list(seen)

    def migrate_objects(self) -> None:
        for path in self.resource_files():
            source = self.graph.source(path)
            if source is None:
                continue
            result = migrate_stream(source.text, self.settings, str(source.path), self.registry, facts=self.facts)
            self.results[path] = result
            after_stream = read_stream(result.text, wanted=EVERY) if result.changed else source.stream
            failed_docs = {f.document for f in result.findings if f.level == "error"}
            for doc in source.stream.documents:
                if doc.root is None or not isinstance(doc.root, Mapping) or not doc.api_version or not doc.kind:
                    continue
                try:
                    before = doc.root.to_data()
                    after_doc = after_stream.documents[doc.index]
                    after = after_doc.root.to_data() if after_doc.root is not None else before
                except (TreeError, RecursionError, IndexError):
                    continue
                failure = None
                if doc.index in failed_docs:
                    errors = [f for f in result.findings if f.level == "error" and f.document == doc.index]
                    failure = "; ".join(f"{f.code} {f.message}" for f in errors[:2])
                ref = DocRef(path, doc.index)
                reported = frozenset((f.code, f.message) for f in result.findings if f.document == doc.index)
                self.docs[ref] = ObjectDoc(ref, source, doc.api_version, doc.kind, before, after, failure, reported)
                if failure is not None:
                    first = min(
                        (f.line for f in result.findings if f.level == "error" and f.document == doc.index), default=0
                    )
                    self.failures[self.doc_key(ref)] = (f"{source.path}:{first or doc.line}", failure)

    def hold_unsound(self) -> None:
        """A kustomization that may say one thing to kustomize and another to this tool (a
        duplicate key) holds every object it accumulates: its build cannot change."""
        for k in self.graph.kustomizations.values():
            if k.unsound is None:
                continue
            key: MemberKey = ("kustomization", k.path)
            line, why = k.unsound
            self.failures[key] = (f"{k.path}:{line}", why)
            for ref, _obj, _via in self.scope(k):
                self.groups.union(key, self.doc_key(ref))

    def subject(self, refs: list[DocRef]) -> tuple[str, str, str | None]:
        """(apiVersion, kind, name) of the first object of ``refs``, for a scan row."""
        if not refs or refs[0] not in self.docs:
            return ("", "", None)
        d = self.docs[refs[0]]
        meta = d.before.get("metadata") if isinstance(d.before, dict) else None
        name = meta.get("name") if isinstance(meta, dict) else None
        return (d.api_version, d.kind, str(name) if name is not None else None)

    @staticmethod
    def doc_key(ref: DocRef) -> MemberKey:
        return ("doc", ref.file, ref.index)

    # ------------------------------------------------------------------ scopes

    def scope(self, k: Kustomization, visiting: frozenset[int] = frozenset()) -> list[Scoped]:
        """The objects ``k`` accumulates before its own transformers run, with the ids inner
        kustomizations gave them and the child each came through (None: ``k``'s own file)."""
        if id(k) in self._scopes:
            return self._scopes[id(k)]
        if id(k) in visiting:
            return []
        visiting = visiting | {id(k)}
        out: list[Scoped] = []
        for f in k.resource_files:
            out += [(ref, object_id(d.before, d.api_version, d.kind), None) for ref, d in self.docs_of(f)]
        for child in [*k.children, *k.components]:
            out += [(ref, widen(obj, child), child) for ref, obj, _via in self.scope(child, visiting)]
        self._scopes[id(k)] = out
        return out

    def docs_of(self, path: Path) -> list[tuple[DocRef, ObjectDoc]]:
        if self._by_file is None:
            self._by_file = {}
            for ref, d in self.docs.items():
                self._by_file.setdefault(ref.file, []).append((ref, d))
        return self._by_file.get(path, [])

    def patch_scope(self, k: Kustomization) -> list[Scoped]:
        """What ``k``'s patches may target: its objects (a component's: those of every
        kustomization that includes it, too), with ``k``'s own names as well."""
        objs = [(ref, widen(obj, k), via) for ref, obj, via in self.scope(k)]
        for includer in self._includers.get(id(k), []):
            objs += [(ref, widen(obj, includer), via) for ref, obj, via in self.scope(includer)]
        return objs

    # ------------------------------------------------------------------ phase 2: patches

    def bottom_up(self) -> list[Kustomization]:
        """Every kustomization after the ones it includes (patches see what inner ones did)."""
        order: list[Kustomization] = []
        seen: set[int] = set()

        def visit(k: Kustomization) -> None:
            if id(k) in seen:
                return
            seen.add(id(k))
            for child in [*k.children, *k.components]:
                visit(child)
            order.append(k)

        for k in self.graph.kustomizations.values():
            visit(k)
        return order

    def state(self, k: Kustomization | None, ref: DocRef, via: Kustomization | None) -> tuple[Data, Data]:
        """An object as ``k``'s patches see it, before and after migration: its own data with the
        patches of the kustomizations it came through (and of ``k``'s components) applied."""
        if k is not None and (id(k), ref) in self.state_at:
            return self.state_at[(id(k), ref)]
        if via is None:
            d = self.docs[ref]
            found = (d.before, d.after)
        else:
            inner = next((v for r, _o, v in self.scope(via) if r == ref), None)
            found = self.state(via, ref, inner)
        for comp in k.components if k is not None else []:
            found = self.state_at.get((id(comp), ref), found)
        return found

    def migrate_patches(self) -> None:
        for k in self.bottom_up():
            objs = self.patch_scope(k)
            plans = [p for entry in sorted(k.patches, key=_patch_rank) for p in self._plan(entry, objs)]
            self._rescue(k, plans)
            for planned in plans:
                self._patch(k, planned, objs)

    def _patch_text(self, entry: PatchEntry) -> tuple[str, str] | None:
        if entry.inline is not None:
            return str(entry.inline.data), str(entry.owner.path)
        assert entry.file is not None
        source = self.graph.source(entry.file)
        return (source.text, str(source.path)) if source is not None else None

    def _plan(self, entry: PatchEntry, objs: list[Scoped]) -> list[Planned]:
        """One piece of work per patch document (one per JSON patch), with the objects it targets."""
        found = self._patch_text(entry)
        if found is None:
            return []
        text, label = found
        stream = read_stream(text, wanted=EVERY)
        roots = [d for d in stream.documents if d.root is not None]
        json6902 = entry.json6902
        if json6902 is None:
            json6902 = bool(roots) and isinstance(roots[0].root, Sequence)
        ident: tuple[object, ...] = (
            (entry.file,) if entry.file is not None else (entry.owner.path, entry.field, entry.index)
        )
        selector = Selector.of(entry.target.to_data()) if entry.target is not None else None
        if json6902:
            chosen = [(r, o, v) for r, o, v in objs if selector is not None and selector.matches(o)]
            return [Planned(("patch", *ident, id(entry)), entry, None, text, label, chosen, None)]
        out: list[Planned] = []
        for doc in stream.documents:
            if not isinstance(doc.root, Mapping) or doc.templated:
                continue
            api, kind = doc.api_version or "", doc.kind or ""
            if selector is not None:
                chosen = [(r, o, v) for r, o, v in objs if selector.matches(o)]
            else:
                chosen = [
                    (r, o, v)
                    for r, o, v in objs
                    if o.api_version == api
                    and o.kind == kind
                    and (doc.name in o.names or not doc.name)
                    and (not doc.namespace or not o.namespaces or doc.namespace in o.namespaces)
                ]
            key = ("patch", *ident, doc.index, id(entry))
            out.append(Planned(key, entry, doc.index, text, label, chosen, (api, kind)))
        return out

    def _patch(self, k: Kustomization, planned: Planned, objs: list[Scoped]) -> None:
        entry = planned.entry
        refs = [r for r, _o, _v in planned.chosen]
        if planned.doc_index is None:
            bases = [
                self._base(k, r, v).as_transformed(o.added_labels, o.added_annotations) for r, o, v in planned.chosen
            ]
            outcome = partial.migrate_json6902(planned.text, planned.label, bases, self.settings, self.registry)
            self._add(PatchWork(planned.key, entry, None, outcome, refs), bases)
            self._advance(k, planned, bases, outcome)
            return
        api, kind = planned.api or ("", "")
        if not refs:
            self._unresolved(planned.key, entry, planned.doc_index, api, kind, objs)
            return
        bases = [self._base(k, r, v) for r, _o, v in planned.chosen]
        outcome = partial.migrate_smp(
            planned.text, planned.doc_index, planned.label, bases, self.settings, self.registry
        )
        self._add(PatchWork(planned.key, entry, planned.doc_index, outcome, refs, api=(api, kind)), bases)
        self._advance(k, planned, bases, outcome)

    def _base(self, k: Kustomization, ref: DocRef, via: Kustomization | None) -> Base:
        base = self.docs[ref].base()
        before, after = self.state(k, ref, via)
        if before is base.before and after is base.after:
            return base
        return replace(base, before=before, after=after, variants=[], _moves=None, _tree=None)

    def _advance(self, k: Kustomization, planned: Planned, bases: list[Base], outcome: Outcome) -> None:
        """Record each target as the next patches of ``k`` (and its includers) see it."""
        for (ref, _o, _v), base in zip(planned.chosen, bases, strict=True):
            mine = outcome.data if outcome.ok and outcome.data is not None else outcome.original
            if mine is None:
                continue
            if planned.doc_index is None:
                before = _apply_json(base.before, outcome.original)
                after = _apply_json(base.after, mine)
            else:
                before = smp.merge_data(base.before, outcome.original, base.known_schema)
                after = smp.merge_data(base.after, mine, base.known_schema)
            if before is not None and after is not None:
                self.state_at[(id(k), ref)] = (before, after)

    def _rescue(self, k: Kustomization, plans: list[Planned]) -> None:
        """An object that cannot be migrated alone (a decision its patch settles, a field its
        patch sets) is migrated as ``k`` builds it, when ``k`` is the only kustomization that
        uses its file and one strategic merge patch of ``k`` targets it: the object keeps its
        own part (``smp.overlay``), the patch its part; together they build the migrated object."""
        users: dict[Path, int] = {}
        for other in self.graph.kustomizations.values():
            for f in other.resource_files:
                users[f] = users.get(f, 0) + 1
        for ref in [r for r, d in self.docs.items() if d.failure is not None and r.file in k.resource_files]:
            mine = [p for p in plans if any(r == ref for r, _o, _v in p.chosen)]
            if users.get(ref.file) != 1 or len(mine) != 1 or mine[0].doc_index is None:
                continue
            d = self.docs[ref]
            patch = mine[0]
            stream = read_stream(patch.text, wanted=EVERY)
            root = stream.documents[patch.doc_index or 0].root
            if root is None:
                continue
            rescued = partial.complete_base(d.base(), root.to_data(), self.settings, self.registry)
            if rescued is None:
                continue
            text, after = rescued
            d.after, d.failure, d.rescued, d.rescued_by = after, None, text, patch.label
            d._base = None
            self.failures.pop(self.doc_key(ref), None)

    def _unresolved(
        self, key: MemberKey, entry: PatchEntry, index: int, api: str, kind: str, objs: list[Scoped]
    ) -> None:
        """A strategic merge patch whose object is not in the run: it stays; if it needs
        migrating, so do the objects of its kind it might be meant for."""
        window = self.settings.window
        if not api or not kind or not plan(api, element_kind(kind), self.settings, self.registry, window).steps:
            return
        outcome = Outcome().fail(
            f"no object of the run is {api} {kind} of that name (is it in a remote base, made by a generator, "
            "or outside the folders given?)"
        )
        refs = [ref for ref, obj, _via in objs if obj.kind == kind]
        self._add(PatchWork(key, entry, index, outcome, refs, api=(api, kind)), [])

    def _add(self, work: PatchWork, bases: list[Base]) -> None:
        entry = work.entry
        if entry.target is not None and work.outcome.ok and bases:
            edits = Edits()
            problem = edits.retarget(entry.target, bases, f"{entry.field}[{entry.index}].target")
            if problem:
                work.outcome.fail(f"its target cannot name the migrated objects: {problem}")
            else:
                work.target_edits = edits
        self.patches.append(work)
        if not work.outcome.ok:
            self.failures[work.key] = (work.where, work.outcome.reason)
        if not work.outcome.ok or work.outcome.text is not None or work.target_edits:
            for ref in work.bases:
                self.groups.union(work.key, self.doc_key(ref))

    # ------------------------------------------------------------------ references

    def migrate_references(self) -> None:
        for (_k, ref), (before, after) in self.state_at.items():
            base = self.docs[ref].base()
            if all(v.before != before or v.after != after for v in base.variants):
                base.variants.append(replace(base, before=before, after=after, variants=[], _moves=None, _tree=None))
        for k in self.graph.kustomizations.values():
            objs = [(ref, obj) for ref, obj, _via in self.patch_scope(k)]
            bases = {ref: self.docs[ref].base() for ref, _o in objs}
            for var in k.vars:
                self._reference(var_work(var, objs, bases, self.settings, self.registry))
            for repl in k.replacements:
                self._reference(replacement_work(repl, objs, bases, self.settings, self.registry))
        every = {ref: d.base() for ref, d in self.docs.items()}
        every_obj = [(ref, object_id(d.before, d.api_version, d.kind)) for ref, d in self.docs.items()]
        configs: dict[Path, None] = {}
        for k in self.graph.kustomizations.values():
            for path in k.configurations:
                configs.setdefault(path)
        for path in configs:
            source = self.graph.source(path)
            if source is not None:
                for work in configuration_work(source, every_obj, every, self.settings, self.registry):
                    self._reference(work)

    def _reference(self, work: ReferenceWork) -> None:
        self.references.append(work)
        if work.problem:
            self.failures[work.key] = (work.where, work.problem)
        if work.problem or work.edits:
            for ref in work.refs:
                self.groups.union(work.key, self.doc_key(ref))

    # ------------------------------------------------------------------ phase 3: groups

    def held(self) -> dict[MemberKey, list[tuple[str, str]]]:
        """Every member of a group with a member held back → the reasons (where, why)."""
        by_group: dict[MemberKey, list[tuple[str, str]]] = {}
        for key, reason in self.failures.items():
            by_group.setdefault(self.groups.find(key), []).append(reason)
        out: dict[MemberKey, list[tuple[str, str]]] = {}
        for key in list(self.groups.parent):
            reasons = by_group.get(self.groups.find(key))
            if reasons:
                out[key] = reasons
        for key, reason in self.failures.items():
            out.setdefault(key, [reason])
        return out
