"""Spec: master node-role selectors and tolerations → control-plane, by window (targets from 1.24)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

DS = """
apiVersion: apps/v1
kind: DaemonSet
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
        node-role.kubernetes.io/master: ""
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - key: node-role.kubernetes.io/master
                operator: Exists
      tolerations:
      - key: node-role.kubernetes.io/master  # control plane
        effect: NoSchedule
      containers:
      - name: c
        image: nginx
"""


def test_noop_below_1_24() -> None:
    check_noop(DS, target_version="1.23")


def test_noop_without_the_master_role() -> None:
    check_noop(DS.replace("/master", "/worker"))


def test_after_the_change_only_control_plane() -> None:
    result = check_transformed(DS, DS.replace("/master", "/control-plane"), target_version="1.29")
    assert codes(result) == ["K8SM-FLD-017", "K8SM-FLD-017", "K8SM-FLD-018"]
    validate(result.text)


def test_window_spanning_the_taint_change_tolerates_both() -> None:
    result = check_transformed(
        DS,
        DS.replace('node-role.kubernetes.io/master: ""', 'node-role.kubernetes.io/control-plane: ""')
        .replace("- key: node-role.kubernetes.io/master\n", "- key: node-role.kubernetes.io/control-plane\n")
        .replace(
            "        effect: NoSchedule\n",
            "        effect: NoSchedule\n      - key: node-role.kubernetes.io/control-plane\n        effect: NoSchedule\n",
        ),
        target_version="1.29",
        min_version="1.23",
    )
    assert codes(result) == ["K8SM-FLD-017", "K8SM-FLD-017", "K8SM-FLD-018"]
    validate(result.text)


def test_window_before_1_20_adds_an_alternative_term() -> None:
    result = check_transformed(
        DS,
        DS.replace(
            "                operator: Exists\n",
            "                operator: Exists\n"
            "            - matchExpressions:\n"
            "              - key: node-role.kubernetes.io/control-plane\n"
            "                operator: Exists\n",
        ).replace(
            "        effect: NoSchedule\n",
            "        effect: NoSchedule\n      - key: node-role.kubernetes.io/control-plane\n        effect: NoSchedule\n",
        ),
        target_version="1.29",
        min_version="1.19",
    )
    assert codes(result) == ["K8SM-FLD-034", "K8SM-FLD-017", "K8SM-FLD-018"]


def test_negative_expression_gains_a_sibling_before_1_20() -> None:
    text = DS.replace("operator: Exists", "operator: DoesNotExist")
    result = check_transformed(
        text,
        text.replace(
            "                operator: DoesNotExist\n",
            "                operator: DoesNotExist\n"
            "              - key: node-role.kubernetes.io/control-plane\n"
            "                operator: DoesNotExist\n",
        ).replace(
            "        effect: NoSchedule\n",
            "        effect: NoSchedule\n      - key: node-role.kubernetes.io/control-plane\n        effect: NoSchedule\n",
        ),
        target_version="1.29",
        min_version="1.19",
    )
    assert "K8SM-FLD-017" in codes(result)


def test_master_toleration_dropped_beside_control_plane_after_1_25() -> None:
    check_transformed(
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          tolerations:
          - key: node-role.kubernetes.io/master
            effect: NoSchedule
          - key: node-role.kubernetes.io/control-plane
            effect: NoSchedule
          containers: []
        """,
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          tolerations:
          - key: node-role.kubernetes.io/control-plane
            effect: NoSchedule
          containers: []
        """,
    )


def test_runtime_class_scheduling() -> None:
    check_transformed(
        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: r\nhandler: runc\n"
        "scheduling:\n  nodeSelector:\n    node-role.kubernetes.io/master: ''\n",
        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: r\nhandler: runc\n"
        "scheduling:\n  nodeSelector:\n    node-role.kubernetes.io/control-plane: ''\n",
    )


def test_a_node_selector_with_both_labels_drops_master() -> None:
    both = "scheduling:\n  nodeSelector:\n    node-role.kubernetes.io/control-plane: ''\n    node-role.kubernetes.io/master: ''\n"
    head = "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: r\nhandler: runc\n"
    result = check_transformed(
        head + both, head + "scheduling:\n  nodeSelector:\n    node-role.kubernetes.io/control-plane: ''\n"
    )
    assert [(f.code, f.line) for f in result.findings] == [("K8SM-FLD-035", 9)]


# ------------------------------------------------------------------ kubeadm nodeRegistration.taints

INIT = """
apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
nodeRegistration:
  name: cp-1
  taints:
  - key: node-role.kubernetes.io/master  # keep workloads off
    effect: NoSchedule
"""


def test_kubeadm_taints_noop_below_1_24_and_without_master() -> None:
    check_noop(INIT, target_version="1.23")
    check_noop(INIT.replace("node-role.kubernetes.io/master", "example.com/dedicated"), target_version="1.29")
    check_noop(
        INIT.replace(
            "  taints:\n  - key: node-role.kubernetes.io/master  # keep workloads off\n    effect: NoSchedule\n",
            "  taints: []\n",
        ),
        target_version="1.29",
    )


def test_kubeadm_master_taint_renamed_from_1_25_keeping_its_comment() -> None:
    result = check_transformed(
        INIT,
        INIT.replace("key: node-role.kubernetes.io/master", "key: node-role.kubernetes.io/control-plane"),
        target_version="1.25",
    )
    assert codes(result) == ["K8SM-KADM-014"]


def test_kubeadm_master_taint_dropped_beside_control_plane_from_1_25() -> None:
    both = INIT.replace("kind: InitConfiguration", "kind: JoinConfiguration") + (
        "  - key: node-role.kubernetes.io/control-plane\n    effect: NoSchedule\n"
    )
    result = run(both, target_version="1.29")
    # the dropped taint's comment is reported, never lost silently
    assert [c for c in codes(result) if c != "K8SM-CRI-006"] == ["K8SM-KADM-014", "K8SM-GEN-004"]
    assert "node-role.kubernetes.io/master" not in result.text
    assert result.text.count("node-role.kubernetes.io/control-plane") == 1


def test_kubeadm_control_plane_taint_added_for_a_1_24_window() -> None:
    result = check_transformed(
        INIT,
        INIT + "  - key: node-role.kubernetes.io/control-plane\n    effect: NoSchedule\n",
        target_version="1.26",
        min_version="1.24",
    )
    assert [c for c in codes(result) if c != "K8SM-CRI-006"] == ["K8SM-KADM-014"]  # CRI-006: the dockershim check


def test_kubeadm_master_taint_kept_with_a_warning_before_1_24() -> None:
    result = check_noop(INIT, target_version="1.25", min_version="1.22")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-KADM-015", "warning", 6)]
