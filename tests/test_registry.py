"""Spec: the migration graph is validated at import, tested on tiny literal graphs (the alembic way)."""

from __future__ import annotations

import pytest

from k8smigrate.registry import ANY, Migration, Registry, RegistryError, default_registry, validate


def step(name: str, frm: str, to: str, kinds: tuple[str, ...] = ("Widget",), **kw: object) -> Migration:
    return Migration(kinds=kinds, from_api=frm, to_api=to, available_in="1.10", name=name, **kw)  # type: ignore[arg-type]


def test_a_valid_chain_is_accepted() -> None:
    registry = Registry([step("a", "x/v1alpha1", "x/v1beta1"), step("b", "x/v1beta1", "x/v1")])
    assert registry.step("x/v1alpha1", "Widget").name == "a"  # type: ignore[union-attr]
    assert registry.step("x/v1", "Widget") is None


def test_two_steps_claiming_the_same_kind_and_api_are_rejected() -> None:
    with pytest.raises(RegistryError, match="both migrate Widget x/v1beta1"):
        validate([step("a", "x/v1beta1", "x/v1"), step("b", "x/v1beta1", "y/v1")])


def test_the_same_api_for_different_kinds_is_fine() -> None:
    validate([step("a", "x/v1beta1", "x/v1"), step("b", "x/v1beta1", "x/v1", kinds=("Gadget",))])


def test_a_cycle_is_rejected() -> None:
    with pytest.raises(RegistryError, match="cycle"):
        validate([step("a", "x/v1", "x/v2"), step("b", "x/v2", "x/v1")])


def test_a_self_loop_is_rejected() -> None:
    with pytest.raises(RegistryError, match="both x/v1"):
        validate([step("a", "x/v1", "x/v1")])


def test_a_target_available_only_after_removal_is_rejected() -> None:
    with pytest.raises(RegistryError, match="after removal"):
        validate([Migration(("W",), "x/v1", "x/v2", available_in="1.20", removed_in="1.16", name="a")])


def test_a_fixer_keeps_its_api() -> None:
    validate([step("f", "x/v1", "x/v1", fixer=True)])
    with pytest.raises(RegistryError, match="keeps its API"):
        validate([step("f", "x/v1", "x/v2", fixer=True)])


def test_wildcard_fixers_apply_to_every_object_and_triggers_gate_parsing() -> None:
    fixer = Migration((ANY,), ANY, ANY, available_in="1.0", name="f", fixer=True, trigger="clusterName")
    registry = Registry([fixer, step("a", "x/v1beta1", "x/v1")])
    assert registry.passes("v1", "ConfigMap") == [fixer]
    wanted = registry.wants(lambda m: True)
    assert wanted("apiVersion: x/v1beta1\nkind: Widget\n")
    assert wanted("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  clusterName: c\n")
    assert not wanted("apiVersion: v1\nkind: ConfigMap\n")
    assert not registry.wants(lambda m: m.name != "f")("metadata:\n  clusterName: c\n")


def test_the_installed_graph_is_valid_and_every_module_is_found() -> None:
    registry = default_registry()
    names = set(registry.names())
    assert {"ingress_networking_v1beta1", "rbac_v1beta1", "apiextensions_v1beta1", "kubeadm_v1beta3"} <= names
    validate(registry.migrations)


def test_a_fixer_trigger_wakes_only_documents_of_its_api() -> None:
    m = step("f", "x/v1", "x/v1", fixer=True, trigger="magic")
    wanted = Registry([m]).wants(lambda _m: True)
    assert wanted("apiVersion: x/v1\nmagic: 1\n")
    assert not wanted("apiVersion: x/v1\nplain: 1\n")
    assert not wanted("apiVersion: y/v1\nmagic: 1\n")  # a word another API happens to use


def test_a_pattern_trigger_is_searched_for() -> None:
    import re

    m = step("f", ANY, ANY, kinds=(ANY,), fixer=True, trigger=re.compile(r"selfLink: /"))
    wanted = Registry([m]).wants(lambda _m: True)
    assert wanted("apiVersion: v1\nmetadata:\n  selfLink: /api/v1/x\n")
    assert not wanted("properties:\n  selfLink:\n    type: string\n")  # a schema describing the field


def test_a_whole_stream_is_wanted_when_one_of_its_documents_is() -> None:
    m = step("f", "x/v1", "x/v1", fixer=True, trigger="magic")
    wanted = Registry([m]).wants(lambda _m: True)
    stream = "apiVersion: y/v1\nplain: 1\n---\n" * 50 + "apiVersion: x/v1\nmagic: 1\n"
    assert wanted(stream) and not wanted(stream.replace("magic", "plain"))
