"""Spec: the Ingress class annotation moves to spec.ingressClassName, only when asked for (opt-in)."""

from __future__ import annotations

from pathlib import Path

import pytest

import k8smigrate
from k8smigrate.migrations.checks.ingress_class_annotation import KEY
from tests.helpers import check_noop, check_transformed, codes, run, validate

ING = """
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  annotations:
    kubernetes.io/ingress.class: nginx  # the public controller
    nginx.ingress.kubernetes.io/rewrite-target: /
spec:
  rules:
  - http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
"""
MOVED = """
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  annotations:
    nginx.ingress.kubernetes.io/rewrite-target: /
spec:
  ingressClassName: nginx  # the public controller
  rules:
  - http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
"""
CLASS = """
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
spec:
  controller: k8s.io/ingress-nginx
"""
ONLY = {"only": ("ingress_class_annotation",)}


def test_noop_unless_asked_for() -> None:
    check_noop(ING)


def test_noop_without_the_annotation() -> None:
    check_noop(MOVED, **ONLY)
    check_noop(ING.replace("    kubernetes.io/ingress.class: nginx  # the public controller\n", ""), **ONLY)


def test_noop_on_another_kind() -> None:
    check_noop(ING.replace("kind: Ingress", "kind: ConfigMap"), **ONLY)


def test_window_before_1_18_keeps_it_and_says_why() -> None:
    before = ING.replace("networking.k8s.io/v1\n", "networking.k8s.io/v1beta1\n")
    result = check_noop(before, target_version="1.19", min_version="1.17", **ONLY)
    assert codes(result, "info") == ["K8SM-FLD-063"]


def test_moved_to_the_field_with_a_warning_to_check_the_class() -> None:
    result = check_transformed(ING, MOVED, **ONLY)
    assert codes(result, "warning") == ["K8SM-FLD-012"]
    assert "check that IngressClass 'nginx' exists" in result.findings[0].message
    assert result.findings[0].line == 6
    validate(result.text, "1.29.0")


def test_info_when_the_ingress_class_is_in_the_stream() -> None:
    result = check_transformed(ING + CLASS, MOVED + CLASS, **ONLY)
    assert codes(result, "info") == ["K8SM-FLD-065"]
    assert codes(result, "warning") == []
    validate(result.text, "1.29.0")


def test_info_when_the_ingress_class_is_in_another_file_of_the_run(tmp_path: Path) -> None:
    (tmp_path / "class.yaml").write_text(CLASS.lstrip("\n-"), encoding="utf-8")
    (tmp_path / "web.yaml").write_text(ING.lstrip("\n"), encoding="utf-8")
    settings = k8smigrate.Settings(target_version="1.29", only=ONLY["only"])
    (finding,) = [f for o in k8smigrate.migrate_paths([tmp_path], settings=settings) for f in o.findings]
    assert (finding.code, finding.level) == ("K8SM-FLD-065", "info")
    assert f"(the IngressClass 'nginx' is in {tmp_path / 'class.yaml'}:1)" in finding.message


def test_another_ingress_class_in_the_stream_is_not_enough() -> None:
    result = check_transformed(
        ING + CLASS.replace("name: nginx", "name: internal"),
        MOVED + CLASS.replace("name: nginx", "name: internal"),
        **ONLY,
    )
    assert codes(result, "warning") == ["K8SM-FLD-012"]


def test_beta_apis_from_1_18() -> None:
    for api in ("networking.k8s.io/v1beta1", "extensions/v1beta1"):
        before = ING.replace("networking.k8s.io/v1\n", f"{api}\n")
        after = MOVED.replace("networking.k8s.io/v1\n", f"{api}\n")
        result = check_transformed(before, after, target_version="1.19", min_version="1.18", **ONLY)
        assert codes(result) == ["K8SM-FLD-012"]


def test_dropped_beside_an_equal_field() -> None:
    before = ING.replace("spec:\n", "spec:\n  ingressClassName: nginx\n")
    after = MOVED.replace("  ingressClassName: nginx  # the public controller\n", "  ingressClassName: nginx\n")
    result = check_transformed(before, after, **ONLY)
    assert codes(result, "info") == ["K8SM-FLD-065"]
    validate(result.text, "1.29.0")


def test_a_different_field_is_an_error_and_changes_nothing() -> None:
    before = ING.replace("spec:\n", "spec:\n  ingressClassName: internal\n")
    result = run(before, **ONLY)
    assert result.text == before.lstrip("\n")
    assert codes(result, "error") == ["K8SM-FLD-062"]
    assert result.findings[0].line == 6


def test_a_value_that_cannot_name_an_ingress_class_is_kept() -> None:
    result = check_noop(ING.replace("ingress.class: nginx", "ingress.class: Nginx_Public"), **ONLY)
    assert codes(result, "warning") == ["K8SM-FLD-064"]


def test_the_value_keeps_its_quotes() -> None:
    before = ING.replace("ingress.class: nginx", "ingress.class: 'nginx'")
    check_transformed(before, MOVED.replace("ingressClassName: nginx", "ingressClassName: 'nginx'"), **ONLY)


def test_corpus_ingresses_with_the_annotation(corpus: Path) -> None:
    """With the Ingress chain: no internal error, no comment lost, idempotent, valid."""
    only = ("ingress_class_annotation", "ingress_extensions_v1beta1", "ingress_networking_v1beta1")
    touched = 0
    for path in sorted(corpus.iterdir()):
        text = path.read_text(encoding="utf-8")
        if KEY not in text:
            continue
        result = k8smigrate.migrate_text(text, target_version="1.29", filename=path.name, only=only)
        assert not [f for f in result.findings if f.code in ("K8SM-GEN-012", "K8SM-GEN-004")], path.name
        assert k8smigrate.migrate_text(result.text, target_version="1.29", only=only).text == result.text
        if any("ingress_class_annotation" in d.applied for d in result.documents):
            touched += 1
            assert KEY not in result.text, path.name
            validate(result.text, "1.29.0")
    if touched == 0:
        pytest.skip("no corpus file carries the annotation")
