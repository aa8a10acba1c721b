"""Spec: CSIStorageCapacity storage.k8s.io/v1alpha1 → v1beta1 → v1 (apiVersion only)."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, validate

CAPACITY = """
    apiVersion: {api}
    kind: CSIStorageCapacity
    metadata:
      name: fast-zone-a
      namespace: kube-system
    storageClassName: fast
    capacity: 100Gi
    """


def test_noop_window_before_v1() -> None:
    check_noop(CAPACITY.format(api="storage.k8s.io/v1beta1"), target_version="1.23")


def test_noop_other_kind_same_version() -> None:
    check_noop(
        """
        apiVersion: storage.k8s.io/v1beta1
        kind: SomethingElse
        """
    )


@pytest.mark.parametrize("version", ["v1alpha1", "v1beta1"])
def test_rename(version: str) -> None:
    result = check_transformed(
        CAPACITY.format(api=f"storage.k8s.io/{version}"), CAPACITY.format(api="storage.k8s.io/v1")
    )
    assert codes(result) == []
    validate(result.text)


def test_v1alpha1_stops_at_v1beta1_for_a_1_21_window() -> None:
    check_transformed(
        CAPACITY.format(api="storage.k8s.io/v1alpha1"),
        CAPACITY.format(api="storage.k8s.io/v1beta1"),
        target_version="1.24",
        min_version="1.21",
    )
