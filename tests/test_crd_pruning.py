"""The pruning model on its own, against cases of upstream's pruning/algorithm_test.go."""

from __future__ import annotations

from typing import Any

import pytest

from tests.crd_pruning import PRESERVE, pruned

OBJ = {"type": "object"}


@pytest.mark.parametrize(
    ("obj", "schema", "expected"),
    [
        pytest.param(4, {}, set(), id="scalar"),
        pytest.param(
            [{"a": 1}, {"b": 1}, {"a": 1, "b": 2, "c": 3}],
            {"items": {"properties": {"a": {}, "c": {}}}},
            {(1, "b"), (2, "b")},
            id="object-array",
        ),
        pytest.param(
            [{"a": 1}, {"b": 1}, {"a": 1, "b": 2, "c": 3}],
            None,
            {(0, "a"), (1, "b"), (2, "a"), (2, "b"), (2, "c")},
            id="object-array-nil-schema",
        ),
        pytest.param(
            {"a": 1, "b": 1, "c": {"a": 1, "b": 2, "c": {"a": 1}}},
            {"properties": {"a": {}, "c": {"additionalProperties": {"type": "integer"}}}},
            {("b",), ("c", "c", "a")},
            id="additionalProperties-with-schema",
        ),
        pytest.param(
            {"a": 1, "b": 1, "c": {"a": 1, "b": 2, "c": {"a": 1, "apiVersion": "x"}}},
            {"properties": {"a": {}, "c": {"additionalProperties": False}}},
            {("b",), ("c", "c", "a"), ("c", "c", "apiVersion")},
            id="additionalProperties-false-empties-object-values",
        ),
    ],
)
def test_prune_not_resource_root(obj: Any, schema: dict[str, Any] | None, expected: set[Any]) -> None:
    assert pruned(obj, schema, resource_root=False) == expected


def test_nested_preserve_unknown_fields() -> None:
    """Preservation is per node: declared children still prune; additionalProperties does not inherit it."""
    schema = {
        **OBJ,
        PRESERVE: True,
        "properties": {
            "alpha": {"type": "string"},
            "pruning": {**OBJ, "properties": {"preserving": {**OBJ, PRESERVE: True}, "pruning": OBJ}},
            "preserving": {
                **OBJ,
                PRESERVE: True,
                "properties": {"preserving": {**OBJ, PRESERVE: True}, "pruning": OBJ},
            },
            "map": {
                **OBJ,
                PRESERVE: True,
                "additionalProperties": {**OBJ, "properties": {"specified": OBJ}},
            },
        },
    }
    obj = {
        "unspecified": "bar",
        "alpha": "abc",
        "unspecifiedObject": {"unspecified": "bar"},
        "pruning": {
            "unspecified": "bar",
            "unspecifiedObject": {"unspecified": "bar"},
            "pruning": {"unspecified": "bar"},
            "apiVersion": "unknown",
            "preserving": {"unspecified": "bar"},
        },
        "preserving": {
            "unspecified": "bar",
            "pruning": {"unspecified": "bar"},
            "preserving": {"unspecified": "bar"},
        },
        "map": {"foo": {"specified": {"unspecified": "bar"}, "unspecified": "bar"}},
    }
    assert pruned(obj, schema, resource_root=False) == {
        ("pruning", "unspecified"),
        ("pruning", "unspecifiedObject"),
        ("pruning", "pruning", "unspecified"),
        ("pruning", "apiVersion"),
        ("preserving", "pruning", "unspecified"),
        ("map", "foo", "specified", "unspecified"),
        ("map", "foo", "unspecified"),
    }


def test_resource_root_and_embedded_resources_keep_type_and_object_meta() -> None:
    schema = {
        **OBJ,
        "properties": {
            "pruned": {**OBJ, "x-kubernetes-embedded-resource": True, "properties": {"spec": OBJ}},
            "preserving": {**OBJ, "x-kubernetes-embedded-resource": True, PRESERVE: True},
        },
    }
    resource = {"apiVersion": "v1", "kind": "Foo", "metadata": {"x": 1}, "spec": {"u": 1}, "u": 1}
    obj = {**resource, "pruned": dict(resource), "preserving": dict(resource)}
    assert pruned(obj, schema) == {("spec",), ("u",), ("pruned", "spec", "u"), ("pruned", "u")}
    assert ("apiVersion",) in pruned(obj, schema, resource_root=False)


def test_additional_properties_true_empties_objects_even_under_preservation() -> None:
    """The trap that makes ``additionalProperties: true`` need rewriting."""
    schema = {**OBJ, PRESERVE: True, "properties": {"m": {**OBJ, PRESERVE: True, "additionalProperties": True}}}
    obj = {"m": {"k": {"deep": 1}, "s": "x"}}
    assert pruned(obj, schema) == {("m", "k", "deep")}
    fixed = {**OBJ, PRESERVE: True, "properties": {"m": {**OBJ, "additionalProperties": {PRESERVE: True}}}}
    assert pruned(obj, fixed) == set()


def test_arrays_under_preservation_inherit_it_but_root_only_is_not_enough() -> None:
    root_only = {**OBJ, PRESERVE: True, "properties": {"spec": {**OBJ, "properties": {"a": {"type": "string"}}}}}
    obj = {"spec": {"a": "x", "unknown": 1}, "other": {"deep": 1}}
    assert pruned(obj, root_only) == {("spec", "unknown")}
    listed = {**OBJ, PRESERVE: True, "properties": {"l": {"type": "array", "items": {**OBJ, "properties": {}}}}}
    assert pruned({"l": [{"u": 1}]}, listed) == {("l", 0, "u")}
    assert pruned({"u": [{"u": 1}]}, listed) == set()
