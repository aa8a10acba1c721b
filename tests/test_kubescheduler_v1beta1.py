"""Spec: kubescheduler_v1beta1 — KubeSchedulerConfiguration v1beta1 → v1beta2 (resource scoring merged)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run
from tests.kubescheduler_helpers import validate_scheduler

V1BETA2 = "kubescheduler.config.k8s.io/v1beta2"
# kube-scheduler 1.22 reads v1beta1 and v1beta2, not v1beta3: the chain stops at v1beta2
TARGET = "1.22"

# ------------------------------------------------------------------ no-op cases


def test_noop_other_kind() -> None:
    check_noop(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: Policy
        predicates: []
        """,
        target_version=TARGET,
    )


def test_noop_below_gate() -> None:
    check_noop(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  - name: NodeResourcesMostAllocated
        """,
        target_version="1.21",
    )


def test_templated_document_is_migrated_with_its_actions() -> None:
    result = run(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: {{ .Values.name }}
        """,
        target_version=TARGET,
    )
    assert "{{ .Values.name }}" in result.text and "kubescheduler.config.k8s.io/v1beta2" in result.text
    assert "K8SM-GEN-001" not in codes(result)


def test_default_scoring_only_changes_api_version() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        leaderElection:
          leaderElect: true
        profiles:
          - schedulerName: default-scheduler
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  ignoredResources: [example.com/foo]
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        leaderElection:
          leaderElect: true
        profiles:
          - schedulerName: default-scheduler
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  ignoredResources: [example.com/foo]
        """,
        target_version=TARGET,
    )
    assert codes(result) == []
    validate_scheduler(result.text, V1BETA2)


# ------------------------------------------------------------------ transforms


def test_most_allocated_with_args_becomes_fit_scoring_strategy() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: bin-packing
            plugins:
              score:
                disabled:
                  - name: NodeResourcesLeastAllocated
                enabled:
                  # pack nodes
                  - name: NodeResourcesMostAllocated
                    weight: 2
            pluginConfig:
              - name: NodeResourcesMostAllocated
                args:
                  apiVersion: kubescheduler.config.k8s.io/v1beta1
                  kind: NodeResourcesMostAllocatedArgs
                  resources:  # GPUs count most
                    - name: cpu
                      weight: 1
                    - name: nvidia.com/gpu
                      weight: 5
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: bin-packing
            plugins:
              score:
                enabled:
                  # pack nodes
                  - name: NodeResourcesFit
                    weight: 2
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  apiVersion: kubescheduler.config.k8s.io/v1beta2
                  kind: NodeResourcesFitArgs
                  scoringStrategy:
                    type: MostAllocated
                    resources:  # GPUs count most
                      - name: cpu
                        weight: 1
                      - name: nvidia.com/gpu
                        weight: 5
        """,
        target_version=TARGET,
    )
    assert codes(result) == ["K8SM-SCHED-012"]
    validate_scheduler(result.text, V1BETA2)


def test_requested_to_capacity_ratio_merges_into_existing_fit_args() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                disabled:
                  - name: NodeResourcesLeastAllocated
                  - name: ImageLocality
                enabled:
                  - name: RequestedToCapacityRatio
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  ignoredResources: [example.com/foo]
              - name: RequestedToCapacityRatio
                args:
                  shape:
                    - {utilization: 0, score: 0}
                    - {utilization: 100, score: 10}
                  resources:
                    - {name: cpu, weight: 1}
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                disabled:
                  - name: ImageLocality
                enabled:
                  - name: NodeResourcesFit
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  ignoredResources: [example.com/foo]
                  scoringStrategy:
                    type: RequestedToCapacityRatio
                    resources:
                      - {name: cpu, weight: 1}
                    requestedToCapacityRatio:
                      shape:
                        - {utilization: 0, score: 0}
                        - {utilization: 100, score: 10}
        """,
        target_version=TARGET,
    )
    assert codes(result) == ["K8SM-SCHED-012"]
    validate_scheduler(result.text, V1BETA2)


def test_most_allocated_without_args_gets_a_strategy() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: packer
            plugins:
              score:
                disabled:
                  - name: NodeResourcesLeastAllocated
                enabled:
                  - name: NodeResourcesMostAllocated
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: packer
            plugins:
              score:
                enabled:
                  - name: NodeResourcesFit
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  scoringStrategy:
                    type: MostAllocated
        """,
        target_version=TARGET,
    )
    assert codes(result) == ["K8SM-SCHED-012"]
    validate_scheduler(result.text, V1BETA2)


def test_default_least_allocated_args_and_disabled_scoring() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: weighted
            pluginConfig:
              - name: NodeResourcesLeastAllocated
                args:
                  resources: [{name: memory, weight: 3}]
          - schedulerName: no-resource-scoring
            plugins:
              score:
                disabled:
                  - name: NodeResourcesLeastAllocated
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: weighted
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  scoringStrategy:
                    type: LeastAllocated
                    resources: [{name: memory, weight: 3}]
          - schedulerName: no-resource-scoring
            plugins:
              score:
                disabled:
                  - name: NodeResourcesFit
        """,
        target_version=TARGET,
    )
    assert codes(result) == ["K8SM-SCHED-012"]
    validate_scheduler(result.text, V1BETA2)


# ------------------------------------------------------------------ findings


def test_args_of_a_plugin_that_does_not_score_are_dropped() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            pluginConfig:
              - name: NodeResourcesMostAllocated
                args:
                  resources: [{name: cpu, weight: 1}]
              - name: InterPodAffinity
                args:
                  hardPodAffinityWeight: 2
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            pluginConfig:
              - name: InterPodAffinity
                args:
                  hardPodAffinityWeight: 2
        """,
        target_version=TARGET,
    )
    assert codes(result) == ["K8SM-SCHED-013"]


def test_plugins_without_replacement_are_errors() -> None:
    text = """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              filter:
                enabled:
                  - name: NodeLabel
            pluginConfig:
              - name: ServiceAffinity
                args:
                  affinityLabels: [zone]
        """
    result = check_noop(text, target_version=TARGET)
    assert codes(result, "error") == ["K8SM-SCHED-010", "K8SM-SCHED-010"]


def test_two_scoring_strategies_are_an_error() -> None:
    result = run(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                disabled: [{name: "*"}]
                enabled:
                  - name: NodeResourcesMostAllocated
                  - name: RequestedToCapacityRatio
        """,
        target_version=TARGET,
    )
    assert not result.changed
    assert codes(result, "error") == ["K8SM-SCHED-011"]
    assert "NodeResourcesMostAllocated, RequestedToCapacityRatio" in result.findings[0].message
