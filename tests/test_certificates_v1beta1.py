"""Spec: CertificateSigningRequest certificates.k8s.io/v1beta1 → v1 (usages, signerName as upstream)."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest

from k8smigrate import migrate_text
from tests.helpers import check_noop, check_transformed, codes, run, validate

# Real CSRs made with cryptography (EC P-256), base64 of the PEM as in spec.request.
KUBELET = (
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlId01JR1lBZ0VBTURZeEZUQVRCZ05WQkFvTURITjVjM1Js"
    "YlRwdWIyUmxjekVkTUJzR0ExVUVBd3dVYzNsegpkR1Z0T201dlpHVTZkMjl5YTJWeUxURXdXVEFUQmdjcWhrak9QUUlCQmdn"
    "cWhrak9QUU1CQndOQ0FBUzFrNTRqCkhWNk4yUEJoN3dYTmdhd1htakI1Q2NxZTc5WnRQdUpiR3ZjWmppTDBRTEoxRGxjUzNZ"
    "QzhTRmh6VGlOZERxdUIKR3RPUklqWXJ2REgzWmpQOG9BQXdDZ1lJS29aSXpqMEVBd0lEUndBd1JBSWdWUnJ5elJvVzlFNWFn"
    "K3Rid0ZOVgo3ZGxJVjhEZnRibUJWUGRodXNRN0JPQUNJRE9mSktKSHRlcWhZTXJFMUNITVNmOFpaMUdiVDVxUVRxWUhwc1JK"
    "Cmw3OGIKLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg=="
)
KUBELET_SERVING = (
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQktqQ0IwQUlCQURBMk1SVXdFd1lEVlFRS0RBeHplWE4w"
    "WlcwNmJtOWtaWE14SFRBYkJnTlZCQU1NRkhONQpjM1JsYlRwdWIyUmxPbmR2Y210bGNpMHhNRmt3RXdZSEtvWkl6ajBDQVFZ"
    "SUtvWkl6ajBEQVFjRFFnQUV0Wk9lCkl4MWVqZGp3WWU4RnpZR3NGNW93ZVFuS251L1diVDdpV3hyM0dZNGk5RUN5ZFE1WEV0"
    "MkF2RWhZYzA0alhRNnIKZ1JyVGtTSTJLN3d4OTJZei9LQTRNRFlHQ1NxR1NJYjNEUUVKRGpFcE1DY3dKUVlEVlIwUkJCNHdI"
    "SUlVZDI5eQphMlZ5TFRFdVpYaGhiWEJzWlM1amIyMkhCQW9BQUFjd0NnWUlLb1pJemowRUF3SURTUUF3UmdJaEFKRzcrYWU0"
    "CmtsNVhHT3ZXcjUrU1pmZ0krdVF4S201WXRBSDVyV2tzTW9CWEFpRUF2aytmd05CL0o5VVFJV0JHVFFXNERaZnQKeWVXbmU3"
    "WStoL1YraG5LcE9Cdz0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg=="
)
ALICE = (
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIYU1JR0JBZ0VBTUI4eERUQUxCZ05WQkFvTUJHUmxkbk14"
    "RGpBTUJnTlZCQU1NQldGc2FXTmxNRmt3RXdZSApLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FFdFpPZUl4MWVqZGp3WWU4"
    "RnpZR3NGNW93ZVFuS251L1diVDdpCld4cjNHWTRpOUVDeWRRNVhFdDJBdkVoWWMwNGpYUTZyZ1JyVGtTSTJLN3d4OTJZei9L"
    "QUFNQW9HQ0NxR1NNNDkKQkFNQ0EwZ0FNRVVDSUR3VnZwckpxTkszcTQ4MGJjVDg0QXNaQ2lIRmlYQlNmOEJyUEkxSGZXbVBB"
    "aUVBb0crdApuV1I5YTA0cUE1MWxnVUZwRDNWeVd6djYvY1hReHZ6SU8zWXNSRVE9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJF"
    "UVVFU1QtLS0tLQo="
)
WRONG_TYPE = (
    "LS0tLS1CRUdJTiBORVcgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCk1JSEtNSElDQVFBd0VERU9NQXdHQTFVRUF3d0ZZV3hw"
    "WTJVd1dUQVRCZ2NxaGtqT1BRSUJCZ2dxaGtqT1BRTUIKQndOQ0FBUzFrNTRqSFY2TjJQQmg3d1hOZ2F3WG1qQjVDY3FlNzla"
    "dFB1SmJHdmNaamlMMFFMSjFEbGNTM1lDOApTRmh6VGlOZERxdUJHdE9SSWpZcnZESDNaalA4b0FBd0NnWUlLb1pJemowRUF3"
    "SURTQUF3UlFJZ2JVdXRpRVRVCkRWbnhCa05DN3pMaHlhd0lBMXBJNGYrM2toNkZrRWlMdnlZQ0lRQ2JzTDdMeDJLQ281MGM3"
    "dFFuZGVpd0Y2bTAKb2ppaHVIL1A1UTNTUlZ1L3d3PT0KLS0tLS1FTkQgTkVXIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo="
)


def csr(request: str, spec_extra: str = "", usages: str | None = None) -> str:
    usage_lines = f"  usages:\n{usages}" if usages is not None else ""
    return (
        "apiVersion: certificates.k8s.io/v1beta1\n"
        "kind: CertificateSigningRequest\n"
        "metadata:\n"
        "  name: node-csr\n"
        "spec:\n"
        f"  request: {request}\n" + spec_extra + usage_lines
    )


V1BETA1, V1 = "certificates.k8s.io/v1beta1\n", "certificates.k8s.io/v1\n"
CLIENT = "  - digital signature\n  - key encipherment\n  - client auth\n"
SERVING = "  - digital signature\n  - server auth\n"

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            csr(ALICE, "  signerName: kubernetes.io/kube-apiserver-client\n").replace(V1BETA1, V1),
            id="already-v1",
        ),
        pytest.param(
            csr(ALICE).replace("certificates.k8s.io/v1beta1", "certmanager.k8s.io/v1alpha1"),
            id="same-kind-other-group",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text)


def test_noop_below_gate() -> None:
    check_noop(csr(KUBELET, usages=CLIENT), target_version="1.18")


def test_noop_templated() -> None:
    check_noop(csr("{{ .Values.csr | b64enc }}"))


# ------------------------------------------------------------------ transforms


def test_kubelet_client_signer_computed() -> None:
    result = check_transformed(
        csr(KUBELET, usages=CLIENT),
        csr(KUBELET, "  signerName: kubernetes.io/kube-apiserver-client-kubelet\n", CLIENT).replace(V1BETA1, V1),
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CSR-006"]


def test_kubelet_serving_signer_computed() -> None:
    result = check_transformed(
        csr(KUBELET_SERVING, usages=SERVING),
        csr(KUBELET_SERVING, "  signerName: kubernetes.io/kubelet-serving\n", SERVING).replace(V1BETA1, V1),
    )
    validate(result.text)


def test_explicit_signer_kept_and_usages_pinned() -> None:
    result = check_transformed(
        csr(ALICE, "  signerName: example.com/custom  # ours\n"),
        csr(
            ALICE,
            "  signerName: example.com/custom  # ours\n",
            "  - digital signature\n  - key encipherment\n",
        ).replace(V1BETA1, V1),
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CSR-003"]


def test_no_usages_is_the_legacy_unknown_trap() -> None:
    # kubelet subject, but the defaulted usages match neither kubelet signer
    result = check_noop(csr(KUBELET))
    assert codes(result, "error") == ["K8SM-GEN-010"]
    assert "--set signerName=kubernetes.io/kube-apiserver-client" in result.findings[0].message


def test_legacy_unknown_settled_by_decision() -> None:
    result = check_transformed(
        csr(ALICE, usages=CLIENT),
        csr(ALICE, "  signerName: kubernetes.io/kube-apiserver-client\n", CLIENT).replace(V1BETA1, V1),
        decisions={"signerName": "kubernetes.io/kube-apiserver-client"},
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CSR-001"]


def test_explicit_legacy_unknown_needs_the_decision_too() -> None:
    text = csr(ALICE, "  signerName: kubernetes.io/legacy-unknown\n", CLIENT)
    assert codes(check_noop(text), "error") == ["K8SM-GEN-010"]
    result = run(text, decisions={"signerName": "kubernetes.io/kube-apiserver-client"})
    assert "  signerName: kubernetes.io/kube-apiserver-client\n" in result.text


def test_condition_status_written() -> None:
    text = csr(KUBELET, usages=CLIENT) + "status:\n  conditions:\n  - type: Approved\n    reason: ok\n"
    result = run(text)
    assert '  - type: Approved\n    status: "True"\n    reason: ok\n' in result.text
    assert "K8SM-CSR-007" in codes(result)


# ------------------------------------------------------------------ findings


@pytest.mark.parametrize(
    ("request_text", "why"),
    [
        ("aGVsbG9YWAo=", "no PEM block"),
        ("not base64!", "not base64"),
        (WRONG_TYPE, "NEW CERTIFICATE REQUEST"),
    ],
)
def test_invalid_request_is_an_error(request_text: str, why: str) -> None:
    result = check_noop(csr(request_text, usages=CLIENT))
    assert codes(result, "error") == ["K8SM-CSR-002"]
    assert why in result.findings[0].message


@pytest.mark.parametrize("usages", ["  []\n", "  - client auth\n  - client auth\n", "  - flying\n"])
def test_usages_v1_rejects_are_an_error(usages: str) -> None:
    text = csr(KUBELET, usages=usages).replace("  usages:\n  []\n", "  usages: []\n")
    assert codes(check_noop(text), "error") == ["K8SM-CSR-004"]


@pytest.mark.parametrize(
    ("usages", "why"),
    [
        (None, "missing required usage for client certificate: client auth"),
        ("  - digital signature\n  - key encipherment\n", "missing required usage for client certificate"),
        ("  - client auth\n  - server auth\n", "invalid usage for client certificate: server auth"),
    ],
)
def test_api_client_signer_without_client_auth_is_an_error(usages: str | None, why: str) -> None:
    # validAPIServerClientUsages: the signer marks the CSR Failed and never signs it
    result = check_noop(csr(ALICE, usages=usages), decisions={"signerName": "kubernetes.io/kube-apiserver-client"})
    assert codes(result) == ["K8SM-CSR-008"]
    assert why in result.findings[0].message


@pytest.mark.parametrize(
    ("signer", "why"),
    [
        ("kubernetes.io/kube-apiserver-client-kubelet", "subject organization is not system:nodes"),
        ("kubernetes.io/kubelet-serving", "subject organization is not system:nodes"),
    ],
)
def test_kubelet_signer_for_another_subject_is_an_error(signer: str, why: str) -> None:
    result = check_noop(csr(ALICE, usages=CLIENT), decisions={"signerName": signer})
    assert codes(result) == ["K8SM-CSR-008"]
    assert why in result.findings[0].message


def test_kubelet_signer_with_the_wrong_usages_is_an_error() -> None:
    # a kubelet subject whose usages defaulted it to legacy-unknown fits no kubelet signer
    result = check_noop(csr(KUBELET), decisions={"signerName": "kubernetes.io/kube-apiserver-client-kubelet"})
    assert codes(result) == ["K8SM-CSR-008"]
    assert "usages did not match [client auth digital signature key encipherment]" in result.findings[0].message


def test_kubelet_signer_accepted_for_an_explicit_legacy_unknown() -> None:
    text = csr(KUBELET, "  signerName: kubernetes.io/legacy-unknown\n", CLIENT)
    result = run(text, decisions={"signerName": "kubernetes.io/kube-apiserver-client-kubelet"})
    assert "  signerName: kubernetes.io/kube-apiserver-client-kubelet\n" in result.text
    assert codes(result) == ["K8SM-CSR-001"]


def test_missing_cryptography_is_a_finding_not_an_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_crypto(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("cryptography"):
            raise ImportError("No module named 'cryptography'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_crypto)
    result = check_noop(csr(KUBELET, usages=CLIENT))
    assert codes(result, "error") == ["K8SM-CSR-005"]
    assert "pip install 'k8smigrate[crypto]'" in result.findings[0].message


# ------------------------------------------------------------------ corpus regression


def test_corpus_csrs(corpus: Path) -> None:
    for path in sorted(corpus.glob("*ertificate*igning*")) + sorted(corpus.glob("*certificatesigningrequest*")):
        text = path.read_text(encoding="utf-8")
        result = migrate_text(text, target_version="1.29", filename=path.name)
        assert result.text == text, path.name  # fuzz data and a fake request: errors, untouched
        assert codes(result, "error"), path.name
