"""The pieces of the kustomize support, each against what kustomize itself does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from k8smigrate.kustomize import CODES, fieldpaths, pointer, smp
from k8smigrate.kustomize.graph import Graph, is_kustomization
from k8smigrate.kustomize.inline import splice_block
from k8smigrate.kustomize.selectors import ObjectId, Selector
from k8smigrate.registry import default_registry
from k8smigrate.tree import Scalar
from k8smigrate.yamlio import EVERY, read_stream

ROOT = Path(__file__).resolve().parent.parent

# ------------------------------------------------------------------ recognising kustomizations


@pytest.mark.parametrize("name", ["kustomization.yaml", "kustomization.yml", "Kustomization"])
def test_kustomization_files_are_recognised_by_name(name: str) -> None:
    assert is_kustomization(Path("overlay") / name)


def test_other_names_are_not_kustomizations() -> None:
    assert not is_kustomization(Path("kustomization.yaml.bak"))
    assert not is_kustomization(Path("kustomize.yaml"))


def test_keys_are_read_without_regard_to_case_and_urls_are_remote(tmp_path: Path) -> None:
    (tmp_path / "k").mkdir()
    (tmp_path / "k/kustomization.yaml").write_text(
        "nameprefix: a-\nResources:\n- x.yaml\n- github.com/example/repo//base?ref=v1\n- ../../elsewhere\n"
    )
    (tmp_path / "k/x.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    (tmp_path.parent / "elsewhere").mkdir(exist_ok=True)
    graph = Graph([tmp_path / "k"])
    k = graph.load((tmp_path / "k/kustomization.yaml").resolve())
    assert k is not None
    assert k.name_prefix == "a-"
    assert [p.name for p in k.resource_files] == ["x.yaml"]
    assert [raw for raw, _line in k.remote] == ["github.com/example/repo//base?ref=v1"]
    assert [raw for raw, _line in k.outside] == ["../../elsewhere"]


# ------------------------------------------------------------------ selectors


def ingress(api: str = "extensions/v1beta1") -> ObjectId:
    return ObjectId(api, "Ingress", {"web", "prod-web"}, set(), {"app": {"web"}})


def test_a_target_without_version_matches_every_version() -> None:
    target = Selector(kind="Ingress", name="web")
    assert target.matches(ingress()) and target.matches(ingress("networking.k8s.io/v1"))


def test_target_fields_are_regular_expressions_anchored_at_both_ends() -> None:
    assert Selector(group="ext.*", kind="Ingress").matches(ingress())
    assert not Selector(group="ext", kind="Ingress").matches(ingress())
    assert Selector(kind="Ingress|Service", name="(prod-)?web").matches(ingress())


def test_label_selectors_pick_by_labels() -> None:
    assert Selector(kind="Ingress", label_selector="app=web").matches(ingress())
    assert Selector(kind="Ingress", label_selector="app in (api, web)").matches(ingress())
    assert not Selector(kind="Ingress", label_selector="app!=web").matches(ingress())
    assert not Selector(kind="Ingress", label_selector="tier").matches(ingress())


# ------------------------------------------------------------------ strategic merge


def test_maps_merge_and_null_deletes() -> None:
    merged = smp.merge_data({"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"c": 4, "d": None}, "e": 5}, True)
    assert merged == {"a": 1, "b": {"c": 4}, "e": 5}


def test_lists_with_a_merge_key_merge_by_it_and_new_items_come_first() -> None:
    base = {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}
    patch = {"containers": [{"name": "b", "image": "z"}, {"name": "c", "image": "w"}]}
    merged = smp.merge_data(base, patch, True)
    assert merged == {
        "containers": [{"name": "c", "image": "w"}, {"name": "a", "image": "x"}, {"name": "b", "image": "z"}]
    }


def test_lists_without_a_merge_key_and_lists_of_custom_resources_are_replaced() -> None:
    assert smp.merge_data({"rules": [{"host": "a"}]}, {"rules": [{"host": "b"}]}, True) == {"rules": [{"host": "b"}]}
    base = {"containers": [{"name": "a"}]}
    assert smp.merge_data(base, {"containers": [{"name": "b"}]}, False) == {"containers": [{"name": "b"}]}


def test_a_merged_tree_gives_back_exactly_the_patch() -> None:
    text = "spec:\n  rules:  # hosts\n  - host: b\n  template:\n    x: null\n"
    stream = read_stream(text, wanted=EVERY)
    root = stream.documents[0].root
    base = {"spec": {"template": {"x": 1, "y": 2}, "other": True}}
    merged = smp.merge(root, base, True)
    assert root.to_data() == {"spec": {"rules": [{"host": "b"}], "template": {"y": 2}, "other": True}}
    smp.project(root, merged)
    assert root.to_data() == {"spec": {"rules": [{"host": "b"}], "template": {"x": None}}}
    assert root.pristine()


# ------------------------------------------------------------------ JSON pointers


def test_pointers_escape_slashes_and_tildes() -> None:
    assert pointer.parse("/metadata/annotations/a~1b~0c") == ["metadata", "annotations", "a/b~c"]
    assert pointer.format_pointer(("metadata", "annotations", "a/b~c")) == "/metadata/annotations/a~1b~0c"


def test_an_added_value_is_found_again_by_identity() -> None:
    stream = read_stream("a:\n  list: [1, 2]\n", wanted=EVERY)
    root = stream.documents[0].root
    value = Scalar.of(3)
    pointer.apply(root, pointer.Op("add", ["a", "list", "-"], value))
    assert pointer.locate(root, value) == ("a", "list", 2)
    with pytest.raises(pointer.PointerError):
        pointer.apply(root, pointer.Op("remove", ["a", "missing"]))


# ------------------------------------------------------------------ field paths


def test_dotted_and_slashed_paths_read_as_kustomize_splits_them() -> None:
    assert fieldpaths.join(fieldpaths.split("spec.containers.[name=a.b].image", "."), ".") == (
        "spec.containers.[name=a.b].image"
    )
    assert fieldpaths.split("metadata/annotations/a.io\\/b", "/")[-1].key == "a.io/b"
    assert (
        fieldpaths.join(fieldpaths.split("metadata.annotations.[a.io/b]", "."), ".") == "metadata.annotations.[a.io/b]"
    )


def test_a_slashed_path_walks_through_lists_and_keeps_doing_so_when_rewritten() -> None:
    stream = read_stream("spec:\n  rules:\n  - http:\n      paths:\n      - backend: {serviceName: a}\n", wanted=EVERY)
    root = stream.documents[0].root
    segments = fieldpaths.split("spec/rules/http/paths/backend/serviceName", "/")
    (hit,) = fieldpaths.resolve(root, segments, "/")
    new = ("spec", "rules", 0, "http", "paths", 0, "backend", "service", "name")
    assert fieldpaths.join(fieldpaths.rewrite(hit, new, segments, "/"), "/") == (
        "spec/rules/http/paths/backend/service/name"
    )


def test_a_path_into_a_different_number_of_lists_cannot_be_rewritten() -> None:
    stream = read_stream("spec:\n  a: 1\n", wanted=EVERY)
    (hit,) = fieldpaths.resolve(stream.documents[0].root, fieldpaths.split("spec.a", "."), ".")
    with pytest.raises(fieldpaths.FieldPathError):
        fieldpaths.rewrite(hit, ("spec", "list", 0, "a"), fieldpaths.split("spec.a", "."), ".")


# ------------------------------------------------------------------ inline patches


def test_an_inline_patch_is_rewritten_inside_its_block_at_its_indentation() -> None:
    text = "patches:\n- patch: |-\n    kind: X\n    spec: {}\n  target: {kind: X}\n"
    node = read_stream(text, wanted=EVERY).documents[0].root.get("patches")[0].get("patch")  # type: ignore[union-attr,index]
    assert isinstance(node, Scalar)
    assert splice_block(text, node, "kind: X\nspec: {a: 1}") == (
        "patches:\n- patch: |-\n    kind: X\n    spec: {a: 1}\n  target: {kind: X}\n"
    )
    assert splice_block(text, node, "kind: X\n") is None  # |- cannot end with a line break


# ------------------------------------------------------------------ docs


def test_every_kustomize_finding_code_is_documented() -> None:
    doc = (ROOT / "docs" / "kustomize.md").read_text()
    fix = default_registry().get("kustomize_edit_fix")
    assert fix is not None
    for code in [*CODES.values(), *fix.codes]:
        assert re.search(rf"^\| {code.code} \| {code.level} \|", doc, re.M), code


# ------------------------------------------------------------------ properties of the strategic merge model

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

KEYS = st.sampled_from(["a", "b", "c", "containers", "env", "rules"])
LEAVES = st.one_of(st.integers(0, 9), st.sampled_from(["p", "q", "r"]))
NAMED = st.lists(
    st.fixed_dictionaries({"name": st.sampled_from(["n1", "n2", "n3"])}, optional={"v": LEAVES}),
    max_size=3,
    unique_by=lambda d: d["name"],
)
DATA = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.dictionaries(KEYS, inner, max_size=3), NAMED),
    max_leaves=8,
)
OBJECTS = st.dictionaries(KEYS, DATA, max_size=4)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(patch=OBJECTS, base=OBJECTS, known=st.booleans())
def test_merging_a_tree_builds_the_merged_data_and_projecting_gives_the_patch_back(
    patch: dict[str, object], base: dict[str, object], known: bool
) -> None:
    import yaml

    text = yaml.safe_dump(patch, sort_keys=False) if patch else "{}\n"
    stream = read_stream(text, wanted=EVERY)
    root = stream.documents[0].root
    assert root is not None
    merged = smp.merge(root, base, known)  # type: ignore[arg-type]
    assert root.to_data() == smp.merge_data(base, patch, known)  # type: ignore[arg-type]
    smp.project(root, merged)  # type: ignore[arg-type]
    assert root.to_data() == patch
    assert root.pristine()
