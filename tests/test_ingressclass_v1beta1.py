"""Spec: IngressClass networking.k8s.io/v1beta1 → v1 (apiVersion only)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, validate


def test_noop_v1() -> None:
    check_noop("apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\n")


def test_noop_below_gate() -> None:
    check_noop("apiVersion: networking.k8s.io/v1beta1\nkind: IngressClass\n", target_version="1.18")


def test_parameters_are_kept() -> None:
    result = check_transformed(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: IngressClass
        metadata:
          name: external-lb
        spec:
          controller: example.com/ingress-controller
          parameters:
            apiGroup: k8s.example.com
            kind: IngressParameters
            name: external-lb
            scope: Namespace
            namespace: external-configuration
        """,
        """
        apiVersion: networking.k8s.io/v1
        kind: IngressClass
        metadata:
          name: external-lb
        spec:
          controller: example.com/ingress-controller
          parameters:
            apiGroup: k8s.example.com
            kind: IngressParameters
            name: external-lb
            scope: Namespace
            namespace: external-configuration
        """,
    )
    validate(result.text)
