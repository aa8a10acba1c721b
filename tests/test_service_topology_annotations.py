"""Spec: Service topology-aware-hints annotation → topology-mode, for targets and windows from 1.27."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

SVC = """
apiVersion: v1
kind: Service
metadata:
  name: s
  annotations:
    service.kubernetes.io/topology-aware-hints: Auto  # zone-aware
spec:
  selector: {app: s}
  ports:
  - port: 80
"""
RENAMED = SVC.replace("topology-aware-hints", "topology-mode")


def test_noop_on_another_kind() -> None:
    check_noop(SVC.replace("kind: Service", "kind: ConfigMap"), target_version="1.29")


def test_noop_below_1_27() -> None:
    check_noop(SVC, target_version="1.26")


def test_noop_without_the_annotation() -> None:
    check_noop(RENAMED, target_version="1.29")


def test_window_before_1_27_keeps_it_and_says_why() -> None:
    result = check_noop(SVC, target_version="1.29", min_version="1.26")
    assert codes(result, "info") == ["K8SM-FLD-050"]


def test_renamed_with_its_value_and_comment() -> None:
    result = check_transformed(SVC, RENAMED, target_version="1.29")
    assert codes(result) == ["K8SM-FLD-002"]
    assert result.documents[0].applied == ["service_topology_annotations"]
    validate(result.text, "1.29.0")


def test_quoted_key_and_value_keep_their_quotes() -> None:
    before = SVC.replace(
        "service.kubernetes.io/topology-aware-hints: Auto", "\"service.kubernetes.io/topology-aware-hints\": 'auto'"
    )
    check_transformed(before, before.replace("topology-aware-hints", "topology-mode"), target_version="1.29")


def test_dropped_beside_an_equal_topology_mode() -> None:
    before = SVC.replace("  # zone-aware\n", "\n    service.kubernetes.io/topology-mode: Auto\n")
    result = check_transformed(
        before, before.replace("    service.kubernetes.io/topology-aware-hints: Auto\n", ""), target_version="1.29"
    )
    assert codes(result) == ["K8SM-FLD-002"]


def test_different_values_are_an_error_and_change_nothing() -> None:
    before = SVC.replace("  # zone-aware\n", "\n    service.kubernetes.io/topology-mode: Disabled\n")
    result = run(before, target_version="1.29")
    assert result.text == before.lstrip("\n")
    assert codes(result, "error") == ["K8SM-FLD-051"]
