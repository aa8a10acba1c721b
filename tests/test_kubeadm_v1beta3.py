"""Spec: kubeadm.k8s.io v1beta3 → v1beta4 (extraArgs lists, the cross-document timeout move)."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run
from tests.kubeadm_helpers import validate_kubeadm

# ------------------------------------------------------------------ no-op cases


def test_noop_below_gate_keeps_v1beta3() -> None:
    result = check_noop(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        apiServer:
          extraArgs:
            v: "4"
          timeoutForControlPlane: 8m0s
        """,
        target_version="1.30",
    )
    assert codes(result) == []


def test_noop_v1beta4_is_left_alone() -> None:
    check_noop(
        """
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: InitConfiguration
        nodeRegistration:
          kubeletExtraArgs:
          - name: v
            value: "4"
        timeouts:
          controlPlaneComponentHealthCheck: 8m0s
        """,
        target_version="1.31",
    )


# ------------------------------------------------------------------ transforms

BEFORE = """
apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
nodeRegistration:
  kubeletExtraArgs:
    node-labels: "role=cp"  # labels
    # verbosity
    v: 4
    cgroup-driver: systemd
---
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
apiServer:
  certSANs: [api.example.com]
  extraArgs:
    authorization-mode: Node,RBAC
    anonymous-auth: false
  timeoutForControlPlane: 8m0s
controllerManager:
  extraArgs: {node-cidr-mask-size: "24", bind-address: 0.0.0.0}
scheduler:
  extraArgs: {}
etcd:
  local:
    dataDir: /var/lib/etcd
    extraArgs:
      listen-metrics-urls: http://0.0.0.0:2381
---
apiVersion: kubeadm.k8s.io/v1beta3
kind: JoinConfiguration
discovery:
  file:
    kubeConfigPath: /etc/kubernetes/discovery.conf
  timeout: 10m0s  # slow network
---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
"""

AFTER = """
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  kubeletExtraArgs:
  - name: cgroup-driver
    value: systemd
  - name: node-labels
    value: "role=cp"  # labels
  # verbosity
  - name: v
    value: "4"
timeouts:
  controlPlaneComponentHealthCheck: 8m0s
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
apiServer:
  certSANs: [api.example.com]
  extraArgs:
  - name: anonymous-auth
    value: "false"
  - name: authorization-mode
    value: Node,RBAC
controllerManager:
  extraArgs: [{name: bind-address, value: 0.0.0.0}, {name: node-cidr-mask-size, value: "24"}]
scheduler:
  extraArgs: []
etcd:
  local:
    dataDir: /var/lib/etcd
    extraArgs:
    - name: listen-metrics-urls
      value: http://0.0.0.0:2381
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
discovery:
  file:
    kubeConfigPath: /etc/kubernetes/discovery.conf
timeouts:
  controlPlaneComponentHealthCheck: 8m0s
  discovery: 10m0s  # slow network
---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
"""


def test_args_lists_and_timeouts_across_documents() -> None:
    # kubeadm node configs at 1.26+ carry the CRI v1 reminder (K8SM-CRI-006, tests/test_dockershim.py)
    result = check_transformed(BEFORE, AFTER, target_version="1.31", skip=["dockershim"])
    assert codes(result) == []
    assert [d.applied for d in result.documents] == [["kubeadm_v1beta3"]] * 3 + [[]]
    validate_kubeadm(result.text, "1.31")


@pytest.mark.parametrize("value", ["0s", "0"])
def test_zero_timeout_is_not_moved(value: str) -> None:
    result = check_transformed(
        f"""
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        apiServer:
          timeoutForControlPlane: {value}
        ---
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: InitConfiguration
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: ClusterConfiguration
        ---
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: InitConfiguration
        """,
        target_version="1.31",
        skip=["dockershim"],
    )
    assert codes(result) == []


def test_default_timeout_without_init_is_dropped_silently() -> None:
    result = check_transformed(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        apiServer:
          timeoutForControlPlane: 4m0s
        clusterName: prod
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: ClusterConfiguration
        clusterName: prod
        """,
        target_version="1.31",
        skip=["dockershim"],
    )
    assert codes(result) == []


def test_yaml11_flag_value_is_written_as_typed_with_a_warning() -> None:
    result = check_transformed(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: JoinConfiguration
        nodeRegistration:
          kubeletExtraArgs:
            rotate-certificates: yes
            pod-max-pids:
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: JoinConfiguration
        nodeRegistration:
          kubeletExtraArgs:
          - name: pod-max-pids
            value: ""
          - name: rotate-certificates
            value: "yes"
        """,
        target_version="1.31",
        skip=["dockershim"],
    )
    assert codes(result) == ["K8SM-KADM-005"]
    assert result.findings[0].line == 5


# ------------------------------------------------------------------ findings


def test_non_default_timeout_without_init_warns() -> None:
    result = check_transformed(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        apiServer:
          certSANs: [a]
          timeoutForControlPlane: 10m
        """,
        """
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: ClusterConfiguration
        apiServer:
          certSANs: [a]
        """,
        target_version="1.31",
    )
    assert codes(result, "warning") == ["K8SM-KADM-010"]
    assert result.findings[0].line == 5


def test_different_timeouts_in_two_cluster_configurations_are_an_error() -> None:
    result = run(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: InitConfiguration
        ---
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        apiServer:
          timeoutForControlPlane: 5m
        ---
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        apiServer:
          timeoutForControlPlane: 6m
        """,
        target_version="1.31",
    )
    assert codes(result, "error") == ["K8SM-KADM-011"]
    assert result.text.startswith("apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration")


def test_conflicting_discovery_timeouts_are_an_error() -> None:
    result = check_noop(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: JoinConfiguration
        discovery:
          timeout: 5m
        timeouts:
          discovery: 6m
        """,
        target_version="1.31",
    )
    assert "K8SM-GEN-003" in codes(result, "error")


def test_an_extra_arg_written_as_an_alias_is_read_through_it_and_stays_an_alias() -> None:
    """Issue 14 item 2: what an alias stands for is read; the alias is written back as it was."""
    result = run(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        clusterName: &x prod
        scheduler:
          extraArgs: {v: *x}
        """,
        target_version="1.31",
    )
    assert "  extraArgs: [{name: v, value: *x}]\n" in result.text
    assert codes(result, "error") == []


@pytest.mark.parametrize("args", ["[a, b]", "{v: [1]}"])
def test_extra_args_that_are_not_a_flat_map_are_an_error(args: str) -> None:
    result = check_noop(
        f"""
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        clusterName: &x prod
        scheduler:
          extraArgs: {args}
        """,
        target_version="1.31",
    )
    assert codes(result, "error") == ["K8SM-KADM-006"]
