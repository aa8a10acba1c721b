"""Spec: fuzzing over the whole migration table (issue 7).

Realistic streams (every kind of ``k8smigrate list``, anchors, flow/block mixes, JSON
documents, comments everywhere; ``tests/strategies.py``) must migrate without an internal
error, stay identical when nothing matches, be idempotent, parse, validate where migrated,
and keep every comment. Randomly edited streams must never raise. Example counts are small
here; ``fuzz/run.py`` runs the same properties for thousands of examples.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from tests.fuzz_checks import check_stream, check_survives, migrate
from tests.strategies import current, join, mutated, rich_streams

FAST = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@FAST
@given(rich_streams(current()))
def test_identity_when_nothing_matches(docs: list[str]) -> None:
    text = join(docs)
    result = migrate(text)
    assert result.text == text
    assert not result.changed


@FAST
@given(rich_streams())
def test_every_stream_migrates_idempotently_validly_and_keeps_its_comments(docs: list[str]) -> None:
    check_stream(join(docs))


@FAST
@given(mutated())
def test_no_exception_escapes_on_randomly_edited_streams(text: str) -> None:
    check_survives(text)
