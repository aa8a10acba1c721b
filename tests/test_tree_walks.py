"""Spec: the tree's walks and the builder's duplicate-key report, as the engine relies on them."""

from __future__ import annotations

from k8smigrate import migrate_text
from k8smigrate.scalars import resolve_plain
from k8smigrate.tree import Mapping, Scalar, mappings_at_key, nodes, walk
from k8smigrate.yamlio import EVERY, read_stream

TEXT = "a:\n  b: [1, {c: 2}]\n  d: x\ne: y\n"


def root_of(text: str) -> Mapping:
    root = read_stream(text, wanted=EVERY).documents[0].root
    assert isinstance(root, Mapping)
    return root


def test_walk_yields_every_node_parents_first_with_its_path() -> None:
    paths = [path for path, _node in walk(root_of(TEXT))]
    assert paths == [(), ("a",), ("a", "b"), ("a", "b", 0), ("a", "b", 1), ("a", "b", 1, "c"), ("a", "d"), ("e",)]


def test_nodes_is_walk_without_paths() -> None:
    root = root_of(TEXT)
    assert [id(n) for n in nodes(root)] == [id(n) for _path, n in walk(root)]


META = """\
metadata: {name: a}
spec:
  metadata: [not, a, mapping]
  template:
    metadata: {labels: {x: y}}
  volumeClaimTemplates:
    - metadata: {name: v}
      spec: {metadata: {}}
items:
  - metadata: {name: i}
"""


def test_mappings_at_key_is_the_walk_kept_to_mappings_of_that_key() -> None:
    root = root_of(META)
    found = [(path, id(node)) for path, node in mappings_at_key(root, "metadata")]
    walked = [(p, id(n)) for p, n in walk(root) if p and p[-1] == "metadata" and isinstance(n, Mapping)]
    assert found == walked
    assert [path for path, _id in found] == [
        ("metadata",),
        ("spec", "template", "metadata"),
        ("spec", "volumeClaimTemplates", 0, "metadata"),
        ("spec", "volumeClaimTemplates", 0, "spec", "metadata"),
        ("items", 0, "metadata"),
    ]
    assert mappings_at_key(root, "absent") == []


def test_walk_survives_deep_nesting() -> None:
    depth = 2000  # deeper than Python's recursion limit
    node = Mapping()
    for _ in range(depth):
        node = Mapping.of({"x": node})
    assert sum(1 for _ in walk(node)) == depth + 1
    assert not node.pristine()  # new nodes have no source (and asking must not recurse)


def test_pristine_turns_false_for_a_change_at_any_depth() -> None:
    root = root_of(TEXT)
    assert root.pristine()
    inner = root.mapping("a")
    assert inner is not None
    seq = inner.sequence("b")
    assert seq is not None and isinstance(seq[1], Mapping)
    deep = seq[1].scalar("c")
    assert isinstance(deep, Scalar)
    deep.set(3)
    assert not root.pristine() and not seq.pristine()
    assert inner.scalar("d") is not None and inner.scalar("d").pristine()  # type: ignore[union-attr]


def test_a_key_written_three_times_is_reported_against_each_earlier_line() -> None:
    text = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\n  name: b\n  name: c\n"
    found = [
        (f.line, f.message) for f in migrate_text(text, target_version="1.29").findings if f.code == "K8SM-GEN-006"
    ]
    assert [line for line, _m in found] == [5, 6, 6]
    assert ["line 4" in m for _l, m in found] == [True, True, False]


def test_plain_scalars_resolve_as_kubernetes_reads_them() -> None:
    """go-yaml v2 (``resolve.go``): YAML 1.1 booleans and octals, Go's number prefixes, no base 60."""
    cases = {
        "web": "web",
        "010": 8,
        "0o10": 8,
        "0O10": 8,
        "0x1F": 31,
        "0X1F": 31,
        "0b101": 5,
        "0B101": 5,
        "1_000": 1000,
        "08": 8.0,  # not octal: ParseInt fails, yamlStyleFloat reads it
        "+1": 1,
        "-1.5": -1.5,
        ".5": 0.5,
        "-.5": -0.5,
        ".inf": float("inf"),
        "1:30": "1:30",  # base 60 is YAML 1.1 (PyYAML reads 90), go-yaml leaves it a string
        "1e400": "1e400",  # out of float64's range: ParseFloat fails
        "0x": "0x",
        "yes": True,
        "~": None,
    }
    assert {text: resolve_plain(text) for text in cases} == cases


# the builder's written-out paths (scalars, block-mapping entries) and the verification reader


def test_parsed_scalars_know_their_line_column_and_properties() -> None:
    text = "a: 1\nb:\n  - x\n  - 'y'\nc: !!str 3\nd: &k v\ne:\nf: *k\n"
    root = root_of(text)
    seen = {}
    for e in root.entries:
        seen[e.name] = (e.key.line, e.key.src.col if e.key.src else None, e.value.line)
    assert seen["a"] == (1, 0, 1)
    assert seen["c"] == (5, 0, 5)
    assert seen["e"] == (7, 0, 7)  # an empty value stands on its key's line
    c, d, e = root.scalar("c"), root.scalar("d"), root.scalar("e")
    assert c is not None and c.tag == "tag:yaml.org,2002:str" and c.data == "3" and not c.dirty
    assert d is not None and d.anchor == "k" and d.src is not None and d.src.col == 3
    assert (
        e is not None and e.value == "" and e.data is None and e.src is not None and e.src.start == text.index("e:") + 2
    )
    items = root.sequence("b")
    assert items is not None
    assert [(i.value.line, i.value.src.col if i.value.src else -1) for i in items.items] == [(3, 4), (4, 4)]
    assert [getattr(i.value, "style", None) for i in items.items] == [None, "'"]


def test_a_repeated_key_is_reported_at_each_later_line() -> None:
    doc = read_stream("a: 1\nb: 2\na: 3\na: 4\n", wanted=EVERY).documents[0]
    assert [(p.line, p.other_line) for p in doc.duplicates] == [(3, 1), (4, 1), (4, 3)]


def test_to_data_follows_anchored_scalars_inside_collections() -> None:
    root = root_of("a: &x 1\nb: *x\nc: [*x, &y 2, *y]\nd: {<<: {m: 1}, z: 2}\n")
    assert root.to_data() == {"a": 1, "b": 1, "c": [1, 2, 2], "d": {"m": 1, "z": 2}}


def test_read_data_merges_only_a_plain_merge_key() -> None:
    from k8smigrate.yamlio import read_data

    text = "a: &m {x: 1}\nb: {<<: *m, w: 2}\nc: {'<<': *m}\n"
    assert read_data(text) == [{"a": {"x": 1}, "b": {"x": 1, "w": 2}, "c": {"<<": {"x": 1}}}]
    assert read_data(text) == [root_of(text).to_data()]


def test_crd_schema_fields_are_read_as_mapping_entry_finds_them() -> None:
    from k8smigrate.kube.crd_schema import fields_of

    root = root_of("s: &s {type: string}\nnode: {type: object, type: array, items: *s}\n")
    node = root.mapping("node")
    assert node is not None
    fields = fields_of(node)
    assert fields["type"] is node.get("type")  # the first of a repeated key, as Mapping.entry
    assert fields["items"] is root.get("s")  # an alias followed to its anchored node
