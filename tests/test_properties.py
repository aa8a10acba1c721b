"""Properties that hold for every stream: identity, idempotence, independence, YAML 1.1 safety."""

from __future__ import annotations

from collections import Counter

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from k8smigrate import migrate_text
from k8smigrate.scalars import is_ambiguous, render_string, resolve_plain
from k8smigrate.verify import comments as _comments
from tests.helpers import validate
from tests.strategies import current, ingress, join, rbac, streams

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _migrate(text: str) -> str:
    result = migrate_text(text, target_version="1.29")
    assert "K8SM-GEN-012" not in [f.code for f in result.findings], result.findings
    return result.text


@FAST
@given(streams(current()))
def test_identity_when_nothing_matches(docs: list[str]) -> None:
    text = join(docs)
    assert _migrate(text) == text


@FAST
@given(streams())
def test_idempotent(docs: list[str]) -> None:
    once = _migrate(join(docs))
    assert _migrate(once) == once


@FAST
@given(streams(), streams())
def test_documents_are_independent(left: list[str], right: list[str]) -> None:
    assert _migrate(join(left + right)) == join([_migrate(d) for d in left + right])


@FAST
@given(streams(st.one_of(ingress(), rbac())))
def test_output_is_valid_keeps_comments_and_reads_the_same_in_yaml_1_1(docs: list[str]) -> None:
    text = join(docs)
    out = _migrate(text)
    lost = _comments(text) - _comments(out)
    assert lost == Counter()
    validate(out, "1.29.0")
    before = [d for d in yaml.safe_load_all(text)]
    after = [d for d in yaml.safe_load_all(out)]
    for old, new in zip(before, after, strict=True):
        assert old["metadata"] == new["metadata"]


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=0, max_size=20))
@example("=")  # YAML 1.1's value indicator: PyYAML refuses it plain (found by CI)
@example("<<")
def test_rendered_strings_read_back_as_the_same_string_in_yaml_1_1(text: str) -> None:
    rendered = render_string(text)
    assert yaml.safe_load(f"k: {rendered}\n") == {"k": text}
    if not is_ambiguous(text):
        assert resolve_plain(text) == text
