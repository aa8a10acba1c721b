"""Migrating kustomize trees as wholes: bases, overlays, components and patches together.

``migrate_trees`` finds the kustomizations under the run's folders, migrates every object
they use (``resources``/``bases``/``components``) as ``apply`` would, then each patch
through the objects it targets (``partial``), each reference by kind and field path
(patch ``target``\\ s, ``vars``, ``replacements``, ``configurations``) through the objects it
selects (``references``). Then *all or nothing per object identity*: an object and every
patch or reference that must change with it form a group; when one member is held back (an
error, a decision not given, a template, a patch that cannot follow), the whole group stays
as it is, with a finding that names the files. A tree never builds worse than before.

Files the kustomizations read as data (generator inputs, plugin configurations, ``crds``)
are never migrated as manifests. Files in the folders that no kustomization references are
left to the ordinary per-file run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import jsonpatch

from ..api import UNREADABLE_CODES, FileOutcome, input_error
from ..engine import element_kind, migrate_stream, plan
from ..files import InputError, Loaded, write_atomic
from ..registry import Registry
from ..results import DocumentResult, FileResult, Finding, Level
from ..scalars import Data
from ..scan import ScanEntry, Status
from ..settings import Settings
from ..tree import Mapping, Node, Scalar, Sequence, TreeError
from ..versions import lifecycle
from ..yamlio import BOM, EVERY, Stream, read_stream
from . import partial, pointer, smp
from .fix import fix
from .graph import NAMES, DocRef, Graph, Kustomization, PatchEntry, Source, object_id, widen
from .inline import splice_block
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
    operations = [op for op in ops if isinstance(op, dict)]
    try:
        result: Data = jsonpatch.apply_patch(data, operations)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError):
        return None
    return result


@dataclass
class _Planned:
    """A patch document (or a JSON patch) of a kustomization and the objects it targets."""

    key: MemberKey
    entry: PatchEntry
    doc_index: int | None
    text: str
    label: str
    chosen: list[Scoped]
    api: tuple[str, str] | None


def find_kustomizations(paths: Iterable[Path]) -> list[Path]:
    """Every kustomization file at or below the given folders (hidden folders skipped)."""
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            continue
        for folder, dirs, files in os.walk(path, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            names = [n for n in NAMES if n in files]
            if names:
                found.append(Path(folder, names[0]))
    return sorted(found)


@dataclass
class _Doc:
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
    """The object's new root text when only its patch let it migrate (``_Run._rescue``)."""
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
class _PatchWork:
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


class _Groups:
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


@dataclass
class TreeRun:
    """What the kustomize part of a run did: one outcome per file it owns."""

    outcomes: dict[Path, FileOutcome] = field(default_factory=dict)
    """By resolved path."""
    owned: set[Path] = field(default_factory=set)
    """Resolved paths the kustomize part decides for (the per-file run must skip them)."""
    roles: dict[Path, str] = field(default_factory=dict)
    """What each owned file is to kustomize: resource, patch, configuration, data, kustomization."""
    rows: dict[Path, list[ScanEntry]] = field(default_factory=dict)
    """Scan rows only the tree can tell (patches' targets and paths, references, held groups)."""

    def row(self, path: Path, entry: ScanEntry) -> None:
        self.rows.setdefault(path, []).append(entry)


class _Run:
    def __init__(self, roots: list[Path], settings: Settings, registry: Registry) -> None:
        self.settings = settings
        self.registry = registry
        self.graph = Graph(roots)
        self.docs: dict[DocRef, _Doc] = {}
        self.results: dict[Path, FileResult] = {}
        self.patches: list[_PatchWork] = []
        self.references: list[ReferenceWork] = []
        self.groups = _Groups()
        self.failures: dict[MemberKey, tuple[str, str]] = {}
        """member → (where, why) for members held back on their own."""
        self.extra: dict[Path, list[Finding]] = {}
        self._scopes: dict[int, list[Scoped]] = {}
        self.state_at: dict[tuple[int, DocRef], tuple[Data, Data]] = {}
        self._includers: dict[int, list[Kustomization]] = {}
        self._by_file: dict[Path, list[tuple[DocRef, _Doc]]] | None = None

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
            result = migrate_stream(source.text, self.settings, str(source.path), self.registry)
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
                self.docs[ref] = _Doc(ref, source, doc.api_version, doc.kind, before, after, failure, reported)
                if failure is not None:
                    first = min(
                        (f.line for f in result.findings if f.level == "error" and f.document == doc.index), default=0
                    )
                    self.failures[self._doc_key(ref)] = (f"{source.path}:{first or doc.line}", failure)

    def subject(self, refs: list[DocRef]) -> tuple[str, str, str | None]:
        """(apiVersion, kind, name) of the first object of ``refs``, for a scan row."""
        if not refs or refs[0] not in self.docs:
            return ("", "", None)
        d = self.docs[refs[0]]
        meta = d.before.get("metadata") if isinstance(d.before, dict) else None
        name = meta.get("name") if isinstance(meta, dict) else None
        return (d.api_version, d.kind, str(name) if name is not None else None)

    @staticmethod
    def _doc_key(ref: DocRef) -> MemberKey:
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
            out += [(ref, object_id(d.before, d.api_version, d.kind), None) for ref, d in self._docs_of(f)]
        for child in [*k.children, *k.components]:
            out += [(ref, widen(obj, child), child) for ref, obj, _via in self.scope(child, visiting)]
        self._scopes[id(k)] = out
        return out

    def _docs_of(self, path: Path) -> list[tuple[DocRef, _Doc]]:
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

    def _plan(self, entry: PatchEntry, objs: list[Scoped]) -> list[_Planned]:
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
            return [_Planned(("patch", *ident, id(entry)), entry, None, text, label, chosen, None)]
        out: list[_Planned] = []
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
            out.append(_Planned(key, entry, doc.index, text, label, chosen, (api, kind)))
        return out

    def _patch(self, k: Kustomization, planned: _Planned, objs: list[Scoped]) -> None:
        entry = planned.entry
        refs = [r for r, _o, _v in planned.chosen]
        if planned.doc_index is None:
            bases = [
                self._base(k, r, v).as_transformed(o.added_labels, o.added_annotations) for r, o, v in planned.chosen
            ]
            outcome = partial.migrate_json6902(planned.text, planned.label, bases, self.settings, self.registry)
            self._add(_PatchWork(planned.key, entry, None, outcome, refs), bases)
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
        self._add(_PatchWork(planned.key, entry, planned.doc_index, outcome, refs, api=(api, kind)), bases)
        self._advance(k, planned, bases, outcome)

    def _base(self, k: Kustomization, ref: DocRef, via: Kustomization | None) -> Base:
        base = self.docs[ref].base()
        before, after = self.state(k, ref, via)
        if before is base.before and after is base.after:
            return base
        return replace(base, before=before, after=after, _moves=None, _tree=None)

    def _advance(self, k: Kustomization, planned: _Planned, bases: list[Base], outcome: Outcome) -> None:
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

    def _rescue(self, k: Kustomization, plans: list[_Planned]) -> None:
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
            self.failures.pop(self._doc_key(ref), None)

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
        self._add(_PatchWork(key, entry, index, outcome, refs, api=(api, kind)), [])

    def _add(self, work: _PatchWork, bases: list[Base]) -> None:
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
                self.groups.union(work.key, self._doc_key(ref))

    # ------------------------------------------------------------------ references

    def migrate_references(self) -> None:
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
                self.groups.union(work.key, self._doc_key(ref))

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


def _level(api: str | None, kind: str | None, settings: Settings) -> Level:
    life = lifecycle(api, element_kind(kind)) if api and kind else None
    removed = life is not None and life.removed_in is not None and life.removed_in <= settings.window.target
    return "error" if removed else "warning"


def _why(reasons: list[tuple[str, str]]) -> str:
    listed = [f"{where}: {why}" for where, why in reasons[:3]]
    return "; ".join(listed) + (f"; and {len(reasons) - 3} more" if len(reasons) > 3 else "")


def _row(f: Finding, api: str, kind: str, name: str | None, settings: Settings) -> ScanEntry:
    """A kustomize finding as a scan row: a change the target needs has the status of the API it
    follows (removed or deprecated); a reference held back is breaking (error) or a warning."""
    life = lifecycle(api, element_kind(kind))
    status: Status
    if f.level == "info":
        removed = life is not None and life.removed_in is not None and life.removed_in <= settings.window.target
        status = "removed" if removed else "deprecated"
    else:
        status = "breaking" if f.level == "error" else "warning"
    return ScanEntry(
        f.filename,
        f.document,
        f.line,
        api,
        kind,
        name,
        status,
        str(life.deprecated_in) if life and life.deprecated_in else None,
        str(life.removed_in) if life and life.removed_in else None,
        life.replacement if life else None,
        "kustomize" if f.level == "info" else None,
        False,
        category="kustomize",
        level=f.level,
        code=f.code,
        message=f.message,
    )


class _Files:
    """What becomes of every file the kustomize part owns: new texts and findings."""

    def __init__(self, run: _Run, out: TreeRun) -> None:
        self.run = run
        self.out = out
        self.findings: dict[Path, list[Finding]] = {}
        self.docs: dict[Path, dict[int, str]] = {}
        """Patch files: the new text of a document's root, by document index."""
        self.blocks: dict[Path, list[tuple[PatchEntry, str]]] = {}
        """Kustomization files: the new text of an inline patch."""
        self.applied: dict[Path, dict[int, list[str]]] = {}
        """Patch files: the migrations a document's merged object went through."""

    def add(self, path: Path, finding: Finding, subject: tuple[str, str, str | None] | None = None) -> None:
        """A finding on a file; with ``subject`` (apiVersion, kind, name) it is a scan row too."""
        self.findings.setdefault(path, []).append(finding)
        if subject is not None:
            self.out.row(path, _row(finding, *subject, self.run.settings))


def migrate_trees(paths: list[Path], settings: Settings, registry: Registry, *, in_place: bool = False) -> TreeRun:
    """Migrate every kustomize tree under ``paths`` (folders); nothing outside them is read.

    With ``in_place`` the files are written (atomically, each only when it changed and has
    no error that makes it unreadable); otherwise the outcomes say what would change.
    """
    out = TreeRun()
    found = find_kustomizations(paths)
    if not found:
        return out
    run = _Run([p for p in paths if p.is_dir()], settings, registry)
    run.load(found)
    run.migrate_objects()
    run.migrate_patches()
    run.migrate_references()
    held = run.held()
    files = _Files(run, out)
    _hold_objects(run, held, files)
    _settle_patches(run, held, files)
    for work in run.references:
        subject = run.subject(work.refs)
        if not held.get(work.key):
            _edited(run, files, work.edits, subject)
        else:
            source_path = Path(work.where.split(":", 1)[0])
            files.add(source_path.resolve(), _held_reference(work, held[work.key]), subject)
    for k in run.graph.kustomizations.values():
        me = (_text_of(k.get("apiVersion")), _text_of(k.get("kind")) or "Kustomization", None)
        for raw, line in k.remote:
            message = (
                f"remote reference {raw} is not fetched: what it holds is not migrated, and patches that "
                "target it are left as they are"
            )
            files.add(k.path.resolve(), Finding("warning", "K8SM-KUS-004", message, None, str(k.path), 0, line), me)
        for raw, line in k.outside:
            message = (
                f"{raw} is outside the folders given: what it holds is not migrated with this tree "
                "(give the folder that holds both)"
            )
            files.add(k.path.resolve(), Finding("warning", "K8SM-KUS-004", message, None, str(k.path), 0, line), me)
    if settings.enabled(FIX, opt_in=True):
        for k in run.graph.kustomizations.values():
            _fix(k, files)
    _assemble(run, out, files, in_place)
    return out


FIX = "kustomize_edit_fix"
"""The opt-in migration that moves deprecated kustomization fields (``migrations/kustomize_edit_fix.py``)."""


def _fix(k: Kustomization, files: _Files) -> None:
    me = (_text_of(k.get("apiVersion")), _text_of(k.get("kind")) or "Kustomization", None)

    def report(level: str, code: str, message: str, node: Node | None) -> None:
        line = (node.line if node is not None else 0) or k.line
        finding = Finding(level, code, message, FIX, str(k.path), 0, line)  # type: ignore[arg-type]
        files.add(k.path.resolve(), finding, me)

    fix(k.root, report, k.source.stream.text)


def _hold_objects(run: _Run, held: dict[MemberKey, list[tuple[str, str]]], files: _Files) -> None:
    """Migrate again the resource files with objects that must stay, leaving those as they are;
    write the objects only their patch let migrate."""
    settings = run.settings
    for path, result in list(run.results.items()):
        mine = [(ref, d) for ref, d in run._docs_of(path)]
        hold = {ref.index for ref, d in mine if d.changes and d.failure is None and run._doc_key(ref) in held}
        source = run.graph.source(path)
        assert source is not None
        if hold:
            result = migrate_stream(source.text, settings, str(source.path), run.registry, hold=hold)
        for index in sorted(hold):
            d = run.docs[DocRef(path, index)]
            result.findings.append(
                Finding(
                    _level(d.api_version, d.kind, settings),
                    "K8SM-KUS-002",
                    f"{d.api_version} {d.kind} left as it is, with what must move with it: "
                    f"{_why(held[run._doc_key(d.ref)])}",
                    None,
                    str(source.path),
                    index,
                    source.document(index).line,
                )
            )
        rescued = {ref.index: d.rescued for ref, d in mine if d.rescued is not None and ref.index not in hold}
        if rescued:
            result = _with_rescued(run, path, source, result, rescued)
        run.results[path] = result


def _with_rescued(run: _Run, path: Path, source: Source, result: FileResult, rescued: dict[int, str]) -> FileResult:
    """``result`` with the objects only their patch let migrate written, their own errors gone."""
    stream = read_stream(result.text, wanted=EVERY)
    text = _splice(Source(source.path, Loaded(source.path, result.text, b""), stream), rescued)
    kept = [f for f in result.findings if not (f.document in rescued and f.level == "error")]
    out = FileResult(result.filename, result.original, text, kept, result.documents)
    for index in sorted(rescued):
        by = next((d.rescued_by for ref, d in run._docs_of(path) if ref.index == index), "")
        out.findings.append(
            Finding(
                "info",
                "K8SM-KUS-008",
                f"migrated as its kustomization builds it: its patch {by} settles what its migration needs "
                "(alone, the object is not complete for the new API; it is used with that patch)",
                None,
                str(source.path),
                index,
                source.document(index).line,
            )
        )
    return out


def _settle_patches(run: _Run, held: dict[MemberKey, list[tuple[str, str]]], files: _Files) -> None:
    settings = run.settings
    for work in run.patches:
        entry = work.entry
        path = entry.file if entry.file is not None else entry.owner.path.resolve()
        shown = str(run.graph.display(path))
        line = entry.line
        if entry.file is not None:
            source = run.graph.source(entry.file)
            line = source.document(work.doc_index or 0).line if source is not None else 1
        if work.key in held:
            api, kind = work.api if work.api else (None, None)
            if work.api is None and work.bases:
                api, kind = run.docs[work.bases[0]].api_version, run.docs[work.bases[0]].kind
            reasons = held[work.key]
            targets = ", ".join(_shown(run, work.bases)) or "none found"
            files.add(
                path,
                Finding(
                    _level(api, kind, settings),
                    "K8SM-KUS-002",
                    f"patch left as it is, with the objects it targets ({targets}): {_why(reasons)}",
                    None,
                    shown,
                    work.doc_index or 0,
                    line,
                ),
                (api or "", kind or "", run.subject(work.bases)[2]),
            )
            continue
        subject = run.subject(work.bases)
        for f in work.outcome.findings:
            files.add(path, _relocated(f, shown, entry))
        for old, new, at in work.outcome.moves:
            message = f"JSON patch path {old} → {new}"
            where = entry.inline.line + at if entry.inline is not None else at
            files.add(path, Finding("info", "K8SM-KUS-005", message, None, shown, 0, where), subject)
        if work.outcome.text is not None and (entry.inline is not None or work.doc_index is None):
            new_api = run.docs[work.bases[0]].base().new_api if work.bases else ""
            message = f"{'inline ' if entry.inline is not None else ''}patch follows its objects to {new_api}"
            files.add(path, Finding("info", "K8SM-KUS-007", message, None, shown, work.doc_index or 0, line), subject)
        if work.outcome.text is not None and entry.file is not None and work.doc_index is not None:
            files.applied.setdefault(path, {})[work.doc_index] = work.outcome.applied
        if work.outcome.text is not None:
            if entry.inline is not None:
                files.blocks.setdefault(path, []).append((entry, work.outcome.text))
            else:
                docs = files.docs.setdefault(path, {})
                index = work.doc_index if work.doc_index is not None else 0
                if docs.get(index, work.outcome.text) != work.outcome.text:
                    files.add(
                        path,
                        Finding(
                            "error",
                            "K8SM-KUS-002",
                            "the patch is used by several kustomizations that need different edits; left as it is",
                            None,
                            shown,
                            index,
                            line,
                        ),
                    )
                    docs[index] = ""
                else:
                    docs[index] = work.outcome.text
        _edited(run, files, work.target_edits, subject)


def _edited(run: _Run, files: _Files, edits: Edits, subject: tuple[str, str, str | None]) -> None:
    """Apply the edits of a reference that moves, each with an info finding where it is written."""
    for node, value, what in edits.items:
        for k in run.graph.kustomizations.values():
            if pointer.locate(k.root, node) is not None:
                where: Path | None = k.path
                break
        else:
            where = None
        old = node.data
        node.set(value)
        if where is not None:
            files.add(
                where.resolve(),
                Finding("info", "K8SM-KUS-006", f"{what}: {old} → {value}", None, str(where), 0, node.line),
                subject,
            )


def _text_of(node: Node | None) -> str:
    return str(node.data) if isinstance(node, Scalar) and node.data is not None else ""


def _held_reference(work: ReferenceWork, reasons: list[tuple[str, str]]) -> Finding:
    where, _sep, line = work.where.partition(":")
    return Finding(
        "error" if work.problem else "warning",
        "K8SM-KUS-002",
        f"reference left as it is, with the objects it names: {_why(reasons)}",
        None,
        where,
        0,
        int(line.split(" ", 1)[0]) if line.split(" ", 1)[0].isdigit() else 0,
    )


def _shown(run: _Run, refs: list[DocRef]) -> list[str]:
    out = []
    for ref in refs[:3]:
        source = run.graph.source(ref.file)
        if source is not None:
            out.append(f"{source.path}:{source.document(ref.index).line}")
    return out + ([f"{len(refs) - 3} more"] if len(refs) > 3 else [])


def _relocated(f: Finding, filename: str, entry: PatchEntry) -> Finding:
    line = entry.line + f.line if entry.inline is not None else f.line
    return Finding(f.level, f.code, f.message, f.migration, filename, f.document, line, f.path)


def _assemble(run: _Run, out: TreeRun, files: _Files, in_place: bool) -> None:
    graph = run.graph
    for path, result in run.results.items():
        result.findings += files.findings.pop(path, [])
        out.roles[path] = "resource"
        _outcome(out, path, graph, result, in_place)
    kustomizations = {k.path.resolve(): k for k in graph.kustomizations.values()}
    others: dict[Path, str] = {}
    for k in graph.kustomizations.values():
        for p in k.patches:
            if p.file is not None:
                others.setdefault(p.file, "patch")
        for path in k.configurations:
            others.setdefault(path, "configuration")
        for path in k.data_files:
            others.setdefault(path, "data")
    for path, role in others.items():
        if path in out.outcomes or path in kustomizations:
            continue
        source = graph.source(path)
        if source is None:
            continue
        docs = {i: t for i, t in files.docs.get(path, {}).items() if t}
        text = _splice(source, docs) if docs else _render_edited(source) or source.text
        result = FileResult(str(source.path), source.text, text, files.findings.pop(path, []))
        applied = files.applied.get(path, {})
        result.documents = [
            DocumentResult(d.index, d.line, d.api_version, d.kind, d.name, applied=applied.get(d.index, []))
            for d in source.stream.documents
        ]
        out.roles[path] = role
        _outcome(out, path, graph, result, in_place)
    for path, k in kustomizations.items():
        source = k.source
        text = _render_edited(source) or source.text
        problems = files.findings.pop(path, [])
        for entry, value in sorted(files.blocks.get(path, []), key=lambda b: -b[0].line):
            spliced = _splice_inline(text, k, entry, value)
            if spliced is None:
                problems.append(
                    Finding(
                        "error",
                        "K8SM-KUS-003",
                        "the inline patch could not be rewritten in its block; left as it is",
                        None,
                        str(source.path),
                        0,
                        entry.line,
                    )
                )
            else:
                text = spliced
        out.roles[path] = "kustomization"
        _outcome(out, path, graph, FileResult(str(source.path), source.text, text, problems), in_place)
    out.owned = set(out.outcomes)
    for problem in graph.problems:
        resolved = problem.path.resolve()
        finding = Finding(problem.level, problem.code, problem.message, None, str(problem.path), 0, problem.line)  # type: ignore[arg-type]
        o = out.outcomes.get(resolved)
        if o is not None and o.result is not None:
            o.result.findings.append(finding)
        else:
            out.outcomes[resolved] = FileOutcome(problem.path, error=finding)
            out.owned.add(resolved)


def _splice_inline(text: str, k: Kustomization, entry: PatchEntry, value: str) -> str | None:
    """``text`` (the kustomization, maybe re-rendered) with the inline patch of ``entry`` replaced."""
    assert entry.inline is not None
    located = pointer.locate(k.root, entry.inline)
    stream = read_stream(text, wanted=EVERY)
    root = stream.documents[0].root if stream.documents else None
    if located is None or root is None:
        return None
    try:
        node, _path = pointer.resolve(root, [str(p) for p in located])
    except pointer.PointerError:
        return None
    return splice_block(text, node, value) if isinstance(node, Scalar) else None


def _render_edited(source: Source) -> str | None:
    """The text of a file whose trees were edited in place (targets, paths), or None."""
    pieces: list[str] = []
    pos = 0
    stream = source.stream
    for doc in stream.documents:
        root = doc.root
        if root is None or root.src is None or root.pristine():
            continue
        new = partial.render_root(stream, root)
        if new is None:
            return None
        pieces += [stream.text[pos : root.src.start], new]
        pos = root.src.end
    if not pieces:
        return None
    return (BOM if stream.bom else "") + "".join(pieces) + stream.text[pos:]


def _splice(source: Source, edits: dict[int, str]) -> str:
    stream: Stream = source.stream
    pieces: list[str] = []
    pos = 0
    for doc in stream.documents:
        new = edits.get(doc.index)
        root = doc.root
        if new is None or root is None or root.src is None:
            continue
        pieces += [stream.text[pos : root.src.start], new]
        pos = root.src.end
    return (BOM if stream.bom else "") + "".join(pieces) + stream.text[pos:]


def _outcome(out: TreeRun, path: Path, graph: Graph, result: FileResult, in_place: bool) -> None:
    source = graph.source(path)
    outcome = FileOutcome(Path(result.filename), result)
    unreadable = any(f.code in UNREADABLE_CODES for f in result.findings)
    if in_place and result.changed and not unreadable and source is not None:
        try:
            outcome.written = write_atomic(Loaded(path, source.loaded.text, source.loaded.raw), result.text)
        except (InputError, OSError) as exc:
            outcome.error = input_error(result.filename, str(exc))
    out.outcomes[path] = outcome


def scan_trees(paths: list[Path], settings: Settings, registry: Registry) -> TreeRun:
    """What ``scan`` says about the kustomize trees under ``paths``: each file's rows as a plain
    scan gives them (objects and strategic merge patches on deprecated or removed APIs), and
    the rows only the tree can tell (JSON patch paths and targets that stop matching, inline
    patches, ``vars``/``replacements``/``configurations``, what must be held back together).
    Generator inputs are data: no rows. Nothing is written."""
    from ..api import scanned

    tree = migrate_trees(paths, settings, registry)
    for path, outcome in list(tree.outcomes.items()):
        role = tree.roles.get(path)
        rows = tree.rows.get(path, [])
        result = outcome.result
        if result is None:
            continue
        if role in ("resource", "patch"):
            plain = scanned(outcome.path, result.original, result.filename, settings)
            plain.scan = sorted([*plain.scan, *rows], key=lambda e: (e.document, e.line))
            tree.outcomes[path] = plain
            continue
        problems = [f for f in result.findings if f.code in UNREADABLE_CODES or f.code == "K8SM-KUS-001"]
        slim = FileResult(result.filename, result.original, result.original, problems)
        slim.slim(keep_diff=False)
        tree.outcomes[path] = FileOutcome(outcome.path, slim, outcome.error, scan=sorted(rows, key=lambda e: e.line))
    return tree
