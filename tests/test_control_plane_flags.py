"""Spec: control-plane flags that stop a component from starting (control_plane_flags).

The PodSecurityPolicy admission plugin (gone in 1.25) and the insecure-serving flags, on the
command lines of static pods and in kubeadm's ``apiServer.extraArgs``.
"""

from __future__ import annotations

import pytest

from k8smigrate import scan_text
from tests.helpers import check_noop, check_transformed, codes, dedent, run

POD = """
apiVersion: v1
kind: Pod
metadata:
  name: kube-apiserver
  namespace: kube-system
spec:
  containers:
  - name: kube-apiserver
    image: registry.k8s.io/kube-apiserver:v1.24.17
    command:
    - kube-apiserver
    - --secure-port=6443
{flags}"""


def pod(*flags: str, program: str = "kube-apiserver") -> str:
    text = POD.format(flags="".join(f"    - {f}\n" for f in flags))
    return text.replace("    - kube-apiserver\n", f"    - {program}\n")


# ------------------------------------------------------------------ no-op cases


def test_noop_before_1_25_for_the_admission_plugin() -> None:
    check_noop(pod("--enable-admission-plugins=NodeRestriction,PodSecurityPolicy"), target_version="1.24")


def test_noop_for_other_plugins_and_programs() -> None:
    assert codes(check_noop(pod("--enable-admission-plugins=NodeRestriction"), target_version="1.29")) == []
    # another program's own flags are not kube-apiserver's
    other = pod("--enable-admission-plugins=PodSecurityPolicy", "--port=8080", program="/bin/my-webhook")
    assert codes(check_noop(other, target_version="1.29")) == []


def test_noop_before_each_component_lost_its_insecure_port() -> None:
    check_noop(pod("--insecure-port=8080"), target_version="1.19")
    check_noop(pod("--port=0", program="kube-scheduler"), target_version="1.22")


# ------------------------------------------------------------------ transforms


def test_psp_in_the_disable_list_is_taken_out() -> None:
    result = check_transformed(
        pod("--disable-admission-plugins=PodSecurityPolicy,DefaultStorageClass"),
        # the renderer quotes a new string that starts with "-" (a YAML indicator)
        pod('"--disable-admission-plugins=DefaultStorageClass"'),
        target_version="1.25",
    )
    assert codes(result) == ["K8SM-CP-002"]


def test_a_disable_flag_left_empty_is_deleted_in_both_forms() -> None:
    result = check_transformed(
        pod("--disable-admission-plugins", "PodSecurityPolicy", "--authorization-mode=Node,RBAC"),
        pod("--authorization-mode=Node,RBAC"),
        target_version="1.25",
    )
    assert codes(result) == ["K8SM-CP-002"]


@pytest.mark.parametrize("flags", [("--insecure-port=0",), ("--insecure-port", '"0"'), ("--address=127.0.0.1",)])
def test_no_op_insecure_flags_are_deleted(flags: tuple[str, ...]) -> None:
    result = check_transformed(pod(*flags), pod(), target_version="1.24")
    assert codes(result) == ["K8SM-CP-004"]
    assert "refuses to start with this unknown flag" in result.findings[0].message


def test_a_public_insecure_address_is_deleted_with_a_warning() -> None:
    result = check_transformed(pod("--insecure-bind-address=0.0.0.0"), pod(), target_version="1.20")
    assert [(f.code, f.level) for f in result.findings] == [("K8SM-CP-005", "warning")]
    assert "--bind-address" in result.findings[0].message


def test_controller_manager_and_hyperkube() -> None:
    check_transformed(pod("--port=0", program="kube-controller-manager"), pod(program="kube-controller-manager"))
    hyperkube = POD.format(flags="    - --insecure-port=0\n").replace(
        "    - kube-apiserver\n", "    - /hyperkube\n    - kube-apiserver\n"
    )
    result = run(hyperkube, target_version="1.24")
    assert "--insecure-port" not in result.text
    assert codes(result) == ["K8SM-CP-004"]


def test_flags_in_args_of_an_image_entrypoint() -> None:
    text = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: hosted-apiserver}
        spec:
          selector: {matchLabels: {app: api}}
          template:
            metadata: {labels: {app: api}}
            spec:
              containers:
              - name: api
                image: registry.k8s.io/kube-apiserver-amd64:v1.19.16
                args: [--insecure-port=0, --enable-admission-plugins=PodSecurityPolicy]
        """
    result = run(text, target_version="1.25")
    assert codes(result) == ["K8SM-CP-001", "K8SM-CP-004"]
    assert result.text == dedent(text)  # the error keeps the whole document


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "flags",
    [
        ("--enable-admission-plugins=NodeRestriction,PodSecurityPolicy",),
        ("--enable-admission-plugins", "PodSecurityPolicy"),
        ("--admission-control=PodSecurityPolicy,NodeRestriction",),
    ],
)
def test_psp_enabled_is_an_error_from_1_25(flags: tuple[str, ...]) -> None:
    result = check_noop(pod(*flags), target_version="1.25")
    assert [(f.code, f.level, f.line) for f in result.findings] == [
        ("K8SM-CP-001", "error", 13 if len(flags) == 1 else 14)
    ]
    assert 'plugin \\"PodSecurityPolicy\\" is unknown' in result.findings[0].message


def test_a_non_zero_insecure_port_is_an_error() -> None:
    result = check_noop(pod("--insecure-port=8080"), target_version="1.20")
    assert codes(result) == ["K8SM-CP-006"]


# ------------------------------------------------------------------ kubeadm


KUBEADM = "apiVersion: kubeadm.k8s.io/{v}\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n{args}"


def test_kubeadm_map_and_list_forms_enabling_psp_are_errors() -> None:
    as_map = KUBEADM.format(v="v1beta3", args="    enable-admission-plugins: NodeRestriction,PodSecurityPolicy\n")
    as_list = KUBEADM.format(
        v="v1beta4", args="  - name: enable-admission-plugins\n    value: PodSecurityPolicy,NodeRestriction\n"
    )
    for text in (as_map, as_list):
        assert codes(check_noop(text, target_version="1.31"), "error") == ["K8SM-CP-001"]
    check_noop(as_map, target_version="1.24")


def test_kubeadm_disable_list_loses_psp() -> None:
    result = check_transformed(
        KUBEADM.format(v="v1beta4", args="  - name: disable-admission-plugins\n    value: PodSecurityPolicy\n")
        + "  - name: v\n    value: '2'\n",
        KUBEADM.format(v="v1beta4", args="  - name: v\n    value: '2'\n"),
        target_version="1.31",
    )
    assert codes(result) == ["K8SM-CP-002"]


def test_scan_lists_component_flag_rows() -> None:
    rows = scan_text(dedent(pod("--enable-admission-plugins=PodSecurityPolicy")), target_version="1.25")
    assert [(r.category, r.status, r.code) for r in rows] == [("component-flag", "breaking", "K8SM-CP-001")]
