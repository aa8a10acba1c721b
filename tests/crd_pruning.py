"""A model of the API server's pruning of custom resources, on plain data.

A port of ``Prune``/``prune``/``skipPrune`` from kubernetes/kubernetes
``staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go``,
reading a v1 ``openAPIV3Schema`` as plain data the way ``NewStructural`` (``convert.go``) does:
only ``properties``, ``items`` and ``additionalProperties`` of the structural part count,
``additionalProperties: true/false`` is "additionalProperties without a schema", and
``x-kubernetes-preserve-unknown-fields`` / ``x-kubernetes-embedded-resource`` are read from
the node. ``pruned`` returns the paths of the object fields the server would drop (a dropped
object is one path, as upstream's ``ReturnPruned`` reports it); nothing is mutated.
"""

from __future__ import annotations

from typing import Any

Path = tuple[str | int, ...]
Schema = dict[str, Any] | None

PRESERVE = "x-kubernetes-preserve-unknown-fields"
EMBEDDED = "x-kubernetes-embedded-resource"
META_FIELDS = frozenset({"apiVersion", "kind", "metadata"})


def pruned(obj: Any, schema: Schema, resource_root: bool = True) -> set[Path]:
    """The paths of ``obj`` that pruning under ``schema`` removes (``Prune`` with isResourceRoot)."""
    if resource_root:
        schema = dict(schema or {})
        schema[EMBEDDED] = True
    out: set[Path] = set()
    _prune(obj, schema, (), out)
    return out


def _flag(schema: Schema, key: str) -> bool:
    return schema is not None and schema.get(key) is True


def _additional(schema: dict[str, Any]) -> Schema:
    extra = schema["additionalProperties"]
    return extra if isinstance(extra, dict) else None


def _prune(x: Any, s: Schema, path: Path, out: set[Path]) -> None:
    if _flag(s, PRESERVE):
        _skip_prune(x, s, path, out)
        return
    if isinstance(x, dict):
        if s is None:
            out.update((*path, k) for k in x)
            return
        props = s.get("properties") or {}
        for k, v in x.items():
            if _flag(s, EMBEDDED) and k in META_FIELDS:
                continue
            if k in props:
                _prune(v, props[k], (*path, k), out)
            elif "additionalProperties" in s:
                _prune(v, _additional(s), (*path, k), out)
            else:
                out.add((*path, k))
    elif isinstance(x, list):
        items = None if s is None else s.get("items")
        for i, v in enumerate(x):
            _prune(v, items, (*path, i), out)


def _skip_prune(x: Any, s: Schema, path: Path, out: set[Path]) -> None:
    if s is None:
        return
    if isinstance(x, dict):
        props = s.get("properties") or {}
        for k, v in x.items():
            if _flag(s, EMBEDDED) and k in META_FIELDS:
                continue
            if k in props:
                _prune(v, props[k], (*path, k), out)
            elif "additionalProperties" in s:
                _prune(v, _additional(s), (*path, k), out)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            _skip_prune(v, s.get("items"), (*path, i), out)
