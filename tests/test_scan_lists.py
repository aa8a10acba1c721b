"""Spec: ``scan`` tells a List (whose items are rows) from its text exactly as the pattern that
defines it, at C speed (the pattern starts with ``^``, so a search for it cannot skip ahead
through a large CRD).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate.scan import _LIST, _is_list

FRAGMENTS = ["kind", "List", "PodList", ":", ": ", '"', "'", "\n", " ", "\t", "listKind", "x", "-", "{", "}", ","]


def test_no_list_in_a_document_without_the_word() -> None:
    assert not _is_list("apiVersion: v1\nkind: Pod\n")


def test_the_spellings_of_a_list() -> None:
    for text in (
        "apiVersion: v1\nkind: List\nitems: []\n",
        "kind: PodList\n",
        "'kind': List\n",
        '"kind": "ConfigMapList"\n',
        '{"apiVersion": "v1", "kind": "List", "items": []}',
    ):
        assert _is_list(text), text


def test_what_is_not_a_list() -> None:
    for text in (
        "spec:\n  names:\n    listKind: WidgetList\n",  # a CRD names its list kind
        "  kind: List\n",  # indented: not the document's kind
        "kind: Lister\n",
    ):
        assert not _is_list(text), text


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30))
def test_it_agrees_with_the_pattern(parts: list[str]) -> None:
    text = "".join(parts)
    assert _is_list(text) == (_LIST.search(text) is not None)
