"""Spec: the Node preferAvoidPods annotation is reported from 1.22, never rewritten."""

from __future__ import annotations

from tests.helpers import check_noop, codes

NODE = """
apiVersion: v1
kind: Node
metadata:
  name: n1
  annotations:
    scheduler.alpha.kubernetes.io/preferAvoidPods: '{"preferAvoidPods": []}'
spec: {}
"""


def test_noop_below_1_22() -> None:
    assert codes(check_noop(NODE, target_version="1.21")) == []


def test_noop_without_the_annotation() -> None:
    before = NODE.replace("scheduler.alpha.kubernetes.io/preferAvoidPods", "example.com/other")
    assert codes(check_noop(before, target_version="1.29")) == []


def test_noop_on_another_kind() -> None:
    assert codes(check_noop(NODE.replace("kind: Node", "kind: Pod"), target_version="1.29")) == []


def test_reported_from_1_22() -> None:
    result = check_noop(NODE, target_version="1.22")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-FLD-028", "info", 6)]
    assert "taints and tolerations" in result.findings[0].message
