"""The properties every stream must have, shared by ``tests/test_fuzz.py`` and ``fuzz/run.py``.

``check_stream`` migrates a text and asserts: no internal error (K8SM-GEN-012), the output
parses, a second run changes nothing, every comment of the input is still there (or a
K8SM-GEN-004 finding names it), and every migrated built-in document passes
kubernetes-validate strictly at ``VALIDATE_VERSION``.
"""

from __future__ import annotations

from collections import Counter

import yaml

from k8smigrate import migrate_text
from k8smigrate.results import FileResult
from k8smigrate.verify import comments as _comments
from tests.helpers import validate

TARGET = "1.29"
VALIDATE_VERSION = "1.29.0"


def migrate(text: str) -> FileResult:
    result = migrate_text(text, target_version=TARGET)
    internal = [f.format() for f in result.findings if f.code == "K8SM-GEN-012"]
    assert not internal, internal
    return result


def lost_comments(before: str, result: FileResult) -> Counter[str]:
    """Comments of ``before`` missing from the output and not reported by a K8SM-GEN-004 finding."""
    lost = _comments(before) - _comments(result.text)
    reported = " ".join(f.message for f in result.findings if f.code == "K8SM-GEN-004")
    return Counter({c: n for c, n in lost.items() if c not in reported})


def check_stream(text: str, *, validate_output: bool = True) -> FileResult:
    result = migrate(text)
    out = result.text
    assert migrate(out).text == out, "a second run changed the output"
    assert lost_comments(text, result) == Counter()
    if result.changed:
        docs = list(yaml.safe_load_all(out))  # the output parses (as YAML 1.1, like kubectl's reader)
        if validate_output:
            assert len(docs) == len(result.documents)
            for doc, data in zip(result.documents, docs, strict=True):
                if doc.applied and isinstance(data, dict) and _has_schema(data):
                    validate(yaml.safe_dump(data), VALIDATE_VERSION)
    return result


def _has_schema(data: dict[str, object]) -> bool:
    """kubernetes-validate knows the API objects, not component configs (kubelet, kube-proxy, kubeadm)."""
    group = str(data.get("apiVersion", "")).rpartition("/")[0]
    return "." not in str(data.get("kind", "")) and not group.endswith(("config.k8s.io", "kubeadm.k8s.io"))


def check_survives(text: str) -> FileResult:
    """For arbitrary (broken) input: nothing escapes, and what changed is still stable and parses."""
    result = migrate_text(text, target_version=TARGET)
    if result.changed:
        again = migrate_text(result.text, target_version=TARGET)
        assert again.text == result.text, "a second run changed the output"
        assert lost_comments(text, result) == Counter()
    return result
