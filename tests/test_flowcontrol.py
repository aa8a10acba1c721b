"""Spec: FlowSchema / PriorityLevelConfiguration v1alpha1 → v1beta1 → v1beta2 → v1beta3 → v1.

One module per step (flowcontrol_v1alpha1, _v1beta1, _v1beta2, _v1beta3); the rename and the
zero rule are checked over whole chains, since they must apply exactly once.
"""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run, validate

GROUP = "flowcontrol.apiserver.k8s.io"

PLC = """
    apiVersion: {api}
    kind: PriorityLevelConfiguration
    metadata:
      name: batch
    spec:
      type: Limited
      limited:
        {shares}
        limitResponse:
          type: Reject
    """

FLOW_SCHEMA = """
    apiVersion: {api}
    kind: FlowSchema
    metadata:
      name: batch
    spec:
      priorityLevelConfiguration:
        name: batch
      matchingPrecedence: 500
      rules:
      - subjects:
        - kind: Group
          group: {{name: batch}}
        resourceRules:
        - verbs: ["*"]
          apiGroups: ["*"]
          resources: ["*"]
          namespaces: ["*"]
    """


def test_noop_already_v1() -> None:
    check_noop(PLC.format(api=f"{GROUP}/v1", shares="nominalConcurrencyShares: 0"))


def test_noop_window_before_v1beta2() -> None:
    result = check_noop(PLC.format(api=f"{GROUP}/v1beta1", shares="assuredConcurrencyShares: 5"), target_version="1.22")
    assert codes(result) == []


@pytest.mark.parametrize("version", ["v1alpha1", "v1beta1", "v1beta2", "v1beta3"])
def test_flow_schema_is_renamed(version: str) -> None:
    result = check_transformed(FLOW_SCHEMA.format(api=f"{GROUP}/{version}"), FLOW_SCHEMA.format(api=f"{GROUP}/v1"))
    assert codes(result) == []
    validate(result.text)


@pytest.mark.parametrize("version", ["v1alpha1", "v1beta1", "v1beta2"])
def test_assured_shares_renamed_once(version: str) -> None:
    result = check_transformed(
        PLC.format(api=f"{GROUP}/{version}", shares="assuredConcurrencyShares: 5  # small"),
        PLC.format(api=f"{GROUP}/v1", shares="nominalConcurrencyShares: 5  # small"),
    )
    assert codes(result) == []
    validate(result.text)


@pytest.mark.parametrize("version", ["v1beta1", "v1beta2"])
def test_assured_zero_meant_thirty(version: str) -> None:
    result = check_transformed(
        PLC.format(api=f"{GROUP}/{version}", shares="assuredConcurrencyShares: 0"),
        PLC.format(api=f"{GROUP}/v1", shares="nominalConcurrencyShares: 30"),
    )
    assert codes(result) == ["K8SM-FC-001"]
    validate(result.text)


def test_v1beta2_stops_at_v1beta3_for_an_older_window() -> None:
    check_transformed(
        PLC.format(api=f"{GROUP}/v1beta2", shares="assuredConcurrencyShares: 7"),
        PLC.format(api=f"{GROUP}/v1beta3", shares="nominalConcurrencyShares: 7"),
        target_version="1.28",
        min_version="1.26",
    )


def test_v1beta3_zero_without_annotation_meant_thirty() -> None:
    result = check_transformed(
        PLC.format(api=f"{GROUP}/v1beta3", shares="nominalConcurrencyShares: 0"),
        PLC.format(api=f"{GROUP}/v1", shares="nominalConcurrencyShares: 30"),
    )
    assert codes(result) == ["K8SM-FC-001"]


def test_v1beta3_zero_with_annotation_kept_and_annotation_removed() -> None:
    result = check_transformed(
        """
        apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
        kind: PriorityLevelConfiguration
        metadata:
          name: jail
          annotations:
            flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares: ""
        spec:
          type: Limited
          limited:
            nominalConcurrencyShares: 0
            lendablePercent: 0
            limitResponse:
              type: Reject
        """,
        """
        apiVersion: flowcontrol.apiserver.k8s.io/v1
        kind: PriorityLevelConfiguration
        metadata:
          name: jail
        spec:
          type: Limited
          limited:
            nominalConcurrencyShares: 0
            lendablePercent: 0
            limitResponse:
              type: Reject
        """,
    )
    assert codes(result) == ["K8SM-FC-002"]
    validate(result.text)


def test_both_share_fields_is_an_error() -> None:
    result = check_noop(
        PLC.format(api=f"{GROUP}/v1beta2", shares="assuredConcurrencyShares: 1\n        nominalConcurrencyShares: 2")
    )
    assert codes(result, "error") == ["K8SM-GEN-003"]


def test_corpus_fixture(corpus) -> None:  # type: ignore[no-untyped-def]
    result = run((corpus / "kube-no-trouble-2366d92__fixtures_flowschema-v1beta1.yaml").read_text())
    assert result.documents[0].applied == [
        "flowcontrol_v1beta1",
        "flowcontrol_v1beta2",
        "flowcontrol_v1beta3",
    ]
    validate(result.text)
