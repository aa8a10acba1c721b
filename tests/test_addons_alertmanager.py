"""Spec: prometheus-operator AlertmanagerConfig v1alpha1 → v1beta1 (opt-in)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.addons_helpers import check_noop, check_transformed, codes, run

GOLDEN = Path(__file__).parent / "golden" / "addons" / "prometheus-operator"
ONLY = {"only": ["alertmanagerconfig_v1alpha1"]}

CONFIG = """
apiVersion: monitoring.coreos.com/v1alpha1
kind: AlertmanagerConfig
metadata:
  name: team
spec:
  route:
    receiver: pager
    matchers:
    - name: severity
      value: critical|warning
      regex: true
    routes:
    - receiver: pager
      matchers:
      - name: team
        value: web
        regex: false
  receivers:
  - name: pager
    pagerdutyConfigs:
    - routingKey:
        name: pd
        key: routing-key
        optional: true
  muteTimeIntervals:  # weekends
  - name: weekend
    timeIntervals:
    - weekdays: [saturday, sunday]
"""


def test_noop_without_opt_in() -> None:
    check_noop(CONFIG)


def test_v1alpha1_to_v1beta1() -> None:
    result = check_transformed(
        CONFIG,
        """
        apiVersion: monitoring.coreos.com/v1beta1
        kind: AlertmanagerConfig
        metadata:
          name: team
        spec:
          route:
            receiver: pager
            matchers:
            - name: severity
              value: critical|warning
              matchType: "=~"
            routes:
            - receiver: pager
              matchers:
              - name: team
                value: web
          receivers:
          - name: pager
            pagerdutyConfigs:
            - routingKey:
                name: pd
                key: routing-key
          timeIntervals:  # weekends
          - name: weekend
            timeIntervals:
            - weekdays: [saturday, sunday]
        """,
        **ONLY,
    )
    assert sorted(codes(result)) == ["K8SM-AMC-001", "K8SM-AMC-002"]


def test_update_alerts_dropped_as_the_converter_does() -> None:
    result = run(
        """
        apiVersion: monitoring.coreos.com/v1alpha1
        kind: AlertmanagerConfig
        metadata:
          name: team
        spec:
          receivers:
          - name: og
            opsgenieConfigs:
            - apiKey: {name: og, key: key}
              updateAlerts: true
        """,
        **ONLY,
    )
    assert codes(result) == ["K8SM-AMC-003"]
    assert "updateAlerts" not in result.text


def test_upstream_admission_golden() -> None:
    """prometheus-operator/prometheus-operator 6adcebc5 ``pkg/admission/testdata/happy_path_v1alpha1_v1beta1.golden`` and
    ``happy_path_v1beta1_v1alpha1.golden`` (golden/addons/prometheus-operator/SOURCES.tsv):
    the v1alpha1 spec converts to the v1beta1 one; the manifest stays JSON."""
    v1alpha1 = json.loads((GOLDEN / "happy_path_v1alpha1_v1beta1.golden").read_text(encoding="utf-8"))
    v1beta1 = json.loads((GOLDEN / "happy_path_v1beta1_v1alpha1.golden").read_text(encoding="utf-8"))
    manifest = {
        "apiVersion": "monitoring.coreos.com/v1alpha1",
        "kind": "AlertmanagerConfig",
        "metadata": {"name": "happy-path"},
        "spec": v1alpha1,
    }
    result = run(json.dumps(manifest, indent=2) + "\n", **ONLY)
    out = json.loads(result.text)
    assert out["apiVersion"] == "monitoring.coreos.com/v1beta1"
    assert out["spec"] == v1beta1
