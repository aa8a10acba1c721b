"""Spec: the Service load-balancer-source-ranges annotation moves to spec.loadBalancerSourceRanges (clean-up)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

SVC = """
apiVersion: v1
kind: Service
metadata:
  name: s
  annotations:
    team: web
    service.beta.kubernetes.io/load-balancer-source-ranges: "10.0.0.0/8, 192.168.0.0/16"  # office
spec:
  type: LoadBalancer
  selector: {app: s}
  ports:
  - port: 80
"""
MOVED = """
apiVersion: v1
kind: Service
metadata:
  name: s
  annotations:
    team: web
spec:
  type: LoadBalancer
  selector: {app: s}
  ports:
  - port: 80
  loadBalancerSourceRanges:  # office
  - 10.0.0.0/8
  - 192.168.0.0/16
"""


def test_noop_without_the_annotation() -> None:
    check_noop(MOVED)


def test_noop_on_another_kind() -> None:
    check_noop(SVC.replace("kind: Service", "kind: ConfigMap"))


def test_moved_to_the_field_at_any_target() -> None:
    for target in ("1.16", "1.29"):
        result = check_transformed(SVC, MOVED, target_version=target)
        assert codes(result, "info") == ["K8SM-FLD-016"]
        assert result.findings[0].line == 7
    validate(MOVED)


def test_the_last_annotation_takes_the_mapping_with_it() -> None:
    result = check_transformed(
        SVC.replace("    team: web\n", ""),
        MOVED.replace("  annotations:\n    team: web\n", ""),
    )
    assert codes(result) == ["K8SM-FLD-016"]


def test_empty_value_is_only_deleted() -> None:
    before = SVC.replace('"10.0.0.0/8, 192.168.0.0/16"  # office', '""')
    after = MOVED.replace("  loadBalancerSourceRanges:  # office\n  - 10.0.0.0/8\n  - 192.168.0.0/16\n", "")
    result = check_transformed(before, after)
    assert "every source" in result.findings[0].message


def test_dropped_beside_the_same_ranges_in_any_order() -> None:
    field = "  loadBalancerSourceRanges: [192.168.0.0/16, 10.0.0.0/8]\n"
    result = check_transformed(
        SVC + field, MOVED.replace("  loadBalancerSourceRanges:  # office\n  - 10.0.0.0/8\n  - 192.168.0.0/16\n", field)
    )
    assert "says the same" in result.findings[0].message


def test_different_ranges_are_an_error_and_change_nothing() -> None:
    before = SVC + "  loadBalancerSourceRanges: [10.0.0.0/8]\n"
    result = run(before)
    assert result.text == before.lstrip("\n")
    assert codes(result, "error") == ["K8SM-FLD-060"]
    assert result.findings[0].line == 7
