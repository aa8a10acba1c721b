"""Spec: Service trafficDistribution PreferClose → PreferSameZone, targets from 1.35, windows from 1.34."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, validate

SVC = """
apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  selector: {app: s}
  trafficDistribution: PreferClose  # stay in the zone
  ports:
  - port: 80
"""
RENAMED = SVC.replace("PreferClose", "PreferSameZone")


def test_noop_on_another_kind() -> None:
    check_noop(SVC.replace("kind: Service", "kind: ConfigMap"), target_version="1.35")


def test_noop_below_1_35() -> None:
    check_noop(SVC, target_version="1.34")


def test_noop_on_other_values() -> None:
    check_noop(SVC.replace("PreferClose", "PreferSameNode"), target_version="1.35")


def test_window_before_1_34_keeps_it_and_says_why() -> None:
    # PreferSameZone is alpha and off in 1.33: the API server would reject it.
    result = check_noop(SVC, target_version="1.35", min_version="1.33")
    assert codes(result, "info") == ["K8SM-FLD-052"]


def test_renamed_with_its_comment() -> None:
    result = check_transformed(SVC, RENAMED, target_version="1.35", min_version="1.34")
    assert codes(result) == ["K8SM-FLD-003"]
    validate(result.text, "1.35.0")


def test_quote_style_kept() -> None:
    before = SVC.replace("PreferClose", '"PreferClose"')
    check_transformed(before, before.replace("PreferClose", "PreferSameZone"), target_version="1.36")
