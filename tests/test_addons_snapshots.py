"""Spec: CSI snapshots — snapshot.storage.k8s.io/v1beta1 → v1 (external-snapshotter)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.addons_helpers import check_noop, check_transformed, codes, crd_valid, run

GOLDEN = Path(__file__).parent / "golden" / "addons" / "external-snapshotter"

SNAPSHOT = """
apiVersion: snapshot.storage.k8s.io/v1beta1
kind: VolumeSnapshot
metadata:
  name: db-snap
spec:
  volumeSnapshotClassName: csi-hostpath-snapclass  # the class
  source:
    persistentVolumeClaimName: db
"""


def test_noop_before_4_0() -> None:
    check_noop(SNAPSHOT, components={"external-snapshotter": "3.0"})


def test_noop_already_v1() -> None:
    check_noop(SNAPSHOT.replace("v1beta1", "v1"))


def test_snapshot_to_v1() -> None:
    result = check_transformed(SNAPSHOT, SNAPSHOT.replace("v1beta1", "v1"))
    assert codes(result) == []
    crd_valid(result.text)


def test_deprecated_but_kept_when_the_window_starts_before_v1() -> None:
    """4.0 serves v1 beside v1beta1; with the window there the step runs (v1 is served)."""
    check_transformed(SNAPSHOT, SNAPSHOT.replace("v1beta1", "v1"), components={"external-snapshotter": "4.0"})


@pytest.mark.parametrize("kind", ["VolumeSnapshotClass", "VolumeSnapshotContent"])
def test_other_kinds(kind: str) -> None:
    text = {
        "VolumeSnapshotClass": """
            apiVersion: snapshot.storage.k8s.io/v1beta1
            kind: VolumeSnapshotClass
            metadata:
              name: c
            driver: hostpath.csi.k8s.io
            deletionPolicy: Delete
            """,
        "VolumeSnapshotContent": """
            apiVersion: snapshot.storage.k8s.io/v1beta1
            kind: VolumeSnapshotContent
            metadata:
              name: c
            spec:
              deletionPolicy: Retain
              driver: hostpath.csi.k8s.io
              source:
                snapshotHandle: 7bdd0de3
              volumeSnapshotRef:
                name: db-snap
                namespace: default
            """,
    }[kind]
    result = check_transformed(text, text.replace("v1beta1", "v1"))
    crd_valid(result.text)


def test_both_sources_need_a_human() -> None:
    result = run(
        """
        apiVersion: snapshot.storage.k8s.io/v1beta1
        kind: VolumeSnapshot
        metadata:
          name: s
        spec:
          source:
            persistentVolumeClaimName: db
            volumeSnapshotContentName: c
        """
    )
    assert "K8SM-SNP-001" in codes(result, "error")
    assert not result.changed


def test_empty_class_name_needs_a_human() -> None:
    result = run(SNAPSHOT.replace("csi-hostpath-snapclass", '""'))
    assert "K8SM-SNP-002" in codes(result, "error")


@pytest.mark.parametrize("name", ["snapshot", "snapshotclass"])
def test_upstream_examples(name: str) -> None:
    """kubernetes-csi/external-snapshotter 78164c33 (v4.1.0) ``examples/kubernetes/{snapshot,snapshotclass}-v1{beta1,}.yaml``
    (golden/addons/external-snapshotter/SOURCES.tsv).

    Upstream's v1 examples differ from the v1beta1 ones by the apiVersion and a ``-v1`` suffix
    on names; the migration changes the apiVersion alone.
    """
    old = (GOLDEN / f"{name}-v1beta1.yaml").read_text(encoding="utf-8")
    new = (GOLDEN / f"{name}-v1.yaml").read_text(encoding="utf-8")
    result = run(old, exact=True)
    assert codes(result) == []

    def unsuffixed(text: str) -> object:
        return yaml.safe_load(text.replace("-v1\n", "\n"))

    assert unsuffixed(result.text) == unsuffixed(new)
    crd_valid(result.text)


def test_upstream_invalid_example_is_refused() -> None:
    """``invalid-snapshot-v1beta1.yaml`` sets both sources: v1 rejects it, so does the migration."""
    result = run((GOLDEN / "invalid-snapshot-v1beta1.yaml").read_text(encoding="utf-8"))
    assert "K8SM-SNP-001" in codes(result, "error")
