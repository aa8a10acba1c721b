"""Spec: the migrations are validated when the registry is built, tested on tiny literal graphs (the alembic way)."""

from __future__ import annotations

import re

import pytest

from k8smigrate.codes import BOTH_FORMS, Code
from k8smigrate.context import Context
from k8smigrate.lifecycles import ApiLifecycle
from k8smigrate.model import ANY, Check, Step
from k8smigrate.prefilter import wanted_by
from k8smigrate.registry import Registry, RegistryError, default_registry, validate
from k8smigrate.tree import Mapping
from k8smigrate.versions import KubeVersion


def step(name: str, frm: str, to: str, kinds: tuple[str, ...] = ("Widget",), **kw: object) -> Step:
    return Step(kinds=kinds, from_api=frm, to_api=to, available_in="1.10", name=name, **kw)  # type: ignore[arg-type]


def nothing(obj: Mapping, ctx: Context) -> None:
    """A check body that finds nothing."""


def check(name: str, api: str = "x/v1", kinds: tuple[str, ...] = ("Widget",), **kw: object) -> Check:
    return Check(applies_to={api: kinds}, body=nothing, name=name, **kw)  # type: ignore[arg-type]


def test_a_valid_chain_is_accepted() -> None:
    registry = Registry([step("a", "x/v1alpha1", "x/v1beta1"), step("b", "x/v1beta1", "x/v1")])
    assert registry.step("x/v1alpha1", "Widget").name == "a"  # type: ignore[union-attr]
    assert registry.step("x/v1", "Widget") is None
    assert (registry.steps, registry.checks) == (registry.migrations, [])


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
    table = {("x/v1", "W"): ApiLifecycle("x/v1", "W", None, KubeVersion(1, 16), "x/v2")}
    with pytest.raises(RegistryError, match="after removal"):
        validate([Step(("W",), "x/v1", "x/v2", available_in="1.20", name="a")], table)


def test_a_step_does_not_restate_a_lifecycle_the_table_holds() -> None:
    with pytest.raises(RegistryError, match="is in the lifecycle table"):
        Registry([step("a", "extensions/v1beta1", "networking.k8s.io/v1", kinds=("Ingress",), removed_in="1.22")])


def test_a_third_party_step_declares_the_lifecycle_of_its_own_api() -> None:
    registry = Registry([step("a", "x/v1beta1", "x/v1", deprecated_in="1.20", removed_in="1.25", component="x")])
    life = registry.lifecycle("x/v1beta1", "Widget")
    assert life == ApiLifecycle("x/v1beta1", "Widget", KubeVersion(1, 20), KubeVersion(1, 25), "x/v1", "x")


def test_a_check_needs_an_api_and_a_known_category() -> None:
    validate([check("c", category="annotation")])
    with pytest.raises(RegistryError, match="applies to no apiVersion"):
        validate([check("c", kinds=())])
    with pytest.raises(RegistryError, match="unknown category"):
        validate([check("c", category="nonsense")])


def test_a_code_means_one_thing() -> None:
    one = Code("K8SM-T-001", "info", "one thing")
    validate([check("a", codes=(one,)), check("b", codes=(one,))])  # shared: the same declaration
    with pytest.raises(RegistryError, match="declare K8SM-T-001 differently"):
        validate([check("a", codes=(one,)), check("b", codes=(Code("K8SM-T-001", "warning", "one thing"),))])
    validate([check("a", codes=(BOTH_FORMS.with_summary("group and groups"),))])
    with pytest.raises(RegistryError, match="general code reported as error"):
        validate([check("a", codes=(Code(BOTH_FORMS.code, "warning", "x"),))])


def test_checks_are_found_by_api_and_kind_and_for_every_object() -> None:
    everywhere = Check(applies_to={ANY: (ANY,)}, body=nothing, name="any", trigger="clusterName")
    one = check("one")
    registry = Registry([one, everywhere, step("a", "x/v1beta1", "x/v1")])
    assert registry.checks_for("x/v1", "Widget") == [one, everywhere]
    assert registry.checks_for("v1", "ConfigMap") == [everywhere]


def test_checks_with_triggers_gate_parsing() -> None:
    everywhere = Check(applies_to={ANY: (ANY,)}, body=nothing, name="f", trigger="clusterName")
    registry = Registry([everywhere, step("a", "x/v1beta1", "x/v1")])
    wanted = wanted_by(registry, lambda m: True)
    assert wanted("apiVersion: x/v1beta1\nkind: Widget\n")
    assert wanted("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  clusterName: c\n")
    assert not wanted("apiVersion: v1\nkind: ConfigMap\n")
    assert not wanted_by(registry, lambda m: m.name != "f")("metadata:\n  clusterName: c\n")


def test_the_installed_graph_is_valid_and_every_module_is_found() -> None:
    registry = default_registry()
    names = set(registry.names())
    assert {"ingress_networking_v1beta1", "rbac_v1beta1", "apiextensions_v1beta1", "kubeadm_v1beta3"} <= names
    assert {"seccomp_annotations", "kubelet_conf_rotation", "removed_object_fields"} <= names
    validate(registry.migrations, registry.lifecycles)


def test_a_check_trigger_wakes_only_documents_of_its_api() -> None:
    wanted = wanted_by(Registry([check("f", trigger="magic")]), lambda _m: True)
    assert wanted("apiVersion: x/v1\nmagic: 1\n")
    assert not wanted("apiVersion: x/v1\nplain: 1\n")
    assert not wanted("apiVersion: y/v1\nmagic: 1\n")  # a word another API happens to use


def test_a_pattern_trigger_is_searched_for() -> None:
    m = Check(applies_to={ANY: (ANY,)}, body=nothing, name="f", trigger=re.compile(r"selfLink: /"))
    wanted = wanted_by(Registry([m]), lambda _m: True)
    assert wanted("apiVersion: v1\nmetadata:\n  selfLink: /api/v1/x\n")
    assert not wanted("properties:\n  selfLink:\n    type: string\n")  # a schema describing the field


def test_a_whole_stream_is_wanted_when_one_of_its_documents_is() -> None:
    wanted = wanted_by(Registry([check("f", trigger="magic")]), lambda _m: True)
    stream = "apiVersion: y/v1\nplain: 1\n---\n" * 50 + "apiVersion: x/v1\nmagic: 1\n"
    assert wanted(stream) and not wanted(stream.replace("magic", "plain"))


# -- the default registry: validated by the tests, not at every start


def test_the_default_registry_skips_validation_only_for_the_built_in_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = validate
    monkeypatch.setattr("k8smigrate.registry.validate", lambda m, life=None: calls.append(1) or real(m, life))

    def built() -> Registry:
        monkeypatch.setattr("k8smigrate.registry._REGISTRY", None)
        return default_registry()

    assert built().names() and calls == []  # the graph test_the_installed_graph_is_valid… validates
    monkeypatch.setattr("k8smigrate.registry.load", lambda named: None)  # no current index: modules imported
    assert built().names() and calls == [1]


def test_the_default_registry_is_validated_with_a_parsed_table_or_a_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = validate
    monkeypatch.setattr("k8smigrate.registry.validate", lambda m, life=None: calls.append(1) or real(m, life))
    monkeypatch.setattr("k8smigrate.registry.builtin_is_generated", lambda: False)  # removals.tsv edited
    monkeypatch.setattr("k8smigrate.registry._REGISTRY", None)
    default_registry()
    assert calls == [1]
    monkeypatch.setattr("k8smigrate.registry.builtin_is_generated", lambda: True)
    monkeypatch.setattr("k8smigrate.registry.declared", lambda: True)  # a distribution declares our group
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: [_EntryPoint()])
    monkeypatch.setattr("k8smigrate.registry._REGISTRY", None)
    assert "widget_v1alpha1" in default_registry().names()
    assert calls == [1, 1]


class _EntryPoint:
    name = "widget_v1alpha1"

    def load(self) -> Step:
        return step("", "x/v1alpha1", "x/v1")


def test_a_registry_a_caller_builds_is_always_validated() -> None:
    with pytest.raises(RegistryError, match="cycle"):
        Registry([step("a", "x/v1", "x/v2"), step("b", "x/v2", "x/v1")])
