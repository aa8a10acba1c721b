"""Spec: CustomResourceDefinition apiextensions.k8s.io/v1beta1 → v1."""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
import yaml

import k8smigrate
from k8smigrate.kube.crd_schema import (
    PRESERVE,
    check,
    data_of,
    fields_of,
    preserve_everywhere,
    repair,
    structural_nodes,
)
from k8smigrate.settings import SettingsError
from k8smigrate.tree import Mapping, Node
from k8smigrate.yamlio import read_stream
from tests.crd_pruning import pruned
from tests.helpers import check_noop, check_transformed, codes, dedent, run, validate

GOLDEN = Path(__file__).parent / "golden" / "apiextensions_v1beta1"
HEAD = """
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
"""


def crd(rest: str) -> str:
    """A v1beta1 CRD: the common head, then ``rest`` (spec keys, placed under ``spec``)."""
    return HEAD + textwrap.indent(dedent(rest), "  ")


def v1(rest: str) -> str:
    return crd(rest).replace("apiextensions.k8s.io/v1beta1", "apiextensions.k8s.io/v1", 1)


# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            v1("""
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
            """),
            id="already-v1",
        ),
        pytest.param(
            crd("  version: v1\n").replace("kind: CustomResourceDefinition", "kind: CustomResource", 1),
            id="other-kind",
        ),
        pytest.param(
            crd("  version: v1\n").replace("apiextensions.k8s.io/v1beta1", "apiextensions.example.com/v1beta1"),
            id="other-group",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text)


def test_noop_below_gate() -> None:
    result = check_noop(crd("  version: v1\n"), target_version="1.15")
    assert codes(result, "error") == []


def test_templated_document_is_migrated_with_its_actions() -> None:
    result = run(crd("  version: {{ .Values.version }}\n"))
    assert "  - name: {{ .Values.version }}\n" in result.text
    assert "K8SM-GEN-001" not in codes(result)


# ------------------------------------------------------------------ transforms


def test_version_becomes_versions_and_unset_preserve_is_pinned_everywhere() -> None:
    result = check_transformed(
        crd("""
          version: v1  # the only one
          validation:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    size: {type: integer}
                    labels:
                      type: object
                      additionalProperties: {type: string}
                    extra:
                      type: object
                      additionalProperties: true
                    open:
                      type: object
                      properties:
                        known: {type: string}
                      additionalProperties: true
                    items:
                      type: array
                      items:
                        type: object
                        properties:
                          name: {type: string}
        """),
        v1("""
          versions:  # the only one
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  spec:
                    type: object
                    x-kubernetes-preserve-unknown-fields: true
                    properties:
                      size: {type: integer}
                      labels:
                        type: object
                        additionalProperties: {type: string}
                      extra:
                        type: object
                        additionalProperties:
                          x-kubernetes-preserve-unknown-fields: true
                      open:
                        type: object
                        x-kubernetes-preserve-unknown-fields: true
                        properties:
                          known: {type: string}
                      items:
                        type: array
                        items:
                          type: object
                          x-kubernetes-preserve-unknown-fields: true
                          properties:
                            name: {type: string}
        """),
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CRD-002"]
    message = result.findings[0].message
    assert "at 5 schema node(s)" in message
    assert "additionalProperties: true removed beside properties at " in message
    assert result.documents[0].summary[0] == "spec.version → spec.versions[0]"


def test_top_level_fields_go_into_every_version_comments_on_the_first_only() -> None:
    result = check_transformed(
        crd("""
          preserveUnknownFields: false
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
          version: v1beta1
          versions:
          - name: v1beta1
            served: true
            storage: false
          - name: v1
            served: true
            storage: true
        """),
        v1("""
          preserveUnknownFields: false
          versions:
          - name: v1beta1
            served: true
            storage: false
            # the schema of every version
            schema:
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
              jsonPath: .spec.schedule
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      schedule:
                        type: string
            subresources:
              status: {}
            additionalPrinterColumns:
            - name: Schedule
              type: string
              jsonPath: .spec.schedule
        """),
    )
    validate(result.text)
    assert codes(result) == []


def test_selectable_fields_are_copied_too() -> None:
    result = check_transformed(
        crd("""
          preserveUnknownFields: false
          selectableFields:
          - jsonPath: .spec.color
          versions:
          - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
          - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
        """),
        v1("""
          preserveUnknownFields: false
          versions:
          - name: v1
            served: true
            storage: true
            schema: {openAPIV3Schema: {type: object}}
            selectableFields:
            - jsonPath: .spec.color
          - name: v2
            served: true
            storage: false
            schema: {openAPIV3Schema: {type: object}}
            selectableFields:
            - jsonPath: .spec.color
        """),
    )
    assert "spec.selectableFields → spec.versions[*].selectableFields" in result.documents[0].summary


def test_per_version_columns_rename_and_structural_repairs() -> None:
    result = check_transformed(
        crd("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                properties:
                  apiVersion: {type: string}
                  metadata: {type: object}
                  spec:
                    properties:
                      port:
                        anyOf:
                        - type: string
                        - type: integer
                      template:
                        type: object
                        x-kubernetes-embedded-resource: true
                        properties:
                          metadata: {type: object}
                      list:
                        items: {type: string}
            additionalPrinterColumns:
            - name: Port
              type: string
              JSONPath: .spec.port
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  apiVersion: {type: string}
                  metadata: {type: object}
                  spec:
                    type: object
                    x-kubernetes-preserve-unknown-fields: true
                    properties:
                      port:
                        anyOf:
                        - type: integer
                        - type: string
                        x-kubernetes-int-or-string: true
                      template:
                        type: object
                        x-kubernetes-preserve-unknown-fields: true
                        x-kubernetes-embedded-resource: true
                        properties:
                          metadata: {type: object}
                      list:
                        type: array
                        items: {type: string}
            additionalPrinterColumns:
            - name: Port
              type: string
              jsonPath: .spec.port
        """),
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CRD-003", "K8SM-CRD-002"]
    repairs = result.findings[0].message
    base = "spec.versions[0].schema.openAPIV3Schema"
    for repaired in (
        f"{base}: type: object added",
        f"{base}.properties.spec: type: object added",
        f"{base}.properties.spec.properties.port: anyOf [string, integer] → x-kubernetes-int-or-string: true",
        f"{base}.properties.spec.properties.list: type: array added",
    ):
        assert repaired in repairs


def test_missing_schema_is_synthesised_and_scope_pinned() -> None:
    text = HEAD.replace("  scope: Namespaced\n", "") + "  version: v1\n"
    result = check_transformed(
        text,
        text.replace("v1beta1", "v1").replace(
            "  version: v1\n",
            "  scope: Namespaced\n"
            "  versions:\n"
            "  - name: v1\n"
            "    served: true\n"
            "    storage: true\n"
            "    schema:\n"
            "      openAPIV3Schema:\n"
            "        type: object\n"
            "        x-kubernetes-preserve-unknown-fields: true\n",
        ),
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CRD-001", "K8SM-CRD-016"]


def test_root_mode_preserves_the_root_only() -> None:
    result = check_transformed(
        crd("""
          version: v1
          validation:
            openAPIV3Schema:
              type: object
              properties:
                spec: {type: object, properties: {a: {type: string}}}
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  spec: {type: object, properties: {a: {type: string}}}
        """),
        decisions={"crdPreserve": "root"},
    )
    assert "crdPreserve=root" in result.findings[0].message
    assert "nested unknown fields will be pruned" in result.findings[0].message


def test_adopt_new_defaults_skips_preservation() -> None:
    result = check_transformed(
        crd("""
          version: v1
          validation:
            openAPIV3Schema: {type: object}
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object}
        """),
        adopt_new_defaults=True,
    )
    assert codes(result) == ["K8SM-GEN-002"]


def test_conversion_webhook_moves_and_review_versions_are_pinned() -> None:
    result = check_transformed(
        crd("""
          version: v1
          preserveUnknownFields: false
          validation:
            openAPIV3Schema: {type: object}
          conversion:
            strategy: Webhook
            # where the converter runs
            webhookClientConfig:  # in-cluster
              service: {namespace: system, name: converter, path: /convert}
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object}
          preserveUnknownFields: false
          conversion:
            strategy: Webhook
            # where the converter runs
            webhook:  # in-cluster
              conversionReviewVersions: [v1beta1]
              clientConfig:
                service: {namespace: system, name: converter, path: /convert}
        """),
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CRD-012"]


def test_conversion_review_versions_move_with_their_comment() -> None:
    result = check_transformed(
        crd("""
          version: v1
          preserveUnknownFields: false
          validation:
            openAPIV3Schema: {type: object}
          conversion:
            strategy: Webhook
            webhookClientConfig:
              url: https://convert.example.com/
            conversionReviewVersions: ["v1", "v1beta1"]  # both work
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object}
          preserveUnknownFields: false
          conversion:
            strategy: Webhook
            webhook:
              conversionReviewVersions: ["v1", "v1beta1"]  # both work
              clientConfig:
                url: https://convert.example.com/
        """),
    )
    assert "K8SM-CRD-012" not in codes(result)


def test_webhook_settings_dropped_without_webhook_strategy() -> None:
    result = check_transformed(
        crd("""
          version: v1
          preserveUnknownFields: false
          validation:
            openAPIV3Schema: {type: object}
          conversion:
            strategy: None
            conversionReviewVersions: [v1beta1]
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: {type: object}
          preserveUnknownFields: false
          conversion:
            strategy: None
        """),
    )
    validate(result.text)
    assert codes(result, "warning") == ["K8SM-CRD-011"]


def test_version_that_is_not_the_first_listed_is_dropped_with_a_warning() -> None:
    result = check_transformed(
        crd("""
          preserveUnknownFields: false
          version: v2
          versions:
          - {name: v1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
          - {name: v2, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
        """),
        v1("""
          preserveUnknownFields: false
          versions:
          - {name: v1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
          - {name: v2, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
        """),
    )
    assert codes(result, "warning") == ["K8SM-CRD-013"]


def test_protected_group_with_the_bypass_decision() -> None:
    text = crd("  version: v1\n  validation:\n    openAPIV3Schema: {type: object}\n").replace(
        "group: example.com", "group: widgets.k8s.io"
    )
    result = run(text, decisions={"apiApproved": "unapproved"})
    assert "K8SM-CRD-021" in codes(result, "info")
    meta = yaml.safe_load(result.text)["metadata"]
    assert meta["annotations"] == {
        "api-approved.kubernetes.io": "unapproved, migrated from apiextensions.k8s.io/v1beta1 without API review"
    }
    validate(result.text)


def test_list_items_migrate() -> None:
    result = run(
        """
        apiVersion: apiextensions.k8s.io/v1beta1
        kind: CustomResourceDefinitionList
        items:
        - apiVersion: apiextensions.k8s.io/v1beta1
          kind: CustomResourceDefinition
          metadata: {name: as.example.com}
          spec:
            group: example.com
            names: {kind: A, plural: as}
            scope: Cluster
            version: v1
        """
    )
    data = yaml.safe_load(result.text)
    assert data["apiVersion"] == "apiextensions.k8s.io/v1"
    assert data["items"][0]["apiVersion"] == "apiextensions.k8s.io/v1"
    assert [v["name"] for v in data["items"][0]["spec"]["versions"]] == ["v1"]
    validate(yaml.safe_dump(data["items"][0]))


# ------------------------------------------------------------------ findings that stop the migration


def error_codes(text: str, **kwargs: object) -> list[str]:
    result = check_noop(text, **kwargs)
    return codes(result, "error")


def test_non_structural_schema_lists_every_violation() -> None:
    text = crd("""
      version: v1
      validation:
        openAPIV3Schema:
          type: object
          properties:
            metadata:
              type: object
              properties:
                labels: {type: object}
            spec:
              type: object
              properties:
                a: {description: anything}
                b:
                  type: object
                  properties:
                    c: {type: string}
                  additionalProperties: {type: string}
                d:
                  anyOf:
                  - type: string
                    description: nope
                  - properties:
                      e: {type: string}
                f: {type: array}
    """)
    result = check_noop(text)
    assert codes(result, "error") == ["K8SM-CRD-004"]
    message = result.findings[0].message
    base = "spec.validation.openAPIV3Schema.properties"
    for violation in (
        f"{base}.metadata: must not specify anything other than name and generateName",
        f"{base}.spec.properties.a.type: must not be empty for object fields",
        f"{base}.spec.properties.b.additionalProperties: additionalProperties and properties are mutually exclusive",
        f"{base}.spec.properties.d.anyOf[0].type: must be undefined to be structural",
        f"{base}.spec.properties.d.anyOf[0].description: must be undefined to be structural",
        f"{base}.spec.properties.d.properties.e: must be specified because it is defined in "
        f"{base}.spec.properties.d.anyOf[1].properties.e",
        f"{base}.spec.properties.f.items: must be specified for type: array",
    ):
        assert violation in message


@pytest.mark.parametrize(
    ("schema", "violation"),
    [
        ("{type: string}", "openAPIV3Schema.type: must be object at the root"),
        ("{type: object, additionalProperties: {type: string}}", "must not be used at the root"),
        ("{type: object, nullable: true}", "nullable: cannot be true at the root"),
        ("{type: object, properties: {a: {$ref: '#/x'}}}", "a.$ref: is not supported"),
        ("{type: object, properties: {a: {type: array, items: [{type: string}]}}}", "not an array"),
        ("{type: object, properties: {a: {type: array, uniqueItems: true, items: {}}}}", "uniqueItems"),
        ("{type: object, x-kubernetes-preserve-unknown-fields: false}", "must be true or undefined"),
        ("{type: object, properties: {kind: {type: integer}}}", "kind.type: must be string"),
        (
            "{type: object, properties: {a: {x-kubernetes-int-or-string: true, "
            "x-kubernetes-preserve-unknown-fields: true}}}",
            "cannot be combined",
        ),
        (
            "{type: object, properties: {a: {type: object, x-kubernetes-embedded-resource: true}}}",
            "properties: must not be empty if x-kubernetes-embedded-resource",
        ),
        ("{type: object, properties: {a: {type: string, not: {type: string}}}}", "a.not.type: must be undefined"),
    ],
)
def test_structural_violations(schema: str, violation: str) -> None:
    result = check_noop(crd(f"  version: v1\n  validation:\n    openAPIV3Schema: {schema}\n"))
    assert codes(result, "error") == ["K8SM-CRD-004"]
    assert violation in result.findings[0].message


def test_int_or_string_patterns_are_structural() -> None:
    schema = (
        "{type: object, properties: {a: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]},"
        " b: {x-kubernetes-int-or-string: true, allOf: [{anyOf: [{type: integer}, {type: string}]}, {pattern: x}]}}}"
    )
    result = run(crd(f"  version: v1\n  validation:\n    openAPIV3Schema: {schema}\n"))
    assert codes(result, "error") == []
    validate(result.text)


@pytest.mark.parametrize(
    ("rest", "code"),
    [
        ("  version: v3\n  versions:\n  - {name: v1, served: true, storage: true}\n", "K8SM-CRD-010"),
        ("  versions: []\n", "K8SM-CRD-009"),
        ("  version: v1\n  preserveUnknownFields: maybe\n", "K8SM-CRD-009"),
        (
            "  version: v1\n  conversion:\n    strategy: Webhook\n    conversionReviewVersions: [v1]\n",
            "K8SM-CRD-014",
        ),
        (
            "  version: v1\n  conversion:\n    strategy: Webhook\n    webhookClientConfig: {url: 'https://x'}\n"
            "    webhook: {clientConfig: {url: 'https://x'}}\n",
            "K8SM-GEN-003",
        ),
        (
            "  version: v1\n  validation:\n    openAPIV3Schema: {type: object}\n"
            "  versions:\n  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}\n",
            "K8SM-GEN-003",
        ),
        (
            "  version: v1\n  additionalPrinterColumns:\n  - {name: a, type: string, JSONPath: .a, jsonPath: .a}\n",
            "K8SM-GEN-003",
        ),
    ],
)
def test_errors_leave_the_document_alone(rest: str, code: str) -> None:
    assert code in error_codes(crd(rest))


def test_no_spec_is_an_error() -> None:
    assert error_codes("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n") == ["K8SM-CRD-009"]


def test_unknown_preserve_mode_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match=re.escape("--set crdPreserve=some: not one of all | root")):
        error_codes(crd("  version: v1\n"), decisions={"crdPreserve": "some"})


def test_protected_group_needs_approval() -> None:
    text = crd("  version: v1\n").replace("group: example.com", "group: widgets.k8s.io")
    assert error_codes(text) == ["K8SM-CRD-020"]
    approved = text.replace("metadata:\n", "metadata:\n  annotations: {api-approved.kubernetes.io: unapproved, x}\n")
    assert codes(run(approved), "error") == []


# ------------------------------------------------------------------ golden files and the corpus


CASES = sorted(GOLDEN.glob("*.before.yaml"))


@pytest.mark.parametrize("before", CASES, ids=lambda p: p.name.split(".")[0])
def test_golden(before: Path) -> None:
    """Realistic CRDs; ``K8SMIGRATE_REGEN_GOLDEN=1`` rewrites the after files (review their diffs)."""
    after = before.with_name(before.name.replace(".before.", ".after."))
    text = before.read_text(encoding="utf-8")
    result = k8smigrate.migrate_text(text, target_version="1.29")
    assert codes(result, "error") == []
    if os.environ.get("K8SMIGRATE_REGEN_GOLDEN"):
        after.write_text(result.text, encoding="utf-8")
    assert result.text == after.read_text(encoding="utf-8")
    assert k8smigrate.migrate_text(result.text, target_version="1.29").text == result.text
    validate(result.text)


# The corpus CRDs, without the two largest cert-manager v1.0.0 files (4,000 lines each, no
# preservation to add): tests/test_corpus.py measures those, and their pairs are like the others.
CRD_FILES = [
    "cert-manager-v0.11.0__deploy_manifests_00-crds.yaml",
    "cert-manager-v1.0.0__deploy_crds_crd-certificaterequests.v1beta1.yaml",
    "cert-manager-v1.0.0__deploy_crds_crd-orders.v1beta1.yaml",
    "kube-no-trouble-2366d92__fixtures_customresourcedefinition-v1beta1.yaml",
    "prometheus-operator-d8d7949__example_prometheus-operator-crd_v1beta1_monitoring.coreos.com_podmonitors.yaml",
    "prometheus-operator-d8d7949__example_prometheus-operator-crd_v1beta1_monitoring.coreos.com_prometheusrules.yaml",
    "prometheus-operator-d8d7949__example_prometheus-operator-crd_v1beta1_monitoring.coreos.com_servicemonitors.yaml",
    "prometheus-operator-v0.23.0__contrib_kube-prometheus_manifests_0prometheus-operator-0servicemonitorCustomResourceDefinition.yaml",
    "tekton-pipeline-221c057__config_300-condition.yaml",
    "tekton-pipeline-221c057__config_300-pipelinerun.yaml",
]
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
REVIEW = "/spec/conversion/webhook/conversionReviewVersions"
# Every difference between our output and upstream's own v1 file, per pair (JSON patch from
# ours to theirs). All are choices that keep v1beta1 behaviour, none is a gap.
KEPT_FALSE = {"op": "remove", "path": "/spec/preserveUnknownFields"}
PROMETHEUS = "prometheus-operator-d8d7949__example_prometheus-operator-crd_v1beta1_monitoring.coreos.com_"
PAIRS = {
    # upstream also accepts v1 ConversionReviews (we pin the v1beta1 default the webhook got),
    # and dropped preserveUnknownFields: false (we keep it: v1 accepts it and defaults to it)
    "cert-manager-v1.0.0__deploy_crds_crd-certificaterequests.v1beta1.yaml": [
        KEPT_FALSE,
        {"op": "add", "path": f"{REVIEW}/0", "value": "v1"},
    ],
    "cert-manager-v1.0.0__deploy_crds_crd-orders.v1beta1.yaml": [
        KEPT_FALSE,
        {"op": "add", "path": f"{REVIEW}/0", "value": "v1"},
    ],
    f"{PROMETHEUS}podmonitors.yaml": [KEPT_FALSE],
    f"{PROMETHEUS}prometheusrules.yaml": [KEPT_FALSE],
    f"{PROMETHEUS}servicemonitors.yaml": [KEPT_FALSE],
    "tekton-pipeline-221c057__config_300-condition.yaml": [],
    "tekton-pipeline-221c057__config_300-pipelinerun.yaml": [],
}


def upstream_pair(corpus: Path, name: str) -> Path:
    rows = (corpus.parent / "sources.tsv").read_text(encoding="utf-8").splitlines()
    header = rows[0].split("\t")
    for row in rows[1:]:
        fields = dict(zip(header, row.split("\t"), strict=False))
        if fields["local_name"] == name:
            return corpus / fields["pair_of"]
    raise KeyError(name)


@pytest.mark.parametrize("name", sorted(PAIRS), ids=lambda n: n[:60])
def test_upstream_pairs(corpus: Path, name: str) -> None:
    """Our output against upstream's own v1 file of the same commit or release."""
    ours = yaml.load(k8smigrate.migrate_text((corpus / name).read_text(), target_version="1.29").text, LOADER)
    theirs = yaml.load(upstream_pair(corpus, name).read_text(), LOADER)
    assert jsonpatch.make_patch(ours, theirs).patch == PAIRS[name]


@pytest.mark.parametrize("name", CRD_FILES, ids=lambda n: n[:60])
def test_corpus_crds(corpus: Path, name: str) -> None:
    """Every corpus CRD migrates: no comment lost, idempotent, valid, and nothing newly pruned."""
    text = (corpus / name).read_text(encoding="utf-8")
    decisions = {"apiApproved": "unapproved"} if name.startswith("kube-no-trouble") else {}
    result = k8smigrate.migrate_text(text, target_version="1.29", decisions=decisions)
    assert codes(result, "error") == []
    assert "K8SM-GEN-004" not in codes(result)
    assert k8smigrate.migrate_text(result.text, target_version="1.29", decisions=decisions).text == result.text
    validate(result.text)
    for old, new in zip(yaml.load_all(text, LOADER), yaml.load_all(result.text, LOADER), strict=True):
        if not old:
            continue
        assert new["apiVersion"] == "apiextensions.k8s.io/v1"
        assert_same_pruning(old["spec"], new["spec"])


def assert_same_pruning(old: dict[str, Any], new: dict[str, Any]) -> None:
    """On a sample object with unknown fields at every level, v1 prunes what v1beta1 pruned."""
    preserve = old.get("preserveUnknownFields", True)
    top = old.get("validation")
    for i, version in enumerate(new["versions"]):
        schema = version["schema"]["openAPIV3Schema"]
        holder = top or (old["versions"][i].get("schema") if "versions" in old else None)
        source = (holder or {}).get("openAPIV3Schema")
        sample = sample_object(schema)
        expected = set() if preserve else pruned(sample, source)
        assert pruned(sample, schema) == expected


def sample_object(schema: dict[str, object] | None) -> object:
    """An object that follows ``schema`` and has an unknown field on every object."""
    if not isinstance(schema, dict):
        return {"unknown": {"deep": 1}}
    kind = schema.get("type")
    if kind == "array" or "items" in schema:
        return [sample_object(schema.get("items"))]  # type: ignore[arg-type]
    if kind in ("string", "integer", "number", "boolean") or schema.get("x-kubernetes-int-or-string"):
        return "x"
    out: dict[str, object] = {"unknownField": {"deep": 1}}
    for name, child in (schema.get("properties") or {}).items():  # type: ignore[attr-defined]
        out[name] = sample_object(child)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        out = {"key": sample_object(extra)}
    elif extra is False:
        out.pop("unknownField")
    return out


def test_preserve_unknown_fields_comment_moves_to_the_extension() -> None:
    result = check_transformed(
        crd("""
          version: v1
          # nothing is pruned
          preserveUnknownFields: true  # keep everything
          validation:
            openAPIV3Schema:
              type: object
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                # nothing is pruned
                x-kubernetes-preserve-unknown-fields: true  # keep everything
        """),
    )
    assert "K8SM-GEN-004" not in codes(result)


def test_schema_aliases_are_followed_when_nothing_shared_changes() -> None:
    """Aliases are read through (checks see the anchored node in every place); a leaf needs no edit."""
    result = check_transformed(
        crd("""
          version: v1
          validation:
            openAPIV3Schema:
              type: object
              properties:
                a: &str {type: string}
                b: *str
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  a: &str {type: string}
                  b: *str
        """),
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CRD-002"]


def test_a_version_schema_aliasing_another_versions_shares_its_edits() -> None:
    """``schema: *s`` or ``openAPIV3Schema: *root`` stand at the same place as their anchor."""
    result = check_transformed(
        crd("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: &root
                properties:
                  spec: {type: object}
          - name: v2
            served: true
            storage: false
            schema:
              openAPIV3Schema: *root
          - name: v3
            served: true
            storage: false
            schema: &s
              openAPIV3Schema: {type: object}
          - name: v4
            served: false
            storage: false
            schema: *s
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema: &root
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          - name: v2
            served: true
            storage: false
            schema:
              openAPIV3Schema: *root
          - name: v3
            served: true
            storage: false
            schema: &s
              openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
          - name: v4
            served: false
            storage: false
            schema: *s
        """),
    )
    validate(result.text)
    assert codes(result, "warning") == ["K8SM-CRD-003", "K8SM-CRD-002"]


def test_aliased_object_schema_is_kept_when_nothing_is_injected() -> None:
    result = run(
        crd("""
          version: v1
          preserveUnknownFields: false
          validation:
            openAPIV3Schema:
              type: object
              properties:
                a: &obj
                  type: object
                  properties:
                    x: {type: integer}
                b: *obj
        """)
    )
    assert codes(result) == []
    assert "    b: *obj\n" in result.text
    validate(result.text)


def test_schema_alias_whose_places_get_the_same_edits_stays_an_alias() -> None:
    """Every place ``&obj`` stands for needs the extension: added once, the alias kept."""
    result = check_transformed(
        crd("""
          version: v1
          validation:
            openAPIV3Schema:
              type: object
              properties:
                a: &obj
                  type: object
                  properties:
                    x: {type: integer}
                b: *obj
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  a: &obj
                    type: object
                    x-kubernetes-preserve-unknown-fields: true
                    properties:
                      x: {type: integer}
                  b: *obj
        """),
    )
    validate(result.text)


def test_schema_alias_whose_places_need_different_edits_is_refused() -> None:
    """The root's metadata gets no extension, ``spec`` does: ``&o`` cannot carry both (K8SM-GEN-017)."""
    result = check_noop(
        crd("""
          version: v1
          validation:
            openAPIV3Schema:
              type: object
              properties:
                spec: &o {type: object}
                metadata: *o
        """)
    )
    assert codes(result, "error") == ["K8SM-GEN-017"]
    found = next(f for f in result.findings if f.code == "K8SM-GEN-017")
    assert (found.line, found.path) == (14, "spec.validation.openAPIV3Schema.properties.spec")
    assert "anchored &o on line 14 is also used on line 15" in found.message


def test_violation_only_at_the_alias_place_is_found() -> None:
    """``&obj`` is a fine field schema, but as the root's metadata it may only declare name/generateName."""
    result = check_noop(
        crd("""
          version: v1
          preserveUnknownFields: false
          validation:
            openAPIV3Schema:
              type: object
              properties:
                spec: &obj
                  type: object
                  properties:
                    labels: {type: string}
                metadata: *obj
        """)
    )
    assert codes(result, "error") == ["K8SM-CRD-004"]
    assert "openAPIV3Schema.properties.metadata: must not specify anything other than name" in (
        result.findings[0].message
    )


def test_data_of_follows_aliases_as_the_tree_reads_them() -> None:
    """``data_of`` (aliases followed by their parsed anchor) gives what ``to_data`` gives for a whole document."""
    root = read_stream("a: &b {x: 1, on: 2, null: 3, 'yes': 4}\nc:\n  <<: *b\n  z: 2\nd: [*b]\n").documents[0].root
    assert root is not None
    data = data_of(root)
    assert data == root.to_data()
    assert isinstance(data, dict)
    assert data["c"] == {"x": 1, "true": 2, "null": 3, "yes": 4, "z": 2}


# ------------------------------------------------------------------ empty schemas (issue 14 item 5)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            "validation: {openAPIV3Schema: {}}\n",
            "schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n",
            id="empty-openAPIV3Schema",
        ),
        pytest.param(
            "validation: {}\n",
            "schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n",
            id="empty-validation",
        ),
        pytest.param(
            "validation:\n  openAPIV3Schema:\n",
            "schema:\n  openAPIV3Schema:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n",
            id="null-openAPIV3Schema",
        ),
        pytest.param(
            "validation:\n",
            "schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n",
            id="null-validation",
        ),
    ],
)
def test_an_empty_top_level_schema_becomes_an_object_that_keeps_every_field(before: str, after: str) -> None:
    result = check_transformed(
        crd("version: v1\n" + before),
        v1("versions:\n- name: v1\n  served: true\n  storage: true\n" + textwrap.indent(after, "  ")),
    )
    validate(result.text)
    assert codes(result, "warning") == ["K8SM-CRD-003", "K8SM-CRD-002"]  # both edits are in the output


def test_an_empty_per_version_schema_is_repaired_in_place() -> None:
    result = check_transformed(
        crd("""
          versions:
          - name: v1
            served: true
            storage: true
            schema: {}
          - name: v2
            served: true
            storage: false
            schema: {openAPIV3Schema: {}}
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
          - name: v2
            served: true
            storage: false
            schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
        """),
    )
    validate(result.text)


def test_an_empty_schema_with_new_defaults_gets_its_type_only() -> None:
    result = run(crd("version: v1\nvalidation: {openAPIV3Schema: {}}\n"), adopt_new_defaults=True)
    assert "schema: {openAPIV3Schema: {type: object}}" in result.text
    assert codes(result) == ["K8SM-CRD-003", "K8SM-GEN-002"]


# ------------------------------------------------------------------ comments of moved keys (issue 14 item 6)


def test_comments_above_the_first_key_of_a_moved_block_move_with_it() -> None:
    result = check_transformed(
        crd("""
          version: v1
          preserveUnknownFields: false
          validation:
            # openAPIV3Schema head
            openAPIV3Schema:
              type: object
          subresources:
            # status head
            status: {}
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              # openAPIV3Schema head
              openAPIV3Schema:
                type: object
            subresources:
              # status head
              status: {}
          preserveUnknownFields: false
        """),
    )
    assert "K8SM-GEN-004" not in codes(result)


def test_comments_between_keys_of_an_edited_moved_block_move_with_their_keys() -> None:
    """A comment right under a key's value, in a moved schema that is edited too (the extension
    added below it), moves with the key under it: the block is written entry by entry there."""
    check_transformed(
        crd("""
          version: v1
          validation:
            openAPIV3Schema:
              type: object
              properties:
                a:
                  type: string
                # about b
                b:
                  type: string

                  # about c, after a blank line
                c:
                  # inside c
                  type: object
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  a:
                    type: string
                  # about b
                  b:
                    type: string

                    # about c, after a blank line
                  c:
                    # inside c
                    type: object
                    x-kubernetes-preserve-unknown-fields: true
        """),
    )


def test_the_lines_above_a_moved_blocks_first_key_move_as_they_stood() -> None:
    # blank lines and each comment's own indent, as between the other keys of a moved block
    check_transformed(
        crd("""
          version: v1
          preserveUnknownFields: false
          validation:

            # the schema, after a blank line

              # indented deeper
            openAPIV3Schema:
              type: object
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:

              # the schema, after a blank line

                # indented deeper
              openAPIV3Schema:
                type: object
          preserveUnknownFields: false
        """),
    )


def test_the_lines_above_a_key_moved_into_the_versions_move_as_they_stood() -> None:
    # a blank line and each comment's own indent go with the key, as they do for keys that stay
    check_transformed(
        crd("""
          version: v1
          preserveUnknownFields: false

          # the subresources, after a blank line
            # indented deeper
          subresources:
            status: {}
          validation:
            openAPIV3Schema:
              type: object
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true

            # the subresources, after a blank line
              # indented deeper
            subresources:
              status: {}
            schema:
              openAPIV3Schema:
                type: object
          preserveUnknownFields: false
        """),
    )


def test_comments_between_items_of_an_edited_moved_list_move_with_their_items() -> None:
    check_transformed(
        crd("""
          version: v1
          preserveUnknownFields: false
          additionalPrinterColumns:
          - name: A
            type: string
            JSONPath: .a
          # about B
          - name: B
            type: string
            JSONPath: .b
        """),
        v1("""
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
            additionalPrinterColumns:
            - name: A
              type: string
              jsonPath: .a
            # about B
            - name: B
              type: string
              jsonPath: .b
          preserveUnknownFields: false
        """),
    )


@pytest.mark.xfail(
    strict=True,
    reason="open: a removed first key's head comment stays with the mapping (above strategy) instead of "
    "going with the key and being reported",
)
def test_a_comment_dropped_with_a_field_is_reported_at_its_own_line() -> None:
    """A first key's comment that goes with it (a webhook setting dropped): K8SM-GEN-004 names its line."""
    result = run(
        crd("""
          version: v1
          preserveUnknownFields: false
          validation: {openAPIV3Schema: {type: object}}
          conversion:
            # the webhook
            webhookClientConfig: {url: "https://x"}
            strategy: None
        """)
    )
    [found] = [f for f in result.findings if f.code == "K8SM-GEN-004"]
    assert (found.line, found.message) == (15, "comment dropped with a removed field: # the webhook")


# ------------------------------------------------------------------ an existing versions list (issue 14 item 7)


def test_an_existing_versions_list_stays_in_place_and_its_entry_gets_the_moved_blocks() -> None:
    """As controller-gen wrote v1beta1 CRDs (keys sorted: validation, version, versions): the list
    keeps its lines and place; the schema and subresources are added to its entry."""
    before = (
        crd("""
      preserveUnknownFields: false
      subresources: {}
      validation:
        openAPIV3Schema:
          description: A widget.
          properties:
            spec:
              description: What the widget does.
              type: object
          type: object
      version: v1
      versions:
      - name: v1
        served: true
        storage: true
    """)
        + 'status:\n  acceptedNames: {kind: "", plural: ""}\n  conditions: []\n  storedVersions: []\n'
    )
    result = run(before)
    out = result.text
    lines = dedent(before).splitlines()
    kept = lines[lines.index("  versions:") :]
    tail = out.splitlines()[out.splitlines().index("  versions:") :]
    assert tail[:4] == kept[:4]  # the list's own lines, unchanged and in place
    assert tail[4:6] == ["    subresources: {}", "    schema:"]
    assert out.splitlines()[-4:] == kept[-4:]  # status as it was
    assert codes(result, "error") == []
    validate(out)


# Every kind of node the passes touch: a typeless object and array (repaired), an int-or-string
# anyOf (rewritten), additionalProperties: true alone (made a preserving schema) and beside
# properties (dropped), a map, an embedded resource, and metadata.
PASSES_SCHEMA = """
type: object
properties:
  metadata: {type: object}
  spec:
    properties:
      port: {anyOf: [{type: string}, {type: integer}]}
      list: {items: {type: string}}
      free: {type: object, additionalProperties: true}
      both: {type: object, properties: {a: {type: string}}, additionalProperties: true}
      map: {type: object, additionalProperties: {type: object, properties: {b: {type: string}}}}
      thing: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
"""


def _walked(schema: Node) -> list[tuple[str, int, str, bool]]:
    return [(v.path, id(v.node), v.level, v.resource_meta) for v in structural_nodes(schema, "s")]


NO_SCHEMA = {  # the corpus CRDs without an openAPIV3Schema
    "kube-no-trouble-2366d92__fixtures_customresourcedefinition-v1beta1.yaml",
    "tekton-pipeline-221c057__config_300-condition.yaml",
}


@pytest.mark.parametrize("name", ["passes", *(name for name in CRD_FILES if name not in NO_SCHEMA)])
def test_the_schema_passes_share_one_walk(name: str, request: pytest.FixtureRequest) -> None:
    """``repair``, ``check`` and ``preserve_everywhere`` go over one list of the schema's nodes:
    what one pass changes must not change what a new walk would give the next."""
    if name == "passes":
        schemas = [read_stream(PASSES_SCHEMA).documents[0].root]
    else:
        text = (request.getfixturevalue("corpus") / name).read_text(encoding="utf-8")
        roots = [d.root for d in read_stream(text).documents if isinstance(d.root, Mapping)]
        schemas = [schema for r in roots for schema in _schemas(r)]
    assert schemas
    for schema in schemas:
        assert schema is not None
        visits = structural_nodes(schema, "s")
        listed = _walked(schema)
        repair(visits)
        assert _walked(schema) == listed
        # what check reads of each node is kept current through repair's edits
        assert all(v.fields == fields_of(v.node) for v in visits if isinstance(v.node, Mapping))
        assert check(visits).violations == []
        assert _walked(schema) == listed
        preserve_everywhere(visits)
        added = [
            v for v in structural_nodes(schema, "s") if (v.path, id(v.node), v.level, v.resource_meta) not in listed
        ]
        # only the schemas that stand for additionalProperties: true, which preserve already
        assert all(v.path.endswith(".additionalProperties") and data_of(v.node) == {PRESERVE: True} for v in added)
        again = preserve_everywhere(structural_nodes(schema, "s"))
        assert again.preserved == again.dropped_true == []
    if name == "passes":
        assert len(added) == 1


def _schemas(crd: Mapping) -> list[Node]:
    """The ``openAPIV3Schema`` of ``spec.validation`` and of each version."""
    spec = crd.mapping("spec")
    holders = [spec.mapping("validation")] if spec is not None else []
    versions = spec.sequence("versions") if spec is not None else None
    holders += [v.mapping("schema") for v in versions or () if isinstance(v, Mapping)]
    return [s for s in (h.get("openAPIV3Schema") for h in holders if h is not None) if s is not None]


def test_a_block_moved_into_one_version_is_not_read_for_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    """The data of a moved block (a schema: thousands of nodes) is read only to write copies of it."""
    import k8smigrate.migrations.steps.apiextensions_v1beta1 as step

    def unread(node: Node) -> object:
        raise AssertionError("the block was read")

    monkeypatch.setattr(step, "data_of", unread)
    schema = "  validation:\n    openAPIV3Schema: {type: object, properties: {a: {type: string}}}\n"
    assert codes(run(crd("  version: v1\n" + schema)), "error") == []
    two = "  versions:\n  - {name: v1, served: true, storage: true}\n  - {name: v2, served: true, storage: false}\n"
    with pytest.raises(AssertionError, match="the block was read"):
        run(crd(two + schema))
