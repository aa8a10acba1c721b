"""Spec: the storage-class beta annotation moves to spec.storageClassName, only when asked for (opt-in)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, validate

PVC = """
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  annotations:
    volume.beta.kubernetes.io/storage-class: fast
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
"""

ONLY = {"only": ("storage_class_annotation",)}


def test_noop_unless_asked_for() -> None:
    check_noop(PVC)


def test_moved_to_the_field() -> None:
    result = check_transformed(
        PVC,
        """
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata:
          name: data
        spec:
          accessModes: [ReadWriteOnce]
          resources:
            requests:
              storage: 1Gi
          storageClassName: fast
        """,
        **ONLY,
    )
    assert codes(result) == ["K8SM-FLD-013"]
    validate(result.text)


def test_statefulset_claim_templates() -> None:
    result = check_transformed(
        """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata:
          name: s
        spec:
          serviceName: s
          selector:
            matchLabels: {app: s}
          template:
            metadata:
              labels: {app: s}
            spec:
              containers:
              - name: c
                image: nginx
          volumeClaimTemplates:
          - metadata:
              name: data
              annotations:
                volume.beta.kubernetes.io/storage-class: ""
            spec:
              accessModes: [ReadWriteOnce]
              resources: {requests: {storage: 1Gi}}
        """,
        """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata:
          name: s
        spec:
          serviceName: s
          selector:
            matchLabels: {app: s}
          template:
            metadata:
              labels: {app: s}
            spec:
              containers:
              - name: c
                image: nginx
          volumeClaimTemplates:
          - metadata:
              name: data
            spec:
              accessModes: [ReadWriteOnce]
              resources: {requests: {storage: 1Gi}}
              storageClassName: ""
        """,
        **ONLY,
    )
    validate(result.text)


def test_disagreeing_field_is_an_error() -> None:
    result = check_noop(PVC + "  storageClassName: slow\n", **ONLY)
    assert codes(result, "error") == ["K8SM-FLD-045"]
