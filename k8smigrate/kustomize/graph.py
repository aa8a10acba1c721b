"""A kustomize tree as a graph: kustomization files, what they reference, and in what role.

Kustomization files are recognised by name (``kustomization.yaml``, ``kustomization.yml``,
``Kustomization``: ``konfig.RecognizedKustomizationFileNames``); their keys are read without
regard to case, as kustomize's JSON decoding does (``nameprefix:`` works). Each reference is
followed as kustomize's ``KustTarget`` follows it, but only inside the run's roots; remote
bases (URLs) are reported, never fetched:

- ``resources`` and ``bases`` (a file of objects, or a folder with a kustomization) and
  ``components``: full objects, migrated as any manifest;
- ``patches`` (``path`` or inline ``patch``, with an optional ``target``),
  ``patchesStrategicMerge`` (a file, or inline YAML) and ``patchesJson6902``: partial objects
  and JSON patches, migrated with the objects they target;
- ``vars``, ``replacements``, ``configurations``: references into objects by kind and field
  path;
- generator inputs (``configMapGenerator``/``secretGenerator`` ``files``/``envs``/``env``),
  ``crds``, ``openapi``, ``generators``/``transformers``/``validators``: data, never
  migrated as manifests (a ConfigMap's file is its data, whatever it holds).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import field
from pathlib import Path

from ..dataclasscode import dataclass
from ..files import InputError, Loaded, read_manifest
from ..regexcode import regex
from ..scalars import Data
from ..tree import Mapping, Node, Scalar, Sequence
from ..yamlio import EVERY, Document, Stream, read_stream
from .names import NAMES
from .selectors import ObjectId

_URL = regex(r"^(?:[a-z][a-z0-9+.-]*://|git@|github\.com/|gitlab\.com/|bitbucket\.org/|[\w.-]+\.\w+/[^/]+/)")


def is_kustomization(path: Path) -> bool:
    return path.name in NAMES


def kustomization_in(folder: Path) -> Path | None:
    """The kustomization file of a folder (the first recognised name), or None."""
    for name in NAMES:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


@dataclass(eq=False)
class Source:
    """A file of the tree, read once: its text, its documents with their trees."""

    path: Path
    """As the run names it (under the root it was found from)."""
    loaded: Loaded
    stream: Stream

    @property
    def text(self) -> str:
        return self.loaded.text

    def document(self, index: int) -> Document:
        return self.stream.documents[index]


@dataclass(eq=False)
class PatchEntry:
    """One patch of a kustomization: where it is written, what it holds, what it targets."""

    owner: Kustomization
    field: str
    index: int
    node: Node
    file: Path | None = None
    inline: Scalar | None = None
    target: Mapping | None = None
    json6902: bool | None = None
    """True for ``patchesJson6902``; None where the content decides (``patches``)."""

    @property
    def line(self) -> int:
        return self.node.line or self.owner.line

    def where(self) -> str:
        if self.file is not None:
            return str(self.file)
        return f"{self.owner.path}:{self.line} ({self.field}[{self.index}])"


@dataclass(eq=False)
class VarEntry:
    """``vars[i]``: a name for a field of one object (``objref``, ``fieldref.fieldpath``)."""

    owner: Kustomization
    index: int
    node: Mapping


@dataclass(eq=False)
class ReplacementEntry:
    """``replacements[i]`` written inline: a source field copied into target fields."""

    owner: Kustomization
    index: int
    node: Mapping


@dataclass(eq=False)
class Kustomization:
    """One kustomization file, read, with its references resolved."""

    path: Path
    source: Source
    root: Mapping
    component: bool = False
    resource_files: list[Path] = field(default_factory=list)
    children: list[Kustomization] = field(default_factory=list)
    components: list[Kustomization] = field(default_factory=list)
    patches: list[PatchEntry] = field(default_factory=list)
    vars: list[VarEntry] = field(default_factory=list)
    replacements: list[ReplacementEntry] = field(default_factory=list)
    configurations: list[Path] = field(default_factory=list)
    data_files: list[Path] = field(default_factory=list)
    remote: list[tuple[str, int]] = field(default_factory=list)
    """References that are URLs (kustomize fetches them; this tool does not), with their line."""
    outside: list[tuple[str, int]] = field(default_factory=list)
    """References that leave the run's roots, with their line."""
    name_prefix: str = ""
    name_suffix: str = ""
    namespace: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    unsound: tuple[int, str] | None = None
    """(line, why) when this file may not say to this tool what it says to kustomize (a
    duplicate key: kustomize reads the last one): everything it uses stays as it is."""

    @property
    def folder(self) -> Path:
        return self.path.parent

    @property
    def line(self) -> int:
        return self.source.document(0).line if self.source.stream.documents else 1

    def get(self, name: str) -> Node | None:
        """A top-level field, its key matched without regard to case (exact spelling first)."""
        return get_field(self.root, name)


def get_field(mapping: Mapping, name: str) -> Node | None:
    found = mapping.get(name)
    if found is not None:
        return found
    lower = name.lower()
    for entry in mapping.entries:
        if entry.name.lower() == lower:
            return entry.value
    return None


def field_key(mapping: Mapping, name: str) -> str | None:
    """The key as written for a field matched without regard to case."""
    if name in mapping:
        return name
    lower = name.lower()
    return next((e.name for e in mapping.entries if e.name.lower() == lower), None)


def _strings(node: Node | None) -> Iterator[tuple[int, Node, str]]:
    if isinstance(node, Sequence):
        for i, item in enumerate(node):
            if isinstance(item, Scalar) and isinstance(item.data, str):
                yield i, item, item.data


def _text(node: Node | None) -> str:
    return str(node.data) if isinstance(node, Scalar) and node.data is not None else ""


def _string_map(node: Node | None) -> dict[str, str]:
    if not isinstance(node, Mapping):
        return {}
    return {e.name: _text(e.value) for e in node.entries}


@dataclass
class Problem:
    """Something about the tree a human should know (the caller turns it into a finding)."""

    path: Path
    line: int
    level: str
    code: str
    message: str


class Graph:
    """Every kustomization found under the run's roots, and every file they reference."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = [(r, r.resolve()) for r in roots]
        self.sources: dict[Path, Source | None] = {}
        self.kustomizations: dict[Path, Kustomization] = {}
        self.problems: list[Problem] = []
        self._names: dict[Path, Path] = {}

    # ------------------------------------------------------------------ paths

    def display(self, resolved: Path) -> Path:
        """The path as the run names it: under the root given on the command line."""
        if resolved in self._names:
            return self._names[resolved]
        for given, real in self.roots:
            if resolved == real:
                return given
            if resolved.is_relative_to(real):
                return given / resolved.relative_to(real)
        return resolved

    def inside(self, resolved: Path) -> bool:
        return any(resolved == real or resolved.is_relative_to(real) for _given, real in self.roots)

    def remember(self, given: Path) -> Path:
        resolved = given.resolve()
        self._names.setdefault(resolved, given)
        return resolved

    def source(self, resolved: Path) -> Source | None:
        """The file read once (None when it cannot be read; the problem is recorded)."""
        if resolved not in self.sources:
            try:
                loaded = read_manifest(resolved)
            except InputError as exc:
                self.problems.append(Problem(self.display(resolved), 0, "error", "K8SM-GEN-013", str(exc)))
                self.sources[resolved] = None
                return None
            shown = self.display(resolved)
            stream = read_stream(loaded.text, wanted=EVERY)
            self.sources[resolved] = Source(shown, Loaded(shown, loaded.text, loaded.raw), stream)
        return self.sources[resolved]

    # ------------------------------------------------------------------ loading

    def load_folder(self, folder: Path) -> Kustomization | None:
        """The kustomization of ``folder`` (resolved), loaded with everything it references."""
        found = kustomization_in(folder)
        return self.load(found.resolve()) if found is not None else None

    def load(self, path: Path) -> Kustomization | None:
        if path in self.kustomizations:
            return self.kustomizations[path]
        source = self.source(path)
        if source is None:
            return None
        docs = [d for d in source.stream.documents if d.root is not None]
        root = docs[0].root if len(docs) == 1 else None
        if not isinstance(root, Mapping) or any(d.templated for d in source.stream.documents):
            line = docs[1].line if len(docs) > 1 else 1
            message = (
                "not read as a kustomization (one YAML mapping expected, not a template): its tree is not migrated"
            )
            self.problems.append(Problem(source.path, line, "warning", "K8SM-KUS-001", message))
            return None
        k = Kustomization(self.display(path), source, root)
        self.kustomizations[path] = k
        duplicates = [dup for d in docs for dup in d.duplicates]
        if duplicates:
            first = min(duplicates, key=lambda dup: dup.line)
            k.unsound = (first.line, f"{first.message} (kustomize reads the last one)")
            message = (
                f"{first.message}: kustomize reads the last one; left as it is, with everything it uses "
                "(remove the duplicate, then migrate)"
            )
            self.problems.append(Problem(source.path, first.line, "warning", "K8SM-KUS-001", message))
        k.component = _text(k.get("kind")) == "Component"
        k.name_prefix = _text(k.get("namePrefix"))
        k.name_suffix = _text(k.get("nameSuffix"))
        k.namespace = _text(k.get("namespace"))
        k.labels = _string_map(k.get("commonLabels"))
        labels = k.get("labels")
        if isinstance(labels, Sequence):
            for item in labels:
                if isinstance(item, Mapping):
                    k.labels.update(_string_map(item.get("pairs")))
        k.annotations = _string_map(k.get("commonAnnotations"))
        self._references(k, path.parent)
        return k

    def _resolve(self, k: Kustomization, folder: Path, raw: str, node: Node) -> Path | None:
        """A reference as a resolved path inside the roots, or None (recorded as remote or outside)."""
        line = node.line or k.line
        candidate = (folder / raw).resolve() if not os.path.isabs(raw) else Path(raw).resolve()
        if not candidate.exists():
            if _URL.match(raw):
                k.remote.append((raw, line))
            return None
        if not self.inside(candidate):
            k.outside.append((raw, line))
            return None
        return candidate

    def _references(self, k: Kustomization, folder: Path) -> None:
        for name in ("resources", "bases", "components"):
            for _i, node, raw in _strings(k.get(name)):
                target = self._resolve(k, folder, raw, node)
                if target is None:
                    continue
                if target.is_dir():
                    child = self.load_folder(target)
                    if child is None:
                        continue
                    (k.components if name == "components" else k.children).append(child)
                elif name != "components":
                    k.resource_files.append(target)
        self._patches(k, folder)
        for name in ("configurations",):
            for _i, node, raw in _strings(k.get(name)):
                target = self._resolve(k, folder, raw, node)
                if target is not None and target.is_file():
                    k.configurations.append(target)
        self._data(k, folder)
        variables = k.get("vars")
        if isinstance(variables, Sequence):
            for i, item in enumerate(variables):
                if isinstance(item, Mapping):
                    k.vars.append(VarEntry(k, i, item))
        replacements = k.get("replacements")
        if isinstance(replacements, Sequence):
            for i, item in enumerate(replacements):
                if isinstance(item, Mapping):
                    if item.get("path") is not None:
                        target = self._resolve(k, folder, _text(item.get("path")), item)
                        if target is not None:
                            k.data_files.append(target)
                    else:
                        k.replacements.append(ReplacementEntry(k, i, item))

    def _patches(self, k: Kustomization, folder: Path) -> None:
        for i, node, raw in _strings(k.get("patchesStrategicMerge")):
            if "\n" in raw or raw.lstrip().startswith(("{", "apiVersion", "kind")):
                assert isinstance(node, Scalar)
                k.patches.append(PatchEntry(k, "patchesStrategicMerge", i, node, inline=node, json6902=False))
                continue
            target = self._resolve(k, folder, raw, node)
            if target is not None:
                k.patches.append(PatchEntry(k, "patchesStrategicMerge", i, node, file=target, json6902=False))
        for name in ("patchesJson6902", "patches"):
            seq = k.get(name)
            if not isinstance(seq, Sequence):
                continue
            for i, item in enumerate(seq):
                if not isinstance(item, Mapping):
                    continue
                target_node = item.get("target")
                entry = PatchEntry(
                    k,
                    name,
                    i,
                    item,
                    target=target_node if isinstance(target_node, Mapping) else None,
                    json6902=True if name == "patchesJson6902" else None,
                )
                inline = item.get("patch")
                path = _text(item.get("path"))
                if isinstance(inline, Scalar) and isinstance(inline.data, str):
                    entry.inline = inline
                elif path:
                    entry.file = self._resolve(k, folder, path, item.get("path") or item)
                    if entry.file is None:
                        continue
                else:
                    continue
                k.patches.append(entry)

    def _data(self, k: Kustomization, folder: Path) -> None:
        """Files kustomize reads as data or plugin configuration: never migrated as manifests."""
        raws: list[tuple[str, Node]] = []
        for name in ("configMapGenerator", "secretGenerator"):
            seq = k.get(name)
            if not isinstance(seq, Sequence):
                continue
            for item in seq:
                if not isinstance(item, Mapping):
                    continue
                for key in ("files", "envs"):
                    for _i, node, raw in _strings(get_field(item, key)):
                        raws.append((raw.split("=", 1)[-1] if key == "files" else raw, node))
                env = get_field(item, "env")
                if isinstance(env, Scalar) and isinstance(env.data, str):
                    raws.append((env.data, env))
        for name in ("crds", "generators", "transformers", "validators"):
            raws += [(raw, node) for _i, node, raw in _strings(k.get(name))]
        openapi = k.get("openapi")
        path_node = openapi.get("path") if isinstance(openapi, Mapping) else None
        if isinstance(path_node, Scalar):
            raws.append((_text(path_node), path_node))
        for raw, node in raws:
            target = self._resolve(k, folder, raw, node)
            if target is not None and target.is_file():
                k.data_files.append(target)


# ------------------------------------------------------------------ objects in scope


@dataclass(frozen=True)
class DocRef:
    """One document of a resource file (resolved path, document index)."""

    file: Path
    index: int


def object_id(data: Data, api_version: str, kind: str) -> ObjectId:
    meta = data.get("metadata") if isinstance(data, dict) else None
    meta = meta if isinstance(meta, dict) else {}

    def values(key: str) -> dict[str, set[str]]:
        found = meta.get(key)
        return {str(k): {str(v)} for k, v in found.items()} if isinstance(found, dict) else {}

    name = meta.get("name")
    namespace = meta.get("namespace")
    return ObjectId(
        api_version,
        kind,
        {str(name)} if name is not None else set(),
        {str(namespace)} if namespace is not None else set(),
        values("labels"),
        values("annotations"),
    )


def widen(obj: ObjectId, k: Kustomization) -> ObjectId:
    """The ids an object may have once ``k``'s name, namespace and label transformers ran."""
    names = set(obj.names) | {f"{k.name_prefix}{n}{k.name_suffix}" for n in obj.names}
    namespaces = set(obj.namespaces) | ({k.namespace} if k.namespace else set())
    labels = {key: set(v) for key, v in obj.labels.items()}
    for key, value in k.labels.items():
        labels.setdefault(key, set()).add(value)
    annotations = {key: set(v) for key, v in obj.annotations.items()}
    for key, value in k.annotations.items():
        annotations.setdefault(key, set()).add(value)
    return ObjectId(
        obj.api_version,
        obj.kind,
        names,
        namespaces,
        labels,
        annotations,
        {**obj.added_labels, **k.labels},
        {**obj.added_annotations, **k.annotations},
    )
