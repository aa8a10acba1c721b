"""Spec: kubeadm.k8s.io v1beta1 → v1beta2 (apiVersion only; taints kept exactly) and its release gates."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run
from tests.kubeadm_helpers import validate_kubeadm

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            """
            apiVersion: kubeadm.k8s.io/v1beta2
            kind: InitConfiguration
            nodeRegistration:
              taints: []
            """,
            id="already-v1beta2",
        ),
        pytest.param(
            """
            apiVersion: kubeadm.k8s.io/v1beta1
            kind: KubeletConfiguration
            """,
            id="other-kind-same-group",
        ),
        pytest.param(
            """
            apiVersion: kubelet.config.k8s.io/v1beta1
            kind: KubeletConfiguration
            cgroupDriver: systemd
            """,
            id="kubelet-config-beside-kubeadm",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text, target_version="1.17")


def test_noop_below_gate_keeps_v1beta1() -> None:
    result = check_noop(
        """
        apiVersion: kubeadm.k8s.io/v1beta1
        kind: ClusterConfiguration
        kubernetesVersion: v1.14.0
        """,
        target_version="1.14",
    )
    assert codes(result) == []


def test_templated_document_is_migrated() -> None:
    check_transformed(
        """
        apiVersion: kubeadm.k8s.io/v1beta1
        kind: ClusterConfiguration
        kubernetesVersion: {{ kube_version }}
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: ClusterConfiguration
        kubernetesVersion: {{ kube_version }}
        """,
        target_version="1.17",
    )


# ------------------------------------------------------------------ transforms

TAINTS = """
apiVersion: kubeadm.k8s.io/{v}
kind: InitConfiguration
nodeRegistration:
  name: cp-1  # the node
  taints: []  # no taints, on purpose
---
apiVersion: kubeadm.k8s.io/{v}
kind: JoinConfiguration
nodeRegistration:
  taints:
discovery:
  bootstrapToken:
    token: abcdef.0123456789abcdef
    unsafeSkipCAVerification: true
---
apiVersion: kubeadm.k8s.io/{v}
kind: ClusterStatus
apiEndpoints:
  cp-1:
    advertiseAddress: 10.0.0.1
    bindPort: 6443
"""


def test_rename_keeps_taints_nil_and_empty_apart() -> None:
    result = check_transformed(TAINTS.format(v="v1beta1"), TAINTS.format(v="v1beta2"), target_version="1.17")
    assert [d.applied for d in result.documents] == [["kubeadm_v1beta1"]] * 3
    assert codes(result) == []
    validate_kubeadm(result.text, "1.17")


@pytest.mark.parametrize(
    ("target", "api"),
    [
        ("1.15", "v1beta2"),
        ("1.17", "v1beta2"),
        ("1.21", "v1beta2"),
        ("1.22", "v1beta3"),
        ("1.30", "v1beta3"),
        ("1.31", "v1beta4"),
        ("1.35", "v1beta4"),
    ],
)
def test_target_release_picks_the_version_kubeadm_reads(target: str, api: str) -> None:
    result = run(
        """
        apiVersion: kubeadm.k8s.io/v1beta1
        kind: ClusterConfiguration
        kubernetesVersion: v1.14.0
        """,
        target_version=target,
    )
    assert result.text.startswith(f"apiVersion: kubeadm.k8s.io/{api}\n")


def test_min_version_keeps_a_version_every_release_reads() -> None:
    text = """
        apiVersion: kubeadm.k8s.io/v1beta1
        kind: InitConfiguration
        """
    assert run(text, target_version="1.31", min_version="1.22").text.startswith("apiVersion: kubeadm.k8s.io/v1beta3")
    assert run(text, target_version="1.26", min_version="1.15").text.startswith("apiVersion: kubeadm.k8s.io/v1beta2")


def test_min_version_with_no_common_version_says_so() -> None:
    result = check_noop(
        """
        apiVersion: kubeadm.k8s.io/v1beta1
        kind: InitConfiguration
        """,
        target_version="1.31",
        min_version="1.14",
    )
    assert codes(result, "error") == ["K8SM-GEN-009"]
