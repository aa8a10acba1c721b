"""Spec: in-tree cloud providers in kubeadm cloud-provider flags (cloud_provider): reported, never rewritten."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, codes

CLUSTER = """
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
apiServer:
  extraArgs:
    cloud-provider: {provider}
    cloud-config: /etc/kubernetes/cloud.conf
controllerManager:
  extraArgs:
    cloud-provider: {provider}
"""

JOIN_V1BETA4 = """
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
nodeRegistration:
  kubeletExtraArgs:
  - name: cloud-provider
    value: {provider}
"""


def test_noop_before_any_provider_is_gone() -> None:
    check_noop(CLUSTER.format(provider="openstack"), target_version="1.25")
    check_noop(CLUSTER.format(provider="aws"), target_version="1.26")
    check_noop(CLUSTER.format(provider="gce"), target_version="1.28")


def test_noop_on_external_and_other_values() -> None:
    assert codes(check_noop(CLUSTER.format(provider="external"), target_version="1.30")) == []
    assert codes(check_noop(CLUSTER.format(provider='""'), target_version="1.30")) == []
    join = check_noop(JOIN_V1BETA4.format(provider="external"), target_version="1.33", skip=["dockershim"])
    assert codes(join) == []


def test_noop_on_other_kinds() -> None:
    check_noop("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  cloud-provider: aws\n")
    # a kubelet flag in a ClusterConfiguration's nodeRegistration is no such place (not in that kind)
    check_noop(CLUSTER.format(provider="aws").replace("apiServer", "etcd"), target_version="1.25")


@pytest.mark.parametrize(("provider", "gone"), [("openstack", "1.26"), ("aws", "1.27")])
def test_providers_removed_before_the_gate_are_errors(provider: str, gone: str) -> None:
    result = check_noop(CLUSTER.format(provider=provider), target_version=gone)
    assert codes(result, "error") == ["K8SM-CRI-009", "K8SM-CRI-009"]
    first = result.findings[0]
    assert first.line == 5 and "external cloud-controller-manager" in first.message
    assert "drop cloud-config" in first.message  # the API server has one
    assert "drop cloud-config" not in result.findings[1].message  # the controller-manager keeps its own


def test_the_others_warn_while_the_gate_can_still_turn_them_on() -> None:
    for target in ("1.29", "1.30"):
        result = check_noop(CLUSTER.format(provider="vsphere"), target_version=target)
        assert codes(result, "warning") == ["K8SM-CRI-010", "K8SM-CRI-010"]
        assert "DisableCloudProviders=false" in result.findings[0].message


@pytest.mark.parametrize("provider", ["azure", "gce", "vsphere", "AWS"])
def test_every_in_tree_provider_is_an_error_from_1_31(provider: str) -> None:
    result = check_noop(JOIN_V1BETA4.format(provider=provider), target_version="1.31")
    (finding,) = result.findings
    assert (finding.code, finding.level, finding.line) == ("K8SM-CRI-009", "error", 6)
    assert "kubelet" in finding.message
