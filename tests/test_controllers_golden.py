"""Golden: the issue-20 checks on real manifests (rendered charts, the corpus, the kubeflow kustomize tree).

``tests/golden/controllers/nginx-ingress-*.yaml`` are helm/charts ``stable/nginx-ingress``
rendered by helm (the command is in each file's header); ``tests/golden/readiness/coredns-chart``
(``stable/coredns`` with CoreDNS 1.8.4) is a before/after pair of ``test_readiness_golden``.
The corpus cases read ``../shared`` and are skipped without it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import k8smigrate
from k8smigrate import migrate_paths
from k8smigrate.settings import Settings
from tests.conftest import ROOT
from tests.helpers import codes

GOLDEN = Path(__file__).parent / "golden" / "controllers"
KUSTOMIZE = ROOT.parent / "shared" / "corpus" / "kustomize" / "kubeflow-manifests-v1.0.2"

APP_INGRESS = """\
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop
  namespace: shop
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: shop
            port:
              number: 8080
"""


def test_the_rendered_0_34_chart_is_an_error_on_the_controller_only() -> None:
    text = (GOLDEN / "nginx-ingress-0.34.1.yaml").read_text(encoding="utf-8")
    result = k8smigrate.migrate_text(text, target_version="1.22", filename="chart.yaml")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-CTL-001", "error", 293)]
    assert "ingress-nginx 0.34.1" in result.findings[0].message and "1.0.0" in result.findings[0].message
    assert result.text == text  # an error leaves the document as it is
    rows = k8smigrate.scan_text(text, target_version="1.22")
    assert [(r.category, r.status, r.kind) for r in rows] == [("controller", "breaking", "Deployment")]


def test_the_rendered_1_1_chart_and_an_app_of_the_repository_are_joined(tmp_path: Path) -> None:
    shutil.copy(GOLDEN / "nginx-ingress-1.1.0.yaml", tmp_path / "ingress-nginx.yaml")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "ingress.yaml").write_text(APP_INGRESS, encoding="utf-8")
    outcomes = list(migrate_paths([tmp_path], settings=Settings(target_version="1.22")))
    findings = [f for o in outcomes for f in o.findings]
    assert [(Path(f.filename).name, f.code) for f in findings] == [("ingress.yaml", "K8SM-CTL-003")]
    assert f"{tmp_path / 'ingress-nginx.yaml'}:" in findings[0].message
    assert not any(o.result is not None and o.result.changed for o in outcomes)


def test_the_corpus_mandatory_yaml(corpus: Path) -> None:
    path = corpus / "ingress-nginx-45a5ab4__deploy_mandatory.yaml"
    result = k8smigrate.migrate_text(path.read_text(encoding="utf-8"), target_version="1.22", filename=path.name)
    assert [(f.code, f.line) for f in result.findings if f.migration == "ingress_controllers"] == [
        ("K8SM-CTL-001", 214)
    ]
    assert "ingress-nginx 0.24.1" in next(f.message for f in result.findings if f.code == "K8SM-CTL-001")


def test_the_kubeflow_alb_controller_takes_its_tag_from_the_kustomization(tmp_path: Path) -> None:
    source = KUSTOMIZE / "aws" / "aws-alb-ingress-controller"
    if not source.is_dir():
        pytest.skip("../shared/corpus is not beside the project (only CI and sessions have it)")
    tree = shutil.copytree(source, tmp_path / "alb")
    outcomes = list(migrate_paths([tree], settings=Settings(target_version="1.22")))
    found = [f for o in outcomes for f in o.findings if f.migration == "ingress_controllers"]
    assert [(Path(f.filename).name, f.code, f.line) for f in found] == [("deployment.yaml", "K8SM-CTL-001", 49)]
    assert f"1.1.5 (tag from the kustomization in {tree / 'base' / 'kustomization.yaml'}:1)" in found[0].message
    alone = k8smigrate.migrate_text((tree / "base" / "deployment.yaml").read_text(), target_version="1.22")
    assert codes(alone) == ["K8SM-CTL-002"]  # without the kustomization the tag is unknown
