"""Spec: RuntimeClass node.k8s.io/v1alpha1 → v1 (spec unnested) and node.k8s.io/v1beta1 → v1."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, validate

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            """
            apiVersion: node.k8s.io/v1
            kind: RuntimeClass
            metadata:
              name: kata
            handler: kata
            """,
            id="already-v1",
        ),
        pytest.param(
            """
            apiVersion: example.com/v1alpha1
            kind: RuntimeClass
            spec:
              runtimeHandler: kata
            """,
            id="same-kind-other-group",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text)


def test_noop_below_gate() -> None:
    check_noop(
        """
        apiVersion: node.k8s.io/v1alpha1
        kind: RuntimeClass
        spec:
          runtimeHandler: kata
        """,
        target_version="1.19",
    )


# ------------------------------------------------------------------ transforms


def test_spec_unnested_with_comments() -> None:
    result = check_transformed(
        """
        apiVersion: node.k8s.io/v1alpha1
        kind: RuntimeClass
        metadata:
          name: kata  # sandboxed
        # runtime settings
        spec:  # v1alpha1 nesting
          runtimeHandler: kata  # CRI handler
          overhead:
            podFixed:
              memory: "120Mi"
              cpu: "250m"
          # only on kata nodes
          scheduling:
            nodeSelector:
              runtime: kata
        """,
        """
        apiVersion: node.k8s.io/v1
        kind: RuntimeClass
        metadata:
          name: kata  # sandboxed
        # runtime settings
        # v1alpha1 nesting
        handler: kata  # CRI handler
        overhead:
          podFixed:
            memory: "120Mi"
            cpu: "250m"
        # only on kata nodes
        scheduling:
          nodeSelector:
            runtime: kata
        """,
    )
    validate(result.text)
    assert "spec.runtimeHandler → handler" in result.documents[0].summary


def test_v1beta1_is_a_rename() -> None:
    result = check_transformed(
        """
        apiVersion: node.k8s.io/v1beta1
        kind: RuntimeClass
        metadata:
          name: gvisor
        handler: runsc
        """,
        """
        apiVersion: node.k8s.io/v1
        kind: RuntimeClass
        metadata:
          name: gvisor
        handler: runsc
        """,
    )
    validate(result.text)


# ------------------------------------------------------------------ findings


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("spec:\n  overhead: {}\n", "K8SM-RC-001"),
        ("", "K8SM-RC-001"),
        ("spec:\n  runtimeHandler: kata\n  topology: {}\n", "K8SM-RC-002"),
        ("handler: runc\nspec:\n  runtimeHandler: kata\n", "K8SM-GEN-003"),
    ],
)
def test_unconvertible_spec_is_an_error(spec: str, code: str) -> None:
    text = "apiVersion: node.k8s.io/v1alpha1\nkind: RuntimeClass\nmetadata:\n  name: x\n" + spec
    assert codes(check_noop(text), "error") == [code]


def test_comments_above_the_first_key_of_each_moved_block_travel_with_it() -> None:
    """``# handler`` sits between ``spec:`` and its first key: it goes with runtimeHandler (issue 14
    item 6), and so do the comments above podFixed and nodeSelector; nothing is reported lost."""
    result = check_transformed(
        """
        apiVersion: node.k8s.io/v1alpha1
        kind: RuntimeClass
        metadata:
          name: kata
        spec:
          # handler
          runtimeHandler: kata
          overhead:
            # fixed overhead
            podFixed:
              memory: 120Mi
          scheduling:
            # kata nodes only
            nodeSelector:
              runtime: kata
        """,
        """
        apiVersion: node.k8s.io/v1
        kind: RuntimeClass
        metadata:
          name: kata
        # handler
        handler: kata
        overhead:
          # fixed overhead
          podFixed:
            memory: 120Mi
        scheduling:
          # kata nodes only
          nodeSelector:
            runtime: kata
        """,
    )
    assert "K8SM-GEN-004" not in codes(result)
    validate(result.text)


def test_a_comment_between_a_key_and_its_value_on_the_next_line_travels_too() -> None:
    result = check_transformed(
        """
        apiVersion: node.k8s.io/v1alpha1
        kind: RuntimeClass
        metadata:
          name: kata
        spec:
          runtimeHandler:
            # the CRI handler
            kata
        """,
        """
        apiVersion: node.k8s.io/v1
        kind: RuntimeClass
        metadata:
          name: kata
        # the CRI handler
        handler: kata
        """,
    )
    assert "K8SM-GEN-004" not in codes(result)
