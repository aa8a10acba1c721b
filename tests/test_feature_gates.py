"""Spec: removed and locked feature gates in component configs and kubeadm flags."""

from __future__ import annotations

import pytest

from k8smigrate.kube.feature_gates import judge, parse_table, table
from k8smigrate.migrations.checks.feature_gates import runs_component
from k8smigrate.tree import Mapping, from_data
from k8smigrate.versions import KubeVersion, Window
from tests.helpers import check_noop, check_transformed, codes, dedent, validate

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


# --- the --feature-gates flag on the command line of components run in pods ---

APISERVER = """
apiVersion: v1
kind: Pod
metadata:
  name: kube-apiserver
  namespace: kube-system
  labels:
    component: kube-apiserver
spec:
  hostNetwork: true
  priorityClassName: system-node-critical
  containers:
  - name: kube-apiserver
    image: registry.k8s.io/kube-apiserver:v1.29.0
    command:
    - kube-apiserver
    - --advertise-address=10.0.0.10
    - {flag}
    - --secure-port=6443
"""


def apiserver(flag: str) -> str:
    return dedent(APISERVER.format(flag=flag))


@pytest.mark.parametrize(
    "flag",
    [
        "--v=2  # feature-gates are set in the kubelet config",  # no flag
        "--feature-gates-file=/etc/gates",  # another flag
        "--feature-gates=GracefulNodeShutdown=true",  # a gate fine at the target
        "--feature-gates=",  # nothing set
    ],
)
def test_command_line_noop(flag: str) -> None:
    assert codes(check_noop(apiserver(flag))) == []


def test_command_line_noop_below_the_removal() -> None:
    result = check_noop(apiserver("--feature-gates=IndexedJob=true"), target_version="1.25")
    assert codes(result) == ["K8SM-GATE-004"]  # locked from 1.24, removed in 1.26


def test_command_line_of_other_programs_is_not_read() -> None:
    # cert-manager has a ServerSideApply gate of its own; Kubernetes removed its gate in 1.32
    text = """
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: cert-manager
    spec:
      selector:
        matchLabels:
          app: cert-manager
      template:
        metadata:
          labels:
            app: cert-manager
        spec:
          containers:
          - name: cert-manager-controller
            image: quay.io/jetstack/cert-manager-controller:v1.14.0
            args:
            - --feature-gates=ServerSideApply=true
    """
    assert codes(check_noop(text, target_version="1.33")) == []


@pytest.mark.parametrize(
    ("command", "image", "component"),
    [
        (["/usr/local/bin/kube-proxy", "--config=/var/lib/kube-proxy/config.conf"], "x", True),
        (["/hyperkube", "kubelet"], "x", True),
        (["/bin/aws-cloud-controller-manager"], "x", True),
        (None, "registry.k8s.io/kube-controller-manager-amd64:v1.20.0@sha256:00", True),
        (None, "registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.29.0", True),
        (None, "localhost:5000/kube-scheduler", True),
        (["/bin/sh", "-c", "kube-proxy --feature-gates=A=true"], "registry.k8s.io/kube-proxy", False),
        (None, "registry.k8s.io/sig-storage/csi-provisioner:v3.6.0", False),
        (None, "quay.io/jetstack/cert-manager-controller:v1.14.0", False),
        (None, "postfinance/kubelet-csr-approver:v1.0.0", False),
    ],
)
def test_which_containers_run_a_component(command: list[str] | None, image: str, component: bool) -> None:
    container = from_data({"name": "c", "image": image} | ({"command": list(command)} if command else {}))
    assert isinstance(container, Mapping)
    assert runs_component(container) is component


def test_command_line_one_element_form() -> None:
    result = check_transformed(
        apiserver('"--feature-gates=IndexedJob=true,RotateKubeletServerCertificate=true"  # set by hand'),
        apiserver('"--feature-gates=RotateKubeletServerCertificate=true"  # set by hand'),
    )
    assert codes(result) == ["K8SM-GATE-001"]
    validate(result.text, "1.29.0")


def test_command_line_flag_dropped_when_emptied() -> None:
    before = apiserver("--feature-gates=IndexedJob=true,TTLAfterFinished=true")
    after = "".join(line for line in before.splitlines(keepends=True) if "feature-gates" not in line)
    result = check_transformed(before, after)
    assert codes(result) == ["K8SM-GATE-001"] * 2
    validate(result.text, "1.29.0")


def test_command_line_two_element_form_in_args() -> None:
    result = check_transformed(
        """
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: kube-proxy
          namespace: kube-system
        spec:
          selector:
            matchLabels:
              k8s-app: kube-proxy
          template:
            metadata:
              labels:
                k8s-app: kube-proxy
            spec:
              initContainers:
              - name: check
                image: registry.k8s.io/kube-proxy:v1.28.4
                command: [kube-proxy, --feature-gates, "EndpointSliceProxying=true", --version]
              containers:
              - name: kube-proxy
                image: registry.k8s.io/kube-proxy:v1.28.4
                command: [/usr/local/bin/kube-proxy]
                args:
                - --config=/var/lib/kube-proxy/config.conf
                - --feature-gates
                - 'CSIMigration=true, GracefulNodeShutdown=true'
                - --hostname-override=$(NODE_NAME)
        """,
        """
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: kube-proxy
          namespace: kube-system
        spec:
          selector:
            matchLabels:
              k8s-app: kube-proxy
          template:
            metadata:
              labels:
                k8s-app: kube-proxy
            spec:
              initContainers:
              - name: check
                image: registry.k8s.io/kube-proxy:v1.28.4
                command: [kube-proxy, --version]
              containers:
              - name: kube-proxy
                image: registry.k8s.io/kube-proxy:v1.28.4
                command: [/usr/local/bin/kube-proxy]
                args:
                - --config=/var/lib/kube-proxy/config.conf
                - --feature-gates
                - 'GracefulNodeShutdown=true'
                - --hostname-override=$(NODE_NAME)
        """,
    )
    assert codes(result) == ["K8SM-GATE-001"] * 2
    validate(result.text, "1.29.0")


def test_command_line_by_image_in_a_cronjob() -> None:
    before = """
    apiVersion: batch/v1
    kind: CronJob
    metadata:
      name: probe
    spec:
      schedule: "@daily"
      jobTemplate:
        spec:
          template:
            spec:
              restartPolicy: Never
              containers:
              - name: kubelet
                image: registry.k8s.io/kubelet:v1.28.0
                args: ["--feature-gates=SeccompDefault=true,NodeSwap=true"]
    """
    result = check_transformed(before, before.replace("SeccompDefault=true,", ""))
    assert codes(result) == ["K8SM-GATE-001"]


def test_command_line_error_leaves_the_document_unchanged() -> None:
    result = check_noop(apiserver("--feature-gates=IndexedJob=false,TTLAfterFinished=true"))
    assert codes(result) == ["K8SM-GATE-002", "K8SM-GATE-001"]


def test_command_line_bad_value_is_an_error() -> None:
    result = check_noop(apiserver("--feature-gates=IndexedJob"))
    assert codes(result, "error") == ["K8SM-GATE-009"]


def test_command_line_flag_without_a_gate_value_is_an_error() -> None:
    text = apiserver("--feature-gates").replace("- --secure-port=6443", "- --secure-port")
    assert codes(check_noop(text), "error") == ["K8SM-GATE-009"]


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
