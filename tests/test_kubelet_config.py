"""Spec: KubeletConfiguration changed defaults, dropped values and no-op fields (kubelet_config)."""

from __future__ import annotations

from pathlib import Path

import k8smigrate
from tests.helpers import check_noop, check_transformed, codes, run

KUBELET = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
ALL = (
    "cgroupDriver: systemd\n"
    "memorySwap:\n  swapBehavior: UnlimitedSwap\n"
    "iptablesMasqueradeBit: 14\n"
    "streamingConnectionIdleTimeout: 4h\n"
)

# --------------------------------------------------------------------------- no-op


def test_noop_on_other_kinds_and_apis() -> None:
    check_noop("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  cgroupDriver: systemd\n")
    proxy = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: iptables\n"
    assert codes(check_noop(proxy, target_version="1.35")) == []


def test_noop_below_every_gate() -> None:
    # failCgroupV1 1.35, swap 1.30, iptables bits 1.28, streaming timeout and cgroupDriver 1.34
    assert codes(check_noop(KUBELET + ALL, target_version="1.27")) == []
    assert codes(check_noop(KUBELET + "memorySwap: {swapBehavior: LimitedSwap}\n", target_version="1.29")) == []
    assert codes(check_noop(KUBELET + "cgroupDriver: systemd\nmaxPods: 110\n", target_version="1.33")) == []


def test_noop_when_the_fields_are_absent_or_fine() -> None:
    assert codes(check_noop(KUBELET + "maxPods: 110\nfailCgroupV1: true\n", target_version="1.35")) == []
    assert codes(check_noop(KUBELET + "failCgroupV1: false\nmemorySwap: {swapBehavior: NoSwap}\n")) == []


def test_adopt_new_defaults_writes_nothing_but_warns() -> None:
    result = check_noop(KUBELET + "maxPods: 110\n", target_version="1.35", adopt_new_defaults=True)
    assert [(f.code, f.level) for f in result.findings] == [("K8SM-CC-001", "warning")]
    assert "left unset" in result.findings[0].message and "cgroup v2" in result.findings[0].message


def test_fail_cgroup_v1_is_not_written_for_kubelets_older_than_1_31() -> None:
    result = check_noop(KUBELET + "maxPods: 110\n", target_version="1.35", min_version="1.30")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-CC-001", "warning", 1)]
    assert "only exists from 1.31" in result.findings[0].message


# --------------------------------------------------------------------------- transforms


def test_fail_cgroup_v1_false_is_pinned_from_1_35() -> None:
    result = check_transformed(
        KUBELET + "maxPods: 110  # per node\n# end\n",
        KUBELET + "maxPods: 110  # per node\nfailCgroupV1: false\n# end\n",
        target_version="1.35",
    )
    assert [(f.code, f.level) for f in result.findings] == [("K8SM-CC-001", "warning")]
    assert "pinned failCgroupV1: false" in result.findings[0].message


def test_fail_cgroup_v1_pinned_from_a_1_31_window_and_in_flow_style() -> None:
    check_transformed(
        "{apiVersion: kubelet.config.k8s.io/v1beta1, kind: KubeletConfiguration}\n",
        "{apiVersion: kubelet.config.k8s.io/v1beta1, kind: KubeletConfiguration, failCgroupV1: false}\n",
        target_version="1.36",
        min_version="1.31",
    )


def test_iptables_bits_are_reported_and_kept_from_1_28() -> None:
    # still in the type (strict decoding accepts them): deleting them would only churn bytes
    result = check_noop(
        KUBELET + "iptablesMasqueradeBit: 14\nmaxPods: 110\niptablesDropBit: 15\n", target_version="1.28"
    )
    assert [(f.code, f.level, f.line) for f in result.findings] == [
        ("K8SM-CC-003", "info", 3),
        ("K8SM-CC-003", "info", 5),
    ]
    assert "kept" in result.findings[0].message
    assert check_noop(KUBELET + "iptablesDropBit: 15\n", target_version="1.27").findings == []


# --------------------------------------------------------------------------- findings


def test_unlimited_swap_is_an_error_from_1_30() -> None:
    result = check_noop(
        KUBELET + "failSwapOn: false\nmemorySwap:\n  swapBehavior: UnlimitedSwap\n", target_version="1.30"
    )
    assert [(f.code, f.level, f.line, f.path) for f in result.findings] == [
        ("K8SM-CC-002", "error", 5, "memorySwap.swapBehavior")
    ]
    assert "LimitedSwap" in result.findings[0].message and "NoSwap" in result.findings[0].message


def test_an_error_leaves_the_document_untouched() -> None:
    # failCgroupV1 would be pinned, but UnlimitedSwap is an error: nothing changes
    result = check_noop(KUBELET + ALL, target_version="1.35")
    assert codes(result, "error") == ["K8SM-CC-002"]


def test_limited_swap_changed_meaning_in_1_30() -> None:
    result = check_noop(KUBELET + "memorySwap: {swapBehavior: LimitedSwap}\n", target_version="1.30")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-CC-006", "warning", 3)]
    assert "memory request" in result.findings[0].message


def test_streaming_timeout_is_reported_and_kept_from_1_34() -> None:
    text = KUBELET + "streamingConnectionIdleTimeout: 5m\nfailCgroupV1: false\n"
    result = check_noop(text, target_version="1.34")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-CC-003", "info", 3)]


def test_cgroup_driver_is_only_a_fallback_from_1_34() -> None:
    result = check_noop(KUBELET + "cgroupDriver: systemd\nfailCgroupV1: true\n", target_version="1.35")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-CC-004", "info", 3)]
    assert "KubeletCgroupDriverFromCRI" in result.findings[0].message


def test_kubelet_config_inside_a_kubeadm_stream() -> None:
    text = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n---\n" + KUBELET + "cgroupDriver: systemd\n"
    result = run(text, target_version="1.35")
    assert result.text.endswith("cgroupDriver: systemd\nfailCgroupV1: false\n")
    assert {"K8SM-CC-001", "K8SM-CC-004"} <= set(codes(result))


def test_corpus_kubelet_configs(corpus: Path) -> None:
    seen = 0
    for path in sorted(corpus.glob("*")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "KubeletConfiguration" not in text:
            continue
        seen += 1
        for target in ("1.29", "1.35"):
            result = k8smigrate.migrate_text(text, target_version=target, filename=path.name)
            assert "K8SM-GEN-004" not in codes(result) and "K8SM-GEN-012" not in codes(result)
            assert k8smigrate.migrate_text(result.text, target_version=target).text == result.text
    assert seen >= 2
