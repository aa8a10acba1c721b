"""Regression: the field and annotation renames over the corpus files they touch.

No internal error, no comment lost, idempotent, valid (strict) wherever one of them applied.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import kubernetes_validate
import pytest

import k8smigrate
from tests.test_readiness_corpus import validate_builtin

PASSES = (
    "service_topology_annotations",
    "service_traffic_distribution",
    "default_container_annotation",
    "service_account_alias",
    "removed_object_fields",
    "deprecated_node_labels",
)
MARKERS = (
    "topology-aware-hints",
    "PreferClose",
    "default-logs-container",
    "serviceAccount",
    "selfLink",
    "beta.kubernetes.io/",
)


def test_field_renames_on_the_corpus(corpus: Path) -> None:
    touched = 0
    for path in sorted(corpus.iterdir()):
        text = path.read_text(encoding="utf-8")
        if not any(m in text for m in MARKERS):
            continue
        for only in (None, ("deprecated_node_labels",)):
            result = k8smigrate.migrate_text(text, target_version="1.29", filename=path.name, only=only)
            assert not [f for f in result.findings if f.code in ("K8SM-GEN-012", "K8SM-GEN-004")], path.name
            again = k8smigrate.migrate_text(result.text, target_version="1.29", only=only)
            assert again.text == result.text, path.name
            if any(p in d.applied for d in result.documents for p in PASSES):
                touched += 1
                for doc in result.text.split("\n---"):
                    # upstream testdata of later releases has APIs the 1.29 schemas lack
                    with contextlib.suppress(kubernetes_validate.utils.SchemaNotFoundError):
                        validate_builtin(doc)
    if touched == 0:
        pytest.skip("no corpus file needs these passes")
