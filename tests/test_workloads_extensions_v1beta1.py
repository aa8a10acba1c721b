"""Spec: Deployment, DaemonSet, ReplicaSet extensions/v1beta1 → apps/v1."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run, validate

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
            spec:
              template:
                metadata:
                  labels:
                    app: web
            """,
            id="already-apps-v1",
        ),
        pytest.param(
            """
            apiVersion: extensions/v1beta1
            kind: Job
            metadata:
              name: web
            """,
            id="other-kind-same-group",
        ),
        pytest.param(
            """
            apiVersion: example.com/v1beta1
            kind: Deployment
            spec:
              template: {}
            """,
            id="same-kind-other-group",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text)


def test_noop_templated() -> None:
    result = check_noop(
        """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: {{ .Release.Name }}
        """
    )
    assert codes(result) == ["K8SM-APPS-001"]  # read through its skeleton: no template labels, no selector


def test_noop_below_gate() -> None:
    """With a window that starts before apps/v1 exists (1.9), nothing can change."""
    result = check_noop(
        """
        apiVersion: extensions/v1beta1
        kind: DaemonSet
        spec:
          template:
            metadata:
              labels:
                app: agent
        """,
        target_version="1.15",
        min_version="1.8",
    )
    assert codes(result, "error") == []


# ------------------------------------------------------------------ transforms

DEPLOYMENT = """
    apiVersion: extensions/v1beta1
    kind: Deployment
    metadata:
      name: web  # the site
    spec:
      replicas: 2
      template:
        metadata:
          labels:
            app: web
            enabled: "true"
        spec:
          containers:
          - name: web
            image: nginx
    """


def test_deployment_selector_labels_and_old_defaults() -> None:
    result = check_transformed(
        DEPLOYMENT,
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web  # the site
          labels:
            app: web
            enabled: "true"
        spec:
          replicas: 2
          selector:
            matchLabels:
              app: web
              enabled: "true"
          strategy:
            rollingUpdate:
              maxUnavailable: 1
              maxSurge: 1
          revisionHistoryLimit: 2147483647
          progressDeadlineSeconds: 2147483647
          template:
            metadata:
              labels:
                app: web
                enabled: "true"
            spec:
              containers:
              - name: web
                image: nginx
        """,
    )
    validate(result.text)
    assert codes(result) == [
        "K8SM-APPS-003",
        "K8SM-APPS-002",
        "K8SM-APPS-007",
        "K8SM-APPS-007",
        "K8SM-APPS-005",
        "K8SM-APPS-006",
    ]


def test_deployment_adopt_new_defaults_writes_only_the_selector() -> None:
    result = check_transformed(
        DEPLOYMENT,
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web  # the site
        spec:
          replicas: 2
          selector:
            matchLabels:
              app: web
              enabled: "true"
          template:
            metadata:
              labels:
                app: web
                enabled: "true"
            spec:
              containers:
              - name: web
                image: nginx
        """,
        adopt_new_defaults=True,
    )
    assert codes(result).count("K8SM-GEN-002") == 5


def test_deployment_keeps_what_is_set() -> None:
    result = check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: web
          labels: {tier: front}
        spec:
          selector:
            matchLabels: {app: web}
          revisionHistoryLimit: 3
          progressDeadlineSeconds: 300
          strategy:
            type: RollingUpdate
            rollingUpdate:
              maxSurge: 25%  # faster
          template:
            metadata:
              labels: {app: web}
            spec:
              containers: [{name: web, image: nginx}]
        """,
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          labels: {tier: front}
        spec:
          selector:
            matchLabels: {app: web}
          revisionHistoryLimit: 3
          progressDeadlineSeconds: 300
          strategy:
            type: RollingUpdate
            rollingUpdate:
              maxSurge: 25%  # faster
              maxUnavailable: 1
          template:
            metadata:
              labels: {app: web}
            spec:
              containers: [{name: web, image: nginx}]
        """,
    )
    validate(result.text)
    assert codes(result) == ["K8SM-APPS-007"]


def test_deployment_recreate_gets_no_rolling_update() -> None:
    result = check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: db
          labels:
            app: db
        spec:
          strategy:
            type: Recreate
          template:
            metadata:
              labels:
                app: db
            spec:
              containers:
              - name: db
                image: postgres
        """,
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: db
          labels:
            app: db
        spec:
          strategy:
            type: Recreate
          selector:
            matchLabels:
              app: db
          revisionHistoryLimit: 2147483647
          progressDeadlineSeconds: 2147483647
          template:
            metadata:
              labels:
                app: db
            spec:
              containers:
              - name: db
                image: postgres
        """,
    )
    validate(result.text)


def test_deployment_rollback_to_dropped_with_warning() -> None:
    result = run(
        """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: web
          labels: {app: web}
        spec:
          selector: {matchLabels: {app: web}}
          revisionHistoryLimit: 5
          progressDeadlineSeconds: 600
          strategy: {type: Recreate}
          rollbackTo:
            revision: 3
          template:
            metadata: {labels: {app: web}}
            spec: {containers: [{name: web, image: nginx}]}
        """
    )
    assert "rollbackTo" not in result.text
    assert codes(result, "warning") == ["K8SM-APPS-010"]
    validate(result.text)


def test_daemonset_on_delete_pinned_and_template_generation_dropped() -> None:
    result = check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: DaemonSet
        metadata:
          name: agent
          labels:
            app: agent
        spec:
          templateGeneration: 4
          template:
            metadata:
              labels:
                name: agent
            spec:
              containers:
              - name: agent
                image: agent
        """,
        """
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: agent
          labels:
            app: agent
        spec:
          selector:
            matchLabels:
              name: agent
          updateStrategy:
            type: OnDelete
          template:
            metadata:
              labels:
                name: agent
            spec:
              containers:
              - name: agent
                image: agent
        """,
    )
    validate(result.text)
    assert codes(result) == ["K8SM-APPS-003", "K8SM-APPS-011", "K8SM-APPS-004"]


def test_daemonset_rolling_update_kept() -> None:
    check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: DaemonSet
        metadata:
          name: agent
          labels: {app: agent}
        spec:
          selector: {matchLabels: {app: agent}}
          updateStrategy:
            type: RollingUpdate
          template:
            metadata: {labels: {app: agent}}
            spec: {containers: [{name: agent, image: agent}]}
        """,
        """
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: agent
          labels: {app: agent}
        spec:
          selector: {matchLabels: {app: agent}}
          updateStrategy:
            type: RollingUpdate
          template:
            metadata: {labels: {app: agent}}
            spec: {containers: [{name: agent, image: agent}]}
        """,
    )


def test_replicaset_selector_only() -> None:
    result = check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: ReplicaSet
        metadata:
          name: web
          labels: {}
        spec:
          template:
            metadata:
              labels:
                app: web
            spec:
              containers:
              - name: web
                image: nginx
        """,
        """
        apiVersion: apps/v1
        kind: ReplicaSet
        metadata:
          name: web
          labels:
            app: web
        spec:
          selector:
            matchLabels:
              app: web
          template:
            metadata:
              labels:
                app: web
            spec:
              containers:
              - name: web
                image: nginx
        """,
    )
    validate(result.text)


def test_list_items_migrate_one_by_one() -> None:
    result = run(
        """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: extensions/v1beta1
          kind: ReplicaSet
          metadata: {name: a, labels: {app: a}}
          spec:
            selector: {matchLabels: {app: a}}
            template:
              metadata: {labels: {app: a}}
              spec: {containers: [{name: a, image: a}]}
        - apiVersion: v1
          kind: ConfigMap
          metadata: {name: b}
        """
    )
    assert "apiVersion: apps/v1\n" in result.text
    assert codes(result) == []


# ------------------------------------------------------------------ errors


def test_no_selector_and_no_template_labels_is_an_error() -> None:
    result = check_noop(
        """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: web
        spec:
          template:
            spec:
              containers:
              - name: web
                image: nginx
        """
    )
    assert codes(result, "error") == ["K8SM-APPS-001"]
