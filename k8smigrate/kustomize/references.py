"""References into objects by kind and field path, and how they follow a migration.

A kustomization names objects and fields in several places: patch ``target``\\ s, ``vars``
(``objref`` matched by exact group/version/kind/name, ``fieldref.fieldpath``),
``replacements`` (``source`` and ``targets[].select``/``reject`` with ``fieldPath(s)``) and
transformer ``configurations`` (field specs: ``kind``/``group``/``version`` and a slashed
``path``, as in ``varReference`` or ``nameReference``). When the objects they select move to
another API version, the group and version they name must follow (or they stop matching:
"no matches for Id", a var that "cannot be mapped"), and so must the field paths, found the
way JSON patch paths are: by running the objects' own migration and seeing where the fields
went. A path with no equivalent is a located error, and the reference and its objects stay.
"""

from __future__ import annotations

import re
from dataclasses import field

from ..dataclasscode import dataclass
from ..registry import Registry
from ..settings import Settings
from ..tree import Mapping, Node, Scalar, Sequence
from . import fieldpaths
from .graph import DocRef, ReplacementEntry, Source, VarEntry
from .partial import Base
from .selectors import ObjectId, Selector, is_literal, join_api, split_api

MemberKey = tuple[object, ...]


@dataclass
class Edits:
    """Scalars to set, once the group they belong to is known to move."""

    items: list[tuple[Scalar, str, str]] = field(default_factory=list)
    """``(scalar, new value, what it is)``."""

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, node: Node | None, value: str, what: str) -> None:
        if isinstance(node, Scalar) and node.data != value:
            self.items.append((node, value, what))

    def apply(self) -> None:
        for node, value, _what in self.items:
            node.set(value)

    def retarget(self, selector: Mapping, bases: list[Base], what: str = "target") -> str:
        """Make ``selector`` name the migrated objects it selected; "" or why it cannot."""
        moving = [b for b in bases if b.new_api != b.api_version]
        if not moving:
            return ""
        news = {b.new_api for b in moving}
        api_node = selector.get("apiVersion")
        if isinstance(api_node, Scalar) and api_node.data:
            if len(news) > 1:
                return f"its objects move to different APIs ({', '.join(sorted(news))})"
            self.add(api_node, news.pop(), f"{what} apiVersion")
            return ""
        group_node, version_node = selector.get("group"), selector.get("version")
        named = [n for n in (group_node, version_node) if isinstance(n, Scalar) and n.data not in (None, "")]
        if not named:
            return ""  # no group or version: it matches every version
        if len(news) > 1:
            return f"its objects move to different APIs ({', '.join(sorted(news))})"
        new = news.pop()
        new_group, new_version = split_api(new)
        values = {"group": new_group, "version": new_version}
        result = {"group": "", "version": ""}
        for name, node in (("group", group_node), ("version", version_node)):
            if not (isinstance(node, Scalar) and node.data not in (None, "")):
                continue
            pattern = str(node.data)
            if is_literal(pattern):
                self.add(node, values[name], f"{what} {name}")
                result[name] = values[name]
            elif re.fullmatch(f"(?:{pattern})", values[name]) is None:
                return f"its {name} pattern {pattern!r} does not match {values[name]!r}"
            else:
                result[name] = pattern
        check = Selector(result["group"], result["version"], str(selector.data("kind") or ""))
        stay = [b for b in bases if b.new_api == b.api_version]
        for b in stay:
            if not check.matches_gvk(b.api_version, b.kind):
                return f"it also selects {b.api_version} {b.kind} in {b.file}, which does not move"
        return ""


@dataclass
class ReferenceWork:
    """One reference (a var, a replacement, a field spec) and the edits it needs."""

    key: MemberKey
    where: str
    refs: list[DocRef] = field(default_factory=list)
    edits: Edits = field(default_factory=Edits)
    problem: str = ""


def move_path(
    text: str, style: str, bases: list[Base], settings: Settings, registry: Registry
) -> tuple[str | None, str]:
    """The field path after the objects' migration (None: unchanged), and a problem ("" if none)."""
    try:
        segments = fieldpaths.split(text, style)
    except ValueError:
        return None, ""
    found: set[str] = set()
    for base in [v for b in bases for v in (b, *b.variants)]:
        if base.after == base.before:
            continue  # the object does not change: its fields stay where they are
        hits = fieldpaths.resolve(base.tree(), segments, style)
        if not hits:
            continue
        moves = base.moves(settings, registry)
        if moves is None:
            continue  # the object stays; its own finding says why
        for hit in hits:
            where = moves.get(hit.path)
            if where is None:
                return None, f"field path {text} has no equivalent in {base.new_api} {base.kind}"
            try:
                found.add(fieldpaths.join(fieldpaths.rewrite(hit, where, segments, style), style))
            except fieldpaths.FieldPathError as exc:
                return None, f"field path {text}: {exc}"
    if not found:
        return None, ""
    if len(found) > 1:
        return None, f"field path {text} moves to different places ({', '.join(sorted(found))})"
    new = found.pop()
    return (None, "") if new == fieldpaths.join(segments, style) else (new, "")


def _path_edit(
    node: Node | None,
    style: str,
    bases: list[Base],
    work: ReferenceWork,
    settings: Settings,
    registry: Registry,
    what: str,
) -> None:
    if not isinstance(node, Scalar) or not isinstance(node.data, str) or work.problem:
        return
    new, problem = move_path(node.data, style, bases, settings, registry)
    if problem:
        work.problem = problem
    elif new is not None:
        work.edits.add(node, new, what)


def _exact(selector: Mapping | None, obj: ObjectId) -> bool:
    """``IsSelectedBy`` / ``GvknEquals`` read leniently: fields left empty match anything."""
    if selector is None:
        return False
    sel = Selector.of(selector.to_data())
    if sel.kind and sel.kind != obj.kind:
        return False
    group, version = split_api(obj.api_version)
    if (sel.group and sel.group != group) or (sel.version and sel.version != version):
        return False
    if sel.name and sel.name not in obj.names:
        return False
    return not sel.namespace or not obj.namespaces or sel.namespace in obj.namespaces


def var_work(
    var: VarEntry,
    objs: list[tuple[DocRef, ObjectId]],
    bases: dict[DocRef, Base],
    settings: Settings,
    registry: Registry,
) -> ReferenceWork:
    work = ReferenceWork(("var", var.owner.path, var.index), f"{var.owner.path}:{var.node.line} (vars[{var.index}])")
    objref = var.node.get("objref")
    if not isinstance(objref, Mapping):
        return work
    work.refs = [ref for ref, obj in objs if _exact(objref, obj)]
    chosen = [bases[r] for r in work.refs]
    label = f"vars[{var.index}]"
    work.problem = work.edits.retarget(objref, chosen, f"{label} objref")
    fieldref = var.node.get("fieldref")
    if isinstance(fieldref, Mapping):
        path_node = fieldref.get("fieldpath") or fieldref.get("fieldPath")
        _path_edit(path_node, fieldpaths.DOTTED, chosen, work, settings, registry, f"{label} fieldref.fieldpath")
    return work


def replacement_work(
    repl: ReplacementEntry,
    objs: list[tuple[DocRef, ObjectId]],
    bases: dict[DocRef, Base],
    settings: Settings,
    registry: Registry,
) -> ReferenceWork:
    where = f"{repl.owner.path}:{repl.node.line} (replacements[{repl.index}])"
    work = ReferenceWork(("replacement", repl.owner.path, repl.index), where)
    source = repl.node.get("source")
    if isinstance(source, Mapping):
        refs = [ref for ref, obj in objs if _exact(source, obj)]
        work.refs += refs
        chosen = [bases[r] for r in refs]
        label = f"replacements[{repl.index}].source"
        work.problem = work.edits.retarget(source, chosen, label)
        _path_edit(source.get("fieldPath"), fieldpaths.DOTTED, chosen, work, settings, registry, f"{label} fieldPath")
    targets = repl.node.get("targets")
    for n, target in enumerate(targets if isinstance(targets, Sequence) else []):
        label = f"replacements[{repl.index}].targets[{n}]"
        if not isinstance(target, Mapping) or work.problem:
            continue
        select = target.get("select")
        if not isinstance(select, Mapping):
            continue
        sel = Selector.of(select.to_data())
        rejects = target.get("reject")
        reject_nodes = [r for r in rejects if isinstance(r, Mapping)] if isinstance(rejects, Sequence) else []
        rejected = [ref for ref, obj in objs if any(Selector.of(r.to_data()).matches(obj) for r in reject_nodes)]
        refs = [ref for ref, obj in objs if sel.matches(obj) and ref not in rejected]
        work.refs += refs + rejected
        chosen = [bases[r] for r in refs]
        work.problem = work.edits.retarget(select, chosen, f"{label}.select")
        for r in reject_nodes:
            mine = [bases[ref] for ref, obj in objs if Selector.of(r.to_data()).matches(obj)]
            work.problem = work.problem or work.edits.retarget(r, mine, f"{label}.reject")
        paths = target.get("fieldPaths")
        for node in paths if isinstance(paths, Sequence) else []:
            _path_edit(node, fieldpaths.DOTTED, chosen, work, settings, registry, f"{label} fieldPaths")
    return work


def configuration_work(
    source: Source,
    objs: list[tuple[DocRef, ObjectId]],
    bases: dict[DocRef, Base],
    settings: Settings,
    registry: Registry,
) -> list[ReferenceWork]:
    """One piece of work per field spec of a transformer configuration file."""
    out: list[ReferenceWork] = []
    for doc in source.stream.documents:
        root = doc.root
        if root is None:
            continue
        for path, node in _walk(root):
            if not isinstance(node, Mapping):
                continue
            spec_path = node.get("path")
            selects = node.get("kind") is not None or node.get("fieldSpecs") is not None
            if not (isinstance(spec_path, Scalar) or selects):
                continue
            key = ("config", source.path, doc.index, path)
            work = ReferenceWork(key, f"{source.path}:{node.line or doc.line}")
            kind = node.data("kind")
            candidates = [(r, o) for r, o in objs if not kind or o.kind == kind]
            refs = [ref for ref, obj in candidates if _exact(node, obj)] if candidates else []
            chosen = [bases[r] for r in refs if bases[r].after != bases[r].before]
            if not chosen:
                continue
            work.refs = refs
            work.problem = work.edits.retarget(node, [bases[r] for r in refs], "field spec")
            if isinstance(spec_path, Scalar):
                _path_edit(spec_path, fieldpaths.SLASHED, chosen, work, settings, registry, "field spec path")
            if work.edits or work.problem:
                out.append(work)
    return out


def _walk(node: Node, path: tuple[object, ...] = ()) -> list[tuple[tuple[object, ...], Node]]:
    out: list[tuple[tuple[object, ...], Node]] = [(path, node)]
    if isinstance(node, Mapping):
        for e in node.entries:
            out += _walk(e.value, (*path, e.name))
    elif isinstance(node, Sequence):
        for i, item in enumerate(node):
            out += _walk(item, (*path, i))
    return out


__all__ = ["Edits", "ReferenceWork", "configuration_work", "join_api", "move_path", "replacement_work", "var_work"]
