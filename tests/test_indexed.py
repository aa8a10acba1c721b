"""Spec: the built-in migrations' index says what their modules say, and a run imports only
the bodies its documents use (issue 19: importing every module was most of a short run's start).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from k8smigrate import dataclasscode, indexed
from k8smigrate.codes import Code
from k8smigrate.facts import Collector
from k8smigrate.indexed import INDEX_FILE, LazyBody, LazyFunction
from k8smigrate.indexgen import _writable, generate
from k8smigrate.model import Check, Migration
from k8smigrate.registry import discover, named_migrations
from tests.test_startup import INGRESS, loaded


def imported_discovery(monkeypatch: pytest.MonkeyPatch) -> list:  # type: ignore[type-arg]
    monkeypatch.setattr("k8smigrate.registry.load", lambda named: None)
    return discover(entry_points=False)


def declared(m: Migration) -> Migration:
    """A migration without what the index holds as lazy references (its body, its collectors' functions)."""
    if isinstance(m, Check):
        return replace(m, body=None, facts=tuple(replace(c, collect=None) for c in m.facts))  # type: ignore[arg-type]
    return replace(m, body=None)


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
        assert declared(a) == declared(b), a.name
        assert (a.body is None) == (b.body is None), a.name


def test_each_declaration_holds_what_its_constructor_would_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    # the index builds them with ``made`` (no field-by-field __init__): every field, private and
    # not compared ones too, in the same order, with the same values as the modules' objects
    from_index = indexed.load(named_migrations)
    assert from_index is not None
    from_modules = imported_discovery(monkeypatch)

    def held(m: Migration) -> list[tuple[str, object]]:  # its fields as stored, lazy references aside
        lazy = {"body": None, "facts": [vars(c) | {"collect": None} for c in getattr(m, "facts", ())]}
        return [(k, lazy.get(k, v)) for k, v in vars(m).items()]

    for a, b in zip(from_index, from_modules, strict=True):
        assert held(a) == held(b), a.name
        for x, y in zip(a.codes, b.codes, strict=True):
            assert list(vars(x).items()) == list(vars(y).items()), a.name


def test_made_is_the_constructor_without_its_field_by_field_init() -> None:
    made = dataclasscode.made(Check, applies_to={"v1": ("Pod",)}, body=None, trigger="x", matters_from="1.25")
    built = Check(applies_to={"v1": ("Pod",)}, body=None, trigger="x", matters_from="1.25")  # type: ignore[arg-type]
    assert list(vars(made).items()) == list(vars(built).items())
    assert made.triggers == ("x",) and made.matters == built.matters  # __post_init__ ran
    with pytest.raises(ValueError, match="level"):
        dataclasscode.made(Code, code="K8SM-X-001", level="loud", summary="x")  # so did Code's checks


def test_each_lazy_body_is_its_modules_body(monkeypatch: pytest.MonkeyPatch) -> None:
    from_index = indexed.load(named_migrations)
    assert from_index is not None
    from_modules = imported_discovery(monkeypatch)
    lazy = [(a, b) for a, b in zip(from_index, from_modules, strict=True) if isinstance(a.body, LazyBody)]
    assert len(lazy) > 100
    for a, b in lazy:
        assert isinstance(a.body, LazyBody)
        assert a.body.resolve() is b.body, a.name


def test_each_lazy_collector_is_its_modules_function(monkeypatch: pytest.MonkeyPatch) -> None:
    from_index = indexed.load(named_migrations)
    assert from_index is not None
    from_modules = imported_discovery(monkeypatch)
    pairs = [
        (a, b)
        for x, y in zip(from_index, from_modules, strict=True)
        if isinstance(x, Check) and isinstance(y, Check)
        for a, b in zip(x.facts, y.facts, strict=True)
    ]
    assert len(pairs) >= 9  # the checks that join files (ingress controllers, CoreDNS, NodePorts, tokens)
    for a, b in pairs:
        assert isinstance(a.collect, LazyFunction), a.name
        assert a.collect.resolve() is b.collect, a.name


def test_a_collector_without_a_module_level_function_keeps_its_module_imported() -> None:
    def local(obj: object) -> list[object]:
        return []

    check = Check(applies_to={"v1": ("Secret",)}, body=lambda obj, ctx: None, facts=(Collector("x", ("x",), local),))
    assert not _writable([check])


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


JOINING = (  # the checks that gather facts across files (their collectors are lazy in the index)
    "k8smigrate.migrations.checks.coredns_endpointslices",
    "k8smigrate.migrations.checks.ingress_class_annotation",
    "k8smigrate.migrations.checks.ingress_controllers",
    "k8smigrate.migrations.checks.node_port_range",
    "k8smigrate.migrations.checks.service_account_tokens",
)


def test_a_file_no_collector_looks_at_imports_no_check_that_joins_files(tmp_path: Path) -> None:
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  a: b\n")
    for command in (["apply", "--check"], ["scan"]):
        modules = loaded(*command, str(tmp_path / "cm.yaml"), "--target-version", "1.29", "--color", "never")
        assert "k8smigrate.engine" in modules  # the probe ran the command
        assert sorted(m for m in JOINING if m in modules) == [], command


def test_a_file_a_collector_looks_at_imports_its_check(tmp_path: Path) -> None:
    secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: t\ntype: kubernetes.io/service-account-token\n"
    (tmp_path / "secret.yaml").write_text(secret)
    modules = loaded("scan", str(tmp_path / "secret.yaml"), "--target-version", "1.29", "--color", "never")
    assert "k8smigrate.migrations.checks.service_account_tokens" in modules
    assert "k8smigrate.migrations.checks.coredns_endpointslices" not in modules
