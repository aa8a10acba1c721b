"""Spec: every library entry point takes the keywords the CLI options map to (issue 14, item 23).

``migrate_file(path, target_version=…)`` used to fail with TypeError (only ``settings=``
worked), ``scan_text`` lacked ``only``/``skip``/``decisions``, the README listed Finding's
fields in another order than the dataclass, and ``result.diff`` named the file ``stdin``
while its findings said ``<string>``.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import k8smigrate
from k8smigrate import Finding, Settings

ROOT = Path(__file__).resolve().parent.parent
INGRESS = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec: {}\n"
DOCKER_SOCKET = (
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: b\nspec:\n  containers:\n  - name: b\n    image: docker\n"
    "  volumes:\n  - name: sock\n    hostPath:\n      path: /var/run/docker.sock\n"
)
WEBHOOK = (
    "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingWebhookConfiguration\nmetadata:\n"
    "  name: hook\nwebhooks:\n- name: hook.example.com\n  clientConfig:\n    service: {name: hook, namespace: d}\n"
)


def test_settings_and_keywords_give_the_same_result(tmp_path: Path) -> None:
    path = tmp_path / "web.yaml"
    path.write_text(INGRESS)
    by_keyword = k8smigrate.migrate_file(path, target_version="1.19", min_version="1.16")
    by_settings = k8smigrate.migrate_file(path, settings=Settings(target_version="1.19", min_version="1.16"))
    assert by_keyword.result is not None and by_settings.result is not None
    assert by_keyword.result.text == by_settings.result.text
    assert "apiVersion: networking.k8s.io/v1beta1\n" in by_keyword.result.text  # 1.16 does not serve v1


def test_migrate_file_and_paths_take_the_keywords(tmp_path: Path) -> None:
    path = tmp_path / "web.yaml"
    path.write_text(INGRESS)
    outcome = k8smigrate.migrate_file(
        path, target_version="1.20", min_version="1.16", only="ingress_extensions_v1beta1"
    )
    assert outcome.result is not None and "networking.k8s.io/v1beta1" in outcome.result.text
    (written,) = k8smigrate.migrate_paths(tmp_path, in_place=True, target_version="1.22")
    assert written.written and "apiVersion: networking.k8s.io/v1\n" in path.read_text()


def test_scan_text_takes_only_skip_and_decisions() -> None:
    assert [e.code for e in k8smigrate.scan_text(DOCKER_SOCKET, target_version="1.29")] == ["K8SM-CRI-008"]
    assert k8smigrate.scan_text(DOCKER_SOCKET, target_version="1.29", skip="docker_socket") == []
    assert k8smigrate.scan_text(DOCKER_SOCKET, target_version="1.29", only=["seccomp_annotations"]) == []
    (row,) = k8smigrate.scan_text(WEBHOOK, target_version="1.29", decisions={"sideEffects": "None"})
    assert row.action == "apply"
    (path_row,) = k8smigrate.scan_file(_write(WEBHOOK), target_version="1.29").scan
    assert path_row.action == "human"


def _write(text: str) -> Path:
    import tempfile

    path = Path(tempfile.mkdtemp()) / "hook.yaml"
    path.write_text(text)
    return path


def test_the_diff_names_the_file_as_the_findings_do() -> None:
    result = k8smigrate.migrate_text(INGRESS, target_version="1.22")
    assert result.diff.startswith("--- a/<string>\n+++ b/<string>\n")
    named = k8smigrate.migrate_text(INGRESS, target_version="1.22", filename="deploy/web.yaml")
    assert named.diff.startswith("--- a/deploy/web.yaml\n+++ b/deploy/web.yaml\n")


def test_the_readme_lists_finding_fields_in_the_dataclass_order() -> None:
    readme = (ROOT / "README.md").read_text()
    (listed,) = re.findall(r"Finding\(([a-z_, ]+)\)", readme)
    assert [name.strip() for name in listed.split(",")] == [f.name for f in fields(Finding)]
