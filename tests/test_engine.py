"""Spec: the chain walk, its window gating, and the lifecycle findings (docs/versions.md)."""

from __future__ import annotations

import pytest

from k8smigrate import migrate_text
from tests.helpers import codes

INGRESS = (
    "apiVersion: extensions/v1beta1\nkind: Ingress\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n"
)
PSP = "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: p\n"


def api_of(text: str) -> str:
    return text.splitlines()[0].split(": ")[1]


@pytest.mark.parametrize(
    ("target", "minimum", "expected"),
    [
        ("1.13", None, "extensions/v1beta1"),  # networking.k8s.io/v1beta1 arrives in 1.14
        ("1.16", None, "networking.k8s.io/v1beta1"),
        ("1.19", "1.16", "networking.k8s.io/v1beta1"),  # v1 is not served by 1.16..1.18
        ("1.19", None, "networking.k8s.io/v1"),
        ("1.22", None, "networking.k8s.io/v1"),  # the intermediate version is gone: only a stage
        ("1.29", "1.19", "networking.k8s.io/v1"),
    ],
)
def test_the_chain_stops_at_the_newest_api_the_whole_window_serves(
    target: str, minimum: str | None, expected: str
) -> None:
    result = migrate_text(INGRESS, target_version=target, min_version=minimum)
    assert api_of(result.text) == expected


def test_removed_with_replacement_unavailable_in_the_window_is_an_error() -> None:
    result = migrate_text(INGRESS, target_version="1.22", min_version="1.13")
    assert result.text == INGRESS
    assert "K8SM-GEN-009" in codes(result, "error")


def test_removed_without_replacement_is_an_error() -> None:
    result = migrate_text(PSP, target_version="1.25")
    assert result.text == PSP
    assert codes(result, "error") == ["K8SM-GEN-007"]


def test_deprecated_at_the_target_is_a_warning_below_removal() -> None:
    assert codes(migrate_text(PSP, target_version="1.22"), "warning") == ["K8SM-GEN-008"]


def test_skip_leaves_the_document_and_says_why() -> None:
    result = migrate_text(INGRESS, target_version="1.22", skip=["ingress_networking_v1beta1"])
    assert api_of(result.text) == "extensions/v1beta1"
    assert any("disabled" in f.message for f in result.findings if f.code == "K8SM-GEN-007")


def test_only_runs_the_named_steps() -> None:
    result = migrate_text(INGRESS, target_version="1.19", only=["ingress_extensions_v1beta1"])
    assert api_of(result.text) == "networking.k8s.io/v1beta1"


def test_false_friends_keyed_on_kind_stay_untouched() -> None:
    vap = "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: p\n"
    result = migrate_text(vap, target_version="1.29")
    assert result.text == vap
    assert codes(result) == []


def test_findings_carry_file_document_line_and_path() -> None:
    ingress = INGRESS.replace(
        "spec:\n", "spec:\n  rules:\n  - http:\n      paths:\n      - backend: {serviceName: a, servicePort: 80}\n"
    )
    text = "apiVersion: v1\nkind: ConfigMap\n---\n" + ingress
    result = migrate_text(text, target_version="1.22", filename="x.yaml")
    (finding,) = [f for f in result.findings if f.code == "K8SM-ING-001"]
    assert (finding.filename, finding.document, finding.line) == ("x.yaml", 1, 10)
    assert finding.path == "spec.rules[0].http.paths[0].pathType"
    assert finding.migration == "ingress_networking_v1beta1" and finding.level == "info"
    doc = result.documents[1]
    assert doc.applied == ["ingress_extensions_v1beta1", "ingress_networking_v1beta1"]
    assert {op["path"] for op in doc.patch} >= {"/apiVersion", "/spec/backend", "/spec/defaultBackend"}


def test_the_patch_turns_the_old_document_into_the_new_one() -> None:
    import jsonpatch
    import yaml

    result = migrate_text(INGRESS, target_version="1.22")
    old, new = yaml.safe_load(INGRESS), yaml.safe_load(result.text)
    assert jsonpatch.apply_patch(old, result.documents[0].patch) == new


def test_a_patch_reads_the_input_again_only_when_asked_and_as_the_stream_read_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import k8smigrate.engine as engine

    expected = migrate_text(INGRESS, target_version="1.22").documents[0].patch
    read: list[str] = []

    def refuse(text: str, libyaml: bool = True) -> list[object]:
        read.append(text)
        raise ValueError("refused")  # the data reader failing: the stream's own reading answers

    monkeypatch.setattr(engine, "read_data", refuse)
    result = migrate_text(INGRESS, target_version="1.22")
    assert read == []  # nothing read again until the patch is asked for
    assert result.documents[0].patch == expected
    assert read and "extensions/v1beta1" in read[0]


def test_a_bad_target_is_a_usage_error() -> None:
    from k8smigrate.settings import SettingsError

    with pytest.raises(SettingsError):
        migrate_text(INGRESS, target_version="1.20", min_version="1.22")


def test_a_finding_walks_the_tree_only_to_its_node_and_sees_nodes_moved_since() -> None:
    # Context.locate walks in document order as far as the node it is asked for; a node moved
    # behind a paused walk is found where it is when it is reported
    from k8smigrate.codes import Code
    from k8smigrate.context import Context
    from k8smigrate.engine import migrate_stream
    from k8smigrate.model import Check
    from k8smigrate.registry import Registry
    from k8smigrate.settings import Settings
    from k8smigrate.tree import Mapping

    walked: list[int] = []

    def body(obj: Mapping, ctx: Context) -> None:
        ctx.info("T-1", "kind", obj.get("kind"))
        assert ctx._places is not None
        walked.append(len(ctx._places.out))
        later = obj.mapping("later")
        assert later is not None
        moved = later.pop("v")
        assert moved is not None
        obj.set("moved", moved.value)  # into the part of the tree the walk had passed
        ctx.info("T-1", "moved", moved.value)

    fixer = Check(
        applies_to={"x/v1": ("Widget",)}, body=body, name="f", edits=True, codes=(Code("T-1", "info", "seen"),)
    )
    big = "".join(f"  k{i}: {i}\n" for i in range(200))
    text = f"apiVersion: x/v1\nkind: Widget\nlater:\n  v: 1\nbig:\n{big}"
    result = migrate_stream(text, Settings(), "w.yaml", Registry([fixer]))
    assert walked == [3]  # the root, apiVersion and kind: not the 200 entries after them
    assert [(f.line, f.path) for f in result.findings] == [(2, "kind"), (4, "moved")]


def test_findings_locate_every_node_and_new_ones_by_their_parent() -> None:
    # Context.locate indexes the tree once per body; a node added later is still found
    from k8smigrate.codes import Code
    from k8smigrate.context import Context
    from k8smigrate.engine import migrate_stream
    from k8smigrate.model import Check
    from k8smigrate.registry import Registry
    from k8smigrate.settings import Settings
    from k8smigrate.tree import Mapping, Scalar

    def body(obj: Mapping, ctx: Context) -> None:
        items = obj.sequence("items")
        assert items is not None
        for _i, item in items.mappings():
            ctx.info("T-1", "seen", item.get("v"))
        added = Scalar("new")
        obj.set("extra", added)
        ctx.info("T-2", "added", added)

    declared = (Code("T-1", "info", "seen"), Code("T-2", "info", "added"))
    fixer = Check(applies_to={"x/v1": ("Widget",)}, body=body, name="f", edits=True, codes=declared)
    text = "apiVersion: x/v1\nkind: Widget\nitems:\n- v: 1\n- v: 2\n"
    result = migrate_stream(text, Settings(), "w.yaml", Registry([fixer]))
    assert [(f.code, f.line, f.path) for f in result.findings] == [
        ("T-1", 4, "items[0].v"),
        ("T-1", 5, "items[1].v"),
        ("T-2", 5, "extra"),  # new: the last parsed line before it
    ]


# ------------------------------------------------------------------ which checks a List item runs

LISTED = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: plain
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: exported
    clusterName: east
"""


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the checks are asked about (``Check.triggered_by``)."""
    from k8smigrate.model import Check

    asked: list[str] = []
    triggered_by = Check.triggered_by

    def recorded(self: Check, text: str) -> bool:
        asked.append(text)
        return triggered_by(self, text)

    monkeypatch.setattr(Check, "triggered_by", recorded)
    return asked


def test_a_list_items_checks_are_chosen_from_its_own_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # the whole List's text, read again for each item and check, made a List of n items cost n²
    asked = _asked(monkeypatch)
    result = migrate_text(LISTED, target_version="1.29")
    assert "clusterName" not in result.text  # the second item's, removed (K8SM-OBJ-001)
    assert "K8SM-OBJ-001" in codes(result)
    assert asked and all(text.startswith("apiVersion: v1\n  kind: ConfigMap") for text in asked)
    assert any("name: plain" in text and "exported" not in text for text in asked)


def test_where_aliases_share_nodes_the_whole_list_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # an item may hold, through an alias, what only another item's text says
    shared = LISTED.replace("    clusterName: east\n", "    clusterName: &zone east\n") + (
        "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: again\n  data:\n    zone: *zone\n"
    )
    asked = _asked(monkeypatch)
    migrate_text(shared, target_version="1.29")
    assert asked and all(text == shared for text in asked)
