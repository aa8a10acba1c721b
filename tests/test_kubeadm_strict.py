"""Spec: unknown fields in kubeadm documents (warnings; errors with --strict), on every version."""

from __future__ import annotations

import pytest

import k8smigrate
from k8smigrate.settings import Settings
from tests.helpers import check_noop, codes, dedent, run

UNKNOWN = """
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
ControlPlaneEndpoint: api:6443
networking:
  podCIDR: 10.0.0.0/16
apiServer:
  extraVolumes:
  - name: audit
    hostPath: /var/log/audit
    mountPath: /var/log/audit
    readonly: true
"""


def test_unknown_fields_on_a_document_that_needs_no_migration() -> None:
    result = check_noop(UNKNOWN, target_version="1.29")
    assert codes(result, "warning") == ["K8SM-KADM-020"] * 3
    assert [(f.line, f.migration) for f in result.findings] == [
        (3, "kubeadm_strict"),
        (5, "kubeadm_strict"),
        (11, "kubeadm_strict"),
    ]
    messages = [f.message for f in result.findings]
    assert "did you mean controlPlaneEndpoint?" in messages[0]
    assert "networking.podCIDR" in messages[1]
    assert "apiServer.extraVolumes[0].readonly" in messages[2] and "readOnly" in messages[2]


def test_strict_makes_them_errors_and_leaves_the_document() -> None:
    result = k8smigrate.migrate_text(dedent(UNKNOWN), settings=Settings(target_version="1.31", strict=True))
    assert codes(result, "error") == ["K8SM-KADM-021"] * 3
    assert result.text == dedent(UNKNOWN)


def test_without_strict_the_document_still_migrates() -> None:
    result = run(UNKNOWN, target_version="1.31")
    assert result.text.startswith("apiVersion: kubeadm.k8s.io/v1beta4")
    assert codes(result) == ["K8SM-KADM-020"] * 3


@pytest.mark.parametrize(
    ("api", "kind", "field", "unknown"),
    [
        ("v1beta1", "InitConfiguration", "certificateKey: abc", True),
        ("v1beta2", "InitConfiguration", "certificateKey: abc", False),
        ("v1beta2", "InitConfiguration", "skipPhases: [preflight]", True),
        ("v1beta3", "InitConfiguration", "skipPhases: [preflight]", False),
        ("v1beta3", "ClusterConfiguration", "useHyperKubeImage: false", True),
        ("v1beta2", "ClusterConfiguration", "useHyperKubeImage: false", False),
        ("v1beta3", "JoinConfiguration", "timeouts: {discovery: 5m}", True),
        ("v1beta4", "JoinConfiguration", "timeouts: {discovery: 5m}", False),
        ("v1beta4", "ClusterConfiguration", "apiServer: {timeoutForControlPlane: 4m}", True),
        ("v1beta4", "ResetConfiguration", "unmountFlags: [MNT_FORCE]", False),
        ("v1beta4", "UpgradeConfiguration", "apply: {etcdUpgrade: false, imagePullSerial: true}", False),
        ("v1beta4", "InitConfiguration", "metadata: {name: x}", True),
    ],
)
def test_field_tables_per_version(api: str, kind: str, field: str, unknown: bool) -> None:
    text = f"apiVersion: kubeadm.k8s.io/{api}\nkind: {kind}\n{field}\n"
    result = k8smigrate.migrate_text(text, target_version="1.14")  # below every gate: check only
    assert ("K8SM-KADM-020" in codes(result)) is unknown


def test_skipped_by_name() -> None:
    result = run(UNKNOWN, target_version="1.29", skip=["kubeadm_strict"])
    assert codes(result) == []


REPEATED = """
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
apiServer:
  extraArgs:
    v: "2"
    audit-log-maxage: "30"
    v: "4"  # the one kubeadm uses
"""


def test_a_repeated_flag_warns_that_kubeadm_keeps_the_last() -> None:
    # sigs.k8s.io/yaml keeps the last value; VerifyUnmarshalStrict only warns
    result = check_noop(REPEATED, target_version="1.29")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-KADM-022", "warning", 5)]
    assert "the last value, '4'" in result.findings[0].message


def test_a_repeated_flag_with_strict_is_an_error() -> None:
    result = k8smigrate.migrate_text(dedent(REPEATED), settings=Settings(target_version="1.31", strict=True))
    assert codes(result) == ["K8SM-KADM-023"]
    assert result.text == dedent(REPEATED)


def test_a_repeated_flag_keeps_its_last_value_in_the_list_form() -> None:
    result = run(REPEATED, target_version="1.31")
    assert codes(result) == ["K8SM-KADM-022", "K8SM-KADM-013"]
    assert result.text == dedent(
        """
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: ClusterConfiguration
        apiServer:
          extraArgs:
          - name: audit-log-maxage
            value: "30"
          - name: v
            value: "4"  # the one kubeadm uses
        """
    )


def test_a_repeated_name_in_the_v1beta4_list_form_is_allowed() -> None:
    text = """
        apiVersion: kubeadm.k8s.io/v1beta4
        kind: ClusterConfiguration
        apiServer:
          extraArgs:
          - {name: v, value: "2"}
          - {name: v, value: "4"}
        """
    assert codes(check_noop(text, target_version="1.31")) == []


def test_other_duplicate_keys_are_reported_by_the_core() -> None:
    result = check_noop(
        """
        apiVersion: kubeadm.k8s.io/v1beta3
        kind: ClusterConfiguration
        controlPlaneEndpoint: a:6443
        controlPlaneEndpoint: b:6443
        """,
        target_version="1.31",
    )
    assert codes(result, "error") == ["K8SM-GEN-006"]
    assert result.findings[0].line == 4


def test_a_repeated_flag_is_the_core_s_duplicate_when_the_check_is_skipped() -> None:
    result = check_noop(REPEATED, target_version="1.31", skip=["kubeadm_strict"])
    assert codes(result) == ["K8SM-GEN-006"]
