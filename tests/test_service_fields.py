"""Spec: Service fields and annotations gone at the target: topologyKeys, ipFamily, tolerate-unready-endpoints."""

from __future__ import annotations

import pytest

from tests.helpers import check_noop, check_transformed, codes, run, validate

HEAD = "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  selector: {app: s}\n  ports:\n  - port: 80\n"


def svc(extra: str) -> str:
    return HEAD + extra


# --------------------------------------------------------------------------- topologyKeys


def test_topology_keys_noop_below_1_22() -> None:
    check_noop(svc('  topologyKeys: ["kubernetes.io/hostname"]\n'), target_version="1.21")


def test_topology_keys_noop_on_other_kinds() -> None:
    check_noop(svc("  topologyKeys: [x]\n").replace("kind: Service", "kind: Endpoints"))


def test_hostname_only_becomes_local_internal_policy() -> None:
    result = check_transformed(
        svc('  topologyKeys: ["kubernetes.io/hostname"]\n'), svc("  internalTrafficPolicy: Local\n")
    )
    assert codes(result) == ["K8SM-FLD-001"]
    # as strict as topologyKeys was: only the traffic's reach differs (datadog's agent Service)
    assert "node-local endpoints only, as strict as topologyKeys" in result.findings[0].message
    assert "best-effort" not in result.findings[0].message
    validate(result.text)


@pytest.mark.parametrize(
    ("minimum", "target", "added"),
    [
        ("1.24", "1.29", "    service.kubernetes.io/topology-aware-hints: Auto\n"),
        ("1.29", "1.29", "    service.kubernetes.io/topology-mode: Auto\n"),
        ("1.33", "1.33", "  trafficDistribution: PreferClose\n"),
        ("1.35", "1.35", "  trafficDistribution: PreferSameZone\n"),
    ],
)
def test_zone_first_replacement_by_window(minimum: str, target: str, added: str) -> None:
    result = run(
        svc('  topologyKeys: ["topology.kubernetes.io/zone", "*"]\n'), target_version=target, min_version=minimum
    )
    assert "topologyKeys" not in result.text
    assert added in result.text
    assert codes(result) == ["K8SM-FLD-001"]


def test_zone_annotation_written_in_place() -> None:
    result = check_transformed(
        svc('  topologyKeys: ["topology.kubernetes.io/zone", "*"]\n'),
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n"
        "    service.kubernetes.io/topology-mode: Auto\n"
        "spec:\n  selector: {app: s}\n  ports:\n  - port: 80\n",
    )
    validate(result.text)


def test_star_only_is_deleted() -> None:
    result = check_transformed(svc('  topologyKeys: ["*"]\n'), HEAD)
    assert codes(result) == ["K8SM-FLD-066"]


def test_replacement_too_new_for_the_window_deletes_only() -> None:
    result = check_transformed(svc('  topologyKeys: ["kubernetes.io/hostname", "*"]\n'), HEAD)
    assert codes(result) == ["K8SM-FLD-036"]


def test_region_keys_are_an_error() -> None:
    result = check_noop(svc('  topologyKeys: ["topology.kubernetes.io/region", "*"]\n'))
    assert codes(result, "error") == ["K8SM-FLD-037"]


# --------------------------------------------------------------------------- ipFamily


def test_ip_family_noop_below_1_20() -> None:
    check_noop(svc("  ipFamily: IPv6\n"), target_version="1.19")


def test_ip_family_becomes_families_and_policy() -> None:
    result = check_transformed(
        svc("  ipFamily: IPv6\n"), svc("  ipFamilies:\n  - IPv6\n  ipFamilyPolicy: SingleStack\n")
    )
    assert codes(result) == ["K8SM-FLD-006"]
    validate(result.text)


def test_ip_family_beside_equal_families_is_deleted() -> None:
    check_transformed(svc("  ipFamily: IPv4\n  ipFamilies: [IPv4]\n"), svc("  ipFamilies: [IPv4]\n"))


def test_ip_family_disagreeing_is_an_error() -> None:
    assert codes(check_noop(svc("  ipFamily: IPv4\n  ipFamilies: [IPv6]\n")), "error") == ["K8SM-FLD-038"]


def test_ip_family_window_before_1_20_deletes_only() -> None:
    result = check_transformed(svc("  ipFamily: IPv4\n"), HEAD, min_version="1.19")
    assert codes(result) == ["K8SM-FLD-039"]


# --------------------------------------------------------------------------- tolerate-unready-endpoints

UNREADY = (
    "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n"
    '    service.alpha.kubernetes.io/tolerate-unready-endpoints: "{}"\n'
    "spec:\n  clusterIP: None\n  selector: {{app: s}}\n"
)


def test_unready_noop_below_1_24() -> None:
    check_noop(UNREADY.format("true"), target_version="1.23")


def test_unready_true_becomes_publish_not_ready_addresses() -> None:
    result = check_transformed(
        UNREADY.format("true"),
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n"
        "spec:\n  clusterIP: None\n  selector: {app: s}\n  publishNotReadyAddresses: true\n",
    )
    assert codes(result) == ["K8SM-FLD-015"]
    validate(result.text)


def test_unready_false_is_deleted() -> None:
    check_transformed(
        UNREADY.format("false"),
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  clusterIP: None\n  selector: {app: s}\n",
    )


def test_unready_against_the_field_is_an_error() -> None:
    result = check_noop(UNREADY.format("true") + "  publishNotReadyAddresses: false\n")
    assert codes(result, "error") == ["K8SM-FLD-040"]


def test_unready_not_a_boolean_is_deleted_with_a_warning() -> None:
    result = check_transformed(
        UNREADY.format("maybe"),
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  clusterIP: None\n  selector: {app: s}\n",
    )
    assert codes(result) == ["K8SM-FLD-041"]
