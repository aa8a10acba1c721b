"""Strict validation of custom resources against the structural schema of their CRD.

The API server prunes every field a CRD's ``openAPIV3Schema`` does not declare; a migrated
object must therefore carry no unknown field at all. This turns a structural schema into a
JSON Schema that ``jsonschema`` (a test dependency) checks strictly:

- an object schema with ``properties`` and neither ``additionalProperties`` nor
  ``x-kubernetes-preserve-unknown-fields: true`` gets ``additionalProperties: false``;
- ``x-kubernetes-int-or-string: true`` means an integer or a string;
- ``nullable: true`` also allows null;
- ``x-kubernetes-embedded-resource: true`` also allows ``apiVersion``, ``kind`` and ``metadata``;
- ``metadata`` at the root is ObjectMeta (checked by the API server, not by the CRD schema);
- CEL rules (``x-kubernetes-validations``) and formats are not evaluated.

The schemas come from ``../shared/corpus/components`` (the CRDs the add-on projects publish
today); tests that use them skip with a reason when that folder is absent.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

COMPONENTS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "components"

Schema = dict[str, Any]


class UnknownVersion(LookupError):
    """No CRD of the corpus serves this apiVersion and kind."""


def crd_documents() -> Iterator[dict[str, Any]]:
    """Every CustomResourceDefinition of the components corpus."""
    for path in sorted(COMPONENTS.rglob("*.y*ml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
                yield doc


@cache
def schemas() -> dict[tuple[str, str], Schema]:
    """``(apiVersion, kind)`` → the served version's ``openAPIV3Schema``."""
    out: dict[tuple[str, str], Schema] = {}
    for crd in crd_documents():
        spec = crd["spec"]
        for version in spec.get("versions") or []:
            schema = (version.get("schema") or {}).get("openAPIV3Schema")
            if schema is not None and version.get("served", True):
                out[(f"{spec['group']}/{version['name']}", spec["names"]["kind"])] = schema
    return out


def strict(schema: Schema, root: bool = True) -> Schema:
    """The JSON Schema that rejects what the API server would prune (see the module docstring)."""
    out = copy.deepcopy(schema)
    _tighten(out, root)
    return out


def _tighten(node: Schema, root: bool = False) -> None:
    if node.get("x-kubernetes-int-or-string"):
        node.pop("type", None)
        node["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if node.get("nullable") and isinstance(node.get("type"), str):
        node["type"] = [node["type"], "null"]
    props = node.get("properties")
    if isinstance(props, dict):
        for child in props.values():
            _tighten(child)
        if root or node.get("x-kubernetes-embedded-resource"):
            for key in ("apiVersion", "kind"):
                props.setdefault(key, {"type": "string"})
            props["metadata"] = {"type": "object"}
        if "additionalProperties" not in node and not node.get("x-kubernetes-preserve-unknown-fields"):
            node["additionalProperties"] = False
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        _tighten(extra)
    items = node.get("items")
    if isinstance(items, dict):
        _tighten(items)
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(key) or []:
            # Structural schemas forbid types and properties in these; they only constrain.
            _tighten(sub)
            sub.pop("additionalProperties", None)
    if isinstance(node.get("not"), dict):
        _tighten(node["not"])


@cache
def _validator(api_version: str, kind: str) -> jsonschema.Draft4Validator:
    schema = schemas().get((api_version, kind))
    if schema is None:
        raise UnknownVersion(f"no CRD in {COMPONENTS} serves {kind} {api_version}")
    return jsonschema.Draft4Validator(strict(schema))


def errors(obj: dict[str, Any]) -> list[str]:
    """What the CRD of ``obj``'s apiVersion and kind rejects (empty: valid), one line each."""
    validator = _validator(str(obj.get("apiVersion")), str(obj.get("kind")))
    found = []
    for error in sorted(validator.iter_errors(obj), key=lambda e: list(e.absolute_path)):
        where = ".".join(str(p) for p in error.absolute_path) or "<root>"
        found.append(f"{where}: {error.message}")
    return found


def _objects(obj: Any) -> Iterator[dict[str, Any]]:
    """``obj``, or the items of a ``v1`` ``List`` (which kubectl and cmctl write), each once."""
    if not isinstance(obj, dict) or not obj.get("kind"):
        return
    if obj.get("apiVersion") == "v1" and obj.get("kind") == "List":
        for item in obj.get("items") or []:
            yield from _objects(item)
    else:
        yield obj


def validate(text: str) -> None:
    """Every object of the stream (and of its Lists) is valid by its corpus CRD, strictly; others are an error."""
    for obj in (o for doc in yaml.safe_load_all(text) for o in _objects(doc)):
        problems = errors(obj)
        assert not problems, f"{obj.get('kind')} {obj.get('apiVersion')}:\n" + "\n".join(problems)
