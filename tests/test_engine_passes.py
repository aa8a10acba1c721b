"""Core: checks (with and without edits) before the steps, opt-in migrations, and ctx.siblings."""

from __future__ import annotations

from pathlib import Path

import pytest

import k8smigrate
from k8smigrate.codes import Code, CodeError
from k8smigrate.context import Context
from k8smigrate.model import Check, DeclarationError, Step
from k8smigrate.registry import Registry, RegistryError
from k8smigrate.settings import Settings
from k8smigrate.tree import Mapping
from tests.helpers import codes, dedent

SEEN = Code("K8SM-T-001", "warning", "seen")


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


def check(**kw: object) -> Check:
    base: dict[str, object] = {"applies_to": {"t/v1": ("A",)}, "body": report}
    return Check(**(base | kw))  # type: ignore[arg-type]


def test_a_step_keeps_no_api_and_checks_sit_beside_steps() -> None:
    with pytest.raises(RegistryError, match="both t/v1"):
        Registry([Step(("A",), "t/v1", "t/v1", "1.10", name="x")])
    registry = Registry([check(name="fix"), Step(("A",), "t/v1", "t/v2", "1.10", name="up")])
    assert registry.step("t/v1", "A") is not None and registry.step("t/v1", "A").name == "up"  # type: ignore[union-attr]
    assert [m.name for m in registry.checks_for("t/v1", "A")] == ["fix"]


def test_opt_in_runs_only_when_named() -> None:
    assert not Settings().enabled("fix", opt_in=True)
    assert Settings(only=("fix",)).enabled("fix", opt_in=True)
    assert not Settings(only=("fix",), skip=("fix",)).enabled("fix", opt_in=True)
    assert Settings().enabled("other")


def test_a_check_edits_without_touching_api_version_and_only_when_selected() -> None:
    registry = Registry([check(name="fix", body=mark, edits=True, opt_in=True)])
    text = "apiVersion: t/v1\nkind: A\n"
    assert k8smigrate.migrate_text(text, registry=registry).text == text
    result = k8smigrate.migrate_text(text, only=["fix"], registry=registry)
    assert result.text == "apiVersion: t/v1\nkind: A\nmarked: true\n"
    assert result.documents[0].applied == ["fix"]


def test_a_check_runs_on_documents_without_steps_and_changes_nothing() -> None:
    registry = Registry([check(name="look", codes=(SEEN,))])
    text = "apiVersion: t/v1\nkind: A\n"
    result = k8smigrate.migrate_text(text, registry=registry)
    assert result.text == text and not result.changed
    assert codes(result) == ["K8SM-T-001"]
    assert result.documents[0].applied == []


def test_a_check_that_edits_without_saying_so_is_a_programming_error() -> None:
    registry = Registry([check(name="sly", body=mark)])
    with pytest.raises(DeclarationError, match="sly changed a document but does not declare edits=True"):
        k8smigrate.migrate_text("apiVersion: t/v1\nkind: A\n", settings=Settings(raise_errors=True), registry=registry)


def test_a_code_reported_at_another_level_than_declared_is_a_programming_error() -> None:
    registry = Registry([check(name="look", codes=(Code("K8SM-T-001", "info", "seen"),))])
    with pytest.raises(CodeError, match="look reports K8SM-T-001 as warning, but it is declared as info"):
        k8smigrate.migrate_text("apiVersion: t/v1\nkind: A\n", settings=Settings(raise_errors=True), registry=registry)
    undeclared = Registry([check(name="look")])
    with pytest.raises(CodeError, match="not declared"):
        k8smigrate.migrate_text(
            "apiVersion: t/v1\nkind: A\n", settings=Settings(raise_errors=True), registry=undeclared
        )


def test_siblings_are_the_input_even_after_a_sibling_was_edited() -> None:
    registry = Registry(
        [
            Step(("B",), "t/v1", "t/v2", "1.10", body=drop_value, name="b"),
            Step(("A",), "t/v1", "t/v2", "1.10", body=copy_from_sibling, name="a"),
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


def test_every_check_that_edits_is_applied_even_after_another_one() -> None:
    # the second check finds the object already edited: its note still says it changed something
    from k8smigrate.report import change_summary

    def first(obj: Mapping, ctx: Context) -> None:
        obj.set("a", "2")
        ctx.note("a → 2")

    def second(obj: Mapping, ctx: Context) -> None:
        obj.set("b", "2")
        ctx.note("b → 2")

    checks = [
        Check(applies_to={"x/v1": ("Widget",)}, body=b, name=n, edits=True)
        for n, b in (("first", first), ("second", second))
    ]
    text = "apiVersion: x/v1\nkind: Widget\na: '1'\nb: '1'\n"
    result = k8smigrate.migrate_text(text, registry=Registry(checks))
    assert result.documents[0].applied == ["first", "second"]
    assert change_summary(result) == ["doc 0 Widget: a → 2; b → 2"]  # no "x/v1 → x/v1"


def test_a_check_runs_only_on_documents_that_hold_its_trigger() -> None:
    # the document is read for the version step; the check's body must not walk it for nothing
    seen: list[str] = []

    def body(obj: Mapping, ctx: Context) -> None:
        seen.append(str(obj.data("kind")))

    found = check(name="f", trigger="magic", body=body)
    registry = Registry([found, Step(("A",), "t/v1", "t/v2", "1.10", name="s")])
    k8smigrate.migrate_text("apiVersion: t/v1\nkind: A\nplain: 1\n", registry=registry)
    assert seen == []
    k8smigrate.migrate_text("apiVersion: t/v1\nkind: A\nmagic: 1\n", registry=registry)
    assert seen == ["A"]
    assert found.triggered_by("a magic word") and not found.triggered_by("plain")
