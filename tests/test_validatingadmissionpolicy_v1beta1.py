"""Spec: ValidatingAdmissionPolicy(Binding) admissionregistration.k8s.io/v1beta1 → v1 (from 1.30)."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run, validate

POLICY = """
    apiVersion: {api}
    kind: ValidatingAdmissionPolicy
    metadata:
      name: replicas
    spec:
      failurePolicy: Fail
      matchConstraints:
        resourceRules:
        - apiGroups: [apps]
          apiVersions: [v1]
          operations: [CREATE, UPDATE]
          resources: [deployments]
      validations:
      - expression: object.spec.replicas <= 5
    """

BINDING = """
    apiVersion: {api}
    kind: ValidatingAdmissionPolicyBinding
    metadata:
      name: replicas
    spec:
      policyName: replicas
      validationActions: [Deny]
    """


@pytest.mark.parametrize("text", [POLICY, BINDING])
def test_untouched_at_1_29(text: str) -> None:
    """v1 does not exist before 1.30 and v1beta1 is still served: nothing to do."""
    result = check_noop(text.format(api="admissionregistration.k8s.io/v1beta1"), target_version="1.29")
    assert codes(result) == []


@pytest.mark.parametrize("text", [POLICY, BINDING])
def test_migrated_at_1_34(text: str) -> None:
    result = check_transformed(
        text.format(api="admissionregistration.k8s.io/v1beta1"),
        text.format(api="admissionregistration.k8s.io/v1"),
        target_version="1.34",
    )
    assert codes(result) == []
    validate(result.text, "1.34.0")


def test_window_from_1_29_to_1_34_has_no_replacement() -> None:
    result = run(POLICY.format(api="admissionregistration.k8s.io/v1beta1"), target_version="1.34", min_version="1.29")
    assert codes(result, "error") == ["K8SM-GEN-009"]


def test_corpus_negative_fixture(corpus) -> None:  # type: ignore[no-untyped-def]
    path = corpus / "k8s-api-10b39a3__testdata_HEAD_admissionregistration.k8s.io.v1beta1.ValidatingAdmissionPolicy.yaml"
    text = path.read_text()
    # removed_object_fields deletes its metadata.selfLink (an exported field): not this test's subject
    result = run(text, target_version="1.29", skip=["removed_object_fields"])
    assert result.text == text and not result.changed
