"""Spec: cert-manager — certmanager.k8s.io → cert-manager.io, v1alpha2/v1alpha3/v1beta1 → v1, annotations."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.addons_helpers import check_noop, check_transformed, codes, crd_valid, run

GOLDEN = Path(__file__).parent / "golden" / "addons" / "cert-manager"
KUBEFLOW = (
    Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "kustomize" / "kubeflow-manifests-v1.0.2"
)

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            """
            apiVersion: cert-manager.io/v1
            kind: Certificate
            metadata:
              name: web
            spec:
              secretName: web-tls
              privateKey:
                algorithm: ECDSA
              issuerRef:
                name: ca
            """,
            id="already-v1",
        ),
        pytest.param(
            """
            apiVersion: cert-manager.io/v1alpha2
            kind: ClusterRole
            metadata:
              name: not-cert-manager
            """,
            id="other-kind-same-group",
        ),
        pytest.param(
            """
            apiVersion: networking.k8s.io/v1
            kind: Ingress
            metadata:
              name: web
              annotations:
                cert-manager.io/cluster-issuer: letsencrypt
            spec:
              rules: []
            """,
            id="new-annotations",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text)


def test_noop_below_v1() -> None:
    """cert-manager 0.16 does not serve v1: v1alpha2 stays."""
    result = check_noop(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: Certificate
        metadata:
          name: web
        spec:
          keyAlgorithm: rsa
          secretName: web-tls
          issuerRef:
            name: ca
        """,
        components={"cert-manager": "0.16"},
    )
    assert "K8SM-GEN-007" not in codes(result)


# ------------------------------------------------------------------ v1alpha2 → v1


def test_certificate_v1alpha2_key_fields_subject_sans() -> None:
    result = check_transformed(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: Certificate
        metadata:
          name: web
        spec:
          secretName: web-tls  # the secret
          # key settings
          keyAlgorithm: ecdsa   # small keys
          keySize: 256
          keyEncoding: pkcs8
          organization:
          - Example Ltd   # org
          emailSANs: [a@example.com]
          uriSANs:
          - spiffe://example.com/web
          dnsNames:
          - example.com
          issuerRef:
            name: le
            kind: ClusterIssuer
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata:
          name: web
        spec:
          secretName: web-tls  # the secret
          privateKey:
            # key settings
            algorithm: ECDSA   # small keys
            size: 256
            encoding: PKCS8
          subject:
            organizations:
            - Example Ltd   # org
          emailAddresses: [a@example.com]
          uris:
          - spiffe://example.com/web
          dnsNames:
          - example.com
          issuerRef:
            name: le
            kind: ClusterIssuer
        """,
    )
    assert codes(result) == []
    crd_valid(result.text)


def test_certificate_key_fields_join_existing_private_key() -> None:
    result = check_transformed(
        """
        apiVersion: cert-manager.io/v1alpha3
        kind: Certificate
        metadata:
          name: web
        spec:
          privateKey:
            rotationPolicy: Always
          keyAlgorithm: rsa
          keySize: 4096
          secretName: web-tls
          issuerRef:
            name: ca
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata:
          name: web
        spec:
          privateKey:
            rotationPolicy: Always
            algorithm: RSA
            size: 4096
          secretName: web-tls
          issuerRef:
            name: ca
        """,
    )
    crd_valid(result.text)


def test_certificate_empty_key_fields_dropped() -> None:
    """Go's zero values are omitted: an all-empty key configuration leaves no privateKey."""
    check_transformed(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: Certificate
        metadata:
          name: web
        spec:
          keyAlgorithm: ""
          keySize: 0
          secretName: web-tls
          issuerRef:
            name: ca
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata:
          name: web
        spec:
          secretName: web-tls
          issuerRef:
            name: ca
        """,
    )


def test_organization_into_existing_subject() -> None:
    result = check_transformed(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: Certificate
        metadata:
          name: web
        spec:
          subject:
            countries: [DE]
          organization: [Acme]
          secretName: web-tls
          issuerRef:
            name: ca
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata:
          name: web
        spec:
          subject:
            countries: [DE]
            organizations: [Acme]
          secretName: web-tls
          issuerRef:
            name: ca
        """,
    )
    crd_valid(result.text)


def test_v1beta1_renames_sans_only() -> None:
    result = check_transformed(
        """
        apiVersion: cert-manager.io/v1beta1
        kind: Certificate
        metadata:
          name: web
        spec:
          privateKey:
            algorithm: RSA
          emailSANs: [a@example.com]
          secretName: web-tls
          issuerRef:
            name: ca
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata:
          name: web
        spec:
          privateKey:
            algorithm: RSA
          emailAddresses: [a@example.com]
          secretName: web-tls
          issuerRef:
            name: ca
        """,
    )
    crd_valid(result.text)


def test_certificate_request_csr_to_request() -> None:
    result = check_transformed(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: CertificateRequest
        metadata:
          name: web-1
        spec:
          csr: LS0tLS1CRUdJTi...  # PEM, base64
          issuerRef:
            name: ca
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: CertificateRequest
        metadata:
          name: web-1
        spec:
          request: LS0tLS1CRUdJTi...  # PEM, base64
          issuerRef:
            name: ca
        """,
    )
    crd_valid(result.text)


def test_issuer_dns01_provider_keys() -> None:
    result = check_transformed(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: ClusterIssuer
        metadata:
          name: le
        spec:
          acme:
            server: https://acme-v02.api.letsencrypt.org/directory
            privateKeySecretRef:
              name: le-account
            solvers:
            - dns01:
                clouddns:  # google
                  project: my-project
            - selector:
                dnsZones: [example.org]
              dns01:
                azuredns:
                  subscriptionID: s
                  resourceGroupName: rg
            - dns01:
                acmedns:
                  host: https://auth.example.com
                  accountSecretRef:
                    name: acme-dns
                    key: acmedns.json
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: ClusterIssuer
        metadata:
          name: le
        spec:
          acme:
            server: https://acme-v02.api.letsencrypt.org/directory
            privateKeySecretRef:
              name: le-account
            solvers:
            - dns01:
                cloudDNS:  # google
                  project: my-project
            - selector:
                dnsZones: [example.org]
              dns01:
                azureDNS:
                  subscriptionID: s
                  resourceGroupName: rg
            - dns01:
                acmeDNS:
                  host: https://auth.example.com
                  accountSecretRef:
                    name: acme-dns
                    key: acmedns.json
        """,
    )
    crd_valid(result.text)


def test_order_and_challenge_v1alpha3() -> None:
    result = check_transformed(
        """
        apiVersion: acme.cert-manager.io/v1alpha3
        kind: Order
        metadata:
          name: web-1-1
        spec:
          csr: LS0t
          issuerRef:
            name: le
        ---
        apiVersion: acme.cert-manager.io/v1alpha3
        kind: Challenge
        metadata:
          name: web-1-1-2
        spec:
          authzURL: https://acme/authz/1
          type: dns-01
          url: https://acme/chall/1
          dnsName: example.com
          token: t
          key: k
          wildcard: false
          issuerRef:
            name: le
          solver:
            dns01:
              clouddns:
                project: p
        """,
        """
        apiVersion: acme.cert-manager.io/v1
        kind: Order
        metadata:
          name: web-1-1
        spec:
          request: LS0t
          issuerRef:
            name: le
        ---
        apiVersion: acme.cert-manager.io/v1
        kind: Challenge
        metadata:
          name: web-1-1-2
        spec:
          authorizationURL: https://acme/authz/1
          type: DNS-01
          url: https://acme/chall/1
          dnsName: example.com
          token: t
          key: k
          wildcard: false
          issuerRef:
            name: le
          solver:
            dns01:
              cloudDNS:
                project: p
        """,
    )
    crd_valid(result.text)


# ------------------------------------------------------------------ certmanager.k8s.io → cert-manager.io


def test_old_group_issuer_http01_becomes_solver() -> None:
    result = check_transformed(
        """
        apiVersion: certmanager.k8s.io/v1alpha1
        kind: Issuer
        metadata:
          name: le
        spec:
          acme:
            server: https://acme
            privateKeySecretRef:
              name: le-account
            http01:  # the old format
              serviceType: NodePort
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: Issuer
        metadata:
          name: le
        spec:
          acme:
            server: https://acme
            privateKeySecretRef:
              name: le-account
            solvers:
            - http01:
                ingress:
                  serviceType: NodePort
        """,
    )
    assert "K8SM-CM-005" in codes(result, "info")
    crd_valid(result.text)


def test_old_group_issuer_single_dns_provider_becomes_solver() -> None:
    result = check_transformed(
        """
        apiVersion: certmanager.k8s.io/v1alpha1
        kind: ClusterIssuer
        metadata:
          name: le
        spec:
          acme:
            server: https://acme
            privateKeySecretRef:
              name: le-account
            dns01:
              providers:
              - name: prod-dns
                cnameStrategy: Follow
                route53:
                  region: eu-west-1
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: ClusterIssuer
        metadata:
          name: le
        spec:
          acme:
            server: https://acme
            privateKeySecretRef:
              name: le-account
            solvers:
            - dns01:
                cnameStrategy: Follow
                route53:
                  region: eu-west-1
        """,
    )
    crd_valid(result.text)


def test_old_group_stops_at_v1alpha2_before_1_0() -> None:
    check_transformed(
        """
        apiVersion: certmanager.k8s.io/v1alpha1
        kind: Certificate
        metadata:
          name: web
        spec:
          secretName: web-tls
          keyAlgorithm: rsa
          issuerRef:
            name: ca
        """,
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: Certificate
        metadata:
          name: web
        spec:
          secretName: web-tls
          keyAlgorithm: rsa
          issuerRef:
            name: ca
        """,
        components={"cert-manager": "0.11"},
    )


def test_old_group_order_goes_to_acme_group() -> None:
    result = check_transformed(
        """
        apiVersion: certmanager.k8s.io/v1alpha1
        kind: Order
        metadata:
          name: web-1
        spec:
          csr: LS0t
          issuerRef:
            name: le
          config:
          - domains: [example.com]
            http01:
              ingressClass: nginx
        """,
        """
        apiVersion: acme.cert-manager.io/v1
        kind: Order
        metadata:
          name: web-1
        spec:
          request: LS0t
          issuerRef:
            name: le
        """,
    )
    assert "K8SM-CM-008" in codes(result, "info")


# ------------------------------------------------------------------ annotations


def test_ingress_shim_and_cainjector_annotations() -> None:
    result = check_transformed(
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: web
          annotations:
            certmanager.k8s.io/cluster-issuer: letsencrypt  # prod
            certmanager.k8s.io/acme-challenge-type: http01
            certmanager.k8s.io/acme-http01-edit-in-place: "true"
        spec:
          rules: []
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingWebhookConfiguration
        metadata:
          name: hook
          annotations:
            certmanager.k8s.io/inject-ca-from: ns/cert
        webhooks: []
        """,
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: web
          annotations:
            cert-manager.io/cluster-issuer: letsencrypt  # prod
            acme.cert-manager.io/http01-edit-in-place: "true"
        spec:
          rules: []
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingWebhookConfiguration
        metadata:
          name: hook
          annotations:
            cert-manager.io/inject-ca-from: ns/cert
        webhooks: []
        """,
    )
    assert codes(result).count("K8SM-CM-010") == 3
    assert codes(result).count("K8SM-CM-011") == 1


def test_solver_labels_in_network_policy() -> None:
    check_transformed(
        """
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata:
          name: solvers
        spec:
          podSelector:
            matchLabels:
              certmanager.k8s.io/acme-http01-solver: "true"
          policyTypes: [Ingress]
        """,
        """
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata:
          name: solvers
        spec:
          podSelector:
            matchLabels:
              acme.cert-manager.io/http01-solver: "true"
          policyTypes: [Ingress]
        """,
    )


def test_annotations_kept_before_0_11() -> None:
    check_noop(
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: web
          annotations:
            certmanager.k8s.io/cluster-issuer: letsencrypt
        spec:
          rules: []
        """,
        components={"cert-manager": "0.10"},
    )


def test_annotation_conflict_is_reported() -> None:
    result = check_noop(
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: web
          annotations:
            certmanager.k8s.io/cluster-issuer: old
            cert-manager.io/cluster-issuer: new
        spec:
          rules: []
        """
    )
    assert codes(result) == ["K8SM-CM-013"]


# ------------------------------------------------------------------ warnings and errors


def test_old_certificate_acme_config_removed_with_the_solver_to_write() -> None:
    result = run(
        """
        apiVersion: certmanager.k8s.io/v1alpha1
        kind: Certificate
        metadata:
          name: web
        spec:
          acme:
            config:
            - domains: [example.com, www.example.com]
              http01:
                ingress: web
          commonName: example.com
          dnsNames: [example.com, www.example.com]
          issuerRef:
            kind: ClusterIssuer
            name: le
          secretName: web-tls
        """
    )
    (warning,) = [f for f in result.findings if f.code == "K8SM-CM-004"]
    assert "ClusterIssuer le" in warning.message
    assert "{selector: {dnsNames: [example.com, www.example.com]}, http01: {ingress: {name: web}}}" in warning.message
    assert "acme:" not in result.text
    crd_valid(result.text)


def test_old_format_issuer_with_several_solvers_needs_a_human() -> None:
    result = run(
        """
        apiVersion: certmanager.k8s.io/v1alpha1
        kind: Issuer
        metadata:
          name: le
        spec:
          acme:
            server: https://acme
            privateKeySecretRef:
              name: le-account
            http01: {}
            dns01:
              providers:
              - name: dns
                route53:
                  region: eu-west-1
        """
    )
    assert "K8SM-CM-006" in codes(result, "error")
    assert result.text.startswith("apiVersion: certmanager.k8s.io/v1alpha1")


def test_both_old_and_new_field_is_an_error() -> None:
    result = run(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: CertificateRequest
        metadata:
          name: r
        spec:
          csr: a
          request: b
          issuerRef:
            name: ca
        """
    )
    assert codes(result, "error") == ["K8SM-CM-001"]
    assert not result.changed


def test_unknown_spec_field_removed_as_the_server_prunes_it() -> None:
    result = run(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: Certificate
        metadata:
          name: c
        spec:
          secretName: s
          domains: [example.com]
          issuerRef:
            name: ca
        """
    )
    assert codes(result) == ["K8SM-CM-015"]
    crd_valid(result.text)


def test_unknown_key_algorithm_is_copied_and_reported() -> None:
    result = run(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: Certificate
        metadata:
          name: c
        spec:
          secretName: s
          keyAlgorithm: dsa
          issuerRef:
            name: ca
        """
    )
    assert codes(result) == ["K8SM-CM-002"]
    assert "algorithm: dsa" in result.text


# ------------------------------------------------------------------ upstream goldens (cmctl convert)


def _cmctl_normal(docs: list[object]) -> list[object]:
    """cmctl round-trips through Go types: drop what it adds, normalise what it re-serialises."""
    out = []
    for doc in docs:
        if not isinstance(doc, dict):
            continue
        doc = dict(doc)
        doc.pop("status", None)
        meta = dict(doc.get("metadata") or {})
        meta.pop("creationTimestamp", None)
        doc["metadata"] = meta
        spec = doc.get("spec")
        if isinstance(spec, dict) and spec.get("duration") == "24h0m0s":
            doc["spec"] = dict(spec, duration="24h")
        out.append(doc)
    return out


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("resource1.yaml", "resource1_v1.yaml"),
        ("resource2.yaml", "resource2_v1.yaml"),
        ("resource_with_organization_v1alpha2.yaml", "resource_with_organization_v1.yaml"),
        ("resources_as_list_v1alpha2.yaml", "resources_as_list_v1.yaml"),
    ],
)
def test_cmctl_convert_goldens(source: str, expected: str) -> None:
    """cmctl convert's fixtures: cert-manager/cert-manager 2c14e5fe (v1.14.0)
    ``test/integration/ctl/testdata/convert/{input,output}/*`` (golden/addons/cert-manager/SOURCES.tsv)."""
    text = (GOLDEN / "cmctl" / "input" / source).read_text(encoding="utf-8")
    result = run(text, exact=True)
    assert not codes(result, "error")
    want = list(yaml.safe_load_all((GOLDEN / "cmctl" / "output" / expected).read_text(encoding="utf-8")))
    got = list(yaml.safe_load_all(result.text))
    if len(want) == 1 and want[0].get("kind") == "List" and not (len(got) == 1 and got[0].get("kind") == "List"):
        want = want[0]["items"]  # cmctl turns a stream into a List
    elif len(got) == 1 and got[0].get("kind") == "List":
        got, want = got[0]["items"], want[0]["items"]
    assert _cmctl_normal(got) == _cmctl_normal(want)
    crd_valid(result.text)
    # and only the apiVersion lines and the moved fields changed: comments and order stay
    assert "# my comment" in result.text or "# my comment" not in text
    assert run(result.text).text == result.text


# ------------------------------------------------------------------ the kubeflow tree


def _kubeflow(rel: str) -> str:
    path = KUBEFLOW / rel
    if not path.is_file():
        pytest.skip("../shared/corpus/kustomize is not beside the project")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "rel",
    [
        "admission-webhook/webhook/overlays/cert-manager/certificate.yaml",
        "cert-manager/cert-manager/overlays/letsencrypt/cluster-issuer.yaml",
        "cert-manager/cert-manager/overlays/self-signed/cluster-issuer.yaml",
        "gcp/basic-auth-ingress/overlays/certmanager/certificate.yaml",
        "gcp/iap-ingress/overlays/certmanager/certificate.yaml",
        "istio/ingressgateway-self-signed-cert/base/certificate.yaml",
    ],
)
def test_kubeflow_objects_migrate_and_validate(rel: str) -> None:
    text = _kubeflow(rel)
    result = run(text)
    assert result.changed
    assert not codes(result, "error"), [f.format() for f in result.findings]
    crd_valid(result.text)
    assert run(result.text).text == result.text


# ------------------------------------------------------------------ cert_manager_rotation_policy (1.18)

V1_CERTIFICATE = """
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: web
spec:
  secretName: web-tls
  issuerRef:
    name: ca
"""


def test_rotation_policy_not_pinned_before_1_18() -> None:
    check_noop(V1_CERTIFICATE, components={"cert-manager": "1.17"})


def test_rotation_policy_kept_when_set() -> None:
    check_noop(V1_CERTIFICATE + "  privateKey:\n    rotationPolicy: Always\n", components={"cert-manager": "1.18"})


def test_rotation_policy_pinned_from_1_18() -> None:
    result = check_transformed(
        V1_CERTIFICATE,
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata:
          name: web
        spec:
          secretName: web-tls
          privateKey:
            rotationPolicy: Never
          issuerRef:
            name: ca
        """,
        components={"cert-manager": "1.18"},
    )
    assert codes(result) == ["K8SM-CM-017"]
    crd_valid(result.text)


def test_rotation_policy_pinned_in_the_same_run_as_the_v1_step() -> None:
    result = check_transformed(
        """
        apiVersion: cert-manager.io/v1alpha2
        kind: Certificate
        metadata:
          name: web
        spec:
          secretName: web-tls
          keyAlgorithm: ecdsa
          issuerRef:
            name: ca
        """,
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata:
          name: web
        spec:
          secretName: web-tls
          privateKey:
            rotationPolicy: Never
            algorithm: ECDSA
          issuerRef:
            name: ca
        """,
        components={"cert-manager": "1.21"},
    )
    assert result.documents[0].applied == ["cert_manager_rotation_policy", "cert_manager_v1alpha2"]


def test_rotation_policy_adopting_the_new_default() -> None:
    result = check_noop(V1_CERTIFICATE, components={"cert-manager": "1.18"}, adopt_new_defaults=True)
    assert codes(result) == ["K8SM-GEN-002"]


# ------------------------------------------------------------------ every migration of the component runs


@pytest.mark.parametrize(
    ("migration", "api", "kind"),
    [
        ("cert_manager_v1alpha2", "cert-manager.io/v1alpha2", "Issuer"),
        ("cert_manager_v1alpha3", "cert-manager.io/v1alpha3", "Issuer"),
        ("cert_manager_v1beta1", "cert-manager.io/v1beta1", "Issuer"),
        ("acme_cert_manager_v1alpha2", "acme.cert-manager.io/v1alpha2", "Order"),
        ("acme_cert_manager_v1alpha3", "acme.cert-manager.io/v1alpha3", "Challenge"),
        ("acme_cert_manager_v1beta1", "acme.cert-manager.io/v1beta1", "Order"),
        ("certmanager_k8s_io_v1alpha1", "certmanager.k8s.io/v1alpha1", "ClusterIssuer"),
        ("certmanager_acme_v1alpha1", "certmanager.k8s.io/v1alpha1", "Challenge"),
    ],
)
def test_each_step_runs(migration: str, api: str, kind: str) -> None:
    result = run(f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\n")
    assert migration in result.documents[0].applied
    assert not codes(result, "error")


def test_cert_manager_annotations_is_a_check_of_every_kind() -> None:
    result = run(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n    certmanager.k8s.io/issuer: ca\n"
    )
    assert result.documents[0].applied == ["cert_manager_annotations"]
