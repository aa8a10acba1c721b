"""Spec: component version windows — ``--component NAME=VERSION`` gates an add-on's steps, checks and
lifecycles as ``--target-version`` gates Kubernetes'; without it scan assumes the newest release
known and apply/diff ask for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import k8smigrate
from k8smigrate import Settings, scan_text
from k8smigrate.cli import EXIT_USAGE, app
from k8smigrate.components import ADD_ONS, Windows, check_components
from k8smigrate.registry import default_registry
from k8smigrate.settings import SettingsError
from k8smigrate.versions import KubeVersion, Window
from tests.helpers import dedent

CERTIFICATE = dedent(
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
    """
)
INGRESS = dedent(
    """
    apiVersion: extensions/v1beta1
    kind: Ingress
    metadata:
      name: web
    spec:
      backend:
        serviceName: web
        servicePort: 80
    """
)

runner = CliRunner()


# ------------------------------------------------------------------ settings and names


def test_every_component_of_the_registry_is_known_or_kubernetes() -> None:
    components = set(default_registry().components())
    assert components - {"kubernetes", "kubeadm", "kube-scheduler", "kubelet", "kube-proxy"} == set(ADD_ONS)


def test_unknown_component_is_a_settings_error_naming_the_known_ones() -> None:
    with pytest.raises(SettingsError, match=r"unknown component 'certmanager' \(known: cert-manager, "):
        k8smigrate.migrate_text(CERTIFICATE, components={"certmanager": "1.14"})


def test_malformed_release_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match=r"--component cert-manager=latest: not a release"):
        k8smigrate.migrate_text(CERTIFICATE, components={"cert-manager": "latest"})


def test_kubernetes_is_not_a_component_option() -> None:
    with pytest.raises(ValueError, match="use --target-version"):
        check_components({"kubernetes": "1.29"}, ["kubernetes", "cert-manager"])


@pytest.mark.parametrize("given", ["v1.14", "1.14", "1.14.3"])
def test_release_forms(given: str) -> None:
    windows = Settings(components={"cert-manager": given}).windows
    assert windows.of("cert-manager") == Window(KubeVersion(1, 14), KubeVersion(1, 14))
    assert not windows.assumed("cert-manager")


def test_an_add_on_without_release_is_assumed_at_its_newest() -> None:
    windows = Windows(Window.of("1.29", None))
    assert windows.assumed("istio")
    assert windows.of("istio").target == KubeVersion.parse(ADD_ONS["istio"].newest)
    assert windows.of("kubeadm") == Window.of("1.29", None)
    assert not windows.assumed("kubernetes")


# ------------------------------------------------------------------ the library


def test_a_release_gates_the_steps() -> None:
    at_1_14 = k8smigrate.migrate_text(CERTIFICATE, components={"cert-manager": "1.14"})
    assert at_1_14.text.startswith("apiVersion: cert-manager.io/v1\n")
    at_0_16 = k8smigrate.migrate_text(CERTIFICATE, components={"cert-manager": "0.16"})
    assert not at_0_16.changed
    assert [f.code for f in at_0_16.findings] == []


def test_without_a_release_the_document_waits_and_says_which_option() -> None:
    result = k8smigrate.migrate_text(CERTIFICATE + "---\n" + INGRESS, target_version="1.29")
    (needed,) = [f for f in result.findings if f.code == "K8SM-GEN-016"]
    assert needed.level == "error"
    assert "--component cert-manager=VERSION" in needed.message
    assert needed.document == 0
    # the Kubernetes document of the same stream is migrated as usual
    assert result.text.startswith(CERTIFICATE)
    assert "networking.k8s.io/v1" in result.text


def test_a_document_nothing_would_change_needs_no_release() -> None:
    text = "apiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata:\n  name: c\nspec:\n  selfSigned: {}\n"
    assert k8smigrate.migrate_text(text).findings == []


def test_a_check_that_would_edit_asks_for_the_release_too() -> None:
    """cert-manager 1.18 changed the rotation policy default: whether to pin depends on the release."""
    text = "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: c\nspec:\n  secretName: s\n"
    assert [f.code for f in k8smigrate.migrate_text(text).findings] == ["K8SM-GEN-016"]
    assert k8smigrate.migrate_text(text, components={"cert-manager": "1.17"}).findings == []
    pinned = k8smigrate.migrate_text(text, components={"cert-manager": "1.18"})
    assert pinned.text.endswith("  privateKey:\n    rotationPolicy: Never\n")


def test_removed_add_on_api_without_step_asks_for_the_release_too() -> None:
    text = "apiVersion: rbac.istio.io/v1alpha1\nkind: ServiceRole\nmetadata:\n  name: r\nspec: {}\n"
    assert [f.code for f in k8smigrate.migrate_text(text).findings] == ["K8SM-GEN-016"]
    assert [f.code for f in k8smigrate.migrate_text(text, components={"istio": "1.5"}).findings] == ["K8SM-GEN-008"]
    removed = k8smigrate.migrate_text(text, components={"istio": "1.6"}).findings
    assert [f.code for f in removed] == ["K8SM-GEN-007"]
    assert "removed in istio 1.6" in removed[0].message


def test_scan_assumes_the_newest_release_and_says_whose() -> None:
    row, readiness = scan_text(CERTIFICATE)
    assert readiness.category == "default" and readiness.component == "cert-manager"
    assert (row.status, row.component, row.removed_in) == ("removed", "cert-manager", "1.6")
    assert "removed in cert-manager 1.6" in row.format()
    assert row.as_dict()["component"] == "cert-manager"
    (kube,) = scan_text(INGRESS)
    assert kube.component == "kubernetes"
    assert "removed in 1.22" in kube.format()


def test_scan_at_a_release() -> None:
    assert scan_text(CERTIFICATE, components={"cert-manager": "1.3"}) == []
    (row,) = scan_text(CERTIFICATE, components={"cert-manager": "1.4"})
    assert row.status == "deprecated"


TEMPLATED_CERTIFICATE = dedent(
    """
    apiVersion: cert-manager.io/v1alpha2
    kind: Certificate
    metadata:
      name: {{ .Release.Name }}
    spec:
      secretName: {{ .Values.secret }}
      issuerRef:
        name: ca
    """
)


def test_a_templated_add_on_document_is_reported_with_its_component() -> None:
    """Templates are not YAML until rendered: left as they are, reported by the add-on's releases."""
    (row,) = scan_text(TEMPLATED_CERTIFICATE)
    assert (row.component, row.removed_in, row.templated) == ("cert-manager", "1.6", True)
    result = k8smigrate.migrate_text(TEMPLATED_CERTIFICATE, components={"cert-manager": "1.14"})
    assert result.text == TEMPLATED_CERTIFICATE
    (removed,) = [f for f in result.findings if f.code == "K8SM-GEN-007"]
    assert "removed in cert-manager 1.6" in removed.message
    unasked = k8smigrate.migrate_text(TEMPLATED_CERTIFICATE)
    assert "K8SM-GEN-016" in [f.code for f in unasked.findings] and unasked.text == TEMPLATED_CERTIFICATE


# ------------------------------------------------------------------ the command line


@pytest.fixture
def certificate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "cert.yaml"
    path.write_text(CERTIFICATE, encoding="utf-8")
    return path


def test_apply_without_release_exits_2_naming_the_option(certificate: Path) -> None:
    result = runner.invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(certificate)])
    assert result.exit_code == EXIT_USAGE
    assert "--component cert-manager=VERSION" in result.stderr
    assert certificate.read_text(encoding="utf-8") == CERTIFICATE


def test_diff_without_release_exits_2(certificate: Path) -> None:
    result = runner.invoke(app, ["diff", "--target-version", "1.29", str(certificate)])
    assert result.exit_code == EXIT_USAGE
    assert result.stdout == ""


def test_apply_with_release(certificate: Path) -> None:
    result = runner.invoke(
        app, ["apply", "--in-place", "--target-version", "1.29", "--component", "cert-manager=1.14", str(certificate)]
    )
    assert result.exit_code == 1
    assert "components: cert-manager 1.14" in result.stderr
    assert "algorithm: RSA" in certificate.read_text(encoding="utf-8")


def test_scan_says_it_assumed_the_newest_release(certificate: Path) -> None:
    result = runner.invoke(app, ["scan", str(certificate)])
    assert result.exit_code == 1
    assert "removed in cert-manager 1.6" in result.stdout
    newest = ADD_ONS["cert-manager"].newest
    assert f"judged at the newest release known: cert-manager {newest}" in result.stderr


def test_config_file_components(certificate: Path) -> None:
    (certificate.parent / ".k8smigrate.toml").write_text('components = { cert-manager = "1.3" }\n', encoding="utf-8")
    result = runner.invoke(app, ["scan", str(certificate)])
    assert result.exit_code == 0
    assert "components: cert-manager 1.3" in result.stderr
    # an option wins over the file, per component
    assert runner.invoke(app, ["scan", "--component", "cert-manager=1.6", str(certificate)]).exit_code == 1


def test_bad_component_option_is_a_usage_error(certificate: Path) -> None:
    for option in ("cert-manager", "nope=1.2", "cert-manager=x"):
        result = runner.invoke(app, ["scan", "--component", option, str(certificate)])
        assert result.exit_code == EXIT_USAGE, option
        assert "component" in result.stderr


def test_list_groups_by_component() -> None:
    out = runner.invoke(app, ["list"]).stdout.splitlines()
    headings = [line for line in out if line.startswith("# ")]
    assert headings[0].startswith("# kubernetes")
    assert "# cert-manager (--component cert-manager=VERSION)" in headings
    cert = out.index("# cert-manager (--component cert-manager=VERSION)")
    assert out[cert + 1].split()[0] == "STEP"
    assert out[cert + 2].split()[0] in {m.name for m in default_registry().migrations if m.component == "cert-manager"}


def test_the_docs_list_every_add_on_with_its_newest_release() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "addons.md").read_text(encoding="utf-8")
    for addon in ADD_ONS.values():
        assert f"| `{addon.name}` | " in page and f" | {addon.newest} |" in page, addon.name
