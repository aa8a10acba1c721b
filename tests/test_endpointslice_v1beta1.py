"""Spec: EndpointSlice discovery.k8s.io/v1beta1 → v1 (topology → zone/nodeName/deprecatedTopology)."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

HEAD = """
    apiVersion: {api}
    kind: EndpointSlice
    metadata:
      name: web-abc
    addressType: IPv4
    ports:
    - port: 80
    endpoints:
    - addresses: ["10.0.0.1"]
    """


def test_noop_already_v1() -> None:
    check_noop(HEAD.format(api="discovery.k8s.io/v1"))


def test_noop_below_gate() -> None:
    check_noop(HEAD.format(api="discovery.k8s.io/v1beta1"), target_version="1.20")


def test_no_topology_is_a_rename() -> None:
    result = check_transformed(HEAD.format(api="discovery.k8s.io/v1beta1"), HEAD.format(api="discovery.k8s.io/v1"))
    validate(result.text)


def test_zone_and_hostname_become_fields() -> None:
    result = check_transformed(
        """
        apiVersion: discovery.k8s.io/v1beta1
        kind: EndpointSlice
        metadata:
          name: web-abc
        addressType: IPv4
        endpoints:
        - addresses: ["10.0.0.1"]
          topology:  # where it runs
            kubernetes.io/hostname: node-1
            topology.kubernetes.io/zone: us-west2-a  # the zone
        """,
        """
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata:
          name: web-abc
        addressType: IPv4
        endpoints:
        - addresses: ["10.0.0.1"]
          # where it runs
          zone: us-west2-a  # the zone
          nodeName: node-1
        """,
    )
    validate(result.text)
    assert codes(result) == []


def test_hostname_equal_to_node_name_is_removed_other_keys_kept() -> None:
    result = check_transformed(
        """
        apiVersion: discovery.k8s.io/v1beta1
        kind: EndpointSlice
        metadata:
          name: web-abc
        addressType: IPv4
        endpoints:
        - addresses: ["10.0.0.1"]
          nodeName: node-1
          topology:
            kubernetes.io/hostname: node-1
            topology.kubernetes.io/region: us-west2
        - addresses: ["10.0.0.2"]
          nodeName: node-2
          topology:
            kubernetes.io/hostname: node-9
        """,
        """
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata:
          name: web-abc
        addressType: IPv4
        endpoints:
        - addresses: ["10.0.0.1"]
          nodeName: node-1
          deprecatedTopology:
            topology.kubernetes.io/region: us-west2
        - addresses: ["10.0.0.2"]
          nodeName: node-2
          deprecatedTopology:
            kubernetes.io/hostname: node-9
        """,
    )
    validate(result.text)
    assert codes(result) == ["K8SM-EPS-001", "K8SM-EPS-001"]


def test_both_maps_is_an_error() -> None:
    result = check_noop(
        """
        apiVersion: discovery.k8s.io/v1beta1
        kind: EndpointSlice
        metadata: {name: x}
        addressType: IPv4
        endpoints:
        - addresses: ["10.0.0.1"]
          topology: {a: b}
          deprecatedTopology: {a: b}
        """
    )
    assert codes(result, "error") == ["K8SM-GEN-003"]


def test_corpus_fixture(corpus) -> None:  # type: ignore[no-untyped-def]
    result = run((corpus / "kube-no-trouble-2366d92__fixtures_endpointslice-v1beta1.yaml").read_text())
    assert codes(result, "error") == []
    assert "topology" not in result.text
    validate(result.text)
