"""Spec: the critical-pod annotation is deleted (non-functional since 1.16); no priorityClassName invented."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, validate

DEPLOYMENT = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  annotations:
    scheduler.alpha.kubernetes.io/critical-pod: ""
spec:
  selector:
    matchLabels: {app: d}
  template:
    metadata:
      labels: {app: d}
      annotations:
        scheduler.alpha.kubernetes.io/critical-pod: ""
    spec:
      containers:
      - name: c
        image: nginx
"""


def test_noop_below_1_16() -> None:
    check_noop(DEPLOYMENT, target_version="1.15")


def test_noop_on_other_kinds() -> None:
    check_noop(DEPLOYMENT.replace("kind: Deployment", "kind: Service"))


def test_deleted_from_the_pod_template_only() -> None:
    result = check_transformed(
        DEPLOYMENT,
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: d
          annotations:
            scheduler.alpha.kubernetes.io/critical-pod: ""
        spec:
          selector:
            matchLabels: {app: d}
          template:
            metadata:
              labels: {app: d}
            spec:
              containers:
              - name: c
                image: nginx
        """,
    )
    assert codes(result) == ["K8SM-FLD-010"]
    assert "priorityClassName: system-cluster-critical" in result.findings[0].message
    assert "priorityClassName:" not in result.text
    validate(result.text)


def test_no_suggestion_when_a_priority_class_is_set() -> None:
    result = check_transformed(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
        "    scheduler.alpha.kubernetes.io/critical-pod: ''\n    a: b\n"
        "spec:\n  priorityClassName: high\n  containers: []\n",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    a: b\n"
        "spec:\n  priorityClassName: high\n  containers: []\n",
    )
    assert "priorityClassName" not in result.findings[0].message
