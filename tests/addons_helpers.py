"""Spec-test helpers for the add-on migrations: run with component releases, check, validate by CRD.

``run`` migrates with the newest release of every add-on unless told otherwise;
``check_noop``/``check_transformed`` are the django-upgrade shape of ``tests.helpers`` with
component releases; ``crd_valid`` validates strictly against the CRDs of
``../shared/corpus/components`` and skips, with the reason, where that corpus is absent.
"""

from __future__ import annotations

from typing import Any

import pytest

import k8smigrate
from k8smigrate.results import FileResult
from tests import crd_validate
from tests.helpers import data_diff, dedent

NEWEST = {
    "cert-manager": "1.17",
    "gateway-api": "1.6",
    "istio": "1.28",
    "flux": "2.9",
    "traefik": "3.6",
    "external-snapshotter": "8.3",
    "prometheus-operator": "0.90",
}
"""A recent release of every add-on: what most tests migrate to (cert-manager before 1.18, whose
rotation policy default has tests of its own)."""


def run(text: str, components: dict[str, str] | None = None, *, exact: bool = False, **kwargs: Any) -> FileResult:
    """Migrate ``text`` (dedented, unless ``exact``: a file's bytes as they are)."""
    kwargs.setdefault("target_version", "1.29")
    kwargs.setdefault("components", dict(NEWEST) if components is None else components)
    result = k8smigrate.migrate_text(text if exact else dedent(text), **kwargs)
    internal = [f.format() for f in result.findings if f.code == "K8SM-GEN-012"]
    assert not internal, internal
    return result


def check_noop(text: str, components: dict[str, str] | None = None, **kwargs: Any) -> FileResult:
    result = run(text, components, **kwargs)
    assert result.text == dedent(text), data_diff(dedent(text), result.text)
    return result


def check_transformed(before: str, after: str, components: dict[str, str] | None = None, **kwargs: Any) -> FileResult:
    result = run(before, components, **kwargs)
    assert result.text == dedent(after), data_diff(dedent(after), result.text)
    again = run(result.text, components, **kwargs)
    assert again.text == result.text, "a second run changed the output"
    return result


def codes(result: FileResult, level: str | None = None) -> list[str]:
    return [f.code for f in result.findings if level is None or f.level == level]


def crd_valid(text: str) -> None:
    """Every object of ``text`` passes its CRD's schema strictly (skips without the corpus)."""
    if not crd_validate.COMPONENTS.is_dir():
        pytest.skip("../shared/corpus/components is not beside the project (only CI and sessions have it)")
    crd_validate.validate(dedent(text))
