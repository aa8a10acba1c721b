"""Spec: the API server's NodePort range against the nodes' ephemeral ports (node_port_range)."""

from __future__ import annotations

import pytest

from k8smigrate.migrations.checks.node_port_range import Ports, ephemeral_settings, node_port_range, reserved_settings
from tests.helpers import check_noop, codes, dedent, run
from tests.kubeadm_helpers import validate_kubeadm

APISERVER = """
apiVersion: v1
kind: Pod
metadata:
  name: kube-apiserver
  namespace: kube-system
spec:
  hostNetwork: true
  containers:
  - name: kube-apiserver
    image: registry.k8s.io/kube-apiserver:v1.21.14
    command:
    - kube-apiserver
    - --advertise-address=10.0.0.1
{flag}"""

TUNER = """
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: sysctl-tuner
  namespace: kube-system
spec:
  selector:
    matchLabels: {{app: tuner}}
  template:
    metadata:
      labels: {{app: tuner}}
    spec:
      hostNetwork: {host}
      containers:
      - name: tune
        image: busybox:1.36
        securityContext: {{privileged: true}}
        command:
        - sh
        - -c
        - {script}
"""

SYSCTL_POD = """
apiVersion: v1
kind: Pod
metadata:
  name: loadgen
spec:
  securityContext:
    sysctls:
    - name: net.ipv4.ip_local_port_range
      value: "{value}"
  containers:
  - name: gen
    image: example/loadgen:1.0
"""

KUBEADM = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n"
KUBEADM4 = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n"


def apiserver(*flags: str) -> str:
    return APISERVER.format(flag="".join(f"    - {f}\n" for f in flags))


def tuner(script: str, host: str = "true") -> str:
    return TUNER.format(script=script, host=host)


# ------------------------------------------------------------------ no-ops


def test_noop_for_the_defaults_and_ranges_that_do_not_meet() -> None:
    assert codes(check_noop(apiserver("--service-node-port-range=30000-32767"))) == []
    assert codes(check_noop(apiserver("--service-node-port-range=20000-29999"))) == []
    assert codes(check_noop(tuner("'sysctl -w net.ipv4.ip_local_port_range=\"32768 60999\"'"))) == []
    assert codes(check_noop(SYSCTL_POD.format(value="40000 65000"))) == []


def test_noop_below_1_22() -> None:
    assert codes(check_noop(apiserver("--service-node-port-range=30000-40000"), target_version="1.21")) == []


def test_noop_for_a_container_in_its_own_network_namespace() -> None:
    text = tuner("'sysctl -w net.ipv4.ip_local_port_range=\"1024 65000\"'", host="false")
    assert codes(check_noop(text)) == []


def test_noop_when_the_overlap_is_reserved() -> None:
    script = (
        '\'sysctl -w net.ipv4.ip_local_port_range="1024 65000" '
        "&& sysctl -w net.ipv4.ip_local_reserved_ports=30000-32767'"
    )
    assert codes(check_noop(tuner(script))) == []


def test_noop_for_other_programs_flags() -> None:
    text = apiserver().replace("- kube-apiserver\n", "- my-apiserver\n") + "    - --service-node-port-range=1-65535\n"
    assert codes(check_noop(text)) == []


# ------------------------------------------------------------------ findings


@pytest.mark.parametrize(
    "flags",
    [
        ("--service-node-port-range=30000-40000",),
        ("--service-node-port-range", "30000-40000"),
        ("--service-node-port-range=30000+10000",),
    ],
)
def test_a_wide_node_port_range_is_a_warning_naming_both_ranges(flags: tuple[str, ...]) -> None:
    result = check_noop(apiserver(*flags), target_version="1.22")
    assert codes(result) == ["K8SM-NP-001"]
    (finding,) = result.findings
    assert finding.level == "warning" and finding.line == 13 + len(flags)
    assert "32768-60999 (the Linux default)" in finding.message
    assert "on 32768-40000" in finding.message


def test_kubeadm_extra_args_in_both_shapes() -> None:
    for text in (
        KUBEADM + "    service-node-port-range: 30000-50000\n",
        KUBEADM4 + "  - name: service-node-port-range\n    value: 30000-50000\n",
    ):
        result = check_noop(text)
        assert codes(result) == ["K8SM-NP-001"]
        assert "--service-node-port-range 30000-50000" in result.findings[0].message
        validate_kubeadm(text, "1.29")


@pytest.mark.parametrize(
    "script",
    [
        "'sysctl -w net.ipv4.ip_local_port_range=\"1024 65000\" && sleep infinity'",
        "'echo \"1024 65000\" > /proc/sys/net/ipv4/ip_local_port_range; sleep infinity'",
        "'sysctl -w net/ipv4/ip_local_port_range=\"1024 65000\"'",
    ],
)
def test_a_node_tuner_that_widens_the_ephemeral_range_is_a_warning(script: str) -> None:
    result = check_noop(tuner(script))
    assert codes(result) == ["K8SM-NP-002"]
    (finding,) = result.findings
    assert finding.line == 21
    assert "1024-65000 overlaps the NodePort range 30000-32767 (the kube-apiserver default)" in finding.message


def test_nsenter_reaches_the_node_without_host_network() -> None:
    script = "'nsenter -t 1 -n -- sysctl -w net.ipv4.ip_local_port_range=\"15000 65000\"'"
    assert codes(check_noop(tuner(script, host="false"))) == ["K8SM-NP-002"]


def test_a_config_map_with_sysctl_conf_is_a_warning() -> None:
    text = """
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: node-sysctls
    data:
      99-ports.conf: |
        # wider range for the proxies
        net.ipv4.ip_local_port_range = 10240 65535
    """
    result = check_noop(text)
    assert codes(result) == ["K8SM-NP-002"]
    assert result.findings[0].line == 6


def test_a_pods_own_sysctl_is_an_info() -> None:
    result = check_noop(SYSCTL_POD.format(value="1024 65000"))
    assert codes(result, "info") == ["K8SM-NP-003"]
    assert "own network namespace" in result.findings[0].message
    # the kubelet refuses net.* sysctls with hostNetwork: such a pod never starts, nothing to say
    host = SYSCTL_POD.format(value="1024 65000").replace("spec:\n", "spec:\n  hostNetwork: true\n", 1)
    assert codes(check_noop(host)) == []


def test_the_flag_and_the_tuner_of_the_run_are_compared_and_named() -> None:
    text = "---\n".join(
        dedent(d)
        for d in (
            apiserver("--service-node-port-range=30000-40000"),
            tuner("'sysctl -w net.ipv4.ip_local_port_range=\"35000 60999\"'"),
        )
    )
    result = run(text, filename="cluster.yaml")
    assert codes(result) == ["K8SM-NP-001", "K8SM-NP-002"]
    flag, tune = result.findings
    assert "35000-60999 (DaemonSet sysctl-tuner in cluster.yaml:16) on 35000-40000" in flag.message
    assert "30000-40000 (kube-apiserver --service-node-port-range in cluster.yaml:1) on 35000-40000" in tune.message


# ------------------------------------------------------------------ parsing


def test_port_range_syntax_is_apimachinerys() -> None:
    assert node_port_range("30000-32767") == (30000, 32767)
    assert node_port_range(" 30000+2767 ") == (30000, 32767)
    assert node_port_range("30000") == (30000, 30000)
    assert node_port_range("32767-30000") is None
    assert node_port_range("a-b") is None


def test_sysctl_settings_and_reserved_spans() -> None:
    assert ephemeral_settings("sysctl -w net.ipv4.ip_local_port_range='1024\t65000'") == [(1024, 65000)]
    assert reserved_settings("net.ipv4.ip_local_reserved_ports = 30000-32767, 40000") == (
        (30000, 32767),
        (40000, 40000),
    )
    wide = Ports(1024, 65000, "node", ((30000, 31000),))
    assert wide.shared(Ports(30000, 32767, "api")) == (31001, 32767)
