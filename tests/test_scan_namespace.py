"""Spec: scan entries carry the document's namespace (issue 6), in data, JSON and text."""

from __future__ import annotations

from k8smigrate.registry import default_registry
from k8smigrate.scan import scan_stream
from k8smigrate.settings import Settings
from tests.helpers import dedent

TEXT = dedent(
    """
    apiVersion: policy/v1beta1
    kind: PodDisruptionBudget
    metadata:
      name: web
      namespace: shop
    ---
    apiVersion: batch/v1beta1
    kind: CronJob
    metadata:
      name: backup
    """
)


def test_namespace_in_entries() -> None:
    entries = scan_stream(TEXT, Settings(target_version="1.25"), "m.yaml", default_registry())
    assert [(e.kind, e.namespace) for e in entries] == [("PodDisruptionBudget", "shop"), ("CronJob", None)]
    assert entries[0].as_dict()["namespace"] == "shop"
    assert "PodDisruptionBudget shop/web policy/v1beta1" in entries[0].format()
    assert "CronJob backup batch/v1beta1" in entries[1].format()
