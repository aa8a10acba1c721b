"""Spec: the opt-in kubelet_conf_rotation fixer (kubelet.conf → kubelet-client-current.pem)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run

KUBELET_CONF = """
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: LS0tQ0E=
    server: https://10.0.0.1:6443
  name: default-cluster
contexts:
- context:
    cluster: default-cluster
    namespace: default
    user: system:node:cp-1
  name: default-context
current-context: default-context
preferences: {}
users:
- name: system:node:cp-1
  user:
    client-certificate-data: LS0tQ0VSVA==  # embedded
    client-key-data: LS0tS0VZ
"""

FIXED = KUBELET_CONF.replace(
    "client-certificate-data: LS0tQ0VSVA==  # embedded",
    "client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem  # embedded",
).replace("client-key-data: LS0tS0VZ", "client-key: /var/lib/kubelet/pki/kubelet-client-current.pem")

# ------------------------------------------------------------------ no-op cases


def test_noop_unless_selected() -> None:
    result = check_noop(KUBELET_CONF)
    assert codes(result) == []


def test_noop_for_a_user_on_file_paths() -> None:
    result = check_noop(FIXED, only=["kubelet_conf_rotation"])
    assert codes(result) == []


def test_noop_for_an_admin_kubeconfig() -> None:
    admin = KUBELET_CONF.replace("system:node:cp-1", "kubernetes-admin")
    result = check_noop(admin, only=["kubelet_conf_rotation"])
    assert codes(result) == ["K8SM-NODE-003"]


def test_noop_without_current_context() -> None:
    result = check_noop(KUBELET_CONF.replace("current-context: default-context\n", ""), only=["kubelet_conf_rotation"])
    assert codes(result) == ["K8SM-NODE-003"]


# ------------------------------------------------------------------ transforms


def test_embedded_certificate_points_to_the_rotated_file() -> None:
    result = check_transformed(KUBELET_CONF, FIXED, only=["kubelet_conf_rotation"])
    assert codes(result, "warning") == ["K8SM-NODE-001"]
    assert [d.applied for d in result.documents] == [["kubelet_conf_rotation"]]
    assert result.documents[0].new_api_version == "v1"


# ------------------------------------------------------------------ findings


def test_both_forms_of_a_credential_are_an_error() -> None:
    both = KUBELET_CONF.replace(
        "    client-key-data: LS0tS0VZ\n", "    client-key-data: LS0tS0VZ\n    client-key: /etc/key.pem\n"
    )
    result = run(both, only=["kubelet_conf_rotation"])
    assert codes(result, "error") == ["K8SM-GEN-003"]
    assert not result.changed
