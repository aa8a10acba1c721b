"""Spec: PodSecurityPolicy: extensions/v1beta1 → policy/v1beta1 before 1.25, an error with a hint after."""

from __future__ import annotations

import pytest

from k8smigrate.hints import hint
from tests.helpers import check_noop, check_transformed, codes, run

PSP = """
    apiVersion: {api}
    kind: PodSecurityPolicy
    metadata:
      name: restricted  # keep
    spec:
      privileged: false
    """


def test_hop_to_policy_v1beta1_before_1_25() -> None:
    result = check_transformed(
        PSP.format(api="extensions/v1beta1"), PSP.format(api="policy/v1beta1"), target_version="1.24"
    )
    assert codes(result, "error") == []


@pytest.mark.parametrize(("api", "code"), [("policy/v1beta1", "K8SM-GEN-007"), ("extensions/v1beta1", "K8SM-GEN-009")])
def test_error_with_pod_security_admission_hint_from_1_25(api: str, code: str) -> None:
    result = check_noop(PSP.format(api=api), target_version="1.25")
    assert codes(result) == [code]
    message = result.findings[0].message
    assert "pod-security.kubernetes.io/enforce=privileged|baseline|restricted" in message
    assert "k8smigrate explain podsecuritypolicy" in message  # works from an installed package


def test_deprecation_warning_carries_the_hint() -> None:
    result = check_noop(PSP.format(api="policy/v1beta1"), target_version="1.22")
    assert codes(result) == ["K8SM-GEN-008"]
    assert "Pod Security Admission" in result.findings[0].message


def test_hint_only_for_listed_apis() -> None:
    assert hint("policy/v1beta1", "PodDisruptionBudget") == ""
    assert hint("policy/v1beta1", "PodSecurityPolicy").startswith(". Instead, enforce Pod Security Admission")


def test_templated_psp_still_gets_the_error(corpus) -> None:  # type: ignore[no-untyped-def]
    path = corpus / "cert-manager-v0.14.0__deploy_charts_cert-manager_templates_psp.yaml"
    text = path.read_text()
    result = run(text)
    assert result.text == text
    assert "K8SM-GEN-007" in codes(result, "error")


def test_corpus_psp_files_untouched_with_errors(corpus) -> None:  # type: ignore[no-untyped-def]
    for name in (
        "k8s-examples-ef5deea__staging_podsecuritypolicy_rbac_policies.yaml",
        "prometheus-operator-v0.23.0__helm_exporter-node_templates_psp.yaml",
        "ingress-nginx-controller-v0.40.0__docs_examples_psp_psp.yaml",
    ):
        text = (corpus / name).read_text()
        result = run(text)
        assert any(c in ("K8SM-GEN-007", "K8SM-GEN-009") for c in codes(result, "error")), name
        assert "PodSecurityPolicy" in result.text
