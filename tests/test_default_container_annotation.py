"""Spec: pod annotation default-logs-container → default-container, targets from 1.25, in every pod template."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

CRONJOB = """
apiVersion: batch/v1
kind: CronJob
metadata:
  name: c
  annotations:
    kubectl.kubernetes.io/default-logs-container: main  # object metadata: not a pod
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          annotations:
            kubectl.kubernetes.io/default-logs-container: main  # kubectl logs
        spec:
          restartPolicy: Never
          containers:
          - name: main
            image: busybox
          - name: sidecar
            image: busybox
"""
POD_KEY = "            kubectl.kubernetes.io/default-logs-container: main  # kubectl logs\n"
RENAMED = CRONJOB.replace(POD_KEY, POD_KEY.replace("default-logs-container", "default-container"))


def test_noop_on_another_kind() -> None:
    check_noop(CRONJOB.replace("kind: CronJob", "kind: Widget").replace("batch/v1", "example.com/v1"))


def test_noop_below_1_25() -> None:
    check_noop(CRONJOB, target_version="1.24")


def test_noop_without_the_annotation() -> None:
    check_noop(RENAMED)


def test_renamed_in_the_pod_template_only() -> None:
    result = check_transformed(CRONJOB, RENAMED)
    assert codes(result) == ["K8SM-FLD-026"]
    validate(result.text, "1.29.0")


def test_renamed_on_a_pod() -> None:
    before = """
    apiVersion: v1
    kind: Pod
    metadata:
      name: p
      annotations: {kubectl.kubernetes.io/default-logs-container: main}
    spec:
      containers:
      - name: main
        image: busybox
    """
    result = check_transformed(before, before.replace("default-logs-container", "default-container"))
    assert codes(result) == ["K8SM-FLD-026"]


def test_dropped_beside_an_equal_default_container() -> None:
    new_key = "            kubectl.kubernetes.io/default-container: main\n"
    before = CRONJOB.replace(POD_KEY, new_key + POD_KEY.replace("  # kubectl logs", ""))
    result = check_transformed(before, before.replace(POD_KEY.replace("  # kubectl logs", ""), ""))
    assert codes(result) == ["K8SM-FLD-026"]


def test_the_commented_twin_is_the_one_kept() -> None:
    # The old key carries the only comment: it is renamed, the uncommented new key goes.
    before = CRONJOB.replace(POD_KEY, POD_KEY + "            kubectl.kubernetes.io/default-container: main\n")
    result = check_transformed(before, RENAMED)
    assert codes(result) == ["K8SM-FLD-026"]


def test_different_containers_are_an_error_and_change_nothing() -> None:
    before = CRONJOB.replace(POD_KEY, POD_KEY + "            kubectl.kubernetes.io/default-container: sidecar\n")
    result = run(before)
    assert result.text == before.lstrip("\n")
    assert codes(result, "error") == ["K8SM-FLD-053"]
