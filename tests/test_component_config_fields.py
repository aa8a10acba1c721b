"""Spec: unknown top-level fields of KubeletConfiguration and KubeProxyConfiguration (component_config_fields)."""

from __future__ import annotations

from pathlib import Path

import k8smigrate
from k8smigrate.migrations.checks.component_config_fields import KUBE_PROXY_FIELDS, KUBELET_FIELDS
from tests.helpers import check_noop, codes, run

KUBELET = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
PROXY = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"


def test_noop_on_known_fields() -> None:
    kubelet = KUBELET + "cgroupDriver: systemd\nfailCgroupV1: false\nlogging:\n  format: json\n  vmodule: []\n"
    kubelet += "  options:\n    json: {splitStream: true, infoBufferSize: 1Mi}\n    text: {splitStream: false}\n"
    kubelet += "memorySwap: {swapBehavior: NoSwap}\ntracing: {endpoint: 'localhost:4317', samplingRatePerMillion: 1}\n"
    kubelet += "crashLoopBackOff: {maxContainerRestartPeriod: 1m}\nuserNamespaces: {idsPerPod: 65536}\n"
    assert codes(check_noop(kubelet)) == []
    auth = "authentication:\n  anonymous: {enabled: false}\n  webhook:\n    enabled: true\n    cacheTTL: 2m\n"
    auth += "  x509: {clientCAFile: /etc/kubernetes/pki/ca.crt}\nauthorization:\n  mode: Webhook\n"
    assert codes(check_noop(KUBELET + auth + "  webhook: {cacheAuthorizedTTL: 5m, cacheUnauthorizedTTL: 30s}\n")) == []
    assert codes(check_noop(PROXY + "mode: nftables\nclusterCIDR: 10.0.0.0/8\nwindowsRunAsService: true\n")) == []


def test_noop_on_other_kinds_and_apis() -> None:
    assert codes(check_noop("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nbogus: 1\n")) == []
    other = KUBELET.replace("v1beta1", "v1alpha1")
    assert "K8SM-CC-005" not in codes(check_noop(other + "bogus: 1\n"))


def test_feature_gates_are_left_to_the_feature_gates_pass() -> None:
    result = check_noop(KUBELET + "featureGates:\n  NoSuchGate: true\n")
    assert "K8SM-CC-005" not in codes(result)
    assert codes(result) == ["K8SM-GATE-006"]


def test_kubelet_unknown_field_is_a_warning_with_its_line() -> None:
    result = check_noop(KUBELET + "cgroupDriver: systemd\ncgroupsDriver: systemd\n", target_version="1.25")
    (finding,) = result.findings
    assert (finding.code, finding.level, finding.line) == ("K8SM-CC-005", "warning", 4)
    assert "cgroupsDriver" in finding.message and "only logs a warning" in finding.message
    assert "kube-scheduler" in finding.message


def test_kubelet_authentication_and_authorization_are_checked() -> None:
    text = (
        KUBELET + "authentication:\n  anonymous:\n    enable: false\n  token: {}\nauthorization:\n  modes: [Webhook]\n"
    )
    result = check_noop(text)
    assert [(f.code, f.line) for f in result.findings] == [("K8SM-CC-005", 5), ("K8SM-CC-005", 6), ("K8SM-CC-005", 8)]
    assert [f.message.split(":")[0] for f in result.findings] == [
        "authentication.anonymous.enable",
        "authentication.token",
        "authorization.modes",
    ]


def test_kube_proxy_unknown_field_removed_in_1_16() -> None:
    # resourceContainer left kube-proxy in 1.16 (kubernetes PR #78294); later releases only warn
    result = check_noop(PROXY + "mode: iptables\nresourceContainer: /kube-proxy\n")
    (finding,) = result.findings
    assert (finding.code, finding.level, finding.line) == ("K8SM-CC-014", "warning", 4)
    assert "kube-proxy" in finding.message and "ignored" in finding.message


def test_udp_idle_timeout_is_reported_once() -> None:
    # in the table: the kube_proxy_config pass deletes it from 1.26 on (K8SM-CC-011)
    assert codes(run(PROXY + "udpIdleTimeout: 250ms\n", target_version="1.26")) == ["K8SM-CC-011"]
    assert codes(check_noop(PROXY + "udpIdleTimeout: 250ms\n", target_version="1.25")) == []


def test_kube_proxy_nested_structs_are_checked_with_their_dotted_path() -> None:
    text = (
        PROXY
        + """\
clientConnection: {kubeconfig: /var/lib/kube-proxy/kubeconfig.conf, qps: 5, burst: 10, qpsBurst: 1}
iptables:
  masqueradeAll: false
  localhostNodePorts: true
  masqueradBit: 14
ipvs: {strictARP: true, tcpTimeout: 0s, scheduler: rr}
conntrack:
  maxPerCore: 32768
  max: null
  tcpBeLiberal: false
  udpStreamTimeout: 300s
logging:
  verbosity: 2
  options:
    json: {bufferSize: 1}
"""
    )
    result = check_noop(text)
    assert [(f.code, f.level, f.line, f.message.split(":")[0]) for f in result.findings] == [
        ("K8SM-CC-014", "warning", 3, "clientConnection.qpsBurst"),
        ("K8SM-CC-014", "warning", 7, "iptables.masqueradBit"),
        ("K8SM-CC-014", "warning", 11, "conntrack.max"),
        ("K8SM-CC-014", "warning", 17, "logging.options.json.bufferSize"),
    ]


def test_kube_proxy_known_nested_fields_of_old_and_new_releases() -> None:
    text = (
        PROXY
        + """\
nftables: {masqueradeBit: 14, masqueradeAll: false, syncPeriod: 30s, minSyncPeriod: 1s}
winkernel: {networkName: flannel, sourceVip: 10.0.0.2, enableDSR: false, rootHnsEndpointName: cbr0}
detectLocal: {bridgeInterface: cbr0, interfaceNamePrefix: veth}
iptables: {snatNodeInternalIP: false, syncPeriod: 30s}
logging: {format: text, sanitization: false, flushFrequency: 5s}
"""
    )
    assert codes(check_noop(text)) == []


def test_kubelet_nested_structs_added_with_issue_10() -> None:
    text = KUBELET + "memorySwap:\n  swapBehaviour: NoSwap\nlogging: {fromat: json}\nuserNamespaces: {idsPerPods: 1}\n"
    result = check_noop(text)
    assert [(f.code, f.line, f.message.split(":")[0]) for f in result.findings] == [
        ("K8SM-CC-005", 4, "memorySwap.swapBehaviour"),
        ("K8SM-CC-005", 5, "logging.fromat"),
        ("K8SM-CC-005", 6, "userNamespaces.idsPerPods"),
    ]


def test_lists_and_maps_inside_structs_are_not_checked() -> None:
    # vmodule is a list, ipvs.excludeCIDRs a list of strings: no table for their items
    text = KUBELET + "logging:\n  vmodule:\n  - {filePattern: 'x*', verbosity: 4, other: 1}\n"
    assert codes(check_noop(text)) == []
    assert codes(check_noop(PROXY + "ipvs: {excludeCIDRs: [10.0.0.0/8]}\n")) == []


def test_every_unknown_field_is_reported_in_order() -> None:
    result = check_noop(KUBELET + "a: 1\nmaxPods: 110\nb: 2\n")
    assert [(f.code, f.line) for f in result.findings] == [("K8SM-CC-005", 3), ("K8SM-CC-005", 5)]


def test_tables_are_upstream_json_names() -> None:
    # a spot check of the tables against a few upstream fields of each type (1.17 and 1.33)
    assert {"enableServer", "staticPodPath", "containerRuntimeEndpoint", "failCgroupV1"} <= KUBELET_FIELDS
    assert {"bindAddressHardFail", "nftables", "detectLocal", "portRange"} <= KUBE_PROXY_FIELDS
    assert "resourceContainer" not in KUBE_PROXY_FIELDS


def test_corpus_component_configs(corpus: Path) -> None:
    seen = []
    for path in sorted(corpus.glob("*")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "KubeletConfiguration" not in text and "KubeProxyConfiguration" not in text:
            continue
        result = k8smigrate.migrate_text(text, target_version="1.29", filename=str(path))
        for f in result.findings:
            if f.code in ("K8SM-CC-005", "K8SM-CC-014"):
                # the only unknown fields in the corpus are kube-proxy's resourceContainer (gone in 1.16)
                # and conntrack.max (gone before it: not in the 1.15 types.go)
                assert f.message.startswith(("resourceContainer:", "conntrack.max:")), f.format()
                seen.append(path.name)
        assert k8smigrate.migrate_text(result.text, target_version="1.29").text == result.text  # idempotent
    assert len(seen) >= 3  # kubeadm's conversion testdata of 1.12-1.13 still set it
