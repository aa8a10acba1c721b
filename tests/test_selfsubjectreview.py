"""Spec: SelfSubjectReview authentication.k8s.io v1alpha1 → v1beta1 → v1 (apiVersion only)."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed

REVIEW = """
    apiVersion: {api}
    kind: SelfSubjectReview
    metadata: {{}}
    """


def test_noop_token_review_is_not_ours() -> None:
    check_noop(
        """
        apiVersion: authentication.k8s.io/v1
        kind: TokenReview
        """
    )


@pytest.mark.parametrize("version", ["v1alpha1", "v1beta1"])
def test_rename(version: str) -> None:
    check_transformed(
        REVIEW.format(api=f"authentication.k8s.io/{version}"), REVIEW.format(api="authentication.k8s.io/v1")
    )


def test_v1alpha1_window_from_1_27_stops_at_v1beta1() -> None:
    check_transformed(
        REVIEW.format(api="authentication.k8s.io/v1alpha1"),
        REVIEW.format(api="authentication.k8s.io/v1beta1"),
        target_version="1.28",
        min_version="1.27",
    )
