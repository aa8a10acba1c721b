"""Spec: Istio — networking/security/telemetry → v1 where served; removed alpha APIs reported."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from k8smigrate.addons.istio import policy_replacement
from tests.addons_helpers import check_noop, check_transformed, codes, crd_valid, run

GOLDEN = Path(__file__).parent / "golden" / "addons" / "istio"
KUBEFLOW = (
    Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "kustomize" / "kubeflow-manifests-v1.0.2"
)

VIRTUAL_SERVICE = """
apiVersion: networking.istio.io/v1alpha3
kind: VirtualService
metadata:
  name: web
spec:
  hosts: ["*"]
  gateways: [kubeflow-gateway]
  http:
  - match:
    - uri: {prefix: /web/}
    route:
    - destination: {host: web.kubeflow.svc.cluster.local, port: {number: 80}}
"""

# ------------------------------------------------------------------ no-op cases


def test_noop_before_1_22() -> None:
    check_noop(VIRTUAL_SERVICE, components={"istio": "1.21"})


def test_noop_envoy_filter_has_no_v1() -> None:
    check_noop(
        """
        apiVersion: networking.istio.io/v1alpha3
        kind: EnvoyFilter
        metadata:
          name: f
        spec:
          configPatches: []
        """
    )


def test_noop_peer_authentication_before_1_22() -> None:
    check_noop(
        """
        apiVersion: security.istio.io/v1beta1
        kind: PeerAuthentication
        metadata:
          name: default
        spec:
          mtls: {mode: STRICT}
        """,
        components={"istio": "1.21"},
    )


# ------------------------------------------------------------------ transforms


def test_networking_v1alpha3_to_v1() -> None:
    result = check_transformed(VIRTUAL_SERVICE, VIRTUAL_SERVICE.replace("v1alpha3", "v1"), components={"istio": "1.22"})
    assert codes(result) == []
    crd_valid(result.text)


def test_security_v1_from_1_17_for_authorization_policy() -> None:
    text = """
    apiVersion: security.istio.io/v1beta1
    kind: AuthorizationPolicy
    metadata:
      name: deny-all
    spec: {}
    """
    result = check_transformed(text, text.replace("v1beta1", "v1"), components={"istio": "1.17"})
    crd_valid(result.text)


def test_telemetry_extended_field_reported() -> None:
    result = run(
        """
        apiVersion: telemetry.istio.io/v1alpha1
        kind: Telemetry
        metadata:
          name: mesh-default
        spec:
          metrics:
          - providers: [{name: prometheus}]
            reportingInterval: 10s
        """
    )
    assert codes(result) == ["K8SM-IST-003"]
    assert "telemetry.istio.io/v1\n" in result.text
    crd_valid(result.text)


# ------------------------------------------------------------------ removed alpha APIs


def test_alpha_policy_reported_with_its_replacement() -> None:
    result = run(
        """
        apiVersion: authentication.istio.io/v1alpha1
        kind: Policy
        metadata:
          name: default
          namespace: foo
        spec:
          peers:
          - mtls:
              mode: STRICT
        """
    )
    assert not result.changed
    messages = {f.code: f.message for f in result.findings}
    assert "PeerAuthentication {mtls: {mode: STRICT}}" in messages["K8SM-IST-001"]
    assert "K8SM-GEN-007" in messages


@pytest.mark.parametrize(
    ("api", "kind"),
    [
        ("rbac.istio.io/v1alpha1", "ServiceRole"),
        ("rbac.istio.io/v1alpha1", "ClusterRbacConfig"),
        ("config.istio.io/v1alpha2", "rule"),
        ("config.istio.io/v1alpha2", "metric"),
    ],
)
def test_removed_alpha_apis_are_errors_with_a_hint(api: str, kind: str) -> None:
    result = run(f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\nspec: {{}}\n")
    (removed,) = [f for f in result.findings if f.code == "K8SM-GEN-007"]
    assert ("AuthorizationPolicy" if "rbac" in api else "Mixer") in removed.message


# ------------------------------------------------------------------ upstream goldens (security-policy-migrate)

SERVICES = {
    # e2e/deploy/httpbin.yaml (golden/addons/istio/httpbin-services.yaml): ports 8000 and 80, no targetPort
    "httpbin": ({"app": "httpbin"}, {"8000": "8000", "80": "80"}),
    # e2e/e2e_test.go: "helloworld (5000)", the Istio sample's Service (selector app: helloworld)
    "helloworld": ({"app": "helloworld"}, {"5000": "5000"}),
}


def _fill(data: Any) -> Any:
    """Put the cluster's answers (Service selectors, target ports) where k8smigrate leaves a placeholder."""
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            m = re.fullmatch(r"<targetPort of Service port (\d+)>", str(key))
            out[SERVICES["httpbin"][1].get(m.group(1), m.group(1)) if m else key] = _fill(value)
        return out
    if isinstance(data, list):
        return [_fill(v) for v in data]
    if isinstance(data, str):
        m = re.fullmatch(r"<spec.selector of Service (\S+)>", data)
        if m:
            return SERVICES[m.group(1)][0]
        m = re.fullmatch(r"<targetPort of Service port (\d+)>", data)
        if m:
            return m.group(1)
    return data


def _without_forward(spec: dict[str, Any]) -> dict[str, Any]:
    """The fixtures predate a3054f2 ("set forwardOriginalToken for JWT conversion")."""
    for rule in spec.get("jwtRules") or []:
        rule.pop("forwardOriginalToken", None)
    return spec


CASES = sorted(p.name[: -len("-input.yaml")] for p in GOLDEN.glob("*-input.yaml"))


@pytest.mark.parametrize("case", CASES)
def test_security_policy_migrate_goldens(case: str) -> None:
    """istio-ecosystem/security-policy-migrate a3054f2e ``e2e/testdata/*-{input,output}.yaml`` (golden/addons/istio/SOURCES.tsv)."""
    policies = [d for d in yaml.safe_load_all((GOLDEN / f"{case}-input.yaml").read_text()) if d]
    want = [
        (d["kind"], d["spec"])
        for d in yaml.safe_load_all((GOLDEN / f"{case}-output.yaml").read_text())
        if isinstance(d, dict) and d.get("spec") is not None
    ]
    got = []
    for policy in policies:
        replacement, problems = policy_replacement(policy)
        assert problems == []
        got += [(kind, _without_forward(_fill(spec))) for kind, spec in replacement]
    key = lambda pair: (pair[0], yaml.safe_dump(pair[1], sort_keys=True))  # noqa: E731
    assert sorted(got, key=key) == sorted(want, key=key)
    for kind, spec in got:  # what the finding tells a human to write is valid in today's CRDs
        crd_valid(
            yaml.safe_dump(
                {"apiVersion": "security.istio.io/v1", "kind": kind, "metadata": {"name": "x"}, "spec": spec}
            )
        )


# ------------------------------------------------------------------ the kubeflow tree


@pytest.mark.parametrize(
    "rel",
    [
        "argo/overlays/istio/virtual-service.yaml",
        "istio/istio/overlays/https-gateway/kf-istio-resources.yaml",
        "kfdef/generic/auth_oidc/gateway.yaml",
        "knative/knative-serving-install/base/gateway.yaml",
        "metadata/overlays/istio/virtual-service-metadata-grpc.yaml",
    ],
)
def test_kubeflow_networking_objects_migrate_and_validate(rel: str) -> None:
    path = KUBEFLOW / rel
    if not path.is_file():
        pytest.skip("../shared/corpus/kustomize is not beside the project")
    result = run(path.read_text(encoding="utf-8"))
    assert result.changed
    assert not codes(result, "error"), [f.format() for f in result.findings]
    for doc in yaml.safe_load_all(result.text):
        if isinstance(doc, dict) and doc.get("apiVersion", "").startswith("networking.istio.io/"):
            crd_valid(yaml.safe_dump(doc))


@pytest.mark.parametrize(
    ("rel", "release"),
    [
        ("gcp/iap-ingress/base/policy.yaml", "1.6"),  # authentication.istio.io/v1alpha1 Policy
        ("istio-1-3-1/istio-install-1-3-1/base/service-role.yaml", "1.6"),  # rbac.istio.io/v1alpha1
        ("istio-1-3-1/istio-install-1-3-1/base/service-role-binding.yaml", "1.6"),
        ("aws/aws-istio-authz-adaptor/base/rule.yaml", "1.8"),  # Mixer, config.istio.io/v1alpha2
        ("istio-1-3-1/istio-install-1-3-1/base/handler.yaml", "1.8"),
    ],
)
def test_kubeflow_removed_apis_are_reported_with_the_release_that_removed_them(rel: str, release: str) -> None:
    path = KUBEFLOW / rel
    if not path.is_file():
        pytest.skip("../shared/corpus/kustomize is not beside the project")
    text = path.read_text(encoding="utf-8")
    result = run(text, exact=True)
    assert result.text == text
    documents = [d for d in yaml.safe_load_all(text) if isinstance(d, dict)]
    removed = [f for f in result.findings if f.code == "K8SM-GEN-007"]
    assert len(removed) == len(documents)
    assert all(f"removed in istio {release}" in f.message for f in removed), [f.message for f in removed]


@pytest.mark.parametrize(
    ("migration", "api", "kind"),
    [
        ("istio_networking_v1alpha3", "networking.istio.io/v1alpha3", "WorkloadGroup"),
        ("istio_networking_v1beta1", "networking.istio.io/v1beta1", "Sidecar"),
        ("istio_security_v1beta1", "security.istio.io/v1beta1", "RequestAuthentication"),
        ("istio_peerauthentication_v1beta1", "security.istio.io/v1beta1", "PeerAuthentication"),
        ("istio_telemetry_v1alpha1", "telemetry.istio.io/v1alpha1", "Telemetry"),
    ],
)
def test_each_step_runs(migration: str, api: str, kind: str) -> None:
    result = run(f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\nspec: {{}}\n")
    assert result.documents[0].applied == [migration]


def test_istio_authentication_policy_is_a_check_that_only_reports() -> None:
    result = run("apiVersion: authentication.istio.io/v1alpha1\nkind: MeshPolicy\nmetadata:\n  name: default\n")
    (finding,) = [f for f in result.findings if f.code == "K8SM-IST-001"]
    assert finding.migration == "istio_authentication_policy"
    assert "mesh root namespace" in finding.message
    assert not result.changed
