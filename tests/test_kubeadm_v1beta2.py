"""Spec: kubeadm.k8s.io v1beta2 → v1beta3 (useHyperKubeImage, dns.type, ClusterStatus)."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run
from tests.kubeadm_helpers import validate_kubeadm

# ------------------------------------------------------------------ no-op cases


def test_noop_below_gate_keeps_v1beta2() -> None:
    check_noop(
        """
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: ClusterConfiguration
        useHyperKubeImage: true
        dns:
          type: kube-dns
        """,
        target_version="1.21",
        skip=["kubeadm_kube_dns"],  # the readiness pass deletes kube-dns at 1.21 (tests/test_kubeadm_kube_dns.py)
    )


def test_noop_init_and_join_only_change_api_version() -> None:
    check_transformed(
        """
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: InitConfiguration
        certificateKey: e6a2eb8581237ab72a4f494f30285ec12a9694d750b9785706a83bfcbbbd2204
        nodeRegistration:
          ignorePreflightErrors: [Swap]
          kubeletExtraArgs:
            v: "4"
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: InitConfiguration
        certificateKey: e6a2eb8581237ab72a4f494f30285ec12a9694d750b9785706a83bfcbbbd2204
        nodeRegistration:
          ignorePreflightErrors: [Swap]
          kubeletExtraArgs:
            v: "4"
        """,
        target_version="1.22",
    )


# ------------------------------------------------------------------ transforms


def test_hyperkube_true_and_coredns_type_dropped() -> None:
    result = check_transformed(
        """
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: ClusterConfiguration
        kubernetesVersion: v1.21.0
        useHyperKubeImage: true
        dns:
          type: CoreDNS
          imageTag: v1.8.0  # pinned
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        kubernetesVersion: v1.21.0
        dns:
          imageTag: v1.8.0  # pinned
        """,
        target_version="1.22",
    )
    assert codes(result) == ["K8SM-KADM-001"]
    assert codes(result, "warning") == ["K8SM-KADM-001"]
    assert result.findings[0].line == 4
    validate_kubeadm(result.text, "1.22")


def test_hyperkube_false_and_empty_dns_dropped() -> None:
    result = check_transformed(
        """
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: ClusterConfiguration
        useHyperKubeImage: false
        dns:
          type: ""
        clusterName: prod
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        clusterName: prod
        """,
        target_version="1.22",
    )
    assert codes(result) == ["K8SM-KADM-004"]
    assert codes(result, "info") == ["K8SM-KADM-004"]
    # an explicit false was set: the finding says what it was, never "it was not set"
    assert "not set" not in result.findings[0].message
    assert "useHyperKubeImage: false" in result.findings[0].message


@pytest.mark.parametrize("value", ["", " null", " ~"])
def test_hyperkube_without_a_value_is_said_to_be_unset(value: str) -> None:
    result = run(
        f"""
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: ClusterConfiguration
        useHyperKubeImage:{value}
        clusterName: prod
        """,
        target_version="1.22",
    )
    assert codes(result) == ["K8SM-KADM-004"]
    assert "no value" in result.findings[0].message
    assert "useHyperKubeImage" not in result.text


# ------------------------------------------------------------------ findings


@pytest.mark.parametrize("dns_type", ["kube-dns", "SkyDNS"])
def test_kube_dns_is_an_error_and_leaves_the_document(dns_type: str) -> None:
    result = check_noop(
        f"""
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: ClusterConfiguration
        useHyperKubeImage: true
        dns:
          type: {dns_type}
        """,
        target_version="1.22",
    )
    assert codes(result, "error") == ["K8SM-KADM-002"]
    assert result.findings[-1].line == 5


def test_cluster_status_is_an_error_that_says_to_delete_it() -> None:
    text = """
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: ClusterStatus
        apiEndpoints:
          cp-1:
            advertiseAddress: 10.0.0.1
            bindPort: 6443
        """
    result = check_noop(text, target_version="1.22")
    assert codes(result) == ["K8SM-KADM-003"]
    assert "delete this document" in result.findings[0].message
    assert "kubeadm.kubernetes.io/etcd.advertise-client-urls" in result.findings[0].message
    from_v1beta1 = run(text.replace("v1beta2", "v1beta1"), target_version="1.31")
    assert codes(from_v1beta1, "error") == ["K8SM-KADM-003"]
    assert not from_v1beta1.changed


def test_cluster_status_below_122_is_only_deprecated() -> None:
    result = check_noop(
        """
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: ClusterStatus
        apiEndpoints: {}
        """,
        target_version="1.21",
    )
    assert codes(result) == ["K8SM-GEN-008"]
