"""Core: fixers and checks (same-API passes), opt-in migrations, and ctx.siblings."""

from __future__ import annotations

from pathlib import Path

import pytest

import k8smigrate
from k8smigrate.context import Context
from k8smigrate.registry import Migration, Registry, RegistryError
from k8smigrate.settings import Settings
from k8smigrate.tree import Mapping
from tests.helpers import codes, dedent


def mark(obj: Mapping, ctx: Context) -> None:
    obj.set("marked", True)
    ctx.note("marked")


def report(obj: Mapping, ctx: Context) -> None:
    ctx.warn("K8SM-T-001", "seen", obj)


def copy_from_sibling(obj: Mapping, ctx: Context) -> None:
    """Writes the B document's input value into A, as the kubeadm timeout move does."""
    values = [d.get("value") for _api, kind, d in ctx.siblings if kind == "B" and isinstance(d, dict)]
    obj.set("copied", values[0] if values else None)


def drop_value(obj: Mapping, ctx: Context) -> None:
    obj.pop("value")


def step(**kw: object) -> Migration:
    base: dict[str, object] = {"kinds": ("A",), "from_api": "t/v1", "to_api": "t/v1", "available_in": "1.10"}
    return Migration(**(base | kw))  # type: ignore[arg-type]


def test_registry_rejects_same_api_unless_fixer_and_a_fixer_changing_api() -> None:
    with pytest.raises(RegistryError, match="both t/v1"):
        Registry([step(name="x")])
    with pytest.raises(RegistryError, match="keeps its API"):
        Registry([step(name="x", to_api="t/v2", fixer=True)])
    registry = Registry([step(name="fix", fixer=True), step(name="up", to_api="t/v2")])
    assert registry.step("t/v1", "A") is not None and registry.step("t/v1", "A").name == "up"  # type: ignore[union-attr]
    assert [m.name for m in registry.passes("t/v1", "A")] == ["fix"]


def test_opt_in_runs_only_when_named() -> None:
    assert not Settings().enabled("fix", opt_in=True)
    assert Settings(only=("fix",)).enabled("fix", opt_in=True)
    assert not Settings(only=("fix",), skip=("fix",)).enabled("fix", opt_in=True)
    assert Settings().enabled("other")


def test_fixer_edits_without_touching_api_version_and_only_when_selected() -> None:
    registry = Registry([step(name="fix", body=mark, fixer=True, opt_in=True)])
    text = "apiVersion: t/v1\nkind: A\n"
    assert k8smigrate.migrate_text(text, registry=registry).text == text
    result = k8smigrate.migrate_text(text, only=["fix"], registry=registry)
    assert result.text == "apiVersion: t/v1\nkind: A\nmarked: true\n"
    assert result.documents[0].applied == ["fix"]


def test_check_runs_on_documents_without_steps_and_changes_nothing() -> None:
    registry = Registry([step(name="look", body=report, fixer=True, codes={"K8SM-T-001": "warning: x"})])
    text = "apiVersion: t/v1\nkind: A\n"
    result = k8smigrate.migrate_text(text, registry=registry)
    assert result.text == text and not result.changed
    assert codes(result) == ["K8SM-T-001"]
    assert result.documents[0].applied == []


def test_siblings_are_the_input_even_after_a_sibling_was_edited() -> None:
    registry = Registry(
        [
            Migration(("B",), "t/v1", "t/v2", "1.10", body=drop_value, name="b"),
            Migration(("A",), "t/v1", "t/v2", "1.10", body=copy_from_sibling, name="a"),
        ]
    )
    text = dedent(
        """
        apiVersion: t/v1
        kind: B
        value: 7
        ---
        apiVersion: t/v1
        kind: A
        """
    )
    result = k8smigrate.migrate_text(text, registry=registry)
    assert result.text == "apiVersion: t/v2\nkind: B\n---\napiVersion: t/v2\nkind: A\ncopied: 7\n"


def test_cli_strict_option(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from k8smigrate.cli import app

    path = tmp_path / "kubeadm.yaml"
    path.write_text("apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nbogus: 1\n")
    runner = CliRunner()
    lax = runner.invoke(app, ["diff", str(path), "--target-version", "1.29"])
    strict = runner.invoke(app, ["diff", str(path), "--target-version", "1.29", "--strict"])
    assert lax.exit_code == 0 and strict.exit_code == 3


def test_every_fixer_that_edits_is_applied_even_after_another_one() -> None:
    # the second fixer finds the object already edited: its note still says it changed something
    from k8smigrate.report import change_summary

    def first(obj: Mapping, ctx: Context) -> None:
        obj.set("a", "2")
        ctx.note("a → 2")

    def second(obj: Mapping, ctx: Context) -> None:
        obj.set("b", "2")
        ctx.note("b → 2")

    passes = [
        Migration(("Widget",), "x/v1", "x/v1", "1.0", name=n, fixer=True, body=b)
        for n, b in (("first", first), ("second", second))
    ]
    text = "apiVersion: x/v1\nkind: Widget\na: '1'\nb: '1'\n"
    result = k8smigrate.migrate_text(text, registry=Registry(passes))
    assert result.documents[0].applied == ["first", "second"]
    assert change_summary(result) == ["doc 0 Widget: a → 2; b → 2"]  # no "x/v1 → x/v1"


def test_a_fixer_runs_only_on_documents_that_hold_its_trigger() -> None:
    # the document is read for the version step; the fixer's body must not walk it for nothing
    seen: list[str] = []

    def body(obj: Mapping, ctx: Context) -> None:
        seen.append(str(obj.data("kind")))

    fixer = Migration(("A",), "t/v1", "t/v1", "1.0", name="f", fixer=True, trigger="magic", body=body)
    registry = Registry([fixer, step(name="s", to_api="t/v2")])
    k8smigrate.migrate_text("apiVersion: t/v1\nkind: A\nplain: 1\n", registry=registry)
    assert seen == []
    k8smigrate.migrate_text("apiVersion: t/v1\nkind: A\nmagic: 1\n", registry=registry)
    assert seen == ["A"]
    assert fixer.triggered_by("a magic word") and not fixer.triggered_by("plain")
