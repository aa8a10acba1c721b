"""Spec: Ingress networking.k8s.io/v1beta1 → v1 (and the extensions/v1beta1 hop before it)."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, validate

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            """
            apiVersion: networking.k8s.io/v1
            kind: Ingress
            metadata:
              name: web
            spec:
              defaultBackend:
                service:
                  name: web
                  port:
                    number: 80
            """,
            id="already-v1",
        ),
        pytest.param(
            """
            apiVersion: networking.k8s.io/v1beta1
            kind: IngressRoute
            spec:
              backend:
                serviceName: web
                servicePort: 80
            """,
            id="other-kind-same-group",
        ),
        pytest.param(
            """
            apiVersion: traefik.containo.us/v1alpha1
            kind: Ingress
            spec:
              backend:
                serviceName: web
                servicePort: 80
            """,
            id="same-kind-other-group",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text)


def test_noop_below_gate_keeps_v1beta1() -> None:
    result = check_noop(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        spec:
          backend:
            serviceName: web
            servicePort: 80
        """,
        target_version="1.18",
    )
    assert codes(result) == []


def test_noop_templated_document() -> None:
    result = check_noop(
        """
        apiVersion: {{ include "ingress.apiVersion" . }}
        kind: Ingress
        spec:
          backend:
            serviceName: {{ .Values.name }}
            servicePort: {{ .Values.port }}
        """
    )
    assert codes(result) == []  # the apiVersion is computed: the template's helpers decide it


# ------------------------------------------------------------------ transforms


def test_default_backend_and_ports() -> None:
    result = check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web  # the site
        spec:
          backend:
            serviceName: web
            servicePort: 80
          rules:
          - host: example.com
            http:
              paths:
              - path: /api
                backend:
                  serviceName: api  # the API
                  servicePort: http
        """,
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: web  # the site
        spec:
          defaultBackend:
            service:
              name: web
              port:
                number: 80
          rules:
          - host: example.com
            http:
              paths:
              - path: /api
                pathType: ImplementationSpecific
                backend:
                  service:
                    name: api  # the API
                    port:
                      name: http
        """,
    )
    validate(result.text)
    assert [d.applied for d in result.documents] == [["ingress_extensions_v1beta1", "ingress_networking_v1beta1"]]
    assert "spec.backend → spec.defaultBackend" in result.documents[0].summary


def test_min_version_stops_at_networking_v1beta1() -> None:
    check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: Ingress
        spec:
          backend:
            serviceName: web
            servicePort: 80
        """,
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        spec:
          backend:
            serviceName: web
            servicePort: 80
        """,
        target_version="1.21",
        min_version="1.16",
    )


def test_quoted_numeric_port_becomes_number_with_warning() -> None:
    result = check_transformed(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        spec:
          backend:
            serviceName: web
            servicePort: "8080"
        """,
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        spec:
          defaultBackend:
            service:
              name: web
              port:
                number: 8080
        """,
    )
    assert codes(result, "warning") == ["K8SM-ING-002"]


@pytest.mark.parametrize("port", ["0", '""', "70000", "true"])
def test_invalid_port_is_an_error_and_leaves_document(port: str) -> None:
    text = f"""
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        spec:
          backend:
            serviceName: web
            servicePort: {port}
        """
    result = check_noop(text)
    assert "K8SM-ING-004" in codes(result, "error")
