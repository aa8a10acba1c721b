"""The C tree builder builds exactly the tree pybuild.py builds, or leaves the document to it;
its data reader reads exactly what readback.py reads, or leaves the text to it.

Equal means every attribute of every object (nodes, sources, entries, items), in the order it
was set, with ``parent_id`` compared as the node it names. The C builder is an optimisation:
an answer that differs in any of these is a defect, and None is always allowed.

Both read with ruamel.yaml.clib's libyaml (the C module finds it at run time), so what one
rejects the other rejects too.

Where the extension is not built (no C compiler at install time) these tests skip, except
under ``K8SMIGRATE_REQUIRE_FASTBUILD=1`` (``.ci/run`` sets it), where that is a failure.
"""

from __future__ import annotations

import contextlib
import gc
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from k8smigrate.tree import Alias, Entry, EntrySource, Item, Mapping, Node, Sequence, Source, nodes
from k8smigrate.yamlio import fastbuild, read_stream
from k8smigrate.yamlio.build import parse_documents
from k8smigrate.yamlio.documents import Document
from k8smigrate.yamlio.events import PARSE_ERRORS, libyaml_accepts
from k8smigrate.yamlio.pybuild import data_with_events, parse_with_events
from k8smigrate.yamlio.readback import read_data
from k8smigrate.yamlio.stream import _pieces

from .strategies import join, streams

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    not fastbuild.ACTIVE and os.environ.get("K8SMIGRATE_REQUIRE_FASTBUILD") != "1",
    reason="the C tree builder is not built here (no C compiler at install time)",
)


def test_it_is_built_where_ci_requires_it() -> None:
    assert fastbuild.ACTIVE, "K8SMIGRATE_REQUIRE_FASTBUILD=1 but k8smigrate._fastbuild is not in use"


def snapshot(root: Node | None) -> Any:
    """Everything the tree holds, with object identities as positions in a walk."""
    if root is None:
        return None
    order: dict[int, int] = {}
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if id(node) in order:
            continue
        order[id(node)] = len(order)
        if isinstance(node, Mapping):
            stack += [v for e in node.entries for v in (e.key, e.value)]
        elif isinstance(node, Sequence):
            stack += [i.value for i in node.items]

    def dump(obj: Any) -> Any:
        if obj is None or isinstance(obj, (str, int, bool)):
            return obj
        if isinstance(obj, list):
            return [dump(x) for x in obj]
        if not isinstance(obj, (Node, Entry, Item, Source, EntrySource)):
            raise AssertionError(f"unexpected object in a tree: {obj!r}")
        fields = []
        for name, value in _attributes(obj):
            if isinstance(obj, EntrySource) and name == "parent_id":
                value = ("node", order.get(value))
            elif isinstance(obj, Alias) and name == "target":
                value = None if value is None else ("node", order.get(id(value)))
            elif isinstance(obj, Mapping) and name == "first":
                value = None if value is None else ("entry", obj.entries.index(value))
            else:
                value = dump(value)
            fields.append((name, value))
        return (type(obj).__name__, fields)

    return dump(root)


_UNSET = "<unset>"


def _attributes(obj: Any) -> list[tuple[str, Any]]:
    """Every slot of ``obj`` (the tree's classes have ``__slots__``), base classes first; a slot
    never filled reads as ``<unset>``, so a field one builder forgets shows up in the diff."""
    names = [name for cls in reversed(type(obj).__mro__) for name in cls.__dict__.get("__slots__", ())]
    assert names and not hasattr(obj, "__dict__"), f"{type(obj).__name__} has no slots or has a __dict__"
    return [(name, getattr(obj, name, _UNSET)) for name in names]


def both(text: str, start: int, end: int) -> tuple[Any, Any] | None:
    """(C, Python) readings of one piece as rows of document fields, or None when the C builder
    declines it. Both read with ruamel.yaml.clib's libyaml: where the Python builder's parser
    rejects a piece, the C builder declines it and ``parse_documents`` rejects it too."""
    try:
        pure_docs = list(parse_with_events(text, start, 0, True, end))
    except PARSE_ERRORS as exc:
        with pytest.raises(PARSE_ERRORS):
            list(parse_documents(text, start, 0, fast=True, end=end))
        assert fastbuild.build(text, start, end) is None, f"C built a piece the Python builder rejects: {exc}"
        return None
    built = fastbuild.build(text, start, end)
    if built is None:
        return None
    fast = [_row(d) for d in fastbuild.built_documents(built, 0)]
    return fast, [_row(d) for d in pure_docs]


def _row(d: Document) -> tuple[Any, ...]:
    return (d.start, d.end, d.line, d.shares, d.problem, d.duplicates, snapshot(d.root))


def check_data(text: str) -> bool:
    """Both data readers on a text; whether C read it. Types count: 1, 1.0 and True are not equal
    here. What readback.py's own reader rejects, ``read_data`` rejects too (and the C reader
    declines it)."""
    try:
        pure = data_with_events(text, True)
    except Exception as exc:
        with pytest.raises(Exception) as raised:
            read_data(text)
        assert type(raised.value) is type(exc) or isinstance(raised.value, ValueError)
        assert fastbuild.read_data(text) is None
        return False
    fast = fastbuild.read_data(text)
    if fast is None:
        return False
    assert repr(fast) == repr(pure)
    with contextlib.suppress(RecursionError):  # data that holds itself (an alias in its anchor): repr compared it
        assert fast == pure
    return True


def check_stream(text: str) -> int:
    """Both builders on every piece of a stream (cut as the fast path cuts it, whether or not
    the whole stream parses) and on the whole stream, and both data readers on the whole
    stream; the number of pieces C built."""
    check_data(text)
    built = 0
    for start, end, _content in _pieces(text):
        read = both(text, start, end)
        if read is not None:
            assert read[0] == read[1], f"the C builder differs at {start}:{end}"
            built += 1
    read = both(text, 0, len(text))
    if read is not None:
        assert read[0] == read[1]
    return built


# ------------------------------------------------------------------ no-op: what it leaves alone


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",  # duplicate keys: pybuild.py words the problem
        "[a]: 1\n",  # complex key
        "a: [\n",  # not YAML
        "- " * 600 + "x\n",  # deeper than the tree holds
    ],
)
def test_declines_what_build_py_reports(text: str) -> None:
    assert fastbuild.build(text, 0, len(text)) is None


@pytest.mark.parametrize("text", ["a: *nowhere\n", "[a]: 1\n", "a: [\n"])
def test_data_reader_declines_what_readback_py_rejects(text: str) -> None:
    assert fastbuild.read_data(text) is None
    with pytest.raises(ValueError):
        read_data(text)


def test_builds_nothing_it_is_not_sure_of_but_read_stream_still_reads_it() -> None:
    text = "a: 1\na: 2\n"
    doc = read_stream(text, wanted=lambda _piece: True).documents[0]
    assert doc.duplicates and doc.duplicates[0].message == "duplicate key 'a'"


# ------------------------------------------------------------------ the same tree


@pytest.mark.parametrize(
    "text",
    [
        "apiVersion: v1\nkind: ConfigMap\n",
        "# head\n---\na: 1  # eol\n# above b\nb:\n  # lead\n  c: [1, 2]\n  d: {x: 1, y}\n",
        "l:\n- a\n-\n- - b\n  - c\n- k: v\n  # c\n  m: |\n    text\n\n    more\n\n- >-\n  folded\nz: ''\n",
        "a: &x {p: 1}\nb: *x\n<<: *x\nc: !!str 1\nd: ! e\n",
        "a:\nb: ~\n---\n...\n---\n- x\n",
        'name: caf\u00e9 \u2014 \U0001f600\nkey: "\u00fcber"\n# \u00e9t\u00e9\nz: 1\n',
        "a: 1\r\nb:\r\n  - c  # d\r\n",
        "a: *nowhere\n",  # an alias to no anchor: the parser lets it through
        "? a\n: 1\nm:\n  ? b\n  : 2\n",  # explicit keys
        "l:\n- ? k\n  : v\n  j: 3\n",
        "base: &b {x: 1, y: 2}\nm:\n  <<: [*b, {z: 3}]\n  x: 9\n'<<': q\nk: !!str <<\n",
        "i: !!int 0x1F\nj: !!int x\nf: 1.5e3\nb: yes\nn: ~\nt: 2001-12-14\no: 0o17\ns: !!str 1\n",
        "true: 1\nnull: 2\n1: 3\n1.0: 4\n",
        "&a\n\u00e9: *a\r\n",  # data that holds itself
        "{!,~\n\tb}\n",  # tags with a flow indicator: libyaml 0.2 ends them there, ruamel's reads on
        "a: !x[y] z\n",
        # columns on long lines (found from the newline table, not by scanning back)
        '{"a": {"b": [1, {"c": "d"}], "e": "' + "x" * 5000 + '"}, "f": [' + ", ".join(map(str, range(500))) + "]}\n",
        "k: v\nm: {" + ", ".join(f"k{i}: [v{i}, {{w: {i}}}]" for i in range(300)) + "}\nn:\n  - {a: 1}\n",
        "- " + "x" * 3000 + "\n- {a: [1, 2]}\n\r\n- b: c\n  d: e\n",
    ],
)
def test_same_tree_as_build_py(text: str) -> None:
    assert check_stream(text) >= 1


@pytest.mark.parametrize("text", ["{1:1}\n", "a: {b:c}\n", "[a?b]\n"])
def test_what_ruamels_libyaml_rejects_stays_rejected(text: str) -> None:
    # libyaml 0.2.5 reads these; ruamel.yaml.clib's does not, and the C module reads with that one
    assert not libyaml_accepts(text)
    assert not fastbuild.accepts(text)
    assert fastbuild.build(text, 0, len(text)) is None
    assert fastbuild.read_data(text) is None
    with pytest.raises(PARSE_ERRORS):
        list(parse_documents(text, 0, 0, fast=True))
    with pytest.raises(ValueError):
        read_data(text)


def test_it_reads_with_ruamels_own_libyaml() -> None:
    import _ruamel_yaml  # type: ignore[import-not-found]

    assert _ruamel_yaml.get_version_string() == fastbuild.LIBYAML_VERSION


@pytest.mark.parametrize("path", ["/nonexistent/libyaml.so", "libc.so.6"])
def test_binds_to_no_library_that_is_not_a_libyaml(path: str) -> None:
    from k8smigrate import _fastbuild

    assert _fastbuild.bind(path) is None
    assert fastbuild.accepts("a: 1\n") and not fastbuild.accepts("a: [\n")  # still bound to ruamel's


def test_parse_documents_uses_it_for_libyaml_readings() -> None:
    text = "a: 1\n"
    (doc,) = parse_documents(text, 0, 3, fast=True)
    assert doc.index == 3 and snapshot(doc.root) == snapshot(next(parse_with_events(text, 0, 3, True, None)).root)


def test_same_trees_on_the_corpus(corpus: Path) -> None:
    built = 0
    for path in sorted(corpus.iterdir()):
        if path.suffix in (".yaml", ".yml", ".json"):
            built += check_stream(path.read_text(encoding="utf-8", errors="replace"))
    assert built > 100


def test_same_trees_on_the_bundled_examples() -> None:
    built = 0
    for path in sorted((ROOT / "examples").rglob("*.yaml")) + sorted((ROOT / "tests" / "golden").rglob("*.yaml")):
        built += check_stream(path.read_text(encoding="utf-8", errors="replace"))
    assert built > 10


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streams())
def test_same_trees_on_generated_streams(docs: list[str]) -> None:
    check_stream(join(docs))


_YAMLISH = st.text(alphabet=st.sampled_from(list("ab:- #\n'\"{}[],|>&*!?.~é\t1")), max_size=60)


@settings(max_examples=1500, deadline=None)
@given(_YAMLISH)
def test_same_trees_or_none_on_yaml_like_noise(text: str) -> None:
    check_stream(text)


# ------------------------------------------------------------------ holds_any: the triggers' one pass

_NEEDLE_TEXT = st.text(alphabet=st.sampled_from(list("abc-:. \n\"'é\u0101\U0001f600")), max_size=40)


@settings(max_examples=600, deadline=None)
@given(_NEEDLE_TEXT, st.lists(_NEEDLE_TEXT.filter(lambda s: len(s) <= 6), max_size=8))
def test_holds_any_is_any_substring(text: str, needles: list[str]) -> None:
    assert fastbuild.holds_any(text, fastbuild.needle_set(tuple(needles))) == any(n in text for n in needles)


@pytest.mark.parametrize(
    ("text", "needles", "found"),
    [
        ("", (), False),
        ("abc", (), False),
        ("abc", ("",), True),  # the empty string is in every text
        ("abcd", ("bcd",), True),
        ("abcd", ("bce", "cd"), True),  # a needle shorter than three characters
        ("xxabd", ("abc", "abd"), True),  # two needles that start alike
        ("ab", ("abc",), False),  # a needle longer than the text
        ("abc\u00e9d", ("\u00e9d",), True),  # a one-byte text beyond ASCII
        ("a\u0101bc", ("bc",), True),  # a two-byte text
        ("abc", ("\u0101bc",), False),
        ("\u0101 abcd", ("bcd",), True),  # a two-byte text: searched needle by needle
        ("\U0001f600abcd", ("bcd", "xyz"), True),  # a four-byte text
        ("\u0101abXd", ("abc",), False),
        ("a\u0101c", ("a\u0101c",), True),  # a wide needle
        ("\u0162bc", ("bbc",), False),  # U+0162's low byte is "b": code points are compared, not bytes
    ],
)
def test_holds_any_cases(text: str, needles: tuple[str, ...], found: bool) -> None:
    assert fastbuild.holds_any(text, fastbuild.needle_set(needles)) is found


@settings(max_examples=600, deadline=None)
@given(_NEEDLE_TEXT, st.lists(_NEEDLE_TEXT.filter(lambda s: len(s) <= 6), max_size=8, unique=True))
def test_holds_which_is_every_substring_in_the_sets_order(text: str, needles: list[str]) -> None:
    ready = fastbuild.needle_set(tuple(needles))
    assert fastbuild.holds_which(text, ready) == [n for n in needles if n in text]
    assert fastbuild._holds_which(text, tuple(needles)) == [n for n in needles if n in text]  # without the C module


def test_holds_which_reads_a_wide_text_to_its_end() -> None:
    text = "\u2014 a CRD: dns01 solvers, then the ClusterRole, then coredns\n"
    ready = fastbuild.needle_set(("ClusterRole", "ClusterRoleBinding", "Pod", "coredns", "dns", "ip_local_port_range"))
    assert fastbuild.holds_which(text, ready) == ["ClusterRole", "coredns", "dns"]


def test_a_needle_set_outlives_the_tuple_it_was_made_from() -> None:
    ready = fastbuild.needle_set(tuple(["".join(("tri", "gger"))]))  # the only reference to the tuple
    gc.collect()
    assert fastbuild.holds_any("a trigger", ready) and not fastbuild.holds_any("a trig", ready)


# ------------------------------------------------------------------ a tree's data and pristine()


def _roots(text: str) -> list[Node]:
    try:
        stream = read_stream(text)
    except Exception:  # what the corpus cannot read has no tree to compare
        return []
    return [d.root for d in stream.documents if d.root is not None]


def _same_data(root: Node) -> bool:
    """``tree_data`` gives ``to_data``'s answer, types included (``1``, ``1.0`` and ``True`` are equal)."""
    try:
        want = root.to_data()
    except Exception:  # the C walk declines what to_data refuses
        assert fastbuild._tree_data(root, 1_000_000) is None
        return False
    found = fastbuild._tree_data(root, 1_000_000)
    assert fastbuild.tree_data(root) == want
    if found is None:
        return False
    assert repr(found[0]) == repr(want)
    return True


def test_tree_data_is_to_data_on_the_corpus(corpus: Path) -> None:
    answered = 0
    for path in sorted(corpus.iterdir()):
        if path.suffix in (".yaml", ".yml", ".json"):
            answered += sum(map(_same_data, _roots(path.read_text(encoding="utf-8", errors="replace"))))
    assert answered > 100


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb: 1.5\nc: yes\nd: ~\ne: '1'\nf: !!str 2\ng: !!int x\nh: !!int 010\ni: [.inf, 0x1F, 1_000]\n",
        "true: a\nnull: b\n1.5: c\n0o10: d\n'x': e\n",  # keys as to_data writes them
        "a: &x {b: 1}\nc: 2\n",  # an anchor no alias asks for
        "- a\n- [b, {c: ''}]\n",
    ],
)
def test_tree_data_answers_like_to_data(text: str) -> None:
    roots = _roots(text)
    assert roots and all(map(_same_data, roots))


@pytest.mark.parametrize(
    "text",
    [
        "a: &x {b: 1}\nc: *x\n",  # an alias
        "base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n",  # a merge key
        "a: " + "[" * 210 + "]" * 210 + "\n",  # nested deeper than the C walk goes
    ],
)
def test_tree_data_leaves_aliases_merges_and_deep_nesting_to_to_data(text: str) -> None:
    (root,) = [d.root for d in parse_documents(text, 0, 0, fast=False) if d.root is not None]
    assert fastbuild._tree_data(root, 1_000_000) is None
    assert fastbuild.tree_data(root) == root.to_data()


def test_tree_data_declines_more_nodes_than_its_budget() -> None:
    root = _roots("a: [1, 2, 3]\n")[0]
    assert fastbuild._tree_data(root, 5) == [{"a": [1, 2, 3]}]
    assert fastbuild._tree_data(root, 4) is None  # to_data refuses a tree past its budget itself


def test_tree_data_of_edited_scalars_is_their_new_data() -> None:
    root = _roots("a: x\nb: 'y'\nnum: 1\n")[0]
    assert isinstance(root, Mapping)
    root.set("a", 5)
    root.set("c", "new")
    scalar = root.get("num")
    assert scalar is not None and isinstance(scalar, type(root.get("a")))
    assert _same_data(root) and fastbuild.tree_data(root) == {"a": 5, "b": "y", "num": 1, "c": "new"}


def test_tree_pristine_is_pristine_as_a_tree_is_edited(corpus: Path) -> None:
    import random

    rng = random.Random(7)
    compared = 0
    for path in sorted(corpus.iterdir())[::7]:
        for root in _roots(path.read_text(encoding="utf-8", errors="replace")) if path.suffix == ".yaml" else []:
            every = list(nodes(root))
            for _ in range(3):
                for node in every:
                    assert fastbuild._tree_pristine(node) is node.pristine()
                    compared += 1
                touched = rng.choice(every)
                if isinstance(touched, Mapping) and touched.entries and rng.random() < 0.5:
                    rng.choice(touched.entries).renamed = True
                else:
                    touched.dirty = True
    assert compared > 1000


def test_tree_pristine_leaves_other_classes_to_pristine() -> None:
    class Odd(Mapping):
        __slots__ = ("extra",)

        def __init__(self) -> None:
            super().__init__()
            self.dirty = 1  # type: ignore[assignment] # truthy, not a bool: declined

    assert fastbuild._tree_pristine(Odd()) is None
    assert fastbuild.pristine(Odd()) is False


def test_style_tallies_are_render_tallies_of_every_rendered_tree(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the trees the renderer gets (edited: moved, new and flow-turned-block nodes), for the
    sample ``detect_style`` takes and for a few nodes and every node."""
    import k8smigrate
    from k8smigrate import render

    compared: list[int] = []

    def both(text: str, root: Node, sample: int) -> Any:
        for n in (sample, 3, 10**6):
            found = fastbuild.style_tallies(text, root, n)
            assert found is not None
            assert [list(t.items()) for t in found] == [list(t.items()) for t in render.tallies(text, root, n)]
        compared.append(1)
        return fastbuild.style_tallies(text, root, sample)

    monkeypatch.setattr(render, "style_tallies", both)
    for path in sorted(corpus.iterdir())[::3]:
        if path.suffix in (".yaml", ".yml", ".json"):
            k8smigrate.migrate_text(path.read_text(encoding="utf-8", errors="replace"), target_version="1.29")
    assert len(compared) > 30


def test_entries_written_in_c_are_the_renderers(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``original_entry`` writes an entry kept as parsed as ``Renderer._original_entry`` does:
    the corpus migrates to the same text with it and without it."""
    import k8smigrate
    from k8smigrate import render

    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(corpus.iterdir()) if p.suffix == ".yaml"]
    written: list[int] = []

    def counted(*args: Any) -> str | None:
        chunk = fastbuild.original_entry(*args)
        written.append(chunk is not None)
        return chunk

    monkeypatch.setattr(render, "original_entry", counted)
    with_c = [k8smigrate.migrate_text(text, target_version="1.29").text for text in texts]
    monkeypatch.setattr(render, "original_entry", lambda *args: None)
    assert [k8smigrate.migrate_text(text, target_version="1.29").text for text in texts] == with_c
    assert sum(written) > 1000 and not all(written)  # most entries, not every one


_MOVED = """apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: ws.example.com}
spec:
  group: example.com
  names: {kind: W, plural: ws}
  version: v1
  validation:
    openAPIV3Schema:
{schema}
"""


@pytest.mark.parametrize(
    "schema",
    [
        "      # above the first key\n      type: object\n      properties:\n        a: {type: string}\n",
        "      type: object\n\n      # between keys, after a blank line\n      properties:\n        a:\n          type: string\n",
        "      type: object\n      # right above a key\n      properties:\n        a: {type: string}\n",
        "      type: object\n      description: |\n        two lines\n        of text\n\n\n      properties: {}\n",
        "      type: object\n      properties:\n        ? a\n        : {type: string}\n        b: &x {type: integer}\n",
        "      type: object\n      required:\n      - a\n      - b\n      properties:\n        a: {type: string}  # eol\n",
        "      type: object\r\n      properties:\r\n        a:\r\n          type: string\r\n",
        "      type: object\n      x-kubernetes-preserve-unknown-fields: true\n      properties:\n        a: {type: string}\n",
        "      type: object\n      properties:\n        m:\n          # the first key's comment\n          type: object\n",
    ],
    ids=["lead", "gap", "above", "block-scalar", "explicit-anchor", "seq-eol", "crlf", "preserved", "carried"],
)
def test_entries_written_in_c_in_a_moved_schema(schema: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import k8smigrate
    from k8smigrate import render

    text = _MOVED.replace("{schema}", schema.rstrip("\n"))
    if "\r\n" in schema:
        text = text.replace("\n", "\r\n").replace("\r\r\n", "\r\n")
    written: list[str | None] = []

    def counted(*args: Any) -> str | None:
        written.append(fastbuild.original_entry(*args))
        return written[-1]

    monkeypatch.setattr(render, "original_entry", counted)
    with_c = k8smigrate.migrate_text(text, target_version="1.29")
    monkeypatch.setattr(render, "original_entry", lambda *args: None)
    without = k8smigrate.migrate_text(text, target_version="1.29")
    assert [f.code for f in with_c.findings if f.level == "error"] == []
    assert with_c.text == without.text != text
    assert any(chunk is not None for chunk in written)
