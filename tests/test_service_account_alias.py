"""Spec: pod spec serviceAccount (deprecated alias) → serviceAccountName, for any target."""

from __future__ import annotations

from k8smigrate.settings import Settings
from k8smigrate.templating.migrate import migrate_template
from tests.helpers import check_noop, check_transformed, codes, run, validate

DEPLOY = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  selector:
    matchLabels: {app: d}
  template:
    metadata:
      labels: {app: d}
    spec:
      serviceAccount: robot  # the alias
      containers:
      - name: c
        image: nginx
"""
RENAMED = DEPLOY.replace("serviceAccount:", "serviceAccountName:")


def test_noop_on_another_kind() -> None:
    check_noop(DEPLOY.replace("kind: Deployment", "kind: Widget").replace("apps/v1", "example.com/v1"))


def test_noop_with_service_account_name_only() -> None:
    result = check_noop(RENAMED)
    assert result.findings == []


def test_noop_when_the_key_is_not_in_a_pod_spec() -> None:
    check_noop("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  serviceAccount: robot\n")


def test_renamed_with_its_value_and_comment_at_any_target() -> None:
    for target in ("1.16", "1.29"):
        result = check_transformed(DEPLOY, RENAMED, target_version=target)
        assert codes(result) == ["K8SM-FLD-020"]
    validate(result.text, "1.29.0")


def test_renamed_on_a_pod_in_flow_style() -> None:
    before = """
    apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec: {serviceAccount: robot, containers: [{name: c, image: nginx}]}
    """
    check_transformed(before, before.replace("serviceAccount:", "serviceAccountName:"))


def test_dropped_beside_an_equal_service_account_name() -> None:
    before = DEPLOY.replace("  # the alias\n", "\n      serviceAccountName: robot\n")
    result = check_transformed(before, before.replace("      serviceAccount: robot\n", ""))
    assert codes(result) == ["K8SM-FLD-020"]


def test_different_accounts_are_a_warning_and_both_are_kept() -> None:
    # the server uses serviceAccountName; an error would also hold back an apiVersion migration
    before = DEPLOY.replace("  # the alias\n", "\n      serviceAccountName: other\n")
    result = check_noop(before)
    assert codes(result) == ["K8SM-FLD-054"] and codes(result, "warning") == ["K8SM-FLD-054"]
    old = before.replace("apps/v1", "extensions/v1beta1")
    migrated = run(old, target_version="1.29")
    assert migrated.changed and "K8SM-FLD-054" in codes(migrated)


def test_in_a_template_one_action_writing_both_is_kept_with_an_info() -> None:
    # dropping the alias would drop its action: a migration carries every action as written
    action = '{{ template "x.serviceAccountName" . }}'
    before = DEPLOY.replace("robot  # the alias\n", f"{action}\n      serviceAccountName: {action}\n")
    result = migrate_template(before, Settings(target_version="1.29"))
    assert result.text == before
    assert [(f.level, f.code) for f in result.findings] == [("info", "K8SM-FLD-067")]
    other = before.replace(f"serviceAccountName: {action}", 'serviceAccountName: {{ include "y" . }}')
    assert [f.code for f in migrate_template(other, Settings(target_version="1.29")).findings] == ["K8SM-FLD-054"]
