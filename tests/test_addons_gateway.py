"""Spec: Gateway API — v1alpha2/v1beta1 → v1, ReferencePolicy → ReferenceGrant, graduated routes, BackendTLSPolicy."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from tests.addons_helpers import check_noop, check_transformed, codes, crd_valid, run

GOLDEN = Path(__file__).parent / "golden" / "addons" / "gateway-api"

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            """
            apiVersion: gateway.networking.k8s.io/v1
            kind: HTTPRoute
            metadata:
              name: web
            spec:
              parentRefs:
              - name: gw
            """,
            id="already-v1",
        ),
        pytest.param(
            """
            apiVersion: networking.x-k8s.io/v1alpha1
            kind: HTTPRoute
            metadata:
              name: web
            """,
            id="pre-0.4-group",
        ),
        pytest.param(
            """
            apiVersion: gateway.networking.k8s.io/v1beta1
            kind: ReferenceGrant
            metadata:
              name: rg
            spec:
              from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: a}]
              to: [{group: "", kind: Service}]
            """,
            id="referencegrant-v1beta1-before-1.5",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text, components={"gateway-api": "1.4"})


def test_noop_v1beta1_before_1_0() -> None:
    check_noop(
        """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: Gateway
        metadata:
          name: gw
        spec:
          gatewayClassName: acme
          listeners: [{name: http, protocol: HTTP, port: 80}]
        """,
        components={"gateway-api": "0.8"},
    )


# ------------------------------------------------------------------ transforms


def test_v1alpha2_to_v1_keeps_everything_else() -> None:
    result = check_transformed(
        """
        # the shop's route
        apiVersion: gateway.networking.k8s.io/v1alpha2  # old
        kind: HTTPRoute
        metadata:
          name: shop
        spec:
          parentRefs:
          - name: gw
          rules:
          - matches:
            - path: {type: PathPrefix, value: /shop}
            backendRefs:
            - name: shop
              port: 8080
        """,
        """
        # the shop's route
        apiVersion: gateway.networking.k8s.io/v1  # old
        kind: HTTPRoute
        metadata:
          name: shop
        spec:
          parentRefs:
          - name: gw
          rules:
          - matches:
            - path: {type: PathPrefix, value: /shop}
            backendRefs:
            - name: shop
              port: 8080
        """,
    )
    assert result.documents[0].applied == ["gateway_api_v1alpha2", "gateway_api_v1beta1"]
    crd_valid(result.text)


def test_v1alpha2_stops_at_v1beta1_before_1_0() -> None:
    check_transformed(
        """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: GatewayClass
        metadata:
          name: acme
        spec:
          controllerName: example.com/gateway
        """,
        """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: GatewayClass
        metadata:
          name: acme
        spec:
          controllerName: example.com/gateway
        """,
        components={"gateway-api": "0.8"},
    )


def test_reference_policy_becomes_reference_grant() -> None:
    result = check_transformed(
        """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: ReferencePolicy
        metadata:
          name: allow-gateways
          namespace: ns2
        spec:
          from:
          - group: gateway.networking.k8s.io
            kind: Gateway
            namespace: ns1
          to:
          - group: ""
            kind: Secret
        """,
        """
        apiVersion: gateway.networking.k8s.io/v1
        kind: ReferenceGrant
        metadata:
          name: allow-gateways
          namespace: ns2
        spec:
          from:
          - group: gateway.networking.k8s.io
            kind: Gateway
            namespace: ns1
          to:
          - group: ""
            kind: Secret
        """,
    )
    crd_valid(result.text)


def test_tls_route_to_v1() -> None:
    result = check_transformed(
        """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: TLSRoute
        metadata:
          name: tls
        spec:
          parentRefs: [{name: gw}]
          hostnames: [db.example.com]
          rules:
          - backendRefs: [{name: db, port: 5432}]
        """,
        """
        apiVersion: gateway.networking.k8s.io/v1
        kind: TLSRoute
        metadata:
          name: tls
        spec:
          parentRefs: [{name: gw}]
          hostnames: [db.example.com]
          rules:
          - backendRefs: [{name: db, port: 5432}]
        """,
    )
    crd_valid(result.text)


def test_backend_tls_policy_v1alpha2_to_v1() -> None:
    result = check_transformed(
        """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: BackendTLSPolicy
        metadata:
          name: tls
          namespace: shop
        spec:
          targetRef:  # the service
            group: ""
            kind: Service
            name: shop
            namespace: shop
          tls:
            caCertRefs:
            - group: ""
              kind: ConfigMap
              name: ca
            hostname: shop.example.com
        """,
        """
        apiVersion: gateway.networking.k8s.io/v1
        kind: BackendTLSPolicy
        metadata:
          name: tls
          namespace: shop
        spec:
          targetRefs:  # the service
          - group: ""
            kind: Service
            name: shop
          validation:
            caCertificateRefs:
            - group: ""
              kind: ConfigMap
              name: ca
            hostname: shop.example.com
        """,
    )
    crd_valid(result.text)


def test_experimental_route_reported_before_it_graduates() -> None:
    result = check_noop(
        """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: TCPRoute
        metadata:
          name: tcp
        spec:
          rules:
          - backendRefs: [{name: db, port: 5432}]
        """,
        components={"gateway-api": "1.5"},
    )
    assert codes(result) == ["K8SM-GW-005"]


# ------------------------------------------------------------------ errors


def test_tls_route_without_hostnames_needs_a_human() -> None:
    result = run(
        """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: TLSRoute
        metadata:
          name: tls
        spec:
          rules:
          - backendRefs: [{name: db, port: 5432}]
        """
    )
    assert "K8SM-GW-002" in codes(result, "error")
    assert not result.changed


def test_tcp_route_with_two_rules_needs_a_human() -> None:
    result = run(
        """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: TCPRoute
        metadata:
          name: tcp
        spec:
          rules:
          - backendRefs: [{name: a, port: 1}]
          - backendRefs: [{name: b, port: 2}]
        """
    )
    assert "K8SM-GW-001" in codes(result, "error")
    assert not result.changed


def test_backend_tls_policy_in_another_namespace_needs_a_human() -> None:
    result = run(
        """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: BackendTLSPolicy
        metadata:
          name: tls
          namespace: infra
        spec:
          targetRef: {group: "", kind: Service, name: shop, namespace: shop}
          tls: {hostname: shop.example.com, wellKnownCACerts: System}
        """
    )
    assert "K8SM-GW-003" in codes(result, "error")


# ------------------------------------------------------------------ upstream pairs


def _group_only(doc: dict[str, object]) -> dict[str, object]:
    return {**doc, "apiVersion": str(doc["apiVersion"]).split("/")[0]}


def _pairs() -> list[dict[str, str]]:
    with (GOLDEN / "SOURCES.tsv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


@pytest.mark.parametrize("pair", _pairs(), ids=lambda p: p["case"])
def test_upstream_example_pairs(pair: dict[str, str]) -> None:
    """An example of an old release migrates to the same data as the example of a recent release.

    The pairs are kubernetes-sigs/gateway-api examples whose only difference is the apiVersion, from
    ``examples/v1alpha2`` of v0.4.3 (cda56dd9) and v0.5.1, ``examples/{standard,experimental/v1alpha2}`` of
    v0.6.0 to ``examples/standard`` of v1.0.0 (a0684982) and v1.6.0; each case's commits and paths are in
    golden/addons/gateway-api/SOURCES.tsv. The output must also keep every other line of the input.
    """
    old = (GOLDEN / f"{pair['case']}.old.yaml").read_text(encoding="utf-8")
    new = (GOLDEN / f"{pair['case']}.new.yaml").read_text(encoding="utf-8")
    result = run(old, exact=True)
    assert not codes(result, "error"), [f.format() for f in result.findings]
    got, want = list(yaml.safe_load_all(result.text)), list(yaml.safe_load_all(new))
    assert {d["apiVersion"] for d in got} == {"gateway.networking.k8s.io/v1"}
    assert [_group_only(d) for d in got] == [_group_only(d) for d in want]  # 1.0's examples were still v1beta1
    changed = [(a, b) for a, b in zip(old.splitlines(), result.text.splitlines(), strict=True) if a != b]
    assert all(a.lstrip().startswith("apiVersion:") for a, _b in changed), changed
    crd_valid(result.text)


@pytest.mark.parametrize(
    ("migrations", "api", "kind"),
    [
        (["gateway_api_v1alpha2", "gateway_api_v1beta1"], "gateway.networking.k8s.io/v1alpha2", "Gateway"),
        (["gateway_api_v1beta1"], "gateway.networking.k8s.io/v1beta1", "GatewayClass"),
        (["gateway_api_grpcroute_v1alpha2"], "gateway.networking.k8s.io/v1alpha2", "GRPCRoute"),
        (
            [
                "gateway_api_referencepolicy",
                "gateway_api_referencegrant_v1alpha2",
                "gateway_api_referencegrant_v1beta1",
            ],
            "gateway.networking.k8s.io/v1alpha2",
            "ReferencePolicy",
        ),
        (["gateway_api_backendtlspolicy_v1alpha3"], "gateway.networking.k8s.io/v1alpha3", "BackendTLSPolicy"),
        (["gateway_api_tcproute_v1alpha2"], "gateway.networking.k8s.io/v1alpha2", "UDPRoute"),
        (["gateway_api_tlsroute_v1alpha3"], "gateway.networking.k8s.io/v1alpha3", "TLSRoute"),
    ],
)
def test_each_step_runs(migrations: list[str], api: str, kind: str) -> None:
    spec = "spec:\n  hostnames: [a.example.com]\n" if kind == "TLSRoute" else ""
    result = run(f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\n{spec}")
    assert [m for m in result.documents[0].applied if m != "gateway_api_experimental"] == migrations
    assert not codes(result, "error")


def test_gateway_api_experimental_is_a_check() -> None:
    result = run(
        "apiVersion: gateway.networking.k8s.io/v1alpha3\nkind: TLSRoute\nmetadata:\n  name: x\n", {"gateway-api": "1.4"}
    )
    assert codes(result) == ["K8SM-GW-005"]
    assert result.findings[0].migration == "gateway_api_experimental"
