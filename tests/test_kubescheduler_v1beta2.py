"""Spec: kubescheduler_v1beta2 — KubeSchedulerConfiguration v1beta2 → v1beta3 (score weights pinned)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run
from tests.kubescheduler_helpers import validate_scheduler

V1BETA3 = "kubescheduler.config.k8s.io/v1beta3"

# ------------------------------------------------------------------ no-op cases


def test_noop_other_kind() -> None:
    check_noop(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: SomethingElse
        healthzBindAddress: 0.0.0.0:10251
        """,
        target_version="1.24",
    )


def test_noop_below_gate() -> None:
    # kube-scheduler 1.22 does not read v1beta3: no profile and no weight is added
    check_noop(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        clientConnection:
          kubeconfig: /etc/kubernetes/scheduler.conf
        """,
        target_version="1.22",
    )


def test_templated_document_is_migrated_with_its_actions() -> None:
    result = run(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        clientConnection:
          kubeconfig: {{ .Values.kubeconfig }}
        """,
        target_version="1.24",
    )
    assert "{{ .Values." in result.text and "kubescheduler.config.k8s.io/v1beta3" in result.text
    assert "K8SM-GEN-001" not in codes(result)


def test_weights_already_explicit_only_api_version_changes() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  - name: InterPodAffinity  # no weight means 1 in every version
                  - name: NodeAffinity
                    weight: 4
                disabled:
                  - name: TaintToleration
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  - name: InterPodAffinity  # no weight means 1 in every version
                  - name: NodeAffinity
                    weight: 4
                disabled:
                  - name: TaintToleration
        """,
        target_version="1.24",
    )
    assert codes(result) == []
    validate_scheduler(result.text, V1BETA3)


def test_all_score_plugins_disabled_nothing_pinned() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
        - schedulerName: custom
          plugins:
            score:
              disabled: [{name: "*"}]
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
        - schedulerName: custom
          plugins:
            score:
              disabled: [{name: "*"}]
        """,
        target_version="1.24",
    )
    assert codes(result) == []


# ------------------------------------------------------------------ transforms


def test_no_profiles_gets_the_default_profile_with_pinned_weights() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        clientConnection:
          kubeconfig: /etc/kubernetes/scheduler.conf
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        clientConnection:
          kubeconfig: /etc/kubernetes/scheduler.conf
        profiles:
        - schedulerName: default-scheduler
          plugins:
            score:
              enabled:
              - name: InterPodAffinity
                weight: 1
              - name: NodeAffinity
                weight: 1
              - name: TaintToleration
                weight: 1
        """,
        target_version="1.24",
    )
    assert codes(result, "warning") == ["K8SM-SCHED-001"]
    validate_scheduler(result.text, V1BETA3)


def test_profiles_pin_only_what_they_left_to_the_defaults() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
          - schedulerName: spread
            plugins:
              score:
                disabled:
                  - name: TaintToleration
                enabled:
                  - name: NodeAffinity
                    weight: 5
              filter:
                enabled:
                  - name: NodePorts
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  - name: InterPodAffinity
                    weight: 1
                  - name: NodeAffinity
                    weight: 1
                  - name: TaintToleration
                    weight: 1
          - schedulerName: spread
            plugins:
              score:
                disabled:
                  - name: TaintToleration
                enabled:
                  - name: NodeAffinity
                    weight: 5
                  - name: InterPodAffinity
                    weight: 1
              filter:
                enabled:
                  - name: NodePorts
        """,
        target_version="1.24",
    )
    assert codes(result, "warning") == ["K8SM-SCHED-001", "K8SM-SCHED-001"]
    messages = [f.message for f in result.findings]
    assert "InterPodAffinity 1 (v1beta3 default 2)" in messages[1] and "NodeAffinity" not in messages[1]
    validate_scheduler(result.text, V1BETA3)


def test_score_set_without_enabled_gets_one() -> None:
    check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: a
            plugins:
              score:
                disabled:
                  - name: InterPodAffinity
                  - name: NodeAffinity
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: a
            plugins:
              score:
                enabled:
                  - name: TaintToleration
                    weight: 1
                disabled:
                  - name: InterPodAffinity
                  - name: NodeAffinity
        """,
        target_version="1.24",
    )


def test_bind_addresses_dropped_and_typed_args_follow_the_version() -> None:
    result = check_transformed(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        healthzBindAddress: 0.0.0.0:10251
        metricsBindAddress: 0.0.0.0:10251
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  - {name: InterPodAffinity, weight: 1}
                  - {name: NodeAffinity, weight: 1}
                  - {name: TaintToleration, weight: 1}
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  apiVersion: kubescheduler.config.k8s.io/v1beta2
                  kind: NodeResourcesFitArgs
                  scoringStrategy:
                    type: MostAllocated
        """,
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta3
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
            plugins:
              score:
                enabled:
                  - {name: InterPodAffinity, weight: 1}
                  - {name: NodeAffinity, weight: 1}
                  - {name: TaintToleration, weight: 1}
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  apiVersion: kubescheduler.config.k8s.io/v1beta3
                  kind: NodeResourcesFitArgs
                  scoringStrategy:
                    type: MostAllocated
        """,
        target_version="1.24",
    )
    assert codes(result) == ["K8SM-SCHED-002", "K8SM-SCHED-002"]
    validate_scheduler(result.text, V1BETA3)


# ------------------------------------------------------------------ findings


def test_adopt_new_defaults_pins_nothing() -> None:
    text = """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: default-scheduler
        """
    result = run(text, target_version="1.24", adopt_new_defaults=True)
    assert result.text == text.replace("v1beta2", "v1beta3").replace("\n        ", "\n").lstrip("\n")
    assert codes(result) == ["K8SM-GEN-002"]
    assert "TaintToleration 1 → 3" in result.findings[0].message


def test_comment_on_a_dropped_bind_address_is_reported() -> None:
    result = run(
        """
        apiVersion: kubescheduler.config.k8s.io/v1beta2
        kind: KubeSchedulerConfiguration
        healthzBindAddress: 0.0.0.0:10251  # the insecure port
        profiles:
          - schedulerName: default-scheduler
            plugins: {score: {disabled: [{name: "*"}]}}
        """,
        target_version="1.24",
    )
    assert "healthzBindAddress" not in result.text
    assert codes(result, "warning") == ["K8SM-SCHED-002", "K8SM-GEN-004"]
