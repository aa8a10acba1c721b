"""Spec: RBAC rbac.authorization.k8s.io v1alpha1 and v1beta1 → v1."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, validate

KINDS = ["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"]

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize("kind", KINDS)
def test_noop_v1(kind: str) -> None:
    check_noop(f"apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata:\n  name: x\n")


def test_noop_other_group_same_kind() -> None:
    check_noop("apiVersion: example.com/v1beta1\nkind: Role\nmetadata:\n  name: x\n")


def test_noop_below_gate_is_not_possible_but_target_before_removal_still_migrates() -> None:
    # v1 is served from 1.8, so every window from 1.8 moves off v1beta1.
    check_noop("apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\n", target_version="1.7")


# ------------------------------------------------------------------ v1beta1


@pytest.mark.parametrize("kind", KINDS)
def test_v1beta1_is_an_apiversion_rename(kind: str) -> None:
    result = check_transformed(
        f"""
        apiVersion: rbac.authorization.k8s.io/v1beta1  # old
        kind: {kind}
        metadata:
          name: x
        """,
        f"""
        apiVersion: rbac.authorization.k8s.io/v1  # old
        kind: {kind}
        metadata:
          name: x
        """,
    )
    assert result.documents[0].applied == ["rbac_v1beta1"]
    assert codes(result) == []


def test_aggregation_rule_and_non_resource_urls_are_kept() -> None:
    result = check_transformed(
        """
        apiVersion: rbac.authorization.k8s.io/v1beta1
        kind: ClusterRole
        metadata:
          name: monitoring
        aggregationRule:
          clusterRoleSelectors:
          - matchLabels: {rbac.example.com/aggregate-to-monitoring: "true"}
        rules:
        - nonResourceURLs: ["/metrics"]
          verbs: ["get"]
        """,
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata:
          name: monitoring
        aggregationRule:
          clusterRoleSelectors:
          - matchLabels: {rbac.example.com/aggregate-to-monitoring: "true"}
        rules:
        - nonResourceURLs: ["/metrics"]
          verbs: ["get"]
        """,
    )
    validate(result.text)


# ------------------------------------------------------------------ v1alpha1 subjects


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        (
            "- kind: ServiceAccount\n  apiVersion: v1\n  name: sa\n  namespace: ns",
            '- kind: ServiceAccount\n  apiGroup: ""\n  name: sa\n  namespace: ns',
        ),
        (
            "- kind: User\n  apiVersion: rbac.authorization.k8s.io/v1alpha1\n  name: jane",
            "- kind: User\n  apiGroup: rbac.authorization.k8s.io\n  name: jane",
        ),
        (
            "- kind: Group\n  apiVersion: rbac.authorization.k8s.io/v1alpha1\n  name: devs",
            "- kind: Group\n  apiGroup: rbac.authorization.k8s.io\n  name: devs",
        ),
        ("- kind: Group\n  name: devs", "- kind: Group\n  name: devs"),
    ],
    ids=["service-account", "user", "group", "no-apiversion"],
)
def test_v1alpha1_subject_apiversion_becomes_apigroup(subject: str, expected: str) -> None:
    head = "apiVersion: rbac.authorization.k8s.io/v1alpha1\nkind: RoleBinding\nmetadata:\n  name: b\n  namespace: ns\n"
    ref = "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: r\n"
    result = check_transformed(
        head + "subjects:\n" + subject + "\n" + ref,
        head.replace("v1alpha1", "v1") + "subjects:\n" + expected + "\n" + ref,
    )
    validate(result.text)


def test_v1alpha1_other_kind_takes_the_group_of_its_apiversion() -> None:
    check_transformed(
        """
        apiVersion: rbac.authorization.k8s.io/v1alpha1
        kind: ClusterRoleBinding
        subjects:
        - kind: Robot
          apiVersion: robots.example.com/v2
          name: r2
        """,
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRoleBinding
        subjects:
        - kind: Robot
          apiGroup: robots.example.com
          name: r2
        """,
    )


@pytest.mark.parametrize(
    ("api_version", "group"),
    [
        ("foo.io/", "foo.io"),  # what the v1alpha1 server wrote for a group without version
        ("/v1", '""'),
        ("/", '""'),
        ('""', '""'),
    ],
)
def test_v1alpha1_subject_group_is_parsed_as_parse_group_version_does(api_version: str, group: str) -> None:
    result = check_transformed(
        f"""
        apiVersion: rbac.authorization.k8s.io/v1alpha1
        kind: RoleBinding
        subjects:
        - kind: Robot
          apiVersion: {api_version}
          name: r2
        """,
        f"""
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        subjects:
        - kind: Robot
          apiGroup: {group}
          name: r2
        """,
    )
    assert codes(result) == []


def test_v1alpha1_wildcard_user_becomes_all_authenticated_with_a_warning() -> None:
    result = check_transformed(
        """
        apiVersion: rbac.authorization.k8s.io/v1alpha1
        kind: ClusterRoleBinding
        metadata:
          name: everyone
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
        subjects:
        - kind: User
          name: "*"  # everyone
        """,
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRoleBinding
        metadata:
          name: everyone
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
        subjects:
        - kind: Group
          name: "system:authenticated"  # everyone
        """,
    )
    assert codes(result, "warning") == ["K8SM-RBAC-001"]
    validate(result.text)


# ------------------------------------------------------------------ findings


def test_unparsable_subject_apiversion_warns_and_leaves_apigroup_empty() -> None:
    result = check_transformed(
        """
        apiVersion: rbac.authorization.k8s.io/v1alpha1
        kind: RoleBinding
        subjects:
        - kind: Robot
          apiVersion: a/b/c
          name: r2
        """,
        """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        subjects:
        - kind: Robot
          apiGroup: ""
          name: r2
        """,
    )
    assert codes(result, "warning") == ["K8SM-RBAC-002"]


def test_conflicting_apiversion_and_apigroup_is_an_error() -> None:
    result = check_noop(
        """
        apiVersion: rbac.authorization.k8s.io/v1alpha1
        kind: RoleBinding
        subjects:
        - kind: User
          apiVersion: rbac.authorization.k8s.io/v1alpha1
          apiGroup: example.com
          name: jane
        """
    )
    assert codes(result, "error") == ["K8SM-GEN-003"]
