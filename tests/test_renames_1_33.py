"""Spec: the pure apiVersion renames added with the 1.33–1.36 lifecycles, and the audit Policy.

storage_v1alpha1 and storage_v1beta1 (VolumeAttributesClass → storage.k8s.io/v1, 1.34),
servicecidr_v1alpha1 and servicecidr_v1beta1 (IPAddress, ServiceCIDR → networking.k8s.io/v1,
1.33), resource_v1beta2 (the four DRA kinds → resource.k8s.io/v1, 1.34), audit_v1alpha1 and
audit_v1beta1 (Policy → audit.k8s.io/v1, read since 1.12): only ``apiVersion`` changes.
"""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, dedent, validate

# (old apiVersion, body after the apiVersion line, release just before the new API is served)
CASES = {
    "VolumeAttributesClass-v1alpha1": (
        "storage.k8s.io/v1alpha1",
        """
        kind: VolumeAttributesClass
        metadata:
          name: gold
        driverName: pd.csi.storage.gke.io  # the CSI driver
        parameters:
          iops: "3000"
        """,
        "1.33",
    ),
    "VolumeAttributesClass-v1beta1": (
        "storage.k8s.io/v1beta1",
        """
        kind: VolumeAttributesClass
        metadata: {name: silver}
        driverName: ebs.csi.aws.com
        parameters: {throughput: "250"}
        """,
        "1.33",
    ),
    "IPAddress-v1alpha1": (
        "networking.k8s.io/v1alpha1",
        """
        kind: IPAddress
        metadata:
          name: 10.96.0.10
        spec:
          parentRef:
            group: ""
            resource: services
            namespace: kube-system
            name: kube-dns
        """,
        "1.32",
    ),
    "ServiceCIDR-v1beta1": (
        "networking.k8s.io/v1beta1",
        """
        kind: ServiceCIDR
        metadata:
          name: extra
        spec:
          cidrs: [10.100.0.0/16, "fd00:100::/64"]
        """,
        "1.32",
    ),
    "DeviceClass-v1beta2": (
        "resource.k8s.io/v1beta2",
        """
        kind: DeviceClass
        metadata:
          name: gpu.example.com
        spec:
          selectors:
          - cel:
              expression: device.driver == "gpu.example.com"
        """,
        "1.33",
    ),
    "ResourceClaim-v1beta2": (
        "resource.k8s.io/v1beta2",
        """
        kind: ResourceClaim
        metadata:
          name: one-gpu
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu.example.com
        """,
        "1.33",
    ),
    "Policy-v1beta1": (
        "audit.k8s.io/v1beta1",
        """
        kind: Policy
        omitStages: [RequestReceived]
        rules:
        - level: Metadata  # everything else
          resources:
          - group: ""
            resources: [secrets, configmaps]
        """,
        "1.11",
    ),
    "Policy-v1alpha1": (
        "audit.k8s.io/v1alpha1",
        """
        kind: Policy
        rules:
        - level: None
          nonResourceURLs: [/healthz*]
        """,
        "1.11",
    ),
}
VALIDATED = ("VolumeAttributesClass", "IPAddress", "ServiceCIDR", "DeviceClass", "ResourceClaim")


def new_api(old: str) -> str:
    return old.rsplit("/", 1)[0] + "/v1"


@pytest.mark.parametrize("case", sorted(CASES))
def test_noop_below_gate(case: str) -> None:
    old, rest, below = CASES[case]
    check_noop(f"apiVersion: {old}\n" + dedent(rest), target_version=below)


@pytest.mark.parametrize("case", sorted(CASES))
def test_only_api_version_changes(case: str) -> None:
    old, rest, _below = CASES[case]
    result = check_transformed(
        f"apiVersion: {old}\n" + dedent(rest), f"apiVersion: {new_api(old)}\n" + dedent(rest), target_version="1.35"
    )
    assert codes(result) == []
    if case.startswith(VALIDATED):
        validate(result.text, "1.35.0")


def test_audit_policy_before_1_24_is_deprecated_from_1_21_when_it_cannot_move() -> None:
    # audit.k8s.io/v1 is read from 1.12: a window from 1.11 keeps v1beta1, deprecated at 1.21
    text = "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: Metadata\n"
    result = check_noop(text, target_version="1.21", min_version="1.11")
    assert codes(result) == ["K8SM-GEN-008"]


def test_the_old_versions_are_errors_when_the_window_cannot_reach_v1() -> None:
    text = "apiVersion: networking.k8s.io/v1beta1\nkind: ServiceCIDR\nmetadata: {name: a}\nspec: {cidrs: []}\n"
    result = check_noop(text, target_version="1.37", min_version="1.32")
    assert codes(result, "error") == ["K8SM-GEN-009"]


# ------------------------------------------------------------------ rows without a step


def test_an_alpha_whose_replacement_is_an_off_by_default_beta_is_left_with_advice() -> None:
    text = "apiVersion: certificates.k8s.io/v1alpha1\nkind: ClusterTrustBundle\nmetadata: {name: a}\nspec: {}\n"
    check_noop(text, target_version="1.33")
    result = check_noop(text, target_version="1.34")
    assert codes(result) == ["K8SM-GEN-008"]
    assert "certificates.k8s.io/v1beta1" in result.findings[0].message
    assert "--runtime-config" in result.findings[0].message


def test_dra_v1alpha3_is_removed_in_1_34_with_v1_as_its_replacement() -> None:
    text = "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaim\nmetadata: {name: a}\nspec: {}\n"
    result = check_noop(text, target_version="1.34")
    assert codes(result) == ["K8SM-GEN-007"]
    assert "resource.k8s.io/v1" in result.findings[0].message and "exactly" in result.findings[0].message


def test_storage_version_migration_v1alpha1_points_to_v1beta1() -> None:
    text = "apiVersion: storagemigration.k8s.io/v1alpha1\nkind: StorageVersionMigration\nmetadata: {name: a}\n"
    assert codes(check_noop(text, target_version="1.33")) == ["K8SM-GEN-008"]
    result = check_noop(text, target_version="1.35")
    assert codes(result) == ["K8SM-GEN-007"]
    assert "storagemigration.k8s.io/v1beta1" in result.findings[0].message
