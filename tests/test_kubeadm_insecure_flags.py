"""Spec: insecure-serving flags in kubeadm extraArgs (kubeadm_insecure_flags), K8SM-KADM-007…009."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes
from tests.kubeadm_helpers import validate_kubeadm

V1BETA3 = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n"
V1BETA4 = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"


def test_noop_before_each_component_lost_its_insecure_port() -> None:
    check_noop(V1BETA3 + "apiServer:\n  extraArgs:\n    insecure-port: '8080'\n", target_version="1.19")
    check_noop(V1BETA3 + "controllerManager:\n  extraArgs:\n    port: '0'\n", target_version="1.21")
    check_noop(V1BETA3 + "scheduler:\n  extraArgs:\n    address: 0.0.0.0\n", target_version="1.22")


def test_noop_on_other_flags_and_kinds() -> None:
    assert codes(check_noop(V1BETA3 + "scheduler:\n  extraArgs:\n    bind-address: 0.0.0.0\n")) == []
    check_noop(V1BETA3.replace("Cluster", "Init") + "nodeRegistration:\n  kubeletExtraArgs:\n    port: '0'\n")
    check_noop("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  port: '10251'\n")


def test_zero_ports_and_loopback_addresses_are_deleted() -> None:
    result = check_transformed(
        V1BETA3
        + "apiServer:\n  extraArgs:\n    insecure-port: '0'\n    authorization-mode: Node,RBAC\n"
        + "scheduler:\n  extraArgs:\n    port: '0'\n    address: 127.0.0.1\n"
        + "controllerManager:\n  extraArgs:  # emptied maps go, comments or not\n    port: '0'\n",
        V1BETA3 + "apiServer:\n  extraArgs:\n    authorization-mode: Node,RBAC\n",
    )
    assert codes(result, "info") == ["K8SM-KADM-007"] * 4
    (dropped,) = [f for f in result.findings if f.code == "K8SM-GEN-004"]  # the comment, at its line
    assert dropped.line == 12  # controllerManager.extraArgs
    validate_kubeadm(result.text, "1.29")


def test_list_form_and_a_public_address_warns() -> None:
    result = check_transformed(
        V1BETA4 + "scheduler:\n  extraArgs:\n  - name: address\n    value: 0.0.0.0\n"
        "  - name: bind-address\n    value: 0.0.0.0\n",
        V1BETA4 + "scheduler:\n  extraArgs:\n  - name: bind-address\n    value: 0.0.0.0\n",
        target_version="1.31",
    )
    (finding,) = result.findings
    assert (finding.code, finding.level, finding.line) == ("K8SM-KADM-008", "warning", 6)
    assert "bind-address" in finding.message
    validate_kubeadm(result.text, "1.31")


def test_a_non_zero_port_is_an_error_and_the_document_is_kept() -> None:
    text = V1BETA3 + "controllerManager:\n  extraArgs:\n    port: '10252'\n    address: 127.0.0.1\n"
    result = check_noop(text, target_version="1.22")
    assert codes(result, "error") == ["K8SM-KADM-009"]
    assert "secure port" in result.findings[0].message


def test_a_repeated_flag_is_judged_by_its_last_value_and_deleted_whole() -> None:
    result = check_transformed(
        V1BETA3 + "apiServer:\n  extraArgs:\n    insecure-port: '8080'\n    v: '2'\n    insecure-port: '0'\n",
        V1BETA3 + "apiServer:\n  extraArgs:\n    v: '2'\n",
    )
    assert codes(result) == ["K8SM-KADM-007"]  # both occurrences go, so nothing is repeated any more
    result = check_noop(V1BETA3 + "apiServer:\n  extraArgs:\n    insecure-port: '0'\n    insecure-port: '8080'\n")
    assert codes(result, "error") == ["K8SM-KADM-009"]


def test_kube_apiserver_port_and_address_aliases_are_insecure_flags_too() -> None:
    # PR #95856: kube-apiserver's --port/--address were the deprecated names of the insecure ones
    result = check_transformed(
        V1BETA4 + "apiServer:\n  extraArgs:\n  - name: port\n    value: '0'\n  - name: address\n    value: 127.0.0.1\n"
        "  - name: v\n    value: '2'\n",
        V1BETA4 + "apiServer:\n  extraArgs:\n  - name: v\n    value: '2'\n",
        target_version="1.31",
    )
    assert codes(result) == ["K8SM-KADM-007", "K8SM-KADM-007"]
