"""Spec: Event events.k8s.io/v1beta1 → v1."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run, validate

GOOD = """
    apiVersion: {api}
    kind: Event
    metadata:
      name: web.1
      namespace: default
    eventTime: "2024-01-01T00:00:00.000000Z"
    action: Scale
    reason: ScalingReplicaSet
    reportingController: example.com/controller
    reportingInstance: controller-1
    type: Normal
    regarding: {{kind: Deployment, name: web, namespace: default}}
    """


def test_noop_core_event() -> None:
    check_noop(
        """
        apiVersion: v1
        kind: Event
        metadata: {name: x}
        """
    )


def test_noop_below_gate() -> None:
    check_noop(GOOD.format(api="events.k8s.io/v1beta1"), target_version="1.18")


def test_valid_event_is_a_rename() -> None:
    result = check_transformed(GOOD.format(api="events.k8s.io/v1beta1"), GOOD.format(api="events.k8s.io/v1"))
    assert codes(result) == []
    validate(result.text)


def test_deprecated_fields_moved() -> None:
    result = check_transformed(
        """
        apiVersion: events.k8s.io/v1beta1
        kind: Event
        metadata:
          name: web.1
          namespace: default
        action: Scale
        reason: ScalingReplicaSet
        type: Normal
        deprecatedSource:
          component: deployment-controller
          host: node-1
        deprecatedFirstTimestamp: "2024-01-01T00:00:00Z"
        deprecatedLastTimestamp: "2024-01-01T00:05:00Z"
        deprecatedCount: 3
        """,
        """
        apiVersion: events.k8s.io/v1
        kind: Event
        metadata:
          name: web.1
          namespace: default
        action: Scale
        reason: ScalingReplicaSet
        type: Normal
        reportingController: deployment-controller
        reportingInstance: node-1
        eventTime: "2024-01-01T00:00:00.000000Z"
        series:
          count: 3
          lastObservedTime: "2024-01-01T00:05:00.000000Z"
        """,
    )
    validate(result.text)
    assert codes(result) == ["K8SM-EVT-001", "K8SM-EVT-001", "K8SM-EVT-002", "K8SM-EVT-003"]


@pytest.mark.parametrize(
    ("stamp", "micro"),
    [
        ("2024-01-01T00:00:00Z", "2024-01-01T00:00:00.000000Z"),
        ("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.500000Z"),
        ("2024-01-01T00:00:00,25+02:00", "2024-01-01T00:00:00.250000+02:00"),
        ("2024-01-01T00:00:00.123456Z", "2024-01-01T00:00:00.123456Z"),
        ("2024-01-01T00:00:00.123456789Z", "2024-01-01T00:00:00.123456Z"),
    ],
)
def test_micro_time_has_exactly_six_fraction_digits(stamp: str, micro: str) -> None:
    # metav1.MicroTime parses with RFC3339Micro ("…05.000000Z07:00"): exactly six digits
    result = run(
        f"""
        apiVersion: events.k8s.io/v1beta1
        kind: Event
        metadata: {{name: web.1}}
        deprecatedFirstTimestamp: "{stamp}"
        deprecatedLastTimestamp: "{stamp}"
        deprecatedCount: 2
        """
    )
    assert f'eventTime: "{micro}"' in result.text
    assert f'lastObservedTime: "{micro}"' in result.text


def test_single_count_dropped_and_missing_fields_reported() -> None:
    result = check_transformed(
        """
        apiVersion: events.k8s.io/v1beta1
        kind: Event
        metadata: {name: web.1}
        reason: Started
        deprecatedCount: 1
        """,
        """
        apiVersion: events.k8s.io/v1
        kind: Event
        metadata: {name: web.1}
        reason: Started
        """,
    )
    assert codes(result) == ["K8SM-EVT-003", "K8SM-EVT-004"]
    assert "eventTime, action, reportingController, reportingInstance, type" in result.findings[-1].message
