"""The properties every stream must have, shared by ``tests/test_fuzz.py`` and ``fuzz/run.py``.

``check_stream`` migrates a text and asserts: no internal error (K8SM-GEN-012), the output
parses, a second run changes nothing, every comment of the input is still there (or a
K8SM-GEN-004 finding names it) and one still above a line it stood above keeps its offset
from it, and every migrated built-in document passes kubernetes-validate strictly at
``VALIDATE_VERSION``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import yaml

from k8smigrate import migrate_text, scan_text
from k8smigrate.results import FileResult
from k8smigrate.verify import comments as _comments
from tests.helpers import validate
from tests.strategies import join

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
    assert misplaced_comments(text, out) == []
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


def comments_above(text: str) -> set[tuple[str, str, int]]:
    """Per whole-line comment: its text, the content line under it, and its column minus that line's."""
    lines = text.splitlines()
    found: set[tuple[str, str, int]] = set()
    for i, line in enumerate(lines):
        if not line.lstrip(" ").startswith("#"):
            continue
        below = next((n for n in lines[i + 1 :] if n.strip() and not n.lstrip(" ").startswith("#")), "")
        indent = len(line) - len(line.lstrip(" "))
        found.add((line.strip(), below.strip(), indent - (len(below) - len(below.lstrip(" ")))))
    return found


def misplaced_comments(before: str, after: str) -> list[tuple[str, str, int]]:
    """Comments of ``after`` above a line they stood above in ``before``, but at another offset
    from it: a block moved to a new indentation without them (each text as often as it comes)."""
    old = comments_above(before)
    stood = {(c, below) for c, below, _ in old}
    return sorted(t for t in comments_above(after) if t[:2] in stood and t not in old)


def check_survives(text: str) -> FileResult:
    """For arbitrary (broken) input: nothing escapes, and what changed is still stable and parses."""
    result = migrate_text(text, target_version=TARGET)
    if result.changed:
        again = migrate_text(result.text, target_version=TARGET)
        assert again.text == result.text, "a second run changed the output"
        assert lost_comments(text, result) == Counter()
    return result


# ------------------------------------------------------------------ aliases and merge keys (issue 14 item 2)


def check_shared(text: str) -> FileResult:
    """A stream with aliases and merge keys in migrated parts: each document is either left as it
    is with K8SM-GEN-017 (an edit would go through an alias or merge key), or migrated to the data
    its alias-free copy (aliases written out) migrates to, with the same findings."""
    result = check_stream(text, validate_output=False)
    before = list(yaml.safe_load_all(text))
    # JSON, not yaml.safe_dump: PyYAML writes the string "y" bare, which YAML 1.1 readers take as a boolean
    expanded = "---\n".join(json.dumps(doc) + "\n" for doc in before)
    plain = migrate(expanded)
    after, plain_after = list(yaml.safe_load_all(result.text)), list(yaml.safe_load_all(plain.text))
    refused = {f.document for f in result.findings if f.code == "K8SM-GEN-017"}
    for index, (old, new, want) in enumerate(zip(before, after, plain_after, strict=True)):
        if index in refused:
            assert new == old, f"document {index} changed although refused"
            continue
        assert new == want, f"document {index}: aliases change the outcome"
        assert _codes(result, index) == _codes(plain, index), f"document {index}: other findings"
    return result


def _codes(result: FileResult, index: int) -> list[str]:
    return sorted(f.code for f in result.findings if f.document == index and f.migration)


# ------------------------------------------------------------------ the pre-filter (issue 14 item 3)


def fully_read(monkeypatch: Any) -> None:
    """Make the engine and ``scan`` parse every document (no pre-filter)."""
    from k8smigrate import engine, scan
    from k8smigrate.yamlio import EVERY

    monkeypatch.setattr(engine, "prefilter", lambda *_args: EVERY)
    real = scan.read_stream
    monkeypatch.setattr(scan, "read_stream", lambda text, wanted=None: real(text, wanted=EVERY))


def outcome(text: str) -> tuple[Any, ...]:
    """What ``apply`` writes and reports, and what ``scan`` lists (names are read from the text of
    documents that are not parsed, and only in block style: not compared)."""
    result = migrate_text(text, target_version=TARGET)
    rows = scan_text(text, target_version=TARGET)
    listed = [(r.document, r.line, r.api_version, r.kind, r.status, r.code, r.migration) for r in rows]
    return result.text, [f.format() for f in result.findings], listed


def check_prefilter(docs: list[str]) -> None:
    """The pre-filter never skips a document the full reader would migrate or report on, and a
    run with it gives what a run that parses everything gives."""
    import pytest

    from k8smigrate.prefilter import prefilter
    from k8smigrate.registry import default_registry
    from k8smigrate.settings import Settings

    settings = Settings(target_version=TARGET)
    wanted = prefilter(default_registry(), settings, settings.window)
    with pytest.MonkeyPatch.context() as mp:
        fully_read(mp)
        for doc in docs:
            if not wanted(doc):
                full = migrate_text(doc, target_version=TARGET)
                assert not any(d.applied for d in full.documents), doc
                assert not any(f.migration for f in full.findings), doc
        everything = outcome(join(docs))
    assert outcome(join(docs)) == everything


# ------------------------------------------------------------------ hostile nesting (issue 14 item 16)


def check_hostile(docs: list[str], index: int) -> FileResult:
    """A stream with one hostile document: nothing escapes. Deep flow nesting (which both parsers
    read in quadratic time) is refused with a finding while the stream is cut into documents;
    deep block nesting (read in linear time; no apiVersion, so no migration wants it) is kept."""
    result = check_survives(join(docs))
    if "[" in docs[index] or "{" in docs[index]:
        refused = [f for f in result.findings if f.document == index and f.code == "K8SM-GEN-011"]
        assert refused, [f.format() for f in result.findings]
    else:
        assert docs[index] in result.text
    return result
