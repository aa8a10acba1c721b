"""Spec: seccomp annotations move to securityContext.seccompProfile for targets from 1.25."""

from __future__ import annotations

import pytest

from k8smigrate.kube.podspec import pod_specs
from k8smigrate.migrations.checks.seccomp_annotations import profile
from k8smigrate.tree import Mapping
from k8smigrate.yamlio import read_stream
from tests.helpers import check_noop, check_transformed, codes, dedent, run, validate

POD = """
apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    seccomp.security.alpha.kubernetes.io/pod: runtime/default  # hardening
spec:
  containers:
  - name: c
    image: nginx
"""


DAEMONSET = """
apiVersion: extensions/v1beta1
kind: DaemonSet
metadata:
  name: d
spec:
  selector:
    matchLabels: {app: d}
  template:
    metadata:
      labels: {app: d}
      annotations:
        seccomp.security.alpha.kubernetes.io/pod: runtime/default
    spec:
      containers:
      - name: c
        image: nginx
"""


def test_noop_without_annotations() -> None:
    check_noop("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: []\n")


def test_noop_on_other_kinds() -> None:
    check_noop(POD.replace("kind: Pod", "kind: ConfigMap"))


def test_noop_below_1_25() -> None:
    check_noop(POD, target_version="1.24")


def test_noop_templated() -> None:
    result = check_noop(POD.replace("runtime/default", "{{ .Values.profile }}"))
    assert not {"K8SM-GEN-001", "K8SM-GEN-015"} & set(
        codes(result)
    )  # a templated profile cannot be translated: left as it is


def test_pod_annotation_moves_with_its_comment() -> None:
    result = check_transformed(
        POD,
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          containers:
          - name: c
            image: nginx
          securityContext:
            seccompProfile:  # hardening
              type: RuntimeDefault
        """,
    )
    assert codes(result) == ["K8SM-FLD-007"]
    validate(result.text)


def test_container_annotations_in_a_cronjob() -> None:
    result = check_transformed(
        """
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: j
        spec:
          schedule: "@daily"
          jobTemplate:
            spec:
              template:
                metadata:
                  annotations:
                    container.seccomp.security.alpha.kubernetes.io/main: localhost/profiles/audit.json
                    container.seccomp.security.alpha.kubernetes.io/init: docker/default
                    other: kept
                spec:
                  restartPolicy: Never
                  initContainers:
                  - name: init
                    image: busybox
                  containers:
                  - name: main
                    image: busybox
                    securityContext:
                      runAsNonRoot: true
        """,
        """
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: j
        spec:
          schedule: "@daily"
          jobTemplate:
            spec:
              template:
                metadata:
                  annotations:
                    other: kept
                spec:
                  restartPolicy: Never
                  initContainers:
                  - name: init
                    image: busybox
                    securityContext:
                      seccompProfile:
                        type: RuntimeDefault
                  containers:
                  - name: main
                    image: busybox
                    securityContext:
                      runAsNonRoot: true
                      seccompProfile:
                        type: Localhost
                        localhostProfile: profiles/audit.json
        """,
    )
    assert codes(result) == ["K8SM-FLD-008", "K8SM-FLD-008"]
    validate(result.text)


def test_equal_field_already_set_drops_the_annotation() -> None:
    result = check_transformed(
        POD.replace("  # hardening", "") + "  securityContext:\n    seccompProfile: {type: RuntimeDefault}\n",
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          containers:
          - name: c
            image: nginx
          securityContext:
            seccompProfile: {type: RuntimeDefault}
        """,
    )
    assert codes(result) == ["K8SM-FLD-007"]


@pytest.mark.parametrize(
    ("value", "wanted"),
    [
        ("runtime/default", {"type": "RuntimeDefault"}),
        ("docker/default", {"type": "RuntimeDefault"}),
        ("unconfined", {"type": "Unconfined"}),
        ("localhost/a/b.json", {"type": "Localhost", "localhostProfile": "a/b.json"}),
        ("localhost/", None),
        ("whatever", None),
    ],
)
def test_value_mapping(value: str, wanted: object) -> None:
    assert profile(value) == wanted


def test_unknown_value_is_an_error() -> None:
    result = check_noop(POD.replace("runtime/default", "localhost"))
    assert codes(result, "error") == ["K8SM-FLD-030"]


def test_disagreeing_field_is_an_error() -> None:
    result = check_noop(POD + "  securityContext:\n    seccompProfile: {type: Unconfined}\n")
    assert codes(result, "error") == ["K8SM-FLD-031"]


def test_unknown_container_is_kept_with_a_warning() -> None:
    text = POD.replace("seccomp.security.alpha.kubernetes.io/pod", "container.seccomp.security.alpha.kubernetes.io/x")
    result = check_noop(text)
    assert codes(result) == ["K8SM-FLD-032"]


def test_a_container_an_action_writes_is_an_error_not_a_warning() -> None:
    # datadog: the container of the annotation is written by `{{- include … | nindent 8 }}`
    from k8smigrate import migrate_text

    text = dedent(
        DAEMONSET.replace("extensions/v1beta1", "apps/v1")
        .replace("seccomp.security.alpha.kubernetes.io/pod", "container.seccomp.security.alpha.kubernetes.io/probe")
        .replace("      - name: c\n        image: nginx\n", '        {{- include "x.probe" . | nindent 8 }}\n')
    )
    result = migrate_text(text, target_version="1.29")
    assert result.text == text
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-FLD-068", "error", 12)]


def test_window_before_1_19_keeps_the_annotations() -> None:
    result = check_noop(POD, target_version="1.29", min_version="1.18")
    assert codes(result) == ["K8SM-FLD-033"]


def test_pod_specs_finds_every_template() -> None:
    kinds = {
        "Pod": "spec: {containers: []}",
        "PodTemplate": "template: {spec: {containers: []}}",
        "Deployment": "spec: {template: {spec: {containers: []}}}",
        "CronJob": "spec: {jobTemplate: {spec: {template: {spec: {containers: []}}}}}",
        "Service": "spec: {ports: []}",
    }
    found = {}
    for kind, rest in kinds.items():
        root = read_stream(dedent(f"kind: {kind}\n{rest}\n")).documents[0].root
        assert isinstance(root, Mapping)
        found[kind] = len(list(pod_specs(root)))
    assert found == {"Pod": 1, "PodTemplate": 1, "Deployment": 1, "CronJob": 1, "Service": 0}


def test_old_workload_api_is_fixed_before_its_migration() -> None:
    result = run(DAEMONSET)
    assert "seccomp_annotations" in result.documents[0].applied
    assert "seccomp.security" not in result.text and "RuntimeDefault" in result.text
    validate(result.text)
