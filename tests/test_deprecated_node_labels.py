"""Spec: deprecated beta node labels → GA labels in pod scheduling constraints (opt-in, targets from 1.17)."""

from __future__ import annotations

from typing import Any

from tests.helpers import check_noop, check_transformed, codes, run, validate

ONLY: dict[str, Any] = {"only": ("deprecated_node_labels",)}

DEPLOY = """
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
      nodeSelector:
        beta.kubernetes.io/os: linux  # linux only
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - key: beta.kubernetes.io/arch
                operator: In
                values: [amd64]
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 1
            preference:
              matchExpressions:
              - {key: beta.kubernetes.io/instance-type, operator: In, values: [m5.large]}
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels: {app: d}
            topologyKey: failure-domain.beta.kubernetes.io/zone
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 1
            podAffinityTerm:
              labelSelector:
                matchLabels: {app: d}
              topologyKey: "failure-domain.beta.kubernetes.io/region"
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: failure-domain.beta.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
        labelSelector:
          matchLabels: {app: d}
      containers:
      - name: c
        image: nginx
"""
MIGRATED = (
    DEPLOY.replace("beta.kubernetes.io/os", "kubernetes.io/os")
    .replace("beta.kubernetes.io/arch", "kubernetes.io/arch")
    .replace("beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type")
    .replace("failure-domain.beta.kubernetes.io/", "topology.kubernetes.io/")
)


def test_noop_unless_asked_for() -> None:
    check_noop(DEPLOY)


def test_noop_below_1_17() -> None:
    check_noop(DEPLOY, target_version="1.16", **ONLY)


def test_noop_on_a_persistent_volume() -> None:
    check_noop(
        """
        apiVersion: v1
        kind: PersistentVolume
        metadata:
          name: pv
        spec:
          capacity: {storage: 1Gi}
          accessModes: [ReadWriteOnce]
          local: {path: /data}
          nodeAffinity:
            required:
              nodeSelectorTerms:
              - matchExpressions:
                - {key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a]}
        """,
        **ONLY,
    )


def test_noop_with_ga_labels() -> None:
    check_noop(MIGRATED, **ONLY)


def test_every_place_renamed_keeping_values_quotes_and_comments() -> None:
    result = check_transformed(DEPLOY, MIGRATED, **ONLY)
    assert codes(result) == ["K8SM-FLD-019"] * 6
    assert result.documents[0].applied == ["deprecated_node_labels"]
    validate(result.text, "1.29.0")


def test_runtime_class_scheduling() -> None:
    before = """
    apiVersion: node.k8s.io/v1
    kind: RuntimeClass
    metadata:
      name: r
    handler: runc
    scheduling:
      nodeSelector:
        beta.kubernetes.io/arch: arm64
    """
    result = check_transformed(before, before.replace("beta.kubernetes.io/arch", "kubernetes.io/arch"), **ONLY)
    assert codes(result) == ["K8SM-FLD-019"]
    validate(result.text, "1.29.0")


def test_node_selector_with_both_equal_keys_drops_the_old_one() -> None:
    old = "        beta.kubernetes.io/os: linux  # linux only\n"
    new = "        kubernetes.io/os: linux  # linux only\n"
    before = DEPLOY.replace(old, old.replace("  # linux only", "") + new)
    result = check_transformed(before, MIGRATED, **ONLY)
    assert codes(result) == ["K8SM-FLD-019"] * 6


def test_node_selector_with_both_different_keys_is_an_error() -> None:
    before = DEPLOY.replace("  # linux only\n", "\n        kubernetes.io/os: windows\n")
    result = run(before, **ONLY)
    assert result.text == before.lstrip("\n")
    assert codes(result, "error") == ["K8SM-FLD-055"]


def test_window_before_1_17_renames_only_the_labels_every_node_has() -> None:
    # Nodes before 1.17 carry kubernetes.io/os and /arch (1.14), not the topology labels.
    before = """
    apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec:
      nodeSelector:
        beta.kubernetes.io/os: linux
        failure-domain.beta.kubernetes.io/zone: a
      containers: [{name: c, image: nginx}]
    """
    result = check_transformed(
        before, before.replace("beta.kubernetes.io/os", "kubernetes.io/os"), min_version="1.16", **ONLY
    )
    assert codes(result) == ["K8SM-FLD-019"]
