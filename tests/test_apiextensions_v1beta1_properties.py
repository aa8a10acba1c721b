"""Property: a migrated CRD is valid v1 and prunes exactly what its v1beta1 form pruned.

Schemas are generated with nested objects, arrays, maps, ``additionalProperties: true``,
int-or-string, preservation at various depths and nodes whose ``type`` is missing (repaired);
objects are generated from each schema with unknown fields everywhere they may appear. With
``preserveUnknownFields`` unset or true v1beta1 pruned nothing; with ``false`` it pruned by the
schema, with the same algorithm (tests/crd_pruning.py).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import k8smigrate
from tests.crd_pruning import PRESERVE, pruned
from tests.fuzz_checks import misplaced_comments
from tests.helpers import validate

INT_OR_STRING = {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]}
LEAVES = st.sampled_from(
    [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}, INT_OR_STRING, {PRESERVE: True}]
)
NAMES = st.sampled_from(["a", "b", "spec", "items", "labels", "x"])


def objects(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    def build(props: dict[str, Any], typed: bool, preserve: bool) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "object"} if typed else {}
        if preserve:
            node[PRESERVE] = True
        node["properties"] = props
        return node

    return st.builds(build, st.dictionaries(NAMES, children, min_size=1, max_size=3), st.booleans(), st.booleans())


def extend(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        objects(children),
        st.builds(lambda c, typed: {"type": "array", "items": c} if typed else {"items": c}, children, st.booleans()),
        children.map(lambda c: {"type": "object", "additionalProperties": c}),
        st.just({"type": "object", "additionalProperties": True}),
    )


SCHEMAS = st.recursive(LEAVES, extend, max_leaves=6)
UNKNOWN = st.sampled_from([1, "s", {"deep": {"deeper": 1}}, [{"in": 1}]])


def instance(data: st.DataObject, schema: dict[str, Any]) -> Any:
    """A value valid under the v1beta1 ``schema``, with unknown fields where it allows them."""
    if schema.get(PRESERVE) and "properties" not in schema:
        return data.draw(UNKNOWN)
    if "x-kubernetes-int-or-string" in schema:
        return data.draw(st.sampled_from([1, "one"]))
    if "items" in schema:
        return [instance(data, schema["items"]) for _ in range(data.draw(st.integers(0, 2)))]
    kind = schema.get("type")
    if kind in ("string", "integer", "boolean"):
        return {"string": "s", "integer": 1, "boolean": True}[kind]
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        return {k: instance(data, extra) for k in data.draw(st.lists(NAMES, max_size=2, unique=True))}
    out: dict[str, Any] = {k: instance(data, v) for k, v in (schema.get("properties") or {}).items()}
    if data.draw(st.booleans()):
        out["unknown"] = data.draw(UNKNOWN)
    return out


def crd(schema: dict[str, Any], preserve: bool | None) -> str:
    spec: dict[str, Any] = {
        "group": "example.com",
        "names": {"kind": "Widget", "plural": "widgets"},
        "version": "v1",
        "validation": {"openAPIV3Schema": schema},
    }
    if preserve is not None:
        spec["preserveUnknownFields"] = preserve
    doc = {
        "apiVersion": "apiextensions.k8s.io/v1beta1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": spec,
    }
    return yaml.dump(doc, Dumper=NoAliases, sort_keys=False)


class NoAliases(yaml.SafeDumper):
    """Generated schemas share leaf dicts; write each one out (aliases are refused, see the spec)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=SCHEMAS,
    typed_root=st.booleans(),
    preserve=st.sampled_from([None, True, False]),
    data=st.data(),
)
def test_migrated_crd_is_valid_and_prunes_the_same(
    spec: dict[str, Any], typed_root: bool, preserve: bool | None, data: st.DataObject
) -> None:
    schema: dict[str, Any] = {"properties": {"spec": spec, "metadata": {"type": "object"}}}
    if typed_root:
        schema["type"] = "object"
    result = k8smigrate.migrate_text(crd(schema, preserve), target_version="1.29")
    assert [f.message for f in result.findings if f.level == "error"] == []
    validate(result.text)
    new = yaml.safe_load(result.text)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    for _ in range(3):
        obj = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}
        obj.update({k: v for k, v in instance(data, schema).items() if k != "metadata"})
        before = set() if preserve is not False else pruned(obj, schema)
        assert pruned(obj, new) == before


KEY_LINE = re.compile(r"^( *)(?:- |[\w.$-]+:)")


def with_comments(text: str, data: st.DataObject) -> str:
    """``text`` with whole-line comments (each its own text) above some keys and items: at the
    key's column or deeper, some after a blank line."""
    out: list[str] = []
    for number, line in enumerate(text.split("\n")):
        m = KEY_LINE.match(line)
        if number and m and data.draw(st.booleans()):
            if data.draw(st.booleans()):
                out.append("")
            out.append(" " * (len(m.group(1)) + data.draw(st.sampled_from([0, 0, 2]))) + f"# c{number}")
        out.append(line)
    return "\n".join(out)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=SCHEMAS, preserve=st.sampled_from([None, False]), data=st.data())
def test_comments_keep_their_place_above_their_lines_in_a_moved_and_edited_schema(
    spec: dict[str, Any], preserve: bool | None, data: st.DataObject
) -> None:
    # the schema moves into spec.versions[0] (new indentation) and is edited on the way (the
    # extension added, types repaired): a comment stays above the line it stood above, at the
    # same offset from it
    text = with_comments(crd({"type": "object", "properties": {"spec": spec}}, preserve), data)
    result = k8smigrate.migrate_text(text, target_version="1.29")
    assert [f.message for f in result.findings if f.level == "error"] == []
    assert misplaced_comments(text, result.text) == []
