"""Spec: HorizontalPodAutoscaler autoscaling/v2beta2 → autoscaling/v2 (apiVersion only)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

HPA = """
    apiVersion: {api}
    kind: HorizontalPodAutoscaler
    metadata:
      name: web
    spec:
      scaleTargetRef: {{apiVersion: apps/v1, kind: Deployment, name: web}}
      maxReplicas: 10
      metrics:
      - type: Resource
        resource:
          name: cpu
          target: {{type: Utilization, averageUtilization: 50}}
      behavior:
        scaleDown:
          stabilizationWindowSeconds: 300
    """


def test_noop_below_gate() -> None:
    check_noop(HPA.format(api="autoscaling/v2beta2"), target_version="1.22")


def test_rename() -> None:
    result = check_transformed(HPA.format(api="autoscaling/v2beta2"), HPA.format(api="autoscaling/v2"))
    assert codes(result) == []
    validate(result.text)


def test_window_from_1_22_keeps_v2beta2() -> None:
    result = check_noop(HPA.format(api="autoscaling/v2beta2"), target_version="1.25", min_version="1.22")
    assert codes(result) == ["K8SM-GEN-008"]  # deprecated since 1.23, nothing to migrate to yet


def test_status_dropped() -> None:
    result = run(HPA.format(api="autoscaling/v2beta2").rstrip(" ") + "    status:\n      currentReplicas: 1\n")
    assert "status" not in result.text
    assert codes(result) == ["K8SM-HPA-005"]


def test_corpus_fixture(corpus) -> None:  # type: ignore[no-untyped-def]
    result = run((corpus / "kube-no-trouble-2366d92__fixtures_autoscaler-v2beta2.yaml").read_text())
    assert result.changed and codes(result, "error") == []
    validate(result.text)
