"""Spec: the strict validator of custom resources by their CRD's structural schema (a test tool)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from tests import crd_validate

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "port": {"x-kubernetes-int-or-string": True},
                "note": {"type": "string", "nullable": True},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
                "embedded": {"type": "object", "x-kubernetes-embedded-resource": True, "properties": {}},
            },
            "required": ["port"],
        }
    },
}


def _errors(obj: dict[str, Any]) -> list[str]:
    return [e.message for e in jsonschema.Draft4Validator(crd_validate.strict(SCHEMA)).iter_errors(obj)]


def test_a_valid_object() -> None:
    obj = {
        "apiVersion": "example.com/v1",
        "kind": "Thing",
        "metadata": {"name": "t", "labels": {"a": "b"}},
        "spec": {
            "port": "http",
            "note": None,
            "free": {"anything": [1, 2]},
            "labels": {"x": "y"},
            "items": [{"name": "a"}],
            "embedded": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}},
        },
    }
    assert _errors(obj) == []


@pytest.mark.parametrize(
    ("spec", "unexpected"),
    [
        ({"port": 80, "portt": 1}, "'portt' was unexpected"),
        ({"port": 80, "items": [{"name": "a", "nmae": "b"}]}, "'nmae' was unexpected"),
        ({"port": 80, "labels": {"x": 1}}, "is not of type 'string'"),
        ({"port": [80]}, "is not valid under any of the given schemas"),
        ({}, "'port' is a required property"),
    ],
)
def test_what_the_api_server_prunes_or_rejects_is_an_error(spec: dict[str, Any], unexpected: str) -> None:
    errors = _errors({"apiVersion": "example.com/v1", "kind": "Thing", "spec": spec})
    assert any(unexpected in e for e in errors), errors


def test_the_corpus_crds_are_found() -> None:
    if not crd_validate.COMPONENTS.is_dir():
        pytest.skip("../shared/corpus/components is not beside the project (only CI and sessions have it)")
    schemas = crd_validate.schemas()
    assert ("cert-manager.io/v1", "Certificate") in schemas
    assert ("gateway.networking.k8s.io/v1", "HTTPRoute") in schemas
    good = {
        "apiVersion": "cert-manager.io/v1",
        "kind": "Certificate",
        "metadata": {"name": "c"},
        "spec": {"secretName": "s", "issuerRef": {"name": "ca"}},
    }
    assert crd_validate.errors(good) == []
    assert crd_validate.errors({**good, "spec": {**good["spec"], "keySize": 2048}}) == [
        "spec: Additional properties are not allowed ('keySize' was unexpected)"
    ]
    with pytest.raises(crd_validate.UnknownVersion):
        crd_validate.errors({**good, "apiVersion": "cert-manager.io/v1alpha2"})


def test_the_items_of_a_list_are_validated() -> None:
    if not crd_validate.COMPONENTS.is_dir():
        pytest.skip("../shared/corpus/components is not beside the project (only CI and sessions have it)")
    item = "{apiVersion: cert-manager.io/v1, kind: Certificate, metadata: {name: c}, spec: {secretName: s, issuerRef: {name: ca}%s}}"
    crd_validate.validate("apiVersion: v1\nkind: List\nitems:\n- " + item % "" + "\n")
    with pytest.raises(AssertionError, match="keySize"):
        crd_validate.validate("apiVersion: v1\nkind: List\nitems:\n- " + item % ", keySize: 2048" + "\n")
