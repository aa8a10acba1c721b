"""Spec: HorizontalPodAutoscaler autoscaling/v2beta1 → autoscaling/v2."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

HEAD = """
    apiVersion: {api}
    kind: HorizontalPodAutoscaler
    metadata:
      name: web
    spec:
      scaleTargetRef:
        apiVersion: apps/v1
        kind: Deployment
        name: web
      maxReplicas: 10
    """


def test_noop_already_v2() -> None:
    check_noop(HEAD.format(api="autoscaling/v2"))


def test_noop_below_gate() -> None:
    check_noop(HEAD.format(api="autoscaling/v2beta1"), target_version="1.22")


def test_noop_v1_is_not_ours() -> None:
    check_noop(HEAD.format(api="autoscaling/v1"))


def test_no_metrics_is_a_rename() -> None:
    result = check_transformed(HEAD.format(api="autoscaling/v2beta1"), HEAD.format(api="autoscaling/v2"))
    validate(result.text)


def test_every_metric_source() -> None:
    result = check_transformed(
        """
        apiVersion: autoscaling/v2beta1
        kind: HorizontalPodAutoscaler
        metadata:
          name: web
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
          maxReplicas: 10
          metrics:
          - type: Resource
            resource:
              name: cpu
              targetAverageUtilization: 50  # half
          - type: Resource
            resource:
              name: memory
              targetAverageValue: 1Gi
          - type: ContainerResource
            containerResource:
              name: cpu
              container: app
              targetAverageUtilization: 60
          - type: Pods
            pods:
              metricName: packets
              selector: {matchLabels: {a: b}}
              targetAverageValue: 1k
          - type: Object
            object:
              target:  # the ingress
                apiVersion: networking.k8s.io/v1
                kind: Ingress
                name: main
              metricName: requests
              targetValue: 10k
          - type: Object
            object:
              target: {apiVersion: v1, kind: Service, name: s}
              metricName: rps
              targetValue: 0
              averageValue: 100
          - type: External
            external:
              metricName: queue
              metricSelector:
                matchLabels: {q: a}
              targetAverageValue: 30
          - type: External
            external:
              metricName: lag
              targetValue: 5
        """,
        """
        apiVersion: autoscaling/v2
        kind: HorizontalPodAutoscaler
        metadata:
          name: web
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
          maxReplicas: 10
          metrics:
          - type: Resource
            resource:
              name: cpu
              target:
                type: Utilization
                averageUtilization: 50  # half
          - type: Resource
            resource:
              name: memory
              target:
                type: AverageValue
                averageValue: 1Gi
          - type: ContainerResource
            containerResource:
              name: cpu
              container: app
              target:
                type: Utilization
                averageUtilization: 60
          - type: Pods
            pods:
              metric:
                name: packets
                selector: {matchLabels: {a: b}}
              target:
                type: AverageValue
                averageValue: 1k
          - type: Object
            object:
              describedObject:  # the ingress
                apiVersion: networking.k8s.io/v1
                kind: Ingress
                name: main
              metric:
                name: requests
              target:
                type: Value
                value: 10k
          - type: Object
            object:
              describedObject: {apiVersion: v1, kind: Service, name: s}
              metric:
                name: rps
              target:
                type: AverageValue
                averageValue: 100
          - type: External
            external:
              metric:
                name: queue
                selector:
                  matchLabels: {q: a}
              target:
                type: AverageValue
                averageValue: 30
          - type: External
            external:
              metric:
                name: lag
              target:
                type: Value
                value: 5
        """,
    )
    validate(result.text)
    assert codes(result) == ["K8SM-HPA-002"]


def test_status_dropped() -> None:
    result = run(
        """
        apiVersion: autoscaling/v2beta1
        kind: HorizontalPodAutoscaler
        metadata: {name: web}
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
          maxReplicas: 3
        status:
          currentReplicas: 1
          desiredReplicas: 1
          currentMetrics: []
        """
    )
    assert "status" not in result.text
    assert codes(result) == ["K8SM-HPA-005"]
    validate(result.text)


BEHAVIOR = (
    '{"ScaleDown":{"StabilizationWindowSeconds":60,"Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}]}}'
)


def test_behavior_annotation_lifted() -> None:
    result = check_transformed(
        """
        apiVersion: autoscaling/v2beta1
        kind: HorizontalPodAutoscaler
        metadata:
          name: web
          annotations:
            autoscaling.alpha.kubernetes.io/behavior: '{BEHAVIOR}'
            autoscaling.alpha.kubernetes.io/conditions: '[]'
            team: web
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
          maxReplicas: 3
        """.replace("{BEHAVIOR}", BEHAVIOR),
        """
        apiVersion: autoscaling/v2
        kind: HorizontalPodAutoscaler
        metadata:
          name: web
          annotations:
            team: web
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
          maxReplicas: 3
          behavior:
            scaleDown:
              stabilizationWindowSeconds: 60
              policies:
              - type: Percent
                value: 10
                periodSeconds: 60
        """,
    )
    validate(result.text)
    assert codes(result) == ["K8SM-HPA-003", "K8SM-HPA-004"]


def test_unreadable_behavior_annotation_dropped() -> None:
    result = run(
        """
        apiVersion: autoscaling/v2beta1
        kind: HorizontalPodAutoscaler
        metadata:
          name: web
          annotations:
            autoscaling.alpha.kubernetes.io/behavior: 'nope'
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
          maxReplicas: 3
        """
    )
    assert "annotations" not in result.text
    assert codes(result, "warning") == ["K8SM-HPA-004"]


def test_metric_without_target_is_an_error() -> None:
    result = check_noop(
        """
        apiVersion: autoscaling/v2beta1
        kind: HorizontalPodAutoscaler
        metadata: {name: web}
        spec:
          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
          maxReplicas: 3
          metrics:
          - type: Resource
            resource: {name: cpu}
        """
    )
    assert codes(result, "error") == ["K8SM-HPA-001"]


def test_scale_target_on_a_removed_api_is_reported() -> None:
    result = run(
        """
        apiVersion: autoscaling/v2beta1
        kind: HorizontalPodAutoscaler
        metadata: {name: web}
        spec:
          scaleTargetRef: {apiVersion: extensions/v1beta1, kind: Deployment, name: web}
          maxReplicas: 3
        """
    )
    assert codes(result) == ["K8SM-HPA-006"]
    assert "use apps/v1" in result.findings[0].message
    assert "apiVersion: extensions/v1beta1" in result.text


def test_scale_target_in_the_same_group_is_not_reported() -> None:
    # the HPA controller maps scaleTargetRef by group and kind only (reconcileAutoscaler):
    # apps/v1beta1 and apps/v1beta2 Deployments resolve through apps/v1
    for api in ("apps/v1beta1", "apps/v1beta2"):
        result = run(
            f"""
            apiVersion: autoscaling/v2beta1
            kind: HorizontalPodAutoscaler
            metadata: {{name: web}}
            spec:
              scaleTargetRef: {{apiVersion: {api}, kind: Deployment, name: web}}
              maxReplicas: 3
            """
        )
        assert codes(result) == []
        assert f"apiVersion: {api}" in result.text
