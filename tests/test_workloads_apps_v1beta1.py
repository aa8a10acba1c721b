"""Spec: Deployment, StatefulSet, ControllerRevision apps/v1beta1 → apps/v1."""

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
            kind: StatefulSet
            metadata:
              name: db
            """,
            id="already-apps-v1",
        ),
        pytest.param(
            """
            apiVersion: apps/v1beta1
            kind: Scale
            metadata:
              name: db
            """,
            id="other-kind-same-version",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text)


def test_noop_templated() -> None:
    result = check_noop(
        """
        apiVersion: apps/v1beta1
        kind: StatefulSet
        metadata:
          name: {{ .Release.Name }}
        """
    )
    assert codes(result) == ["K8SM-APPS-001"]  # read through its skeleton: no template labels, no selector


# ------------------------------------------------------------------ transforms


def test_deployment_revision_history_limit_pinned() -> None:
    result = check_transformed(
        """
        apiVersion: apps/v1beta1
        kind: Deployment
        metadata:
          name: web
        spec:
          replicas: 1
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
        kind: Deployment
        metadata:
          name: web
          labels:
            app: web
        spec:
          replicas: 1
          selector:
            matchLabels:
              app: web
          revisionHistoryLimit: 2
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
    assert codes(result) == ["K8SM-APPS-003", "K8SM-APPS-002", "K8SM-APPS-005"]


def test_deployment_rollback_to_dropped() -> None:
    result = run(
        """
        apiVersion: apps/v1beta1
        kind: Deployment
        metadata: {name: web, labels: {app: web}}
        spec:
          selector: {matchLabels: {app: web}}
          revisionHistoryLimit: 10
          rollbackTo: {revision: 2}
          template:
            metadata: {labels: {app: web}}
            spec: {containers: [{name: web, image: nginx}]}
        """
    )
    assert codes(result) == ["K8SM-APPS-010"]
    assert "rollbackTo" not in result.text
    validate(result.text)


def test_statefulset_on_delete_pinned() -> None:
    result = check_transformed(
        """
        apiVersion: apps/v1beta1
        kind: StatefulSet
        metadata:
          name: db
          labels:
            app: db
        spec:
          serviceName: db
          template:
            metadata:
              labels:
                app: db
            spec:
              containers:
              - name: db
                image: cassandra
        """,
        """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata:
          name: db
          labels:
            app: db
        spec:
          serviceName: db
          selector:
            matchLabels:
              app: db
          updateStrategy:
            type: OnDelete
          template:
            metadata:
              labels:
                app: db
            spec:
              containers:
              - name: db
                image: cassandra
        """,
    )
    validate(result.text)
    assert codes(result) == ["K8SM-APPS-003", "K8SM-APPS-004"]


def test_statefulset_update_strategy_without_type() -> None:
    check_transformed(
        """
        apiVersion: apps/v1beta1
        kind: StatefulSet
        metadata: {name: db, labels: {app: db}}
        spec:
          selector: {matchLabels: {app: db}}
          updateStrategy: {}
          template:
            metadata: {labels: {app: db}}
        """,
        """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: db, labels: {app: db}}
        spec:
          selector: {matchLabels: {app: db}}
          updateStrategy: {type: OnDelete}
          template:
            metadata: {labels: {app: db}}
        """,
    )


def test_controller_revision_renamed_only() -> None:
    check_transformed(
        """
        apiVersion: apps/v1beta1
        kind: ControllerRevision
        metadata:
          name: db-1
        revision: 1
        """,
        """
        apiVersion: apps/v1
        kind: ControllerRevision
        metadata:
          name: db-1
        revision: 1
        """,
    )


# ------------------------------------------------------------------ errors


def test_statefulset_without_labels_is_an_error() -> None:
    result = check_noop(
        """
        apiVersion: apps/v1beta1
        kind: StatefulSet
        metadata:
          name: db
        spec:
          template:
            metadata:
              labels: {}
        """
    )
    assert codes(result, "error") == ["K8SM-APPS-001"]


# ------------------------------------------------------------------ corpus


def test_corpus_deployment_and_ingress(corpus) -> None:  # type: ignore[no-untyped-def]
    path = corpus / "kube-no-trouble-2366d92__fixtures_deployment-v1beta1-and-ingress-v1beta1.yaml"
    result = run(path.read_text(), filename=str(path))
    assert result.documents[0].applied == ["workloads_apps_v1beta1"]
    assert codes(result, "error") == []
    assert "K8SM-GEN-004" not in codes(result)
    validate(result.text)
