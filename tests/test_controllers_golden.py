"""Golden: the issue-20 checks on real manifests (rendered charts, the corpus, the kubeflow kustomize tree).

The charts are helm/charts ``stable/nginx-ingress`` and ``stable/coredns`` of the corpus,
rendered by helm when the test runs (nothing of them is copied here); the corpus cases read
``../shared`` and are skipped without it, the chart cases also without a ``helm`` binary
(``../shared/tools/get-helm`` puts one in ``~/.cache/k8smigrate-tools/bin``).
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import k8smigrate
from k8smigrate import migrate_paths
from k8smigrate.settings import Settings
from tests.conftest import ROOT
from tests.helpers import codes, validate

SHARED = ROOT.parent / "shared" / "corpus"
CHARTS = SHARED / "charts"
KUSTOMIZE = SHARED / "kustomize" / "kubeflow-manifests-v1.0.2"
TOOLS = Path(os.environ.get("K8SM_TOOLS_DIR", Path.home() / ".cache" / "k8smigrate-tools")) / "bin"


def render(chart: str, *values: str) -> str:
    """``helm template`` of a corpus chart for Kubernetes 1.21, with ``--set`` ``values``."""
    if not (CHARTS / chart).is_dir():
        pytest.skip("../shared/corpus is not beside the project (only CI and sessions have it)")
    helm = shutil.which("helm") or (str(TOOLS / "helm") if (TOOLS / "helm").is_file() else None)
    if helm is None:
        pytest.skip("no helm binary (run ../shared/tools/get-helm)")
    sets = [arg for value in values for arg in ("--set", value)]
    command = [helm, "template", "rel", str(CHARTS / chart), "--kube-version", "1.21", *sets]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


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
    text = render("nginx-ingress")
    result = k8smigrate.migrate_text(text, target_version="1.22", filename="chart.yaml")
    image = line_of(text, "ingress-nginx/controller:v0.34.1")
    assert [(f.code, f.level, f.line) for f in result.findings] == [("K8SM-CTL-001", "error", image)]
    assert "ingress-nginx 0.34.1" in result.findings[0].message and "1.0.0" in result.findings[0].message
    assert result.text == text  # an error leaves the document as it is
    rows = k8smigrate.scan_text(text, target_version="1.22")
    assert [(r.category, r.status, r.kind) for r in rows] == [("controller", "breaking", "Deployment")]


def test_the_rendered_1_1_chart_and_an_app_of_the_repository_are_joined(tmp_path: Path) -> None:
    (tmp_path / "ingress-nginx.yaml").write_text(render("nginx-ingress", "controller.image.tag=v1.1.0"))
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


def test_the_rendered_coredns_chart_with_coredns_1_8_4_gets_kubeadms_rule() -> None:
    before = render("coredns", "image.tag=1.8.4")  # the chart's ClusterRole predates EndpointSlices (coredns/helm#9)
    result = k8smigrate.migrate_text(before, target_version="1.29")
    assert codes(result, "error") == [] and "K8SM-GEN-004" not in codes(result)
    assert {"K8SM-DNS-001"} <= set(codes(result))
    changed = [
        line
        for line in difflib.unified_diff(before.splitlines(), result.text.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    rule = "- apiGroups:\n  - discovery.k8s.io\n  resources:\n  - endpointslices\n  verbs:\n  - list\n  - watch\n"
    removed = "        scheduler.alpha.kubernetes.io/critical-pod: ''"  # K8SM-FLD-010: a removed annotation
    assert sorted(changed) == sorted(["-" + removed, *("+" + line for line in rule.splitlines())])
    assert rule in result.text  # appended as one rule, in the role's style
    assert k8smigrate.migrate_text(result.text, target_version="1.29").text == result.text
    validate(result.text, "1.29.0")
