"""Spec: ``--set crdCopies=anchors`` (the ``--yaml-anchors`` option) of the CRD v1beta1 → v1 step.

The top-level ``validation``/``subresources``/``additionalPrinterColumns``/``selectableFields``
are written once, in ``versions[0]``, with an anchor, and as aliases in the other versions.
"""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import k8smigrate
from k8smigrate.cli import app
from k8smigrate.render import Renderer, detect_style
from k8smigrate.settings import SettingsError
from k8smigrate.tree import Alias, Mapping
from k8smigrate.yamlio import read_stream
from tests.helpers import check_noop, check_transformed, codes, dedent, run, validate

GOLDEN = Path(__file__).parent / "golden" / "apiextensions_v1beta1_anchors"
ANCHORS = {"crdCopies": "anchors"}
HEAD = """
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  preserveUnknownFields: false
"""


def crd(rest: str) -> str:
    """A v1beta1 CRD that prunes (nothing to inject): the common head, then ``rest`` under ``spec``."""
    return HEAD + textwrap.indent(dedent(rest), "  ")


def v1(rest: str) -> str:
    return crd(rest).replace("apiextensions.k8s.io/v1beta1", "apiextensions.k8s.io/v1", 1)


TWO_VERSIONS = """
  # the schema of every version
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          type: object
          properties:
            schedule:
              type: string  # cron syntax
  subresources:
    status: {}
  additionalPrinterColumns:
  - name: Schedule
    type: string
    JSONPath: .spec.schedule
  versions:
  - name: v1beta1
    served: true
    storage: false
  - name: v1
    served: true
    storage: true
"""


# ------------------------------------------------------------------ no-op cases


def test_noop_already_v1_with_anchors() -> None:
    check_noop(v1("versions:\n- {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}\n"))


def test_noop_below_gate() -> None:
    check_noop(crd(TWO_VERSIONS), target_version="1.15", decisions=ANCHORS)


def test_copy_is_the_default() -> None:
    text = crd(TWO_VERSIONS)
    assert run(text).text == run(text, decisions={"crdCopies": "copy"}).text
    assert "*schema" not in run(text).text


def test_one_version_gets_no_anchor() -> None:
    check_transformed(
        crd("""
          validation:
            openAPIV3Schema: {type: object}
          version: v1
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object}
        """),
        decisions=ANCHORS,
    )


# ------------------------------------------------------------------ transforms


def test_block_values_are_anchored_in_the_first_version_and_aliased_in_the_others() -> None:
    result = check_transformed(
        crd(TWO_VERSIONS),
        v1("""
          versions:
          - name: v1beta1
            served: true
            storage: false
            # the schema of every version
            schema: &schema
              openAPIV3Schema:
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      schedule:
                        type: string  # cron syntax
            subresources: &subresources
              status: {}
            additionalPrinterColumns: &columns
            - name: Schedule
              type: string
              jsonPath: .spec.schedule
          - name: v1
            served: true
            storage: true
            schema: *schema
            subresources: *subresources
            additionalPrinterColumns: *columns
        """),
        decisions=ANCHORS,
    )
    validate(result.text)
    assert codes(result) == []
    # the aliases read as the copies the default mode writes
    assert yaml.safe_load(result.text) == yaml.safe_load(run(crd(TWO_VERSIONS)).text)
    assert "spec.validation → spec.versions[0].schema (&schema), aliased in the other versions" in (
        result.documents[0].summary
    )


def test_flow_values_and_an_existing_anchor() -> None:
    """A flow block gets its anchor before the brace; an anchor the block already had is reused."""
    result = check_transformed(
        crd("""
          validation: {openAPIV3Schema: {type: object}}
          subresources: &sub  # shared
            status: {}
          selectableFields: [{jsonPath: .spec.color}]
          versions:
          - {name: v1, served: true, storage: true}
          - name: v2
            served: true
            storage: false
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema: &schema {openAPIV3Schema: {type: object}}
            subresources: &sub  # shared
              status: {}
            selectableFields: &selectableFields [{jsonPath: .spec.color}]
          - name: v2
            served: true
            storage: false
            schema: *schema
            subresources: *sub
            selectableFields: *selectableFields
        """),
        decisions=ANCHORS,
    )
    validate(result.text, "1.31.0")  # selectableFields: served from 1.30 (alpha), 1.31 (beta)


def test_anchor_names_already_used_in_the_document_are_not_reused() -> None:
    text = crd(TWO_VERSIONS).replace("  name: widgets.example.com\n", "  name: &schema widgets.example.com\n")
    result = run(text, decisions=ANCHORS)
    assert "schema: &schema2\n" in result.text
    assert result.text.count("schema: *schema2\n") == 1
    assert yaml.safe_load(result.text)["spec"]["versions"][1]["schema"]["openAPIV3Schema"]["type"] == "object"
    validate(result.text)


def test_preservation_is_injected_once_into_the_shared_schema() -> None:
    text = crd(TWO_VERSIONS).replace("  preserveUnknownFields: false\n", "")
    result = run(text, decisions=ANCHORS)
    assert result.text.count("x-kubernetes-preserve-unknown-fields: true") == 2  # root and spec
    versions = yaml.safe_load(result.text)["spec"]["versions"]
    assert versions[0]["schema"] == versions[1]["schema"]
    assert versions[1]["schema"]["openAPIV3Schema"]["x-kubernetes-preserve-unknown-fields"] is True
    validate(result.text)


# ------------------------------------------------------------------ findings, CLI


def test_unknown_value_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match=re.escape("--set crdCopies=links: not one of anchors | copy")):
        check_noop(crd(TWO_VERSIONS), decisions={"crdCopies": "links"})


def test_cli_set_crd_copies(tmp_path: Path) -> None:
    source = tmp_path / "crd.yaml"
    source.write_text(dedent(crd(TWO_VERSIONS)), encoding="utf-8")
    result = CliRunner().invoke(app, ["apply", str(source), "--target-version", "1.29", "--set", "crdCopies=anchors"])
    assert result.exit_code == 1, result.output  # 1: changed
    assert result.stdout == run(crd(TWO_VERSIONS), decisions=ANCHORS).text
    refused = CliRunner().invoke(app, ["apply", str(source), "--set", "crdCopies=links"])
    assert refused.exit_code == 2
    assert "not one of anchors | copy" in refused.output


# ------------------------------------------------------------------ the renderer (core, k8smigrate/render.py)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: {b: 1}\nc: x\n", "a: &n {b: 1}\nc: &n x\n"),
        ("a: [1, 2]\nc: 'x'\n", "a: &n [1, 2]\nc: &n 'x'\n"),
        ("a: &old {b: 1}\nc: &old2 x\n", "a: &old {b: 1}\nc: &old2 x\n"),  # parsed anchors are in the text
    ],
)
def test_renderer_writes_an_anchor_added_to_a_parsed_inline_node(text: str, expected: str) -> None:
    root = read_stream(text).documents[0].root
    assert isinstance(root, Mapping)
    for key in ("a", "c"):
        node = root.get(key)
        assert node is not None
        node.anchor = node.anchor or "n"
    root.dirty = True
    assert Renderer(text, detect_style(text, root)).document(root) == expected


def test_renderer_anchor_on_a_moved_block_and_an_alias_value() -> None:
    text = "a:\n  b: 1  # one\nc: 2\n"
    root = read_stream(text).documents[0].root
    assert isinstance(root, Mapping)
    target = Mapping()
    root.set("t", target)
    entry = root.move_to("a", target, "moved")
    entry.value.anchor = "a"
    root.set("d", Alias("a", entry.value))
    out = Renderer(text, detect_style(text, root)).document(root)
    assert out == "c: 2\nt:\n  moved: &a\n    b: 1  # one\nd: *a\n"
    assert yaml.safe_load(out) == {"c": 2, "t": {"moved": {"b": 1}}, "d": {"b": 1}}


# ------------------------------------------------------------------ golden files and the corpus


CASES = sorted(GOLDEN.glob("*.before.yaml"))


@pytest.mark.parametrize("before", CASES, ids=lambda p: p.name.split(".")[0])
def test_golden(before: Path) -> None:
    """``K8SMIGRATE_REGEN_GOLDEN=1`` rewrites the after files (review their diffs)."""
    after = before.with_name(before.name.replace(".before.", ".after."))
    text = before.read_text(encoding="utf-8")
    result = k8smigrate.migrate_text(text, target_version="1.29", decisions=ANCHORS)
    assert codes(result, "error") == []
    if os.environ.get("K8SMIGRATE_REGEN_GOLDEN"):
        after.write_text(result.text, encoding="utf-8")
    assert result.text == after.read_text(encoding="utf-8")
    assert k8smigrate.migrate_text(result.text, target_version="1.29", decisions=ANCHORS).text == result.text
    assert list(yaml.safe_load_all(result.text)) == list(
        yaml.safe_load_all(k8smigrate.migrate_text(text, target_version="1.29").text)
    )
    validate(result.text)


CORPUS = [
    "cert-manager-v1.0.0__deploy_crds_crd-certificaterequests.v1beta1.yaml",
    "tekton-pipeline-221c057__config_300-pipelinerun.yaml",
]


@pytest.mark.parametrize("name", CORPUS, ids=lambda n: n[:60])
def test_corpus_crds(corpus: Path, name: str) -> None:
    """Multi-version corpus CRDs: aliases written, same data as the copies, idempotent, valid."""
    text = (corpus / name).read_text(encoding="utf-8")
    result = k8smigrate.migrate_text(text, target_version="1.29", decisions=ANCHORS)
    assert codes(result, "error") == []
    assert "K8SM-GEN-004" not in codes(result)  # no comment lost
    assert ": *" in result.text
    assert k8smigrate.migrate_text(result.text, target_version="1.29", decisions=ANCHORS).text == result.text
    copied = k8smigrate.migrate_text(text, target_version="1.29").text
    assert list(yaml.safe_load_all(result.text)) == list(yaml.safe_load_all(copied))
    validate(result.text)
