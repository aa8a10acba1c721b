"""Spec: metadata.clusterName is removed wherever object metadata stands, for targets from 1.25."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, validate


def test_noop_without_cluster_name() -> None:
    check_noop("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")


def test_noop_below_1_25() -> None:
    check_noop("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  clusterName: x\n", target_version="1.24")


def test_noop_when_cluster_name_is_not_object_metadata() -> None:
    check_noop("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  clusterName: x\n")


def test_removed_at_every_depth() -> None:
    result = check_transformed(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: d
          clusterName: east
        spec:
          selector:
            matchLabels: {app: d}
          template:
            metadata:
              clusterName: east
              labels: {app: d}
            spec:
              containers:
              - name: c
                image: nginx
              volumes:
              - name: scratch
                ephemeral:
                  volumeClaimTemplate:
                    metadata:
                      clusterName: east
                    spec:
                      accessModes: [ReadWriteOnce]
                      resources: {requests: {storage: 1Gi}}
        """,
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: d
        spec:
          selector:
            matchLabels: {app: d}
          template:
            metadata:
              labels: {app: d}
            spec:
              containers:
              - name: c
                image: nginx
              volumes:
              - name: scratch
                ephemeral:
                  volumeClaimTemplate:
                    metadata: {}
                    spec:
                      accessModes: [ReadWriteOnce]
                      resources: {requests: {storage: 1Gi}}
        """,
    )
    assert codes(result) == ["K8SM-OBJ-001"] * 3
    assert result.documents[0].applied == ["removed_object_fields"]
    validate(result.text, "1.29.0")
