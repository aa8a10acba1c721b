"""Whether a text is a template the plain reading cannot migrate (``needs_masking``), and the
shortcut that answers it for most templates without building a tree (``yamlio.not_whole``).

No-op cases first (plain YAML, markers inside safe scalars), then templates; then the property
that the shortcut never contradicts the full reading, on generated text and on real charts.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate.templating.markers import MARKERS, needs_masking
from k8smigrate.yamlio import EVERY, not_whole, read_stream


def full_reading(text: str) -> bool:
    """``needs_masking`` as the full reading answers it (a tree for every piece)."""
    if not MARKERS.search(text):
        return False
    stream = read_stream(text, wanted=EVERY)
    return not stream.whole or any(d.templated for d in stream.documents)


@pytest.mark.parametrize(
    "text",
    [
        "apiVersion: v1\nkind: ConfigMap\n",
        'data:\n  tpl: |\n    {{ .Values.x }}\n  quoted: "{{ y }}"\n',  # markers inside safe scalars
        "a: 1\n---\nb: 2\n",
    ],
)
def test_yaml_that_parses_is_not_known_broken(text: str) -> None:
    assert not not_whole(text)
    assert needs_masking(text) == full_reading(text)


@pytest.mark.parametrize(
    "text",
    [
        "{{- if .Values.enabled }}\napiVersion: v1\nkind: ConfigMap\n{{- end }}\n",
        "apiVersion: v1\nkind: ConfigMap\n---\n{{- range .Values.x }}\n- {{ . }}\n{{- end }}\n",
        "\ufeff{{- if .Values.a }}\na: 1\n{{- end }}\n",
    ],
)
def test_a_template_yaml_cannot_read_is_known_broken_without_a_tree(text: str) -> None:
    assert not_whole(text)
    assert needs_masking(text) and full_reading(text)


PIECES = st.sampled_from(
    ["a: 1", "b:", "  - x", "  c: d", "{{- if .x }}", "{{- end }}", "{{ .y }}", "---", "\t", "key: {{ z }}", "| ", "#"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=10).map("\n".join))
def test_the_shortcut_never_contradicts_the_full_reading(text: str) -> None:
    if not_whole(text):
        assert not read_stream(text, wanted=EVERY).whole
    assert needs_masking(text) == full_reading(text)


def test_the_shortcut_agrees_with_the_full_reading_on_real_charts() -> None:
    charts = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "charts"
    if not charts.is_dir():
        pytest.skip("../shared/corpus/charts is not beside this checkout")
    paths = sorted(p for p in charts.rglob("templates/*.yaml") if p.is_file())
    sample = random.Random(19).sample(paths, 300)
    texts = [p.read_text(encoding="utf-8") for p in sample]
    assert sum(not_whole(t) for t in texts) > 200  # most templates: answered by the shortcut
    assert [needs_masking(t) for t in texts] == [full_reading(t) for t in texts]
