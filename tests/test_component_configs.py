"""Spec: kube-proxy removed modes and fields (kube_proxy_config); kube-scheduler unknown fields and
removed plugins (scheduler_config)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes

PROXY = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"
SCHED = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"

# --------------------------------------------------------------------------- kube-proxy


def test_proxy_noop_below_1_26() -> None:
    check_noop(PROXY + "mode: userspace\nudpIdleTimeout: 250ms\n", target_version="1.25")


def test_proxy_noop_on_supported_modes() -> None:
    assert codes(check_noop(PROXY + "mode: iptables\n")) == []
    assert codes(check_noop(PROXY + "mode: ipvs\n", target_version="1.34")) == []


def test_userspace_becomes_iptables() -> None:
    result = check_transformed(PROXY + "mode: userspace  # old\n", PROXY + "mode: iptables  # old\n")
    assert codes(result, "warning") == ["K8SM-CC-010"]


def test_userspace_on_windows_becomes_kernelspace() -> None:
    check_transformed(
        PROXY + 'mode: "userspace"\nwinkernel: {enableDSR: false}\n',
        PROXY + 'mode: "kernelspace"\nwinkernel: {enableDSR: false}\n',
    )


def test_udp_idle_timeout_is_deleted_and_port_range_reported() -> None:
    result = check_transformed(
        PROXY + "mode: iptables\nudpIdleTimeout: 250ms\nportRange: 30000-32767\n",
        PROXY + "mode: iptables\nportRange: 30000-32767\n",
    )
    assert codes(result) == ["K8SM-CC-011", "K8SM-CC-012"]


def test_ipvs_is_deprecated_from_1_35() -> None:
    assert codes(check_noop(PROXY + "mode: ipvs\n", target_version="1.35"), "warning") == ["K8SM-CC-013"]


# --------------------------------------------------------------------------- kube-scheduler

PROFILES = """profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - name: {plugin}
        weight: 1
"""


def test_scheduler_noop_below_1_22_and_on_a_clean_config() -> None:
    check_noop(SCHED.replace("v1\n", "v1beta2\n") + "bogus: 1\n", target_version="1.21")
    assert codes(check_noop(SCHED + "parallelism: 16\n" + PROFILES.format(plugin="NodeResourcesFit"))) == []


def test_bind_addresses_are_kept_in_v1beta2_which_still_has_them() -> None:
    # kube-scheduler/config/v1beta2/types.go keeps both; the v1beta2 → v1beta3 step drops them
    check_noop(
        SCHED.replace("v1\n", "v1beta2\n") + "metricsBindAddress: 0.0.0.0:10251\nparallelism: 16\n",
        target_version="1.22",
    )


def test_removed_bind_addresses_are_deleted() -> None:
    result = check_transformed(
        SCHED.replace("v1\n", "v1beta3\n") + "metricsBindAddress: 0.0.0.0:10251\nparallelism: 16\n",
        SCHED.replace("v1\n", "v1beta3\n") + "parallelism: 16\n",
        target_version="1.24",
    )
    assert codes(result) == ["K8SM-CC-021"]


def test_unknown_fields_are_errors_with_their_line() -> None:
    result = check_noop(SCHED + "parallelism: 16\nfeatureGates: {A: true}\n" + PROFILES.format(plugin="X"))
    assert codes(result, "error") == ["K8SM-CC-020"]
    assert result.findings[0].line == 4


def test_removed_plugins_are_errors() -> None:
    result = check_noop(SCHED + PROFILES.format(plugin="SelectorSpread"))
    assert codes(result, "error") == ["K8SM-CC-022"]
    assert "PodTopologySpread" in result.findings[0].message
    v1beta3 = SCHED.replace("v1\n", "v1beta3\n") + PROFILES.format(plugin="SelectorSpread")
    assert "K8SM-CC-022" not in codes(check_noop(v1beta3, target_version="1.24"))
    least = SCHED.replace("v1\n", "v1beta3\n") + PROFILES.format(plugin="NodeResourcesLeastAllocated")
    assert codes(check_noop(least, target_version="1.24"), "error") == ["K8SM-CC-022"]
