"""Spec: kube-dns in kubeadm v1beta1/v1beta2 ClusterConfiguration (kubeadm_kube_dns), K8SM-KADM-012."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes

V1BETA2 = "apiVersion: kubeadm.k8s.io/v1beta2\nkind: ClusterConfiguration\n"


def test_noop_below_1_21_and_on_coredns() -> None:
    check_noop(V1BETA2 + "dns:\n  type: kube-dns\n", target_version="1.20")
    assert codes(check_noop(V1BETA2 + "dns:\n  type: CoreDNS\n", target_version="1.21")) == []


def test_a_converted_document_is_left_to_the_v1beta2_step() -> None:
    # target 1.22 converts v1beta2 to v1beta3, whose step refuses kube-dns: one finding, not two
    result = check_noop(V1BETA2 + "dns:\n  type: kube-dns\n", target_version="1.22")
    assert codes(result) == ["K8SM-KADM-002"]


def test_kube_dns_is_deleted_where_the_document_stays_in_v1beta2() -> None:
    result = check_transformed(
        V1BETA2 + "dns:\n  type: kube-dns\nclusterName: prod\n",
        V1BETA2 + "clusterName: prod\n",
        target_version="1.21",
    )
    (finding,) = result.findings
    assert (finding.code, finding.level, finding.line) == ("K8SM-KADM-012", "warning", 4)
    assert "CoreDNS" in finding.message and "imageTag" not in finding.message


def test_a_kube_dns_image_tag_is_named() -> None:
    result = check_transformed(
        V1BETA2 + "dns:\n  type: kube-dns\n  imageTag: 1.14.13\n",
        V1BETA2 + "dns:\n  imageTag: 1.14.13\n",
        target_version="1.22",
        min_version="1.21",
    )
    assert codes(result) == ["K8SM-KADM-012"]
    assert "imageTag" in result.findings[0].message


def test_a_v1beta1_document_that_only_reaches_v1beta2_is_fixed_too() -> None:
    # ctx.final_api: v1beta1 → v1beta2 at target 1.21 (v1beta3 arrives in 1.22), where dns.type
    # still exists and kube-dns is gone: the document must not keep it
    v1beta1 = V1BETA2.replace("v1beta2", "v1beta1")
    result = check_transformed(v1beta1 + "dns:\n  type: kube-dns\n", V1BETA2, target_version="1.21")
    assert codes(result) == ["K8SM-KADM-012"]
