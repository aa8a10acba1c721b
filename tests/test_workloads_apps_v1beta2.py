"""Spec: workloads apps/v1beta2 → apps/v1 (apiVersion only)."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, validate


def test_noop_other_version() -> None:
    check_noop(
        """
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: agent
        """
    )


@pytest.mark.parametrize("kind", ["Deployment", "DaemonSet", "ReplicaSet", "StatefulSet"])
def test_rename_only(kind: str) -> None:
    extra = "serviceName: x" if kind == "StatefulSet" else "minReadySeconds: 0"
    result = check_transformed(
        f"""
        apiVersion: apps/v1beta2  # old
        kind: {kind}
        metadata:
          name: x
        spec:
          {extra}
          selector:
            matchLabels: {{app: x}}
          template:
            metadata:
              labels: {{app: x}}
            spec:
              containers: [{{name: x, image: x}}]
        """,
        f"""
        apiVersion: apps/v1  # old
        kind: {kind}
        metadata:
          name: x
        spec:
          {extra}
          selector:
            matchLabels: {{app: x}}
          template:
            metadata:
              labels: {{app: x}}
            spec:
              containers: [{{name: x, image: x}}]
        """,
    )
    assert codes(result) == []
    validate(result.text)


def test_controller_revision() -> None:
    check_transformed(
        """
        apiVersion: apps/v1beta2
        kind: ControllerRevision
        revision: 2
        """,
        """
        apiVersion: apps/v1
        kind: ControllerRevision
        revision: 2
        """,
    )


def test_missing_selector_is_an_error_not_a_guess() -> None:
    result = check_noop(
        """
        apiVersion: apps/v1beta2
        kind: Deployment
        metadata:
          name: x
        spec:
          template:
            metadata:
              labels: {app: x}
        """
    )
    assert codes(result, "error") == ["K8SM-APPS-012"]
