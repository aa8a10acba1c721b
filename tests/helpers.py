"""Spec-test helpers shared by every migration's test module (the django-upgrade shape).

``check_noop`` asserts a text comes back byte-identical; ``check_transformed`` asserts the
exact new text, that a second run changes nothing, and returns the result so that the test
can look at findings. ``validate`` runs kubernetes-validate in strict mode.
"""

from __future__ import annotations

import textwrap
from typing import Any

import kubernetes_validate
import yaml
from deepdiff import DeepDiff

import k8smigrate
from k8smigrate.results import FileResult

VALIDATE_VERSION = "1.29.0"


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def run(text: str, **kwargs: Any) -> FileResult:
    kwargs.setdefault("target_version", "1.29")
    result = k8smigrate.migrate_text(dedent(text), settings=None, **kwargs)
    internal = [f.format() for f in result.findings if f.code == "K8SM-GEN-012"]
    assert not internal, internal
    return result


def check_noop(text: str, **kwargs: Any) -> FileResult:
    result = run(text, **kwargs)
    assert result.text == dedent(text)
    assert not result.changed
    return result


def check_transformed(before: str, after: str, **kwargs: Any) -> FileResult:
    result = run(before, **kwargs)
    assert result.text == dedent(after), data_diff(dedent(after), result.text)
    again = k8smigrate.migrate_text(
        result.text,
        **{k: v for k, v in kwargs.items() if k != "filename"}
        | {"target_version": kwargs.get("target_version", "1.29")},
    )
    assert again.text == result.text, "a second run changed the output"
    return result


def codes(result: FileResult, level: str | None = None) -> list[str]:
    return [f.code for f in result.findings if level is None or f.level == level]


def validate(text: str, version: str = VALIDATE_VERSION) -> None:
    """Every built-in object of ``text`` passes the release's published schema, strictly."""
    for obj in yaml.safe_load_all(text):
        if not isinstance(obj, dict):
            continue
        if obj.get("kind") == "List" or (str(obj.get("kind", "")).endswith("List") and "items" in obj):
            for item in obj.get("items") or []:
                item.setdefault("apiVersion", obj.get("apiVersion"))
                item.setdefault("kind", str(obj["kind"])[: -len("List")])
                kubernetes_validate.validate(item, version, strict=True)
        elif obj.get("kind"):
            kubernetes_validate.validate(obj, version, strict=True)


def data_diff(expected: str, got: str) -> str:
    """What differs between two streams as data (DeepDiff), to read beside the text diff."""
    try:
        want, have = list(yaml.safe_load_all(expected)), list(yaml.safe_load_all(got))
    except yaml.YAMLError as exc:
        return f"output does not parse: {exc}"
    return DeepDiff(want, have, verbose_level=2).pretty() or "same data, different text"
