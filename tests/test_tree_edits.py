"""Spec: the tree API does the bookkeeping of every edit (``insert``, ``remove``, ``pop``, ``move``…).

A migration never touches ``items``/``entries`` or ``dirty``; these methods keep comments with
their entries and items, and mark what the renderer must write again.
"""

from __future__ import annotations

import pytest

from k8smigrate.tree import Mapping, Scalar, Sequence
from k8smigrate.yamlio import EVERY, read_stream
from tests.helpers import dedent


def root(text: str) -> Mapping:
    node = read_stream(dedent(text), wanted=EVERY).documents[0].root
    assert isinstance(node, Mapping)
    return node


def names(seq: Sequence) -> list[object]:
    return [n.to_data() for n in seq]


def test_parsed_collections_are_untouched_until_edited() -> None:
    doc = root("a: [1, 2]\nb: {}\n")
    seq, empty = doc.sequence("a"), doc.mapping("b")
    assert seq is not None and empty is not None
    assert not seq.emptied and not empty.emptied  # written empty is not emptied
    assert doc.pristine()


def test_sequence_insert_pop_remove_and_move() -> None:
    doc = root("a:\n- p\n- r\n- s\n")  # (y, n… are booleans to YAML 1.1)
    seq = doc.sequence("a")
    assert seq is not None
    seq.insert("q", after=seq[0])
    assert names(seq) == ["p", "q", "r", "s"] and seq.dirty
    seq.insert(Scalar("o"), 0)
    assert names(seq) == ["o", "p", "q", "r", "s"]
    assert seq.pop(0).value.to_data() == "o"
    moved = seq.move(3, 0)  # s to the front
    assert moved.value.to_data() == "s" and names(seq) == ["s", "p", "q", "r"]
    seq.remove(seq[3])
    assert names(seq) == ["s", "p", "q"]
    with pytest.raises(ValueError, match="not an item"):
        seq.index(Scalar("q"))


def test_remove_can_hand_head_comments_to_the_next_item() -> None:
    doc = root("a:\n- p\n# about q\n- q\n- r\n")
    seq = doc.sequence("a")
    assert seq is not None
    assert seq.items[1].head_comments == ["# about q"]
    seq.remove(seq[1], keep_comments=True)
    assert seq.items[1].head_comments == ["# about q"] and names(seq) == ["p", "r"]
    seq.remove(seq[1])
    assert names(seq) == ["p"]


def test_emptied_means_empty_by_an_edit() -> None:
    doc = root("a: [x]\nb: {k: 1}\n")
    seq, mapping = doc.sequence("a"), doc.mapping("b")
    assert seq is not None and mapping is not None
    seq.pop()
    mapping.remove("k")
    assert seq.emptied and mapping.emptied
    with pytest.raises(KeyError):
        mapping.remove("k")


def test_mapping_move_within_and_across_mappings_keeps_comments() -> None:
    text = "a: 1\nb: 2  # bee\nc: 3\nspec:\n  d: 4\n"
    doc = root(text)
    doc.move("b", at=0)
    assert doc.keys() == ["b", "a", "c", "spec"]
    spec = doc.mapping("spec")
    assert spec is not None
    entry = doc.move("c", spec, new_key="see", before="d")
    assert spec.keys() == ["see", "d"] and entry.renamed
    moved = doc.entry("b")
    assert moved is not None and moved.eol_comment == "  # bee"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("spec: {a: 1}  # c\nx: 2\n", "spec:  # c\n  a: 1\nx: 2\n"),
        ("top:\n    spec: [1, 2]\n    x:\n        z: 1\n", "top:\n    spec:\n    - 1\n    - 2\n    x:\n        z: 1\n"),
        ("versions:\n- {name: v1}\n", "versions:\n- name: v1\n"),
    ],
)
def test_to_block_writes_a_flow_collection_as_a_block(before: str, after: str) -> None:
    from k8smigrate.verify import read_back, render

    doc = root(before)
    found = [n for n in (doc.get("spec"), (doc.mapping("top") or Mapping()).get("spec")) if n is not None]
    target = found[0] if found else (doc.sequence("versions") or Sequence())[0]
    assert isinstance(target, (Mapping, Sequence))
    target.to_block()
    new_text, lead = render(before, doc)
    assert new_text == after and read_back(doc, new_text, lead)[1] == ""


def test_edits_through_the_api_render_and_read_back() -> None:
    # the engine's read-back check is the oracle: every edit above renders to what the tree says
    from k8smigrate.verify import read_back, render

    text = "a:\n- p\n# head\n- q\nb: 2\n"
    doc = root(text)
    seq = doc.sequence("a")
    assert seq is not None
    seq.insert("w", after=seq[0])
    seq.move(2, 0)
    doc.move("b", at=0)
    new_text, lead = render(dedent(text), doc)
    data, problem = read_back(doc, new_text, lead)
    assert problem == "" and data == {"b": 2, "a": ["q", "p", "w"]}
