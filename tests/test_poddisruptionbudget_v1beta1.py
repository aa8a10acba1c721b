"""Spec: PodDisruptionBudget policy/v1beta1 → policy/v1 and the empty-selector trap."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run, validate

LABEL = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match"


def test_noop_already_v1() -> None:
    check_noop(
        """
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata:
          name: x
        spec:
          selector: {}
        """
    )


def test_noop_below_gate() -> None:
    check_noop(
        """
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: x
        spec:
          selector: {}
        """,
        target_version="1.20",
    )


def test_real_selector_is_a_rename() -> None:
    result = check_transformed(
        """
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          maxUnavailable: 1
          selector:
            matchLabels:
              app: web
        """,
        """
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          maxUnavailable: 1
          selector:
            matchLabels:
              app: web
        """,
    )
    assert codes(result) == []
    validate(result.text)


def test_absent_selector_left_alone() -> None:
    check_transformed(
        """
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
        """,
        """
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
        """,
    )


@pytest.mark.parametrize("empty", ["{}", "{matchLabels: {}}", "{matchExpressions: []}"])
def test_empty_selector_becomes_match_none(empty: str) -> None:
    result = check_transformed(
        f"""
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
          selector: {empty}  # all?
        """,
        f"""
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
          selector:  # all?
            matchExpressions:
            - key: {LABEL}
              operator: Exists
        """,
    )
    assert codes(result) == ["K8SM-PDB-001"]
    validate(result.text)


def test_match_all_sentinel_becomes_empty() -> None:
    result = check_transformed(
        f"""
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
          selector:
            matchExpressions:
            - key: {LABEL}
              operator: DoesNotExist
        """,
        """
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
          selector: {}
        """,
    )
    assert codes(result) == ["K8SM-PDB-002"]
    validate(result.text)


def test_label_stripped_from_mixed_selector() -> None:
    result = check_transformed(
        f"""
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
          selector:
            matchLabels: {{app: web}}
            matchExpressions:
            - key: {LABEL}
              operator: Exists
            - key: tier  # kept
              operator: In
              values: [a]
        """,
        """
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
          selector:
            matchLabels: {app: web}
            matchExpressions:
            - key: tier  # kept
              operator: In
              values: [a]
        """,
    )
    assert codes(result) == ["K8SM-PDB-003"]


def test_label_only_requirement_removed_with_its_list() -> None:
    result = run(
        f"""
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: web
        spec:
          minAvailable: 1
          selector:
            matchLabels: {{app: web}}
            matchExpressions:
            - {{key: {LABEL}, operator: In, values: [x]}}
        """
    )
    assert "matchExpressions" not in result.text
    assert codes(result) == ["K8SM-PDB-003"]


def test_corpus_files(corpus) -> None:  # type: ignore[no-untyped-def]
    for name in (
        "kube-no-trouble-2366d92__fixtures_poddisruptionbudget-v1beta1.yaml",
        "k8s-examples-ef5deea__staging_cockroachdb_cockroachdb-statefulset.yaml",
    ):
        result = run((corpus / name).read_text())
        assert codes(result, "error") == [], name
        assert "K8SM-GEN-004" not in codes(result)
        validate(result.text)


TEMPLATED_SELECTOR = """\
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata:
  name: x
spec:
  minAvailable: 1
  selector:
    matchLabels:
{labels}
"""


@pytest.mark.parametrize(
    ("labels", "warned"),
    [
        ("{{ .Values.pdbSelectorLabels | toYaml | trim | indent 6 }}", True),  # istio's: may render {}
        ("      app: x\n{{ .Values.extraLabels | toYaml | trim | indent 6 }}", False),  # never empty
        ('      app: {{ template "x.name" . }}', False),  # a label is there, whatever its value
        ('      {{- include "x.selectorLabels" . | nindent 6 }}', False),  # grafana's: the chart's fixed labels
    ],
)
def test_a_selector_only_actions_write_is_said_to_select_everything_where_it_renders_empty(
    labels: str, warned: bool
) -> None:
    from k8smigrate import migrate_text

    result = migrate_text(TEMPLATED_SELECTOR.format(labels=labels), target_version="1.29", filename="pdb.yaml")
    assert "apiVersion: policy/v1\n" in result.text
    assert ("K8SM-PDB-004" in [f.code for f in result.findings]) is warned
