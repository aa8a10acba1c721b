"""Spec: auto-generated token Secrets used by name, and the token-expiration flag (service_account_tokens)."""

from __future__ import annotations

import pytest

from k8smigrate.migrations.checks.service_account_tokens import generated_account
from tests.helpers import check_noop, codes, dedent, run
from tests.kubeadm_helpers import validate_kubeadm

POD = """
apiVersion: v1
kind: Pod
metadata:
  name: builder
  namespace: ci
spec:
  serviceAccountName: build
  containers:
  - name: build
    image: example/builder:2.1
{container}  volumes:
{volumes}"""

ACCOUNT = """
apiVersion: v1
kind: ServiceAccount
metadata:
  name: build
  namespace: ci
secrets:
- name: {secret}
"""

EXPLICIT = """
apiVersion: v1
kind: Secret
metadata:
  name: build-token-x7k2p
  namespace: ci
  annotations:
    kubernetes.io/service-account.name: build
type: kubernetes.io/service-account-token
"""

SECRET_VOLUME = "  - name: token\n    secret:\n      secretName: build-token-x7k2p\n"
PROJECTED = (
    "  - name: token\n    projected:\n      sources:\n"
    "      - serviceAccountToken:\n          path: token\n          expirationSeconds: 3600\n"
)


def pod(container: str = "", volumes: str = PROJECTED) -> str:
    return POD.format(container=container, volumes=volumes)


# ------------------------------------------------------------------ no-ops


def test_noop_before_1_24() -> None:
    assert codes(check_noop(pod(volumes=SECRET_VOLUME), target_version="1.23")) == []
    assert codes(check_noop(ACCOUNT.format(secret="build-token-x7k2p"), target_version="1.23")) == []


def test_noop_for_projected_tokens_and_other_secret_names() -> None:
    assert codes(check_noop(pod())) == []
    for name in ("build-token-store", "api-token-prod1", "token-x7k2p", "build-token-x7k2pq"):
        assert codes(check_noop(pod(volumes=SECRET_VOLUME.replace("build-token-x7k2p", name)))) == [], name
        assert codes(check_noop(ACCOUNT.format(secret=name))) == [], name


def test_noop_when_the_run_defines_the_token_secret() -> None:
    text = "---\n".join(
        dedent(d) for d in (EXPLICIT, ACCOUNT.format(secret="build-token-x7k2p"), pod(volumes=SECRET_VOLUME))
    )
    assert codes(check_noop(text)) == []


# ------------------------------------------------------------------ findings


@pytest.mark.parametrize(
    ("container", "volumes", "where"),
    [
        ("", SECRET_VOLUME, "a secret volume"),
        (
            "",
            "  - name: t\n    projected:\n      sources:\n      - secret:\n          name: build-token-x7k2p\n",
            "a projected",
        ),
        (
            "    env:\n    - name: TOKEN\n      valueFrom:\n        secretKeyRef:\n"
            "          name: build-token-x7k2p\n          key: token\n",
            PROJECTED,
            "an environment variable",
        ),
        ("    envFrom:\n    - secretRef:\n        name: build-token-x7k2p\n", PROJECTED, "envFrom"),
    ],
)
def test_a_pod_that_names_a_generated_token_is_a_warning(container: str, volumes: str, where: str) -> None:
    result = check_noop(pod(container, volumes), target_version="1.24")
    assert codes(result) == ["K8SM-SA-001"]
    (finding,) = result.findings
    assert finding.level == "warning" and finding.message.startswith(where)
    assert "ServiceAccount build" in finding.message
    assert "projected serviceAccountToken volume" in finding.message
    assert "kubernetes.io/service-account.name: build" in finding.message


def test_a_service_account_that_lists_a_generated_token_is_a_warning() -> None:
    result = check_noop(ACCOUNT.format(secret="build-token-x7k2p"))
    assert codes(result, "warning") == ["K8SM-SA-002"]
    assert result.findings[0].line == 7


def test_a_token_secret_defined_in_another_namespace_does_not_count() -> None:
    text = "---\n".join(
        dedent(d) for d in (EXPLICIT.replace("namespace: ci", "namespace: other"), pod(volumes=SECRET_VOLUME))
    )
    assert codes(run(text)) == ["K8SM-SA-001"]


APISERVER = """
apiVersion: v1
kind: Pod
metadata:
  name: kube-apiserver
  namespace: kube-system
spec:
  containers:
  - name: kube-apiserver
    image: registry.k8s.io/kube-apiserver:v1.22.0
    command: [kube-apiserver, {flag}]
"""


@pytest.mark.parametrize(
    ("flag", "says"),
    [
        ("--service-account-extend-token-expiration=false", "expire after an hour"),
        ("--service-account-extend-token-expiration", "extended to one year"),
        ("--service-account-extend-token-expiration=true", "extended to one year"),
    ],
)
def test_the_extend_token_expiration_flag_is_an_info(flag: str, says: str) -> None:
    result = check_noop(APISERVER.format(flag=flag), target_version="1.22")
    assert codes(result, "info") == ["K8SM-SA-003"]
    assert says in result.findings[0].message


def test_the_flag_in_kubeadm_extra_args() -> None:
    for text in (
        "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n"
        "    service-account-extend-token-expiration: 'false'\n",
        "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n"
        "  - name: service-account-extend-token-expiration\n    value: 'false'\n",
    ):
        result = check_noop(text)
        assert codes(result) == ["K8SM-SA-003"]
        validate_kubeadm(text, "1.29")


def test_generated_names() -> None:
    assert generated_account("default-token-bq5zc") == "default"
    assert generated_account("my.app-token-2x4z9") == "my.app"
    assert generated_account("default-token-abcde") is None  # vowels never appear in the suffix
    assert generated_account(None) is None
