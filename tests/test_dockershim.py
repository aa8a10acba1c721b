"""Spec: dockershim criSocket, CRI endpoints without scheme and kubelet flags removed with dockershim."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run

INIT = """
apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
nodeRegistration:
  criSocket: {socket}
"""

ARGS = """
apiVersion: kubeadm.k8s.io/v1beta3
kind: JoinConfiguration
nodeRegistration:
  criSocket: unix:///run/containerd/containerd.sock
  kubeletExtraArgs:
{args}
"""


def test_noop_below_1_24() -> None:
    check_noop(INIT.format(socket="/var/run/dockershim.sock"), target_version="1.23")
    check_noop(ARGS.format(args="    network-plugin: cni"), target_version="1.23")


def test_noop_on_other_kinds_and_apis() -> None:
    check_noop(INIT.format(socket="/var/run/dockershim.sock").replace("InitConfiguration", "ClusterConfiguration"))
    check_noop("apiVersion: v1\nkind: ConfigMap\ndata:\n  criSocket: /var/run/dockershim.sock\n")


def test_noop_on_a_socket_with_scheme() -> None:
    result = check_noop(INIT.format(socket="unix:///run/containerd/containerd.sock"))
    assert codes(result) == []


def test_scheme_is_prepended() -> None:
    result = check_transformed(
        INIT.format(socket="/run/containerd/containerd.sock"),
        INIT.format(socket="unix:///run/containerd/containerd.sock"),
    )
    assert codes(result) == ["K8SM-CRI-002"]


def test_windows_pipe_gets_npipe() -> None:
    check_transformed(
        INIT.format(socket="//./pipe/containerd-containerd"),
        INIT.format(socket="npipe:////./pipe/containerd-containerd"),
    )


def test_removed_flags_are_deleted_map_form() -> None:
    result = check_transformed(
        ARGS.format(args="    network-plugin: cni\n    cni-bin-dir: /opt/cni/bin\n    node-ip: 10.0.0.1"),
        ARGS.format(args="    node-ip: 10.0.0.1"),
    )
    assert codes(result) == ["K8SM-CRI-003", "K8SM-CRI-003"]


def test_removed_flags_are_deleted_list_form_and_emptied_args_go() -> None:
    before = """
    apiVersion: kubeadm.k8s.io/v1beta4
    kind: InitConfiguration
    nodeRegistration:
      criSocket: unix:///var/run/crio/crio.sock
      kubeletExtraArgs:
      - name: container-runtime
        value: remote
      - name: docker-endpoint
        value: unix:///var/run/docker.sock
    """
    after = """
    apiVersion: kubeadm.k8s.io/v1beta4
    kind: InitConfiguration
    nodeRegistration:
      criSocket: unix:///var/run/crio/crio.sock
    """
    result = check_transformed(before, after)
    assert codes(result) == ["K8SM-CRI-004", "K8SM-CRI-003"]
    assert codes(result, "warning") == []  # docker-endpoint only configured dockershim


def test_endpoint_flag_gets_its_scheme() -> None:
    check_transformed(
        ARGS.format(args="    container-runtime-endpoint: /run/containerd/containerd.sock"),
        ARGS.format(args="    container-runtime-endpoint: unix:///run/containerd/containerd.sock"),
    )


# --------------------------------------------------------------------------- findings


@pytest.mark.parametrize("socket", ["/var/run/dockershim.sock", "unix:///var/run/dockershim.sock"])
def test_dockershim_socket_is_an_error(socket: str) -> None:
    result = check_noop(INIT.format(socket=socket))
    assert codes(result, "error") == ["K8SM-CRI-001"]
    assert "containerd" in result.findings[0].message


def test_declared_runtime_replaces_dockershim() -> None:
    result = check_transformed(
        INIT.format(socket="/var/run/dockershim.sock"),
        INIT.format(socket="unix:///run/containerd/containerd.sock"),
        decisions={"runtime": "containerd"},
    )
    assert codes(result, "warning") == ["K8SM-CRI-001"]


def test_container_runtime_docker_is_an_error() -> None:
    result = check_noop(ARGS.format(args="    container-runtime: docker"))
    assert codes(result, "error") == ["K8SM-CRI-001"]


def test_non_default_cni_dir_is_a_warning() -> None:
    result = run(ARGS.format(args="    cni-conf-dir: /etc/custom/cni\n    node-ip: 10.0.0.1"))
    assert codes(result, "warning") == ["K8SM-CRI-003"]
    assert "cni-conf-dir" not in result.text


def test_pod_infra_image_is_kept_with_a_warning_from_1_27() -> None:
    text = ARGS.format(args="    pod-infra-container-image: registry.k8s.io/pause:3.9")
    assert codes(check_noop(text, target_version="1.26")) == []
    assert codes(check_noop(text, target_version="1.27")) == ["K8SM-CRI-005"]
