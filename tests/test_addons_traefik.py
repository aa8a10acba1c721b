"""Spec: Traefik — traefik.containo.us → traefik.io, and what Traefik 3 changed inside the objects."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from k8smigrate.addons.traefik import v2_only
from tests.addons_helpers import check_noop, check_transformed, codes, crd_valid, run

GOLDEN = Path(__file__).parent / "golden" / "addons" / "traefik"

MIDDLEWARE = """
apiVersion: traefik.containo.us/v1alpha1
kind: Middleware
metadata:
  name: office-only
spec:
  ipWhiteList:  # the office
    sourceRange:
    - 192.0.2.0/24
"""

# ------------------------------------------------------------------ no-op cases


def test_noop_before_2_10() -> None:
    check_noop(MIDDLEWARE, components={"traefik": "2.9"})


def test_noop_v3_rule() -> None:
    check_noop(
        """
        apiVersion: traefik.io/v1alpha1
        kind: IngressRoute
        metadata:
          name: web
        spec:
          routes:
          - match: Host(`example.com`) && PathPrefix(`/api`)
            kind: Rule
            services: [{name: api, port: 80}]
        """
    )


# ------------------------------------------------------------------ transforms


def test_group_only_on_2_11() -> None:
    check_transformed(
        MIDDLEWARE, MIDDLEWARE.replace("traefik.containo.us", "traefik.io"), components={"traefik": "2.11"}
    )


def test_group_and_ip_allow_list_on_3() -> None:
    result = check_transformed(
        MIDDLEWARE,
        MIDDLEWARE.replace("traefik.containo.us", "traefik.io").replace("ipWhiteList", "ipAllowList"),
    )
    assert codes(result) == ["K8SM-TRF-001"]
    crd_valid(result.text)


def test_v2_rule_gets_syntax_v2() -> None:
    result = check_transformed(
        """
        apiVersion: traefik.containo.us/v1alpha1
        kind: IngressRoute
        metadata:
          name: web
        spec:
          routes:
          - match: Host(`a.example.com`, `b.example.com`) && Headers(`X-Env`, `prod`)
            kind: Rule
            services: [{name: web, port: 80}]
          - match: Host(`c.example.com`)
            kind: Rule
            services: [{name: web, port: 80}]
        """,
        """
        apiVersion: traefik.io/v1alpha1
        kind: IngressRoute
        metadata:
          name: web
        spec:
          routes:
          - match: Host(`a.example.com`, `b.example.com`) && Headers(`X-Env`, `prod`)
            syntax: v2
            kind: Rule
            services: [{name: web, port: 80}]
          - match: Host(`c.example.com`)
            kind: Rule
            services: [{name: web, port: 80}]
        """,
    )
    assert codes(result) == ["K8SM-TRF-004"]
    crd_valid(result.text)


@pytest.mark.parametrize(
    ("rule", "v2"),
    [
        ("Host(`example.com`)", False),
        ("Host(`example.com`) && (PathPrefix(`/a`) || Path(`/b`))", False),
        ("Header(`X`, `1`)", False),
        ("Headers(`X`, `1`)", True),
        ("HostHeader(`example.com`)", True),
        ("HostRegexp(`{sub:[a-z]+}.example.com`)", True),
        ("PathPrefix(`/api/{id:[0-9]+}`)", True),
        ("Method(`GET`, `POST`)", True),
        ("Query(`mobile=true`)", True),
        ("HostSNI(`*`)", False),
        ("HostSNI(`a.example.com`, `b.example.com`)", True),
        ("Host(`unterminated", True),
    ],
)
def test_v2_only_rules(rule: str, v2: bool) -> None:
    assert bool(v2_only(rule)) is v2


# ------------------------------------------------------------------ warnings


def test_ssl_redirect_is_reported() -> None:
    result = run(
        """
        apiVersion: traefik.io/v1alpha1
        kind: Middleware
        metadata:
          name: secure
        spec:
          headers:
            sslRedirect: true
            stsSeconds: 31536000
        """
    )
    assert codes(result) == ["K8SM-TRF-002"]
    assert not result.changed


def test_both_allow_list_forms_need_a_human() -> None:
    result = run(
        """
        apiVersion: traefik.io/v1alpha1
        kind: Middleware
        metadata:
          name: m
        spec:
          ipWhiteList: {sourceRange: [10.0.0.0/8]}
          ipAllowList: {sourceRange: [10.0.0.0/8]}
        """
    )
    assert codes(result, "error") == ["K8SM-TRF-005"]


# ------------------------------------------------------------------ upstream fixtures


@pytest.mark.parametrize("name", ["03-ingressroute", "05-ingressroutetcp", "05-ingressrouteudp"])
def test_upstream_containous_fixtures(name: str) -> None:
    """traefik/traefik 0c877863 (v2.11.0) ``integration/fixtures/k8s/0{3,5}-*-containous.yml`` (golden/addons/traefik/SOURCES.tsv).

    Each ``-containous`` fixture is its traefik.io twin with other names and routes (the test
    checks that Traefik ignores the old group's duplicate); the migration changes the group alone
    and the result validates against today's CRDs.
    """
    old = (GOLDEN / f"{name}-containous.yml").read_text(encoding="utf-8")
    result = run(old, components={"traefik": "2.11"}, exact=True)
    assert not codes(result, "error")
    before = [d for d in yaml.safe_load_all(old) if d]
    after = [d for d in yaml.safe_load_all(result.text) if d]
    for a, b in zip(before, after, strict=True):
        assert b["apiVersion"] == a["apiVersion"].replace("traefik.containo.us", "traefik.io")
        assert {k: v for k, v in b.items() if k != "apiVersion"} == {k: v for k, v in a.items() if k != "apiVersion"}
    crd_valid("\n---\n".join(yaml.safe_dump(d) for d in after if d["apiVersion"].startswith("traefik.io")))


def test_traefik_containo_us_runs_for_every_kind() -> None:
    for kind in (
        "IngressRoute",
        "IngressRouteTCP",
        "IngressRouteUDP",
        "Middleware",
        "MiddlewareTCP",
        "ServersTransport",
        "TLSOption",
        "TLSStore",
        "TraefikService",
    ):
        result = run(f"apiVersion: traefik.containo.us/v1alpha1\nkind: {kind}\nmetadata:\n  name: x\n")
        assert result.documents[0].applied == ["traefik_containo_us"], kind
