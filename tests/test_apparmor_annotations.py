"""Spec: AppArmor annotations move to appArmorProfile only when the whole window has the field (1.30+)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, validate

POD = """
apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    container.apparmor.security.beta.kubernetes.io/app: localhost/k8s-nginx
    container.apparmor.security.beta.kubernetes.io/side: runtime/default
spec:
  containers:
  - name: app
    image: nginx
  - name: side
    image: busybox
"""


def test_noop_below_1_30() -> None:
    check_noop(POD, target_version="1.29")


def test_noop_when_the_window_starts_before_1_30() -> None:
    result = check_noop(POD, target_version="1.31", min_version="1.29")
    assert codes(result) == ["K8SM-FLD-042"]


def test_moved_to_each_container() -> None:
    result = check_transformed(
        POD,
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          containers:
          - name: app
            image: nginx
            securityContext:
              appArmorProfile:
                type: Localhost
                localhostProfile: k8s-nginx
          - name: side
            image: busybox
            securityContext:
              appArmorProfile:
                type: RuntimeDefault
        """,
        target_version="1.30",
    )
    assert codes(result) == ["K8SM-FLD-009", "K8SM-FLD-009"]
    validate(result.text, "1.30.0")


def test_unknown_value_is_an_error() -> None:
    result = check_noop(POD.replace("runtime/default", "docker/default"), target_version="1.30")
    assert codes(result, "error") == ["K8SM-FLD-043"]


def test_unknown_container_is_kept() -> None:
    result = check_noop(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
        "    container.apparmor.security.beta.kubernetes.io/x: unconfined\n"
        "spec:\n  containers:\n  - name: app\n    image: nginx\n",
        target_version="1.30",
    )
    assert codes(result) == ["K8SM-FLD-044"]
