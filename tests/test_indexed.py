"""Spec: the built-in migrations' index says what their modules say, and a run imports only
the bodies its documents use (issue 19: importing every module was most of a short run's start).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from k8smigrate import indexed
from k8smigrate.indexed import INDEX_FILE, LazyBody
from k8smigrate.indexgen import generate
from k8smigrate.model import Check
from k8smigrate.registry import discover, named_migrations
from tests.test_startup import INGRESS, loaded


def imported_discovery(monkeypatch: pytest.MonkeyPatch) -> list:  # type: ignore[type-arg]
    monkeypatch.setattr("k8smigrate.registry.load", lambda named: None)
    return discover(entry_points=False)


# -- no-op: the index is current, and reading it gives what importing gives


def test_the_checked_in_index_is_generated_from_the_modules() -> None:
    assert INDEX_FILE.read_text(encoding="utf-8") == generate(named_migrations), (
        "k8smigrate/migrations_index.py is stale: run python -m k8smigrate.indexgen --write"
    )


def test_the_index_declares_what_the_modules_declare(monkeypatch: pytest.MonkeyPatch) -> None:
    from_index = indexed.load(named_migrations)
    assert from_index is not None  # the index describes the installed modules
    from_modules = imported_discovery(monkeypatch)
    assert [m.name for m in from_index] == [m.name for m in from_modules]
    for a, b in zip(from_index, from_modules, strict=True):
        assert replace(a, body=None) == replace(b, body=None), a.name
        assert (a.body is None) == (b.body is None), a.name


def test_each_lazy_body_is_its_modules_body(monkeypatch: pytest.MonkeyPatch) -> None:
    from_index = indexed.load(named_migrations)
    assert from_index is not None
    from_modules = imported_discovery(monkeypatch)
    lazy = [(a, b) for a, b in zip(from_index, from_modules, strict=True) if isinstance(a.body, LazyBody)]
    assert len(lazy) > 100
    for a, b in lazy:
        assert isinstance(a.body, LazyBody)
        assert a.body.resolve() is b.body, a.name


def test_checks_that_gather_facts_come_from_their_modules() -> None:
    from_index = indexed.load(named_migrations)
    assert from_index is not None
    gathering = [m for m in from_index if isinstance(m, Check) and m.facts]
    assert gathering  # the collectors are functions: the index imports these modules
    assert all(not isinstance(m.body, LazyBody) for m in gathering)


# -- a stale index is not used


def test_an_index_that_no_longer_describes_the_files_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    real = indexed.module_files

    def one_edited(folder: Path):  # type: ignore[no-untyped-def]
        for i, (sub, name, size) in enumerate(real(folder)):
            yield sub, name, size + 1 if i == 0 else size

    monkeypatch.setattr(indexed, "module_files", one_edited)
    assert indexed.load(named_migrations) is None


def test_a_new_module_makes_the_index_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    real = indexed.module_files
    monkeypatch.setattr(indexed, "module_files", lambda folder: [*real(folder), ("steps", "zz_new", 10)])
    assert indexed.load(named_migrations) is None


# -- a run imports the bodies it uses, not the others


def test_a_one_file_run_imports_only_the_migrations_it_runs(tmp_path: Path) -> None:
    (tmp_path / "ingress.yaml").write_text(INGRESS)
    modules = loaded("apply", "--check", str(tmp_path / "ingress.yaml"), "--target-version", "1.22", "--color", "never")
    migrations = sorted(m for m in modules if m.startswith("k8smigrate.migrations."))
    steps = [m for m in migrations if ".steps." in m]
    assert "k8smigrate.migrations.steps.ingress_networking_v1beta1" in steps  # the run migrated it
    assert len(steps) <= 3, steps  # not the other ~100 steps
    assert len(migrations) < 20, migrations
