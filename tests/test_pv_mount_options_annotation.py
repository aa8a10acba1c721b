"""Spec: the PersistentVolume mount-options beta annotation moves to spec.mountOptions (clean-up)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

PV = """
apiVersion: v1
kind: PersistentVolume
metadata:
  name: nfs
  annotations:
    volume.beta.kubernetes.io/mount-options: "hard,nfsvers=4.1, noatime"
spec:
  capacity:
    storage: 1Gi
  accessModes: [ReadWriteMany]
  nfs:
    server: nfs.example.com
    path: /exports
"""
MOVED = """
apiVersion: v1
kind: PersistentVolume
metadata:
  name: nfs
spec:
  capacity:
    storage: 1Gi
  accessModes: [ReadWriteMany]
  nfs:
    server: nfs.example.com
    path: /exports
  mountOptions:
  - hard
  - nfsvers=4.1
  - noatime
"""


def test_noop_without_the_annotation() -> None:
    check_noop(MOVED)


def test_noop_on_a_claim() -> None:
    check_noop(
        """
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata:
          name: c
          annotations:
            volume.beta.kubernetes.io/mount-options: hard
        spec:
          accessModes: [ReadWriteOnce]
          resources:
            requests:
              storage: 1Gi
        """
    )


def test_moved_to_the_field_at_any_target() -> None:
    for target in ("1.16", "1.29"):
        result = check_transformed(PV, MOVED, target_version=target)
        assert codes(result, "info") == ["K8SM-FLD-014"]
        assert result.findings[0].line == 6
    validate(MOVED)


def test_dropped_beside_the_same_options() -> None:
    field = "  mountOptions: [noatime, hard, nfsvers=4.1]\n"
    result = check_transformed(
        PV + field, MOVED.replace("  mountOptions:\n  - hard\n  - nfsvers=4.1\n  - noatime\n", field)
    )
    assert codes(result) == ["K8SM-FLD-014"]
    assert "says the same" in result.findings[0].message


def test_different_options_are_an_error_and_change_nothing() -> None:
    before = PV + "  mountOptions: [soft]\n"
    result = run(before)
    assert result.text == before.lstrip("\n")
    assert codes(result, "error") == ["K8SM-FLD-061"]
