"""Strategic merge patches, as kustomize applies them, on trees (with ownership) and on data.

A patch file is a *partial* object. It is migrated by merging it with the object it targets
(``merge``: the patch's own tree, with the base's missing parts added as *foreign* nodes),
running the object's whole migration on that, and keeping only the patch's part
(``project``): what the migration renamed, moved or rewrote in the patch's nodes stays in the
patch, defaults it pinned where the merged object lacked them land where the object would
get them, and the base's nodes go again. ``prune`` then drops what the migrated base
already says (a default pinned in both), and ``merge_data`` lets the caller check that the
migrated base with the migrated patch builds exactly the migrated merged object.

The merge follows kustomize's ``merge2`` (``kyaml/yaml/merge2``, ``walk/associative_sequence.go``):
mappings merge key by key, ``null`` deletes a key, ``$patch: replace``/``delete`` are honoured,
and a list merges item by item only where the Kubernetes schema gives it a merge key (for
the built-in API groups; kustomize knows no schema for custom resources, whose lists are
replaced, as are lists without a merge key). Items the patch adds come first
(``MergeOptionsListPrepend``).
"""

from __future__ import annotations

from dataclasses import field

from ..dataclasscode import dataclass
from ..scalars import Data
from ..tree import Alias, Entry, Item, Mapping, Node, Scalar, Sequence, from_data, nodes

BUILTIN_GROUPS = frozenset(
    {
        "",
        "apps",
        "batch",
        "extensions",
        "policy",
        "autoscaling",
        "admissionregistration.k8s.io",
        "apiextensions.k8s.io",
        "apiregistration.k8s.io",
        "authentication.k8s.io",
        "authorization.k8s.io",
        "certificates.k8s.io",
        "coordination.k8s.io",
        "discovery.k8s.io",
        "events.k8s.io",
        "flowcontrol.apiserver.k8s.io",
        "internal.apiserver.k8s.io",
        "networking.k8s.io",
        "node.k8s.io",
        "rbac.authorization.k8s.io",
        "resource.k8s.io",
        "scheduling.k8s.io",
        "storage.k8s.io",
        "storagemigration.k8s.io",
    }
)
"""API groups whose schema kustomize knows: their lists with a merge key merge item by item."""

MERGE_KEYS: dict[str, tuple[str, ...]] = {
    "containers": ("name",),
    "initContainers": ("name",),
    "ephemeralContainers": ("name",),
    "volumes": ("name",),
    "env": ("name",),
    "imagePullSecrets": ("name",),
    "resourceClaims": ("name",),
    "webhooks": ("name",),
    "volumeMounts": ("mountPath",),
    "volumeDevices": ("devicePath",),
    "hostAliases": ("ip",),
    "ports": ("containerPort", "port"),
}
"""``x-kubernetes-patch-merge-key`` of the list fields a patch of a built-in kind commonly holds
(``ports``: container ports merge on ``containerPort``, service ports on ``port``)."""


def group_of(api_version: str | None) -> str:
    return api_version.rsplit("/", 1)[0] if api_version and "/" in api_version else ""


def merge_key(field_name: str | int | None, items: list[Data], known_schema: bool) -> str | None:
    """The key items of this list merge on, or None when the list is replaced as a whole."""
    if not known_schema or not isinstance(field_name, str):
        return None
    for key in MERGE_KEYS.get(field_name, ()):
        if items and all(isinstance(i, dict) and key in i for i in items):
            return key
    return None


def _directive(data: Data) -> str | None:
    value = data.get("$patch") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


# ------------------------------------------------------------------ data


def merge_data(base: Data, patch: Data, known_schema: bool, field_name: str | int | None = None) -> Data:
    """The data kustomize builds from ``base`` and the strategic merge ``patch``."""
    if isinstance(patch, dict) and isinstance(base, dict):
        directive = _directive(patch)
        if directive == "delete":
            return None
        if directive == "replace":
            return {k: v for k, v in patch.items() if k != "$patch"}
        out = dict(base)
        for key, value in patch.items():
            if key.startswith("$"):
                continue
            if value is None:
                out.pop(key, None)
            elif key in out:
                merged = merge_data(out[key], value, known_schema, key)
                if merged is None and _directive(value) == "delete":
                    out.pop(key)
                else:
                    out[key] = merged
            else:
                out[key] = _strip(value)
        return out
    if isinstance(patch, list) and isinstance(base, list):
        merge_on = merge_key(field_name, [*base, *patch], known_schema)
        if merge_on is None:
            return [_strip(v) for v in patch]
        key = merge_on
        matched: dict[int, Data] = {}
        added: list[Data] = []
        for item in patch:
            assert isinstance(item, dict)
            at = next((i for i, b in enumerate(base) if isinstance(b, dict) and b.get(key) == item.get(key)), None)
            if at is None:
                if _directive(item) != "delete":
                    added.append(_strip(item))
            else:
                matched[at] = item
        rest: list[Data] = []
        for i, b in enumerate(base):
            if i not in matched:
                rest.append(b)
            elif _directive(matched[i]) != "delete":
                rest.append(merge_data(b, matched[i], known_schema))
        return added + rest
    return _strip(patch)


def _strip(data: Data) -> Data:
    """Patch data as it lands where the base had nothing: directives and null keys removed."""
    if isinstance(data, dict):
        return {k: _strip(v) for k, v in data.items() if not k.startswith("$") and v is not None}
    if isinstance(data, list):
        return [_strip(v) for v in data]
    return data


# ------------------------------------------------------------------ trees


@dataclass
class Merged:
    """What ``merge`` added to a patch's tree, to be taken out again by ``project``."""

    foreign: set[int] = field(default_factory=set)
    """Ids of the base's entries, items and nodes added to the patch's tree."""
    nulls: list[tuple[Mapping, int, Entry]] = field(default_factory=list)
    """The patch's ``key: null`` entries (deletions), out of the tree while the migration runs."""
    touched: list[tuple[Mapping | Sequence, bool, list[Entry] | list[Item]]] = field(default_factory=list)
    """Each collection of the patch that got foreign children: its dirty flag and children before."""
    swapped: list[tuple[Entry, Node]] = field(default_factory=list)
    """(``overlay``) entries whose value a foreign one replaced while the migration ran, with their own."""
    alive: list[object] = field(default_factory=list)
    """The foreign objects themselves: one the migration drops must not lend its id to a new node."""

    def mark(self, *found: object) -> None:
        self.alive += found
        self.foreign.update(id(x) for x in found)


def overlay(own: Mapping, patch: Data, known_schema: bool) -> Merged:
    """Lay a patch's data over an object's tree, the patch winning (as kustomize merges a patch
    onto its base): the opposite roles of ``merge``, for an object only its patch lets migrate.
    ``project`` takes the patch's part out again and gives the object its own values back."""
    merged = Merged()
    if isinstance(patch, dict):
        _overlay_mapping(own, patch, known_schema, merged)
    return merged


def _overlay_mapping(own: Mapping, patch: dict[str, Data], known_schema: bool, merged: Merged) -> None:
    before = (own, own.dirty, list(own.entries))
    changed = False
    for key, value in patch.items():
        if key.startswith("$"):
            continue
        entry = own.entry(key)
        if value is None:
            if entry is not None:
                merged.nulls.append((own, own.entries.index(entry), entry))
                own.entries.remove(entry)
                changed = True
            continue
        if entry is None:
            new = Entry(Scalar.of(key), _foreign_node(value, merged))
            merged.mark(new)
            own.entries.append(new)
            changed = True
            continue
        child = entry.value
        if isinstance(child, Mapping) and isinstance(value, dict):
            _overlay_mapping(child, value, known_schema, merged)
            continue
        if isinstance(child, Sequence) and isinstance(value, list):
            items = [i.value for i in child.items]
            key_name = merge_key(key, [*(v.to_data() for v in items), *value], known_schema)
            if key_name is not None and all(isinstance(v, Mapping) for v in items):
                _overlay_items(child, value, key_name, known_schema, merged)
                continue
        if child.to_data() == value:
            continue  # the same value: the object's own node stays, and is migrated in place
        merged.swapped.append((entry, child))
        entry.value = _foreign_node(value, merged)
    if changed:
        merged.touched.append(before)
        own.dirty = True


def _overlay_items(own: Sequence, patch: list[Data], key: str, known_schema: bool, merged: Merged) -> None:
    before = (own, own.dirty, list(own.items))
    added: list[Item] = []
    for value in patch:
        if not isinstance(value, dict):
            continue
        mine = next(
            (i for i in own.items if isinstance(i.value, Mapping) and i.value.data(key) == value.get(key)), None
        )
        if mine is not None:
            assert isinstance(mine.value, Mapping)
            _overlay_mapping(mine.value, value, known_schema, merged)
            continue
        item = Item(_foreign_node(value, merged))
        merged.mark(item)
        added.append(item)
    if added:
        own.items = added + own.items
        own.dirty = True
        merged.touched.append(before)


def _is_null(node: Node) -> bool:
    return isinstance(node, Scalar) and node.style is None and node.data is None


def _foreign_node(data: Data, merged: Merged) -> Node:
    node = from_data(data)
    merged.mark(*nodes(node))
    return node


def merge(patch: Mapping, base: Data, known_schema: bool) -> Merged:
    """Merge ``base`` (data) into the patch's tree in place, as kustomize would build them."""
    merged = Merged()
    if isinstance(base, dict):
        _merge_mapping(patch, base, known_schema, merged)
    return merged


def _merge_mapping(patch: Mapping, base: dict[str, Data], known_schema: bool, merged: Merged) -> None:
    if _directive(patch.to_data()) in ("replace", "delete"):
        return
    before = (patch, patch.dirty, list(patch.entries))
    changed = False
    for index, entry in reversed(list(enumerate(patch.entries))):
        if _is_null(entry.value):
            merged.nulls.append((patch, index, entry))
            patch.entries.remove(entry)
            changed = True
    for key, value in base.items():
        found = patch.entry(key)
        if found is None:
            if any(e.name == key for _m, _i, e in merged.nulls if _m is patch):
                continue  # the patch deletes it
            new = Entry(Scalar.of(key), _foreign_node(value, merged))
            merged.mark(new)
            patch.entries.append(new)
            changed = True
            continue
        child = found.value
        if isinstance(child, Alias):
            continue
        if isinstance(child, Mapping) and isinstance(value, dict):
            _merge_mapping(child, value, known_schema, merged)
        elif isinstance(child, Sequence) and isinstance(value, list):
            _merge_sequence(child, value, key, known_schema, merged)
    if changed:
        merged.touched.append(before)
        patch.dirty = True


def _merge_sequence(patch: Sequence, base: list[Data], field_name: str, known_schema: bool, merged: Merged) -> None:
    items = [i.value for i in patch.items]
    if not all(isinstance(v, Mapping) for v in items):
        return
    key = merge_key(field_name, [*base, *(v.to_data() for v in items)], known_schema)
    if key is None:
        return
    before = (patch, patch.dirty, list(patch.items))
    base_keys = {repr(b.get(key)) for b in base if isinstance(b, dict)}
    by_key: dict[str, Item] = {}
    added: list[Item] = []
    for item in patch.items:
        assert isinstance(item.value, Mapping)
        mark = repr(item.value.data(key))
        by_key[mark] = item
        if mark not in base_keys:
            added.append(item)
    ordered: list[Item] = list(added)
    for value in base:
        if not isinstance(value, dict):
            continue
        mine = by_key.get(repr(value.get(key)))
        if mine is not None:
            assert isinstance(mine.value, Mapping)
            if _directive(mine.value.to_data()) != "delete":
                _merge_mapping(mine.value, value, known_schema, merged)
            ordered.append(mine)
            continue
        item = Item(_foreign_node(value, merged))
        merged.mark(item)
        ordered.append(item)
    patch.items = ordered
    patch.dirty = True
    merged.touched.append(before)


def project(root: Mapping, merged: Merged) -> None:
    """Take the base's part out of the migrated merged tree, leaving the patch's.

    A foreign entry or item goes unless the migration put patch content or new content into
    it (a field of the patch moved into a structure only the base had): then it stays, a copy
    of the base's part around the patch's. The patch's deletions come back; a collection whose
    children are the ones it had keeps its clean state, so it is copied from the text again.
    """
    foreign = merged.foreign

    def only_foreign(node: Node) -> bool:
        return all(id(n) in foreign for n in nodes(node))

    def keep(child: Entry | Item) -> bool:
        if id(child) not in foreign:
            walk(child.value)  # the patch's own: look inside
            return True
        return not only_foreign(child.value)  # kept whole: a list may be replaced by it

    def walk(node: Node) -> None:
        if isinstance(node, Mapping):
            node.entries = [e for e in node.entries if keep(e)]
        elif isinstance(node, Sequence):
            node.items = [i for i in node.items if keep(i)]

    walk(root)
    for entry, own in merged.swapped:
        entry.value = own
    for mapping, index, entry in reversed(merged.nulls):
        mapping.entries.insert(min(index, len(mapping.entries)), entry)
    for collection, dirty, children in merged.touched:
        if isinstance(collection, Mapping):
            if len(collection.entries) == len(children) and all(
                a is b for a, b in zip(collection.entries, children, strict=True)
            ):
                collection.dirty = dirty
        else:
            items: list[Item] = [c for c in children if isinstance(c, Item)]
            mine = [i for i in collection.items if any(i is c for c in items)]
            new = [i for i in collection.items if not any(i is c for c in items)]
            collection.items = [i for i in items if any(i is m for m in mine)] + new
            if len(collection.items) == len(items) and all(
                a is b for a, b in zip(collection.items, items, strict=True)
            ):
                collection.dirty = dirty


def _sourced(node: Node) -> bool:
    """Whether the subtree holds a node read from the patch's text."""
    return any(n.src is not None for n in nodes(node))


def prune(patch: Mapping, base_after: Data, known_schema: bool) -> None:
    """Drop what the migration wrote into the patch that the migrated base already has, at the
    same place and with the same value (a merge brings it anyway)."""
    if isinstance(base_after, dict):
        _prune_mapping(patch, base_after, known_schema)


def _prune_mapping(patch: Mapping, base: dict[str, Data], known_schema: bool) -> None:
    if _directive(patch.to_data()) in ("replace", "delete"):
        return
    for entry in list(patch.entries):
        if entry.name not in base:
            continue
        value = entry.value
        there = base[entry.name]
        if not _sourced(value) and value.to_data() == there:
            patch.pop(entry.name)
            continue
        if isinstance(value, Mapping) and isinstance(there, dict):
            _prune_mapping(value, there, known_schema)
            if value.src is None and not value.entries:
                patch.pop(entry.name)
        elif isinstance(value, Sequence) and isinstance(there, list):
            key = merge_key(entry.name, [*there, *(v.to_data() for v in value)], known_schema)
            if key is None:
                continue
            for item in value:
                if not isinstance(item, Mapping):
                    continue
                match = next((b for b in there if isinstance(b, dict) and b.get(key) == item.data(key)), None)
                if isinstance(match, dict):
                    _prune_mapping(item, match, known_schema)


def complete(patch: Mapping, merged: Data, wanted: Data, known_schema: bool) -> bool:
    """Add to the patch what makes the migrated base merged with it give ``wanted``: a key the
    merge would bring and ``wanted`` lacks becomes ``key: null`` (a deletion), a value that
    differs is written. For the case a patch replaces what the base's migration rewrites (a
    patch that sets ``annotations`` while the base's annotation moved into a field). False when
    it cannot be expressed without directives."""
    if not (isinstance(merged, dict) and isinstance(wanted, dict)):
        return False
    return _complete_mapping(patch, merged, wanted, known_schema)


def _complete_mapping(patch: Mapping, merged: dict[str, Data], wanted: dict[str, Data], known: bool) -> bool:
    for key in [k for k in merged if k not in wanted]:
        if key.startswith("$"):
            return False
        patch.set(key, None)
    for key, value in wanted.items():
        have = merged.get(key, _MISSING)
        if have == value:
            continue
        child = patch.get(key)
        if isinstance(value, dict) and isinstance(have, dict) and (child is None or isinstance(child, Mapping)):
            if child is None:
                child = patch.set(key, Mapping())
            assert isinstance(child, Mapping)
            if not _complete_mapping(child, have, value, known):
                return False
            continue
        if isinstance(value, list) and isinstance(have, list) and isinstance(child, Sequence):
            merge_on = merge_key(key, [*have, *value], known)
            if merge_on is not None and _complete_items(child, have, value, merge_on, known):
                continue
        patch.set(key, from_data(value))
    return True


def _complete_items(patch: Sequence, merged: list[Data], wanted: list[Data], key: str, known: bool) -> bool:
    """Items matched by their merge key; False where the lists differ otherwise (order, count)."""
    if [m.get(key) for m in merged if isinstance(m, dict)] != [w.get(key) for w in wanted if isinstance(w, dict)]:
        return False
    for have, value in zip(merged, wanted, strict=True):
        if have == value:
            continue
        assert isinstance(have, dict) and isinstance(value, dict)
        found = next((i for i in patch if isinstance(i, Mapping) and i.data(key) == value.get(key)), None)
        item = found if found is not None else patch.append(Mapping.of({key: value.get(key)}))
        if not isinstance(item, Mapping) or not _complete_mapping(item, have, value, known):
            return False
    return True


_MISSING = object()
