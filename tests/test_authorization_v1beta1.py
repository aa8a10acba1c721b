"""Spec: access reviews authorization.k8s.io/v1beta1 → v1 (spec.group → spec.groups)."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, validate


def test_noop_other_group() -> None:
    check_noop(
        """
        apiVersion: example.com/v1beta1
        kind: SubjectAccessReview
        spec:
          group: [devs]
        """
    )


def test_noop_below_gate() -> None:
    check_noop(
        """
        apiVersion: authorization.k8s.io/v1beta1
        kind: SubjectAccessReview
        spec:
          group: [devs]
        """,
        target_version="1.5",
    )


@pytest.mark.parametrize("kind", ["SubjectAccessReview", "LocalSubjectAccessReview"])
def test_group_renamed_to_groups(kind: str) -> None:
    result = check_transformed(
        f"""
        apiVersion: authorization.k8s.io/v1beta1
        kind: {kind}
        metadata:
          namespace: team
        spec:
          user: jane
          group:  # her groups
          - devs
          resourceAttributes:
            namespace: team
            verb: get
            resource: pods
        """,
        f"""
        apiVersion: authorization.k8s.io/v1
        kind: {kind}
        metadata:
          namespace: team
        spec:
          user: jane
          groups:  # her groups
          - devs
          resourceAttributes:
            namespace: team
            verb: get
            resource: pods
        """,
    )
    validate(result.text)


@pytest.mark.parametrize("kind", ["SelfSubjectAccessReview", "SelfSubjectRulesReview"])
def test_self_reviews_are_renames(kind: str) -> None:
    spec = (
        "resourceAttributes:\n    verb: list\n    resource: pods"
        if kind == "SelfSubjectAccessReview"
        else "namespace: team"
    )
    result = check_transformed(
        f"apiVersion: authorization.k8s.io/v1beta1\nkind: {kind}\nspec:\n  {spec}\n",
        f"apiVersion: authorization.k8s.io/v1\nkind: {kind}\nspec:\n  {spec}\n",
    )
    validate(result.text)


def test_group_and_groups_conflict() -> None:
    result = check_noop(
        """
        apiVersion: authorization.k8s.io/v1beta1
        kind: SubjectAccessReview
        spec:
          group: [a]
          groups: [b]
        """
    )
    assert codes(result, "error") == ["K8SM-GEN-003"]
