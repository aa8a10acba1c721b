"""Spec: RBAC rules on podsecuritypolicies are reported from 1.25 (K8SM-PSP-002), never rewritten."""

from __future__ import annotations

import pytest

from k8smigrate import scan_text
from tests.helpers import check_noop, codes, dedent, run

ROLE = """
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: psp-restricted
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get]
- apiGroups: [policy]
  resources: [podsecuritypolicies]
  resourceNames: [restricted]
  verbs: [use]
"""


def test_noop_before_1_25() -> None:
    assert codes(check_noop(ROLE, target_version="1.24")) == []


def test_noop_without_the_resource() -> None:
    assert codes(check_noop(ROLE.replace("podsecuritypolicies", "pods"), target_version="1.29")) == []


def test_noop_in_another_group() -> None:
    # a CRD of someone else's that happens to be called podsecuritypolicies
    assert codes(check_noop(ROLE.replace("[policy]", "[example.com]"), target_version="1.29")) == []


def test_noop_on_a_binding() -> None:
    text = ROLE.replace("kind: ClusterRole", "kind: ClusterRoleBinding")
    assert codes(check_noop(text, target_version="1.29")) == []


@pytest.mark.parametrize(
    ("api", "kind"),
    [
        ("rbac.authorization.k8s.io/v1", "ClusterRole"),
        ("rbac.authorization.k8s.io/v1", "Role"),
        ("rbac.authorization.k8s.io/v1beta1", "ClusterRole"),
    ],
)
def test_a_rule_granting_use_is_reported_from_1_25(api: str, kind: str) -> None:
    text = ROLE.replace("rbac.authorization.k8s.io/v1\n", f"{api}\n").replace("kind: ClusterRole", f"kind: {kind}")
    result = run(text, target_version="1.25")
    psp = [f for f in result.findings if f.code == "K8SM-PSP-002"]
    assert [(f.level, f.line) for f in psp] == [("info", 9)]
    assert "grants use on podsecuritypolicies" in psp[0].message
    assert "podsecuritypolicies" in result.text  # reported, never rewritten


@pytest.mark.parametrize("groups", ["[extensions]", '["*"]'])
def test_old_and_wildcard_groups_are_reported(groups: str) -> None:
    result = check_noop(ROLE.replace("[policy]", groups), target_version="1.29")
    assert codes(result) == ["K8SM-PSP-002"]


def test_scan_lists_it_as_an_rbac_row() -> None:
    rows = [r for r in scan_text(dedent(ROLE), target_version="1.29") if r.code == "K8SM-PSP-002"]
    assert [(r.category, r.level) for r in rows] == [("rbac", "info")]
