"""Spec: kubescheduler_v1beta3 — KubeSchedulerConfiguration v1beta3 → v1 (removed plugins dropped)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes
from tests.kubescheduler_helpers import validate_scheduler

# ------------------------------------------------------------------ no-op cases


def test_noop_other_api_version() -> None:
    check_noop(
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
        """,
        target_version="1.29",
    )


def test_noop_below_gate() -> None:
    # kube-scheduler 1.24 does not read v1
    check_noop(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              multiPoint:
                enabled:
                  - name: SelectorSpread
        """,
        target_version="1.24",
    )


# ------------------------------------------------------------------ transforms


def test_weights_are_the_same_so_only_api_version_changes() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  apiVersion: kubescheduler.config.k8s.io/v1beta3
                  kind: NodeResourcesFitArgs
                  scoringStrategy:
                    type: MostAllocated
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  apiVersion: kubescheduler.config.k8s.io/v1
                  kind: NodeResourcesFitArgs
                  scoringStrategy:
                    type: MostAllocated
        """,
        target_version="1.29",
    )
    assert codes(result) == []
    validate_scheduler(result.text)


def test_selector_spread_dropped_everywhere_and_empty_sets_pruned() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              multiPoint:
                enabled:
                  - name: SelectorSpread
                    weight: 1
              score:
                enabled:
                  # spread first
                  - name: SelectorSpread
                  - name: ImageLocality
                    weight: 3
            pluginConfig:
              - name: SelectorSpread
              - name: ImageLocality
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  # spread first
                  - name: ImageLocality
                    weight: 3
            pluginConfig:
              - name: ImageLocality
        """,
        target_version="1.29",
    )
    assert codes(result) == ["K8SM-SCHED-005"] * 3
    validate_scheduler(result.text)


def test_in_tree_volume_limits_dropped_from_enabled_disabled_kept() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              filter:
                disabled:
                  - name: AzureDiskLimits
                enabled:
                  - name: EBSLimits
                  - name: GCEPDLimits
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              filter:
                disabled:
                  - name: AzureDiskLimits
        """,
        target_version="1.29",
    )
    assert codes(result, "warning") == ["K8SM-SCHED-006", "K8SM-SCHED-006"]
    validate_scheduler(result.text)


def test_last_plugin_and_config_removed_removes_the_profile_keys() -> None:
    check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              preScore:
                enabled: [{name: SelectorSpread}]
            pluginConfig:
              - name: SelectorSpread
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
        """,
        target_version="1.29",
    )


# ------------------------------------------------------------------ findings


def test_comment_of_a_dropped_last_plugin_is_reported() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  - name: ImageLocality
                  - name: SelectorSpread  # legacy spreading
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  - name: ImageLocality
        """,
        target_version="1.29",
    )
    assert codes(result, "warning") == ["K8SM-SCHED-005", "K8SM-GEN-004"]
    assert result.findings[0].line == 9 and result.findings[0].path.endswith("score.enabled[1].name")
