"""Migrating a patch together with the object it targets.

A patch is not an object: a strategic merge patch is a *partial* object (it lacks on purpose
what the base sets), a JSON patch is a list of operations on paths. Neither can be migrated
on its own without guessing; both can be migrated *through* their target:

- strategic merge: the patch's tree is merged with the target's data (``smp.merge``), the
  object's whole migration runs on that, as it would on the built object; what the patch
  held keeps its (possibly renamed, moved, rewritten) place, defaults land in the patch only
  where the merged object lacked them and the migrated base does not already carry them
  (``smp.project``, ``smp.prune``), and nothing is invented for what the patch leaves to the
  base (no "missing field" errors: the base has the field). The migrated base with the
  migrated patch must build the migrated merged object, or the patch is held back.
- JSON 6902: the operations are applied to a copy of the target, each ``add``/``replace``
  value being the patch's own node; the migration runs, and every operation's new path is
  where its node went (``pointer.locate``), a removed path's where the removed node goes
  when the target is migrated alone. A node that no longer exists is a path with no
  equivalent: an error, and the patch and its target stay as they are. The new operations,
  applied to the migrated target, must give the migrated patched object.

So the field moves are the migration bodies' own: nothing is declared twice, and a step
added to the registry (an add-on's, say) moves patches without a table to keep in step.
"""

from __future__ import annotations

import json
from dataclasses import field, replace

from ..codes import COMMENT_DROPPED
from ..dataclasscode import dataclass
from ..engine import migrate_root
from ..plan import plan
from ..registry import Registry
from ..render import Renderer, detect_style
from ..results import Finding
from ..scalars import Data
from ..settings import Settings
from ..tree import Mapping, Node, Scalar, Sequence, TreeError, from_data, walk
from ..verify import dropped_comments
from ..yamlio import EVERY, Stream, directives, read_data, read_stream
from . import pointer, smp


@dataclass
class Base:
    """An object a patch targets, before and after its own migration."""

    file: str
    index: int
    api_version: str
    kind: str
    before: Data
    after: Data
    text: str
    """The document's text (for fixers' triggers)."""
    reported: frozenset[tuple[str, str]] = frozenset()
    """``(code, message)`` of the findings its own migration gave (the patch does not repeat them)."""
    variants: list[Base] = field(default_factory=list, repr=False, compare=False)
    """The same object as kustomizations' patches left it (field paths are checked on each)."""
    _moves: dict[pointer.Path, pointer.Path] | None = field(default=None, repr=False, compare=False)
    _tree: Node | None = field(default=None, repr=False, compare=False)

    def tree(self) -> Node:
        """The object's tree before migration (read-only: for resolving paths)."""
        if self._tree is None:
            self._tree = from_data(self.before)
        return self._tree

    def moves(self, settings: Settings, registry: Registry) -> dict[pointer.Path, pointer.Path] | None:
        """Where each node of the object goes when it is migrated alone: old path → new path (a
        node that no longer exists has no entry); None when its migration fails."""
        if self._moves is None:
            probe = from_data(self.before)
            assert isinstance(probe, Mapping)
            walked = list(walk(probe))  # kept alive: a node the migration drops must not lend its id to a new one
            before = {id(node): path for path, node in walked}
            _r, findings = migrate_root(probe, self.api_version, self.kind, settings, registry, text=self.text)
            if _errors(findings):
                return None
            self._moves = {before[id(node)]: path for path, node in walk(probe) if id(node) in before}
        return self._moves

    @property
    def new_api(self) -> str:
        api = self.after.get("apiVersion") if isinstance(self.after, dict) else None
        return str(api) if api is not None else self.api_version

    def as_transformed(self, labels: dict[str, str], annotations: dict[str, str]) -> Base:
        """The object as a JSON 6902 patch sees it: kustomize applies those after the label and
        annotation transformers, so the labels and annotations they add are there."""
        if not labels and not annotations:
            return self
        return replace(
            self,
            before=_with_metadata(self.before, labels, annotations),
            after=_with_metadata(self.after, labels, annotations),
            variants=[],
            _moves=None,
            _tree=None,
        )

    @property
    def known_schema(self) -> bool:
        return smp.group_of(self.api_version) in smp.BUILTIN_GROUPS


def _with_metadata(data: Data, labels: dict[str, str], annotations: dict[str, str]) -> Data:
    if not isinstance(data, dict):
        return data
    out: dict[str, Data] = json.loads(json.dumps(data))
    meta = out.setdefault("metadata", {})
    if not isinstance(meta, dict):
        return data
    for key, added in (("labels", labels), ("annotations", annotations)):
        if added:
            current = meta.get(key)
            meta[key] = {**(current if isinstance(current, dict) else {}), **added}
    return out


@dataclass
class Outcome:
    """What migrating one patch document (or one JSON patch) through its targets gave."""

    ok: bool = True
    text: str | None = None
    """The new text of the patch document's root node (None: unchanged)."""
    findings: list[Finding] = field(default_factory=list)
    reason: str = ""
    """Why it failed, for the finding that names the patch and its target."""
    moves: list[tuple[str, str, int]] = field(default_factory=list)
    """``(old path, new path, line)`` of every JSON patch operation that moved."""
    applied: list[str] = field(default_factory=list)
    """The migrations that ran on the merged object."""
    original: Data = None
    """The patch's data as written (a JSON patch: its operations)."""
    data: Data = None
    """The migrated patch's data (None: as written)."""

    def fail(self, reason: str) -> Outcome:
        self.ok = False
        self.reason = reason
        return self


_PLANNED: dict[tuple[int, int, str, str], tuple[Settings, Registry, bool]] = {}
"""Plans looked up, by the ids of settings and registry; each entry holds both (alive, so an id
is never another object's while its entry is here)."""


def needs_migration(base: Base, settings: Settings, registry: Registry) -> bool:
    """Whether the target's migration could touch anything (a step, or a pass to run): a patch
    may bring what a pass looks for even where the base alone does not change."""
    key = (id(settings), id(registry), base.api_version, base.kind)
    hit = _PLANNED.get(key)
    if hit is None or hit[0] is not settings or hit[1] is not registry:
        if len(_PLANNED) > 4096:
            _PLANNED.clear()
        p = plan(base.api_version, base.kind, settings, registry, settings.window)
        hit = _PLANNED[key] = (settings, registry, not p.empty)
    return hit[2]


def _errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.level == "error"]


def render_root(stream: Stream, root: Node) -> str | None:
    """The new text of an edited document root, or None when it would not read back as edited."""
    assert root.src is not None
    new = Renderer(stream.text, detect_style(stream.text, root)).document(root)
    lead = directives(stream.text, root.src.start)
    try:
        reread = read_data(lead + " " * root.src.col + new, stream.libyaml)
        want = root.to_data()
    except (TreeError, RecursionError, ValueError):
        return None
    return new if len(reread) == 1 and reread[0] == want else None


def _has_directive(data: Data) -> bool:
    if isinstance(data, dict):
        return any(str(k).startswith("$") or _has_directive(v) for k, v in data.items())
    if isinstance(data, list):
        return any(_has_directive(v) for v in data)
    return False


# ------------------------------------------------------------------ strategic merge


def migrate_smp(
    text: str, index: int, filename: str, bases: list[Base], settings: Settings, registry: Registry
) -> Outcome:
    """Migrate document ``index`` of the strategic merge patch ``text`` through every target."""
    out = Outcome()
    results: list[str | None] = []
    for base in bases:
        if not needs_migration(base, settings, registry):
            results.append(None)
            continue
        one = _smp_one(text, index, filename, base, settings, registry)
        out.findings += [f for f in one.findings if f not in out.findings]
        out.applied += [a for a in one.applied if a not in out.applied]
        if not one.ok:
            return out.fail(one.reason)
        results.append(one.text)
    changed = {r for r in results if r is not None}
    if len(changed) > 1 or (changed and None in results):
        return out.fail("it targets several objects that would need different edits")
    out.text = changed.pop() if changed else None
    out.original, out.data = _data_of(text, index), _root_data(out.text)
    return out


def _data_of(text: str, index: int) -> Data:
    try:
        root = read_stream(text, wanted=EVERY).documents[index].root
        return root.to_data() if root is not None else None
    except (TreeError, RecursionError, IndexError):
        return None


def _root_data(text: str | None) -> Data:
    if text is None:
        return None
    try:
        found = read_data(text)
    except (ValueError, RecursionError):
        return None
    return found[0] if len(found) == 1 else None


def _smp_one(text: str, index: int, filename: str, base: Base, settings: Settings, registry: Registry) -> Outcome:
    out = Outcome()
    for attempt in ("prune", "keep", "complete"):
        stream = read_stream(text, wanted=EVERY)
        doc = stream.documents[index]
        root = doc.root
        if not isinstance(root, Mapping) or doc.templated:
            return out.fail("the patch is not a YAML mapping")
        try:
            own = root.to_data()
        except (TreeError, RecursionError) as exc:
            return out.fail(f"the patch cannot be read: {exc}")
        if _has_directive(own):
            return out.fail("the patch holds $patch directives, which this tool does not migrate")
        merged = smp.merge(root, base.before, base.known_schema)
        result, findings = migrate_root(
            root,
            base.api_version,
            base.kind,
            settings,
            registry,
            filename=filename,
            index=index,
            line=doc.line,
            text=base.text + "\n" + text[doc.start : doc.end],
        )
        if _errors(findings):
            out.findings = _errors(findings)
            return out.fail("; ".join(f"{f.code} {f.message}" for f in out.findings))
        built = root.to_data()
        smp.project(root, merged)
        if attempt == "prune":
            smp.prune(root, base.after, base.known_schema)
        mine = root.to_data()
        now = smp.merge_data(base.after, mine, base.known_schema)
        if now != built and attempt == "complete" and smp.complete(root, now, built, base.known_schema):
            mine = root.to_data()
            now = smp.merge_data(base.after, mine, base.known_schema)
        if now != built:
            continue
        out.findings = [f for f in findings if _has_path(mine, f.path) and (f.code, f.message) not in base.reported]
        out.applied = result.applied
        if root.pristine():
            return out
        rendered = render_root(stream, root)
        if rendered is None:
            return out.fail("the migrated patch does not read back as intended (a bug)")
        out.text = rendered
        out.findings += _comment_findings(text[doc.start : doc.end], rendered, filename, index, doc.line)
        return out
    return out.fail("the migrated patch and its migrated target would not build the migrated object")


def _has_path(data: Data, dotted: str) -> bool:
    if not dotted:
        return True
    node: Data = data
    for part in dotted.replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("[") and isinstance(node, list):
            i = int(part[1:-1])
            if i >= len(node):
                return False
            node = node[i]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return False
    return True


# ------------------------------------------------------------------ JSON 6902


@dataclass
class _ReadOp:
    """One operation of a JSON 6902 patch, with the nodes it was read from."""

    node: Mapping
    op: str
    path_node: Scalar
    path: list[str]
    value: Node | None
    from_node: Scalar | None
    source: list[str] | None


def read_ops(root: Node) -> list[_ReadOp] | str:
    """The operations of a JSON patch's tree, or why it is not one."""
    if not isinstance(root, Sequence):
        return "a JSON patch is a list of operations"
    ops: list[_ReadOp] = []
    for item in root:
        if not isinstance(item, Mapping):
            return "an operation is not a mapping"
        op = item.get("op")
        path = item.get("path")
        if not (isinstance(op, Scalar) and isinstance(path, Scalar) and isinstance(path.data, str)):
            return "an operation without op or path"
        source = item.get("from")
        try:
            ops.append(
                _ReadOp(
                    item,
                    str(op.data),
                    path,
                    pointer.parse(path.data),
                    item.get("value"),
                    source if isinstance(source, Scalar) else None,
                    pointer.parse(str(source.data)) if isinstance(source, Scalar) else None,
                )
            )
        except pointer.PointerError as exc:
            return str(exc)
    return ops


def migrate_json6902(text: str, filename: str, bases: list[Base], settings: Settings, registry: Registry) -> Outcome:
    """Migrate the JSON patch ``text`` (YAML or JSON) through every target."""
    out = Outcome()
    results: list[str | None] = []
    for base in bases:
        if not needs_migration(base, settings, registry):
            results.append(None)
            continue
        one = _json_one(text, filename, base, settings, registry)
        out.findings += [f for f in one.findings if f not in out.findings]
        out.moves += [m for m in one.moves if m not in out.moves]
        out.applied += [a for a in one.applied if a not in out.applied]
        if not one.ok:
            return out.fail(one.reason)
        results.append(one.text)
    changed = {r for r in results if r is not None}
    if len(changed) > 1 or (changed and None in results):
        return out.fail("it targets several objects that would need different edits")
    out.text = changed.pop() if changed else None
    out.original, out.data = _data_of(text, 0), _root_data(out.text)
    return out


def _probe(base: Base, ops: list[_ReadOp], upto: int, tokens: list[str], settings: Settings, registry: Registry) -> str:
    """Where the node at ``tokens`` goes when the target (with the operations before ``upto``
    applied) is migrated: its new pointer, or ``PointerError``."""
    if not any(op.op in ("add", "replace", "remove", "move", "copy") for op in ops[:upto]):
        moves = base.moves(settings, registry)
        if moves is None:
            raise pointer.PointerError("the target cannot be migrated")
        _node, path = pointer.resolve(base.tree(), tokens)
        if path not in moves:
            raise pointer.PointerError("the field has no equivalent in " + base.new_api)
        return pointer.format_pointer(moves[path])
    tree = from_data(base.before)
    for earlier in ops[:upto]:
        copy = from_data(earlier.value.to_data()) if earlier.value is not None else None
        pointer.apply(tree, pointer.Op(earlier.op, earlier.path, copy, earlier.source))
    node, _path = pointer.resolve(tree, tokens)
    assert isinstance(tree, Mapping)
    _r, findings = migrate_root(tree, base.api_version, base.kind, settings, registry, text=base.text)
    if _errors(findings):
        raise pointer.PointerError("the target cannot be migrated: " + _errors(findings)[0].message)
    found = pointer.locate(tree, node)
    if found is None:
        raise pointer.PointerError("the field has no equivalent in " + base.new_api)
    return pointer.format_pointer(found)


def _json_one(text: str, filename: str, base: Base, settings: Settings, registry: Registry) -> Outcome:
    out = Outcome()
    stream = read_stream(text, wanted=EVERY)
    docs = [d for d in stream.documents if d.root is not None]
    if len(docs) != 1 or docs[0].templated:
        return out.fail("the JSON patch is not one YAML document")
    root = docs[0].root
    assert root is not None
    ops = read_ops(root)
    if isinstance(ops, str):
        return out.fail(ops)
    import jsonpatch  # a JSON patch to check: only then

    try:
        original = [json.loads(json.dumps(o.node.to_data())) for o in ops]
        jsonpatch.apply_patch(base.before, original)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TreeError) as exc:
        if base.after == base.before:
            return out  # it applies to what earlier transformers made; the object does not move anyway
        return out.fail(f"the JSON patch does not apply to the target as written in the tree: {exc}")
    tree = from_data(base.before)
    assert isinstance(tree, Mapping)
    placed: list[Node | None] = []
    new_paths: list[str | None] = [None] * len(ops)
    new_from: list[str | None] = [None] * len(ops)
    for i, op in enumerate(ops):
        try:
            if op.op in ("remove", "test") or op.source is not None:
                where = op.source if op.source is not None else op.path
                moved = _probe(base, ops, i, where, settings, registry)
                if op.source is not None:
                    new_from[i] = moved
                else:
                    new_paths[i] = moved
            placed.append(pointer.apply(tree, pointer.Op(op.op, op.path, op.value, op.source)))
        except pointer.PointerError as exc:
            return out.fail(f"{op.op} {op.path_node.data}: {exc}")
    result, findings = migrate_root(
        tree, base.api_version, base.kind, settings, registry, filename=filename, text=base.text + "\n" + text
    )
    out.applied = result.applied
    if _errors(findings):
        out.findings = _errors(findings)
        return out.fail("; ".join(f"{f.code} {f.message}" for f in out.findings))
    built = tree.to_data()
    for i, op in enumerate(ops):
        node = placed[i]
        if op.op in ("add", "replace", "move", "copy") and node is not None:
            found = pointer.locate(tree, node)
            if found is None:
                return out.fail(f"{op.op} {op.path_node.data}: the value has no place in {base.new_api}")
            new = pointer.format_pointer(found)
            if op.path and op.path[-1] == "-" and _last_item(tree, found):
                new = pointer.format_pointer(found[:-1]) + "/-"
            new_paths[i] = new
        for scalar, new_text in ((op.path_node, new_paths[i]), (op.from_node, new_from[i])):
            if scalar is not None and new_text is not None and new_text != scalar.data:
                out.moves.append((str(scalar.data), new_text, scalar.line))
                scalar.set(new_text)
    try:
        result = jsonpatch.apply_patch(base.after, json.loads(json.dumps(root.to_data())))
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
        return out.fail(f"the migrated JSON patch does not apply to the migrated target: {exc}")
    if result != built:
        return out.fail("the migrated JSON patch and its migrated target would not build the migrated object")
    out.findings = [f for f in findings if f.level != "info" and (f.code, f.message) not in base.reported]
    if not root.pristine():
        rendered = render_root(stream, root)
        if rendered is None:
            return out.fail("the migrated JSON patch does not read back as intended (a bug)")
        out.text = rendered
        out.findings += _comment_findings(text, rendered, filename, 0, 1)
    return out


def _comment_findings(old: str, new: str, filename: str, index: int, line: int) -> list[Finding]:
    return [
        Finding(
            COMMENT_DROPPED.level,
            COMMENT_DROPPED.code,
            f"comment dropped with a removed field: {c}",
            None,
            filename,
            index,
            line,
        )
        for c in dropped_comments(old, new)
    ]


def _last_item(tree: Node, path: pointer.Path) -> bool:
    try:
        parent, _p = pointer.resolve(tree, [str(p) for p in path[:-1]])
    except pointer.PointerError:
        return False
    return isinstance(parent, Sequence) and isinstance(path[-1], int) and path[-1] == len(parent) - 1


# ------------------------------------------------------------------ an object its patch completes


def complete_base(base: Base, patch: Data, settings: Settings, registry: Registry) -> tuple[str, Data] | None:
    """The new root text and data of an object whose migration fails alone but succeeds once its
    one patch is merged in (the patch settles a decision, sets a required field): the object is
    migrated with the patch's data laid over it (``smp.overlay``) and keeps only its own part.
    None when the patched object does not migrate either, or nothing changes."""
    stream = read_stream(base.text, wanted=EVERY)
    docs = [d for d in stream.documents if d.root is not None]
    if len(docs) != 1 or not isinstance(docs[0].root, Mapping) or not isinstance(patch, dict):
        return None
    root = docs[0].root
    merged = smp.overlay(root, patch, base.known_schema)
    _result, findings = migrate_root(root, base.api_version, base.kind, settings, registry, text=base.text)
    if _errors(findings):
        return None
    smp.project(root, merged)
    if root.pristine():
        return None
    rendered = render_root(stream, root)
    return (rendered, root.to_data()) if rendered is not None else None
