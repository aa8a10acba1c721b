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


# metadata.selfLink: deleted for targets from 1.24 (RemoveSelfLink locked), wherever metadata stands.

EXPORTED = """
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
    selfLink: /api/v1/namespaces/default/configmaps/c
    namespace: default
  data:
    selfLink: kept
"""


def test_noop_below_1_24_for_self_link() -> None:
    check_noop(EXPORTED, target_version="1.23")


def test_noop_when_self_link_is_not_object_metadata() -> None:
    check_noop(EXPORTED.replace("    selfLink: /api/v1/namespaces/default/configmaps/c\n", ""))


def test_self_link_removed_from_list_items() -> None:
    result = check_transformed(
        EXPORTED,
        EXPORTED.replace("    selfLink: /api/v1/namespaces/default/configmaps/c\n", ""),
        target_version="1.24",
    )
    assert [(f.level, f.code) for f in result.findings] == [("info", "K8SM-FLD-024")]
    validate(result.text, "1.29.0")


def test_self_link_and_cluster_name_each_by_their_release() -> None:
    before = """
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: c
      clusterName: east
      selfLink: /api/v1/namespaces/default/configmaps/c
    """
    after_1_24 = """
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: c
      clusterName: east
    """
    result = check_transformed(before, after_1_24, target_version="1.24")
    assert codes(result) == ["K8SM-FLD-024"]
    result = check_transformed(before, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
    assert sorted(codes(result)) == ["K8SM-FLD-024", "K8SM-OBJ-001"]
    assert result.documents[0].applied == ["removed_object_fields"]
