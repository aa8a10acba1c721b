"""Spec: removed and locked feature gates in component configs and kubeadm flags."""

from __future__ import annotations

import pytest

from k8smigrate.versions import KubeVersion, Window
from migrations._gates import judge, parse_table, table
from tests.helpers import check_noop, check_transformed, codes

KUBELET = """
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
featureGates:
  CSIMigration: true
  RotateKubeletServerCertificate: true
"""


def window(target: str, minimum: str | None = None) -> Window:
    return Window.of(target, minimum)


def test_noop_before_the_removal() -> None:
    result = check_noop(KUBELET, target_version="1.26")
    assert codes(result) == ["K8SM-GATE-004"]  # locked from 1.25: only a start-up warning


def test_noop_on_other_documents() -> None:
    check_noop("apiVersion: v1\nkind: ConfigMap\ndata:\n  featureGates: CSIMigration=true\n")


def test_removed_gate_at_its_final_value_is_deleted() -> None:
    result = check_transformed(
        KUBELET,
        """
        apiVersion: kubelet.config.k8s.io/v1beta1
        kind: KubeletConfiguration
        featureGates:
          RotateKubeletServerCertificate: true
        """,
    )
    assert codes(result) == ["K8SM-GATE-001"]


def test_emptied_map_goes() -> None:
    check_transformed(
        "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"
        "featureGates:\n  EndpointSliceProxying: true\nmode: ipvs\n",
        "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n",
    )


def test_removed_gate_set_against_its_behaviour_is_an_error() -> None:
    result = check_noop(KUBELET.replace("CSIMigration: true", "CSIMigration: false"))
    assert codes(result, "error") == ["K8SM-GATE-002"]


def test_locked_gate_set_to_the_other_value_is_an_error() -> None:
    result = check_noop(KUBELET.replace("CSIMigration: true", "CSIMigration: false"), target_version="1.25")
    assert codes(result, "error") == ["K8SM-GATE-003"]


def test_kubeadm_flag_strings_map_and_list_forms() -> None:
    result = check_transformed(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        apiServer:
          extraArgs:
            feature-gates: "TTLAfterFinished=true,RotateKubeletServerCertificate=true"
        controllerManager:
          extraArgs:
            feature-gates: TTLAfterFinished=true
        ---
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: JoinConfiguration
        nodeRegistration:
          kubeletExtraArgs:
          - name: feature-gates
            value: IndexedJob=true
          - name: node-ip
            value: 10.0.0.1
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        apiServer:
          extraArgs:
            feature-gates: "RotateKubeletServerCertificate=true"
        controllerManager: {}
        ---
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: JoinConfiguration
        nodeRegistration:
          kubeletExtraArgs:
          - name: node-ip
            value: 10.0.0.1
        """,
        skip=["dockershim"],  # the CRI v1 reminder on kubeadm node configs (K8SM-CRI-006)
    )
    assert codes(result) == ["K8SM-GATE-001"] * 3


def test_kubeadm_own_gates() -> None:
    text = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nfeatureGates:\n  IPv6DualStack: {}\n"
    check_transformed(text.format("true"), "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n")
    assert codes(check_noop(text.format("false")), "error") == ["K8SM-GATE-002"]
    check_noop(text.replace("IPv6DualStack: {}", "PublicKeysECDSA: true"))


def test_bad_flag_value_is_an_error() -> None:
    result = check_noop(
        "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration:\n"
        "  kubeletExtraArgs:\n    feature-gates: IndexedJob\n"
    )
    assert codes(result, "error") == ["K8SM-GATE-009"]


@pytest.mark.parametrize(
    ("name", "value", "target", "minimum", "verdict"),
    [
        ("IndexedJob", True, "1.26", None, (True, "K8SM-GATE-001")),
        ("IndexedJob", True, "1.26", "1.23", (True, "K8SM-GATE-007")),
        ("IndexedJob", False, "1.26", None, (False, "K8SM-GATE-002")),
        ("LegacyNodeRoleBehavior", False, "1.22", None, (True, "K8SM-GATE-001")),
        ("DynamicKubeletConfig", True, "1.26", None, (False, "K8SM-GATE-002")),
        ("InTreePluginAWSUnregister", False, "1.31", None, (True, "K8SM-GATE-001")),
        ("SidecarContainers", True, "1.33", None, (False, "K8SM-GATE-004")),
        ("ServerSideApply", True, "1.23", None, (False, "K8SM-GATE-005")),
        ("NoSuchGate", True, "1.29", None, (False, "K8SM-GATE-006")),
        ("AllowServiceExternalIPs", True, "1.29", None, (False, "K8SM-GATE-008")),
        ("GracefulNodeShutdown", True, "1.29", None, (False, "")),
    ],
)
def test_rules(name: str, value: bool, target: str, minimum: str | None, verdict: tuple[bool, str]) -> None:
    found = judge(name, value, window(target, minimum))
    assert (found.delete, found.code) == verdict


def test_table_is_read_from_the_package_data() -> None:
    gates = table()
    assert len(gates) == 459
    assert gates["IPv6DualStack"].removed == KubeVersion(1, 25)
    assert gates["LegacyNodeRoleBehavior"].locked_value is False
    assert parse_table("gate\tfirst\nA\t1.20\t\t\t1.21=true\t1.22\n")["A"].final is True
