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
    result = check_noop(INIT.format(socket="unix:///run/containerd/containerd.sock"), target_version="1.25")
    assert codes(result) == []


def test_scheme_is_prepended() -> None:
    result = check_transformed(
        INIT.format(socket="/run/containerd/containerd.sock"),
        INIT.format(socket="unix:///run/containerd/containerd.sock"),
    )
    assert codes(result) == ["K8SM-CRI-006", "K8SM-CRI-002"]


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
    assert codes(result) == ["K8SM-CRI-006", "K8SM-CRI-003", "K8SM-CRI-003"]


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
    assert codes(result) == ["K8SM-CRI-006", "K8SM-CRI-004", "K8SM-CRI-003"]
    assert codes(result, "warning") == ["K8SM-CRI-006"]  # docker-endpoint only configured dockershim


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
    assert codes(result, "warning") == ["K8SM-CRI-006", "K8SM-CRI-012"]


def test_container_runtime_docker_is_an_error() -> None:
    result = check_noop(ARGS.format(args="    container-runtime: docker"))
    assert codes(result, "error") == ["K8SM-CRI-001"]


def test_non_default_cni_dir_is_a_warning() -> None:
    result = run(ARGS.format(args="    cni-conf-dir: /etc/custom/cni\n    node-ip: 10.0.0.1"))
    assert codes(result, "warning") == ["K8SM-CRI-006", "K8SM-CRI-013"]
    assert "cni-conf-dir" not in result.text


def test_pod_infra_image_is_kept_with_a_warning_from_1_27() -> None:
    text = ARGS.format(args="    pod-infra-container-image: registry.k8s.io/pause:3.9")
    assert codes(check_noop(text, target_version="1.26")) == ["K8SM-CRI-006"]
    assert codes(check_noop(text, target_version="1.27")) == ["K8SM-CRI-006", "K8SM-CRI-005"]


# --------------------------------------------------------------------------- CRI v1 (kubelet 1.26)

RESET = (
    "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ResetConfiguration\ncriSocket: unix:///run/containerd/containerd.sock\n"
)


def test_cri_v1_reminder_is_quiet_below_1_26_and_on_other_kinds() -> None:
    assert codes(check_noop(INIT.format(socket="unix:///run/containerd/containerd.sock"), target_version="1.25")) == []
    assert codes(check_noop(RESET, target_version="1.29")) == []
    cluster = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.29.0\n"
    assert codes(check_noop(cluster)) == []


@pytest.mark.parametrize("api", ["v1beta1", "v1beta2", "v1beta3", "v1beta4"])
def test_cri_v1_reminder_once_per_node_config_at_the_socket(api: str) -> None:
    text = INIT.format(socket="unix:///run/containerd/containerd.sock").replace("v1beta3", api)
    join = text.replace("InitConfiguration", "JoinConfiguration")
    result = run(text + "---" + join, target_version="1.26")  # v1beta1/v1beta2 also go to v1beta3
    assert [(f.code, f.level, f.line, f.path) for f in result.findings if f.code == "K8SM-CRI-006"] == [
        ("K8SM-CRI-006", "warning", 4, "nodeRegistration.criSocket"),
        ("K8SM-CRI-006", "warning", 9, "nodeRegistration.criSocket"),
    ]
    assert "containerd >= 1.6" in result.findings[0].message and "CRI v1" in result.findings[0].message


def test_cri_v1_reminder_without_socket_is_on_the_document() -> None:
    result = check_noop("apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\nnodeRegistration:\n  name: n1\n")
    assert [(f.code, f.line, f.path) for f in result.findings] == [("K8SM-CRI-006", 1, "")]
