"""Spec: ports 10251/10252 (insecure scheduler and controller-manager ports) are reported, never rewritten."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, codes

SERVICE = """
apiVersion: v1
kind: Service
metadata:
  name: kube-scheduler
  namespace: kube-system
spec:
  selector: {{component: kube-scheduler}}
  ports:
  - name: http-metrics
    port: {port}
    targetPort: {port}
"""

MONITOR = """
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {{name: kcm}}
spec:
  selector: {{matchLabels: {{component: kube-controller-manager}}}}
  endpoints:
  - targetPort: {port}
    scheme: http
"""

POLICY = """
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {{name: p}}
spec:
  podSelector: {{}}
  egress:
  - ports:
    - {{port: {port}, protocol: TCP}}
"""

PROBE = """
apiVersion: v1
kind: Pod
metadata: {{name: kube-scheduler}}
spec:
  containers:
  - name: s
    image: registry.k8s.io/kube-scheduler:v1.18.0
    livenessProbe:
      httpGet: {{host: 127.0.0.1, path: /healthz, port: {port}, scheme: HTTP}}
"""


def test_noop_below_1_19() -> None:
    assert codes(check_noop(SERVICE.format(port=10251), target_version="1.18")) == []


def test_noop_on_other_ports() -> None:
    for text in (SERVICE, MONITOR, POLICY, PROBE):
        assert codes(check_noop(text.format(port=10250))) == []
        assert codes(check_noop(text.format(port=10259))) == []


def test_service_is_a_warning_naming_the_secure_port() -> None:
    result = check_noop(SERVICE.format(port=10251))
    assert codes(result, "warning") == ["K8SM-ADM-001"]
    assert "10259 over HTTPS" in result.findings[0].message
    assert result.findings[0].line == 9


def test_kubeadm_only_window_is_an_info() -> None:
    result = check_noop(SERVICE.format(port=10251), target_version="1.21")
    assert codes(result, "info") == ["K8SM-ADM-007"]
    assert "kubeadm" in result.findings[0].message


@pytest.mark.parametrize(
    ("text", "code", "secure"),
    [
        (MONITOR.format(port=10252), "K8SM-ADM-001", "10257"),
        (POLICY.format(port=10252), "K8SM-ADM-002", "10257"),
        (POLICY.format(port='"10251"'), "K8SM-ADM-002", "10259"),
        (PROBE.format(port=10251), "K8SM-ADM-003", "10259"),
    ],
)
def test_each_place_is_reported(text: str, code: str, secure: str) -> None:
    result = check_noop(text)
    assert codes(result) == [code]
    assert secure in result.findings[0].message
