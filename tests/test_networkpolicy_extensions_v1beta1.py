"""Spec: NetworkPolicy extensions/v1beta1 → networking.k8s.io/v1 (apiVersion only)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate


def test_noop_already_v1() -> None:
    check_noop(
        """
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata:
          name: deny
        spec:
          podSelector: {}
        """
    )


def test_noop_below_gate() -> None:
    check_noop(
        """
        apiVersion: extensions/v1beta1
        kind: NetworkPolicy
        metadata:
          name: deny
        """,
        target_version="1.15",
        min_version="1.6",
    )


def test_rename_keeps_everything_else() -> None:
    result = check_transformed(
        """
        apiVersion: extensions/v1beta1  # old
        kind: NetworkPolicy
        metadata:
          name: web
        spec:
          podSelector:
            matchLabels: {app: web}
          ingress:
          - ports:
            - port: 80
        """,
        """
        apiVersion: networking.k8s.io/v1  # old
        kind: NetworkPolicy
        metadata:
          name: web
        spec:
          podSelector:
            matchLabels: {app: web}
          ingress:
          - ports:
            - port: 80
        """,
    )
    assert codes(result) == []
    validate(result.text)


def test_corpus_pair(corpus) -> None:  # type: ignore[no-untyped-def]
    old = corpus / "prometheus-operator-868123a__example_networkpolicies_alertmanager.yaml"
    new = corpus / "prometheus-operator-59fa30e__example_networkpolicies_alertmanager.yaml"
    result = run(old.read_text())
    assert codes(result, "error") == []
    import yaml

    assert list(yaml.safe_load_all(result.text)) == list(yaml.safe_load_all(new.read_text()))
