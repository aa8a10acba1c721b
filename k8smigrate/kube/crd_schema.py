"""CRD ``openAPIV3Schema`` helpers: structural repairs, structural checks, preservation.

Used by ``apiextensions_v1beta1``.
Everything here works on the editable tree, over the *structural* part of a schema
(``properties``, ``items``, ``additionalProperties``), listed once by ``structural_nodes`` for
the repairs, the checks and the preservation to go through in turn; value validations
(``allOf``/``anyOf``/``oneOf``/``not``) are only read by the checks. The engine hands
migrations trees whose aliases are expanded (``k8smigrate.sharing``); ``get`` and ``data_of``
still follow an alias to its anchored node for a tree read without the engine.

Upstream rules followed (kubernetes/kubernetes, staging/src/k8s.io/apiextensions-apiserver):

- ``pkg/apiserver/schema/validation.go`` (``validateStructuralInvariants``,
  ``validateNestedValueValidation``, ``validateStructuralMetadataInvariants``);
- ``pkg/apiserver/schema/complete.go`` (fields named in value validations must also be
  specified in the structural part);
- ``pkg/apiserver/schema/convert.go`` (``validateUnsupportedFields``);
- ``pkg/apis/apiextensions/validation/validation.go`` (``specStandardValidatorV3.validate``,
  ``additionalProperties`` beside ``properties``, ``uniqueItems``, root ``nullable``,
  ``x-kubernetes-preserve-unknown-fields`` must be true or undefined);
- ``pkg/apiserver/schema/pruning/algorithm.go`` for what preservation has to cover.
"""

from __future__ import annotations

from dataclasses import field

from k8smigrate.scalars import Data
from k8smigrate.tree import Alias, Mapping, Node, Scalar, Sequence, resolve

from ..dataclasscode import dataclass

PRESERVE = "x-kubernetes-preserve-unknown-fields"
INT_OR_STRING = "x-kubernetes-int-or-string"
EMBEDDED = "x-kubernetes-embedded-resource"

# Fields that NewStructural refuses (convert.go) or v3 validation forbids.
_UNSUPPORTED = ("id", "$schema", "$ref", "patternProperties", "dependencies", "additionalItems", "definitions")
_UNSUPPORTED_SET = frozenset(_UNSUPPORTED)
_JUNCTORS = ("allOf", "anyOf", "oneOf")
_VALIDATIONS = frozenset((*_JUNCTORS, "not"))
# Inside allOf/anyOf/oneOf/not these make a schema non-structural (validateNestedValueValidation).
_NESTED_FORBIDDEN = (
    "type",
    "additionalProperties",
    "default",
    "title",
    "description",
    "externalDocs",
    PRESERVE,
    EMBEDDED,
    INT_OR_STRING,
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
)
_META = ("apiVersion", "kind", "metadata")
_INT_OR_STRING: list[dict[str, str]] = [{"type": "integer"}, {"type": "string"}]


@dataclass
class Visit:
    """One node of the structural part of a schema."""

    path: str
    node: Node
    level: str  # "root", "item" or "field" (as in validation.go)
    resource_meta: bool = False  # metadata/kind/apiVersion of the root or of an embedded resource
    fields: dict[str, Node] | None = (
        None  # a mapping's ``fields_of`` (``structural_nodes``), kept current by ``repair``
    )


@dataclass
class SchemaResult:
    """What one schema pass did or found; paths are YAML paths into the input."""

    repairs: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    preserved: list[str] = field(default_factory=list)
    dropped_true: list[str] = field(default_factory=list)

    def extend(self, other: SchemaResult) -> None:
        self.repairs += other.repairs
        self.violations += other.violations
        self.preserved += other.preserved
        self.dropped_true += other.dropped_true


def structural_nodes(root: Node, path: str) -> list[Visit]:
    """Every node of the structural part, parents first, iteratively (schemas can be deep).

    One list serves every pass over a schema (a walk was a third of each): none of them adds or
    removes a node that another pass acts on. ``repair`` adds only ``type`` and the
    int-or-string extension; the ``additionalProperties`` schema ``preserve_everywhere`` writes
    preserves unknown fields already, and what it removes is a scalar. Each mapping's fields are
    read once, here (``Visit.fields``); ``repair`` writes its two edits into them, so that
    ``check`` reads what it left.
    """
    out: list[Visit] = []
    stack = [Visit(path, resolve(root), "root")]
    while stack:
        visit = stack.pop()
        out.append(visit)
        node = visit.node
        if not isinstance(node, Mapping):
            continue
        children: list[Visit] = []
        fields = visit.fields = fields_of(node)
        props = _mapping(fields, "properties")
        resource = visit.level == "root" or _truthy(fields, EMBEDDED)
        if props is not None:
            for e in props.entries:
                meta = visit.resource_meta or (resource and e.name in _META)
                children.append(Visit(f"{visit.path}.properties.{e.name}", resolve(e.value), "field", meta))
        items = fields.get("items")
        if items is not None:
            children.append(Visit(f"{visit.path}.items", items, "item", visit.resource_meta))
        extra = fields.get("additionalProperties")
        if isinstance(extra, Mapping):
            children.append(Visit(f"{visit.path}.additionalProperties", extra, "field", visit.resource_meta))
        stack.extend(reversed(children))
    return out


def get(node: Mapping, key: str) -> Node | None:
    """``node[key]``, a YAML alias followed to its anchored node (for reading only).

    ``Mapping.get`` and ``resolve`` written out: the passes over a large CRD's schema ask
    each node for a dozen keys, and this was a third of their time.
    """
    for e in node.entries:
        if e.key.value == key:  # the first entry with that key, as Mapping.entry finds it
            value = e.value
            return resolve(value) if isinstance(value, Alias) else value
    return None


def get_mapping(node: Mapping, key: str) -> Mapping | None:
    value = get(node, key)
    return value if isinstance(value, Mapping) else None


def data_of(node: Node) -> Data:
    """The node's data, aliases followed through their parsed anchors (``to_data`` needs the
    whole document's anchors; a schema may alias a node defined outside it)."""
    node = resolve(node)
    if isinstance(node, Mapping):
        out: dict[str, Data] = {}
        for e in node.entries:
            value = data_of(e.value)
            if e.name == "<<" and e.key.style is None:  # a merge key, as tree.to_data reads it
                for merged in value if isinstance(value, list) else [value]:
                    for k, v in merged.items() if isinstance(merged, dict) else ():
                        out.setdefault(k, v)
                continue
            key = e.key.data  # a YAML 1.1 key such as ``on`` or ``null``, as tree.to_data writes it
            out["true" if key is True else "false" if key is False else "null" if key is None else str(key)] = value
        return out
    if isinstance(node, Sequence):
        return [data_of(v) for v in node]
    return node.data if isinstance(node, Scalar) else None


def truthy(node: Mapping, key: str) -> bool:
    value = get(node, key)
    return isinstance(value, Scalar) and value.data is True


def type_of(node: Mapping) -> str | None:
    value = get(node, "type")
    if not isinstance(value, Scalar):
        return None
    data = value.data  # read once: a property that resolves the plain scalar each time
    return str(data) if data not in (None, "") else None


def fields_of(node: Mapping) -> dict[str, Node]:
    """Each key of ``node`` with its value, an alias followed to its anchored node (for reading).

    A repeated key gives its first entry's value, as ``Mapping.entry`` finds it. The checks ask
    every schema node for some twenty keys: one dict per node instead of a scan of its entries
    per question.
    """
    out: dict[str, Node] = {}
    for e in reversed(node.entries):  # the first entry of a key is written last, so it wins
        value = e.value
        out[e.key.value] = resolve(value) if isinstance(value, Alias) else value
    return out


def _truthy(fields: dict[str, Node], key: str) -> bool:
    """``truthy`` over ``fields_of``."""
    value = fields.get(key)
    return isinstance(value, Scalar) and value.data is True


def _type(fields: dict[str, Node]) -> str | None:
    """``type_of`` over ``fields_of``."""
    value = fields.get("type")
    if not isinstance(value, Scalar):
        return None
    data = value.data
    return str(data) if data not in (None, "") else None


def _mapping(fields: dict[str, Node], key: str) -> Mapping | None:
    """``get_mapping`` over ``fields_of``."""
    value = fields.get(key)
    return value if isinstance(value, Mapping) else None


# ------------------------------------------------------------------ repairs


def repair(visits: list[Visit]) -> SchemaResult:
    """Add the ``type`` that structural schemas need where it can be inferred (K8SM-CRD-003)."""
    result = SchemaResult()
    for visit in visits:
        node, fields = visit.node, visit.fields
        if not isinstance(node, Mapping) or fields is None or "type" in fields:  # typed, or a type to check
            continue
        if _truthy(fields, INT_OR_STRING) or _truthy(fields, PRESERVE) or _truthy(fields, EMBEDDED):
            continue  # may go without a type (int-or-string, preserving), or an embedded resource
        extension = int_or_string(node)
        if extension is not None:
            fields[INT_OR_STRING] = extension
            result.repairs.append(f"{visit.path}: anyOf [string, integer] → {INT_OR_STRING}: true")
            continue
        if visit.level == "root" or "properties" in fields:
            guess = "object"
        elif isinstance(fields.get("items"), Mapping):
            guess = "array"
        else:
            continue
        before = next((k for k in ("properties", "items") if k in fields), None)
        fields["type"] = node.set("type", guess, before=before)
        result.repairs.append(f"{visit.path}: type: {guess} added")
    return result


def int_or_string(node: Mapping) -> Node | None:
    """Turn a typeless ``anyOf: [{type: string}, {type: integer}]`` into the int-or-string form.

    The same values validate, and neither is pruned, but only ``x-kubernetes-int-or-string``
    with exactly ``[{type: integer}, {type: string}]`` (in that order: validation.go compares
    the list) is structural. Returns the extension's value when the node was rewritten, else None.
    """
    any_of = get(node, "anyOf")
    if not isinstance(any_of, Sequence) or len(any_of) != 2:
        return None
    if sorted(map(str, (data_of(c) for c in any_of))) != sorted(map(str, _INT_OR_STRING)):
        return None
    if data_of(any_of[0]) != _INT_OR_STRING[0]:
        any_of.move(1, 0)  # two items: swapped
    return node.set(INT_OR_STRING, True, after="anyOf")


# ------------------------------------------------------------------ preservation


def preserve_everywhere(visits: list[Visit]) -> SchemaResult:
    """Reproduce ``preserveUnknownFields: true``: nothing may be pruned anywhere.

    The pruning algorithm keeps unknown keys only on nodes that carry the extension, still
    recurses into declared children with their own schemas, and empties object values matched
    by ``additionalProperties: true`` even under a preserving parent. So every ``type: object``
    node gets the extension, and ``additionalProperties: true`` becomes a preserving schema
    (or, beside ``properties`` where a schema is not allowed, is dropped: unknown keys of a
    preserving node are kept untouched, while ``true`` would empty their object values).
    Map nodes (with an ``additionalProperties`` schema or ``false``) are left as they are:
    every key goes to that schema whether the node preserves or not.
    """
    result = SchemaResult()
    for visit in visits:
        node = visit.node
        if not isinstance(node, Mapping) or (visit.resource_meta and visit.level == "field"):
            # the root's (and embedded resources') metadata is pruned as ObjectMeta, never by
            # the schema, and a root metadata schema may not carry extensions
            continue
        fields = visit.fields  # as before the edits below, which the flags follow
        assert fields is not None  # structural_nodes reads every mapping's
        extra = fields.get("additionalProperties")
        has_extra = extra is not None
        if isinstance(extra, Scalar) and extra.data is True:
            if "properties" in fields:
                node.pop("additionalProperties")
                has_extra = False
                result.dropped_true.append(f"{visit.path}.additionalProperties")
            else:
                node.set("additionalProperties", Mapping.of({PRESERVE: True}))
                result.preserved.append(f"{visit.path}.additionalProperties")
        if has_extra or _truthy(fields, PRESERVE):
            # a node with additionalProperties hands every unknown key to that schema (or to
            # "no schema" for false): the extension would change nothing there
            continue
        kind = _type(fields)
        if kind == "object" or (visit.level == "root" and kind is None):
            node.set(PRESERVE, True, after="type" if "type" in fields else None)
            result.preserved.append(visit.path)
    return result


def preserve_root(root: Node, path: str) -> SchemaResult:
    """The opt-out: the extension on the root only (nested unknown fields are pruned)."""
    result = SchemaResult()
    if isinstance(root, Mapping) and not truthy(root, PRESERVE):
        root.set(PRESERVE, True, after="type" if "type" in root else None)
        result.preserved.append(path)
    return result


# ------------------------------------------------------------------ checks


def check(visits: list[Visit]) -> SchemaResult:
    """Every reason the API server would refuse this schema in apiextensions.k8s.io/v1."""
    result = SchemaResult()
    out = result.violations
    for visit in visits:
        node = visit.node
        where = visit.path
        if isinstance(node, Alias):  # an alias whose anchor the parser did not find
            out.append(f"{where}: is the YAML alias *{node.name} of no anchor")
            continue
        if not isinstance(node, Mapping):
            out.append(f"{where}: must be a schema object")
            continue
        fields = visit.fields
        assert fields is not None  # structural_nodes reads every mapping's
        kind = _type(fields)
        _check_fields(fields, kind, where, out)
        if isinstance(fields.get("items"), Sequence):
            out.append(f"{where}.items: must be a schema object and not an array")
        if kind == "array" and "items" not in fields:
            out.append(f"{where}.items: must be specified for type: array")
        _check_additional_properties(fields, visit, out)
        embedded = _truthy(fields, EMBEDDED)
        int_or_string, preserves = _truthy(fields, INT_OR_STRING), _truthy(fields, PRESERVE)
        if embedded and kind != "object":
            out.append(f"{where}.type: must be object if {EMBEDDED} is true")
        elif kind is None and not (int_or_string or preserves):
            scope = {"root": "at the root", "item": "for array items", "field": "for object fields"}
            out.append(f"{where}.type: must not be empty {scope[visit.level]}")
        if visit.level == "root" and kind not in (None, "object"):
            out.append(f"{where}.type: must be object at the root")
        if visit.level == "root" and _truthy(fields, "nullable"):
            out.append(f"{where}.nullable: cannot be true at the root")
        if int_or_string and (preserves or embedded):
            out.append(f"{where}: {INT_OR_STRING} cannot be combined with {PRESERVE} or {EMBEDDED}")
        if embedded and not preserves and not _mapping(fields, "properties"):
            out.append(f"{where}.properties: must not be empty if {EMBEDDED} is true without {PRESERVE}")
        if visit.level == "root" or embedded:
            _check_resource_meta(fields, where, visit.level == "root", out)
        if not _VALIDATIONS.isdisjoint(fields):
            _check_value_validations(node, fields, where, out)
    return result


def _check_fields(fields: dict[str, Node], kind: str | None, where: str, out: list[str]) -> None:
    """What no schema node may hold; ``kind``: its ``_type``."""
    if not _UNSUPPORTED_SET.isdisjoint(fields):
        out.extend(f"{where}.{key}: is not supported" for key in _UNSUPPORTED if key in fields)
    if _truthy(fields, "uniqueItems"):
        out.append(f"{where}.uniqueItems: cannot be true")
    value = fields.get(PRESERVE)
    if value is not None and not (isinstance(value, Scalar) and value.data is True):
        out.append(f"{where}.{PRESERVE}: must be true or undefined")
    if kind == "null":
        out.append(f"{where}.type: cannot be null (use nullable)")


def _check_additional_properties(fields: dict[str, Node], visit: Visit, out: list[str]) -> None:
    extra = fields.get("additionalProperties")
    if extra is None:
        return
    where = f"{visit.path}.additionalProperties"
    if visit.level == "root":
        out.append(f"{where}: must not be used at the root")
    if _truthy(fields, EMBEDDED):
        out.append(f"{where}: must not be used if {EMBEDDED} is set")
    allows_anything = isinstance(extra, Scalar) and extra.data is True
    if _mapping(fields, "properties") and not allows_anything:
        out.append(f"{where}: additionalProperties and properties are mutually exclusive")


def _check_resource_meta(fields: dict[str, Node], where: str, root: bool, out: list[str]) -> None:
    props = _mapping(fields, "properties")
    if props is None:
        return
    for name in ("kind", "apiVersion"):
        child = get(props, name)
        if isinstance(child, Mapping) and type_of(child) != "string":
            out.append(f"{where}.properties.{name}.type: must be string")
    meta = get(props, "metadata")
    if not isinstance(meta, Mapping):
        return
    if type_of(meta) != "object":
        out.append(f"{where}.properties.metadata.type: must be object")
    if not root:
        return
    # validateStructuralMetadataInvariants: only type and name/generateName properties
    names = get_mapping(meta, "properties")
    only_names = names is None or set(names.keys()) <= {"name", "generateName"}
    extra = [k for k in meta if k not in ("type", "properties")]
    if extra or not only_names:
        out.append(f"{where}.properties.metadata: must not specify anything other than name and generateName")


def _check_value_validations(node: Mapping, fields: dict[str, Node], where: str, out: list[str]) -> None:
    """allOf/anyOf/oneOf/not: structural restrictions, then completeness against ``node``.

    The two int-or-string shapes are exempt, as in validateStructuralInvariants: ``anyOf:
    [{type: integer}, {type: string}]`` on the node itself, or as ``allOf[0].anyOf``.
    """
    all_of = fields.get("allOf")
    first = resolve(all_of[0]) if isinstance(all_of, Sequence) and len(all_of) else None
    skip_first_all_of = isinstance(first, Mapping) and _int_or_string_pattern(get(first, "anyOf"))
    for junctor in _JUNCTORS:
        seq = fields.get(junctor)
        if not isinstance(seq, Sequence):
            continue
        skip_all = junctor == "anyOf" and _int_or_string_pattern(seq)
        for i, clause in enumerate(seq):
            path = f"{where}.{junctor}[{i}]"
            if not skip_all:
                _check_nested(clause, path, out, skip_any_of=junctor == "allOf" and i == 0 and skip_first_all_of)
            _check_complete(clause, node, where, path, out)
    if "not" in fields:
        clause = fields.get("not") or Mapping()
        _check_nested(clause, f"{where}.not", out)
        _check_complete(clause, node, where, f"{where}.not", out)


def _int_or_string_pattern(any_of: Node | None) -> bool:
    if not isinstance(any_of, Sequence) or len(any_of) != 2:
        return False
    return [data_of(m) for m in any_of] == _INT_OR_STRING


def _check_nested(clause: Node, where: str, out: list[str], skip_any_of: bool = False) -> None:
    """validateNestedValueValidation, iteratively over properties, items and junctors."""
    stack: list[tuple[str, Node, bool]] = [(where, clause, skip_any_of)]
    while stack:
        path, node, skip = stack.pop()
        node = resolve(node)
        if not isinstance(node, Mapping):
            out.append(f"{path}: must be a schema object")
            continue
        fields = fields_of(node)
        _check_fields(fields, _type(fields), path, out)
        out.extend(f"{path}.{key}: must be undefined to be structural" for key in _NESTED_FORBIDDEN if key in fields)
        if _truthy(fields, "nullable"):
            out.append(f"{path}.nullable: must be false to be structural")
        props = _mapping(fields, "properties")
        if props is not None:
            if "metadata" in props:
                out.append(f"{path}.properties.metadata: must not be specified in a nested context")
            stack.extend((f"{path}.properties.{e.name}", e.value, False) for e in props.entries)
        if "items" in fields:
            stack.append((f"{path}.items", fields.get("items") or Mapping(), False))
        for junctor in _JUNCTORS:
            seq = fields.get(junctor)
            if isinstance(seq, Sequence) and not (junctor == "anyOf" and skip):
                stack.extend((f"{path}.{junctor}[{i}]", c, False) for i, c in enumerate(seq))
        if "not" in fields:
            stack.append((f"{path}.not", fields.get("not") or Mapping(), False))


def _check_complete(clause: Node, snode: Node | None, spath: str, vpath: str, out: list[str]) -> None:
    """complete.go: every property or items named in a value validation exists structurally."""
    stack: list[tuple[Node, Node | None, str, str]] = [(clause, snode, spath, vpath)]
    while stack:
        v, s, sp, vp = stack.pop()
        v, s = resolve(v), (None if s is None else resolve(s))
        if not isinstance(v, Mapping):
            continue
        if not isinstance(s, Mapping):
            out.append(f"{sp}: must be specified because it is defined in {vp}")
            continue
        for junctor in _JUNCTORS:
            seq = get(v, junctor)
            if isinstance(seq, Sequence):
                stack.extend((c, s, sp, f"{vp}.{junctor}[{i}]") for i, c in enumerate(seq))
        if "not" in v:
            stack.append((get(v, "not") or Mapping(), s, sp, f"{vp}.not"))
        if "items" in v:
            stack.append((get(v, "items") or Mapping(), get(s, "items"), f"{sp}.items", f"{vp}.items"))
        props = get_mapping(v, "properties")
        sprops = get_mapping(s, "properties")
        if props is not None:
            for e in props.entries:
                target = get(sprops, e.name) if sprops is not None else None
                if target is None:
                    out.append(
                        f"{sp}.properties.{e.name}: must be specified because it is defined in {vp}.properties.{e.name}"
                    )
                    continue
                stack.append((e.value, target, f"{sp}.properties.{e.name}", f"{vp}.properties.{e.name}"))
