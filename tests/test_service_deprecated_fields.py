"""Spec: Service spec.loadBalancerIP (from 1.24) and spec.externalIPs (from 1.36) are reported, never rewritten."""

from __future__ import annotations

from tests.helpers import check_noop, codes

SVC = """
apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  type: LoadBalancer
  selector: {app: s}
  ports:
  - port: 80
  loadBalancerIP: 203.0.113.10
  externalIPs:
  - 203.0.113.11
"""


def test_noop_without_the_fields() -> None:
    result = check_noop(
        SVC.replace("  loadBalancerIP: 203.0.113.10\n  externalIPs:\n  - 203.0.113.11\n", ""), target_version="1.36"
    )
    assert codes(result) == []


def test_noop_on_another_kind() -> None:
    result = check_noop(SVC.replace("kind: Service", "kind: ConfigMap"), target_version="1.36")
    assert codes(result) == []


def test_nothing_below_1_24() -> None:
    assert codes(check_noop(SVC, target_version="1.23")) == []


def test_load_balancer_ip_from_1_24_external_ips_not_yet() -> None:
    result = check_noop(SVC, target_version="1.35")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-FLD-021", "info", 10)]
    assert "use your load balancer's annotation" in result.findings[0].message


def test_both_from_1_36() -> None:
    result = check_noop(SVC, target_version="1.36")
    assert [(f.code, f.level, f.line) for f in result.findings] == [
        ("K8SM-FLD-021", "info", 10),
        ("K8SM-FLD-022", "warning", 12),
    ]
    assert "may no longer be implemented in some clusters" in result.findings[1].message


def test_empty_values_say_nothing() -> None:
    before = SVC.replace("loadBalancerIP: 203.0.113.10", 'loadBalancerIP: ""').replace(
        "  externalIPs:\n  - 203.0.113.11\n", "  externalIPs: []\n"
    )
    assert codes(check_noop(before, target_version="1.36")) == []


def test_external_ips_of_headless_and_external_name_services_are_ignored_upstream() -> None:
    headless = SVC.replace("type: LoadBalancer", "clusterIP: None").replace("  loadBalancerIP: 203.0.113.10\n", "")
    external = SVC.replace("type: LoadBalancer", "type: ExternalName\n  externalName: db.example.com").replace(
        "  loadBalancerIP: 203.0.113.10\n", ""
    )
    for before in (headless, external):
        assert codes(check_noop(before, target_version="1.36")) == []
