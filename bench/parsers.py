#!/usr/bin/env python3
"""Could rapidyaml replace libyaml as k8smigrate's parser? Speed and a differential check.

k8smigrate reads YAML with libyaml's events and builds its own tree with a character span for
every node: in C when ``k8smigrate/yamlio/_fastbuild.c`` is installed, else in Python from
ruamel.yaml.clib's ``CParser`` events (``k8smigrate/yamlio/pybuild.py``). This script measures,
on the same inputs, what each stage costs with libyaml (both builders, both data readers) and
with rapidyaml (``pip install rapidyaml``; module ``ryml``), and checks that rapidyaml reads the
same data:

- speed (CPU time, medians of ``--repeat`` runs, MB/s of UTF-8 input):
  libyaml scan in C only (``CParser.raw_parse``), libyaml events delivered to Python, our
  tree with spans (``read_stream(text, wanted=EVERY)``), plain data from libyaml events
  (``read_data``); rapidyaml parse into its C++ tree, parse + a visit of every node reading
  what our tree needs (type, key, value, style, tag, anchor), and parse + conversion to data;
- differential: for every input that libyaml reads, the data of every document from both
  parsers (plain scalars resolved by our own YAML 1.1 rules, ``scalars.resolve_plain``, so
  only the parsers differ) must be equal; each difference is listed with its file.
- marks: whether rapidyaml's Python API reports where nodes are (it is printed, not assumed).

Inputs: the plain manifests of ``../shared/corpus/files`` (no template markers) when present,
and the benchmark's generated realistic repository (``bench/run.py``'s builders, fixed seed).

    python bench/parsers.py                 # corpus + 4000 generated documents
    python bench/parsers.py --docs 20000 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import run as bench  # noqa: E402 - the builders of the benchmark repositories

from k8smigrate.scalars import Data, resolve_plain  # noqa: E402
from k8smigrate.yamlio import EVERY, fastbuild, read_data, read_stream  # noqa: E402
from k8smigrate.yamlio.events import CParser, c_events  # noqa: E402
from k8smigrate.yamlio.pybuild import data_with_events, parse_with_events  # noqa: E402

try:
    import ryml
except ImportError:  # pragma: no cover - an optional comparison
    ryml = None


def corpus_texts() -> list[tuple[str, str]]:
    folder = bench.CORPUS
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.iterdir()):
        if not path.name.endswith((".yaml", ".yml")):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "{{" in text or "{%" in text:
            continue
        out.append((f"corpus/{path.name}", text))
    return out


def generated_texts(docs: int, seed: int) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bench.build_realistic(folder, docs, seed, bench.deprecated_pool())
        return [(f"generated/{p.relative_to(folder)}", p.read_text()) for p in sorted(folder.rglob("*.yaml"))]


def libyaml_reads(text: str) -> bool:
    try:
        read_data(text)
    except Exception:
        return False
    return True


# ------------------------------------------------------------------ rapidyaml → data


def ryml_documents(tree: Any) -> list[int]:
    root = tree.root_id()
    if tree.is_stream(root):
        return [tree.child(root, i) for i in range(tree.num_children(root))]
    return [root]


def _text(mv: Any) -> str:
    return "" if mv is None else bytes(mv).decode("utf-8")


def ryml_data(text: str) -> list[Data]:
    """Every document's data as rapidyaml reads it, scalars resolved as ``read_data`` resolves them."""
    assert ryml is not None
    tree = ryml.parse_in_arena(text.encode("utf-8"))
    anchors: dict[str, Data] = {}

    def scalar(node: int, key: bool) -> Data:
        if tree.is_key_ref(node) if key else tree.is_val_ref(node):
            name = _text(tree.key_ref(node) if key else tree.val_ref(node)).lstrip("*")
            if name not in anchors:
                raise ValueError(f"unknown alias *{name}")
            return anchors[name]
        value = _text(tree.key(node) if key else tree.val(node))
        quoted = tree.is_key_quoted(node) if key else tree.is_val_quoted(node)
        styled = (
            (tree.is_key_literal(node) or tree.is_key_folded(node))
            if key
            else (tree.is_val_literal(node) or tree.is_val_folded(node))
        )
        has_tag = tree.has_key_tag(node) if key else tree.has_val_tag(node)
        tag = _text(tree.key_tag(node) if key else tree.val_tag(node)) if has_tag else None
        if quoted or styled or (tag is not None and tag.endswith("str")):
            out: Data = value
        else:
            null = tree.key_is_null(node) if key else tree.val_is_null(node)
            out = None if null and not value else resolve_plain(value)
            if tag is not None and tag.endswith("int") and not isinstance(out, int):
                out = value
        has_anchor = tree.has_key_anchor(node) if key else tree.has_val_anchor(node)
        if has_anchor:
            anchors[_text(tree.key_anchor(node) if key else tree.val_anchor(node))] = out
        return out

    def value(node: int) -> Data:
        if tree.is_map(node) or tree.is_seq(node):
            if tree.is_val_ref(node):
                return scalar(node, key=False)
            container: Any = {} if tree.is_map(node) else []
            if tree.has_val_anchor(node):
                anchors[_text(tree.val_anchor(node))] = container
            merges: list[dict[str, Data]] = []
            child = tree.first_child(node)
            while child != ryml.NONE:
                item = value(child)
                if isinstance(container, list):
                    container.append(item)
                else:
                    key = scalar(child, key=True)
                    if key == "<<" and not tree.is_key_quoted(child):
                        merges += [m for m in (item if isinstance(item, list) else [item]) if isinstance(m, dict)]
                    else:
                        container[_key_string(key)] = item
                child = tree.next_sibling(child)
            for merged in merges:
                for k, v in merged.items():
                    container.setdefault(k, v)
            return container
        return scalar(node, key=False)

    docs: list[Data] = []
    for doc in ryml_documents(tree):
        anchors = {}
        if not (tree.is_map(doc) or tree.is_seq(doc) or tree.has_val(doc)):
            docs.append(None)  # an empty document
            continue
        docs.append(value(doc))
    return docs


def _key_string(key: Data) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return "null" if key is None else str(key)


def ryml_visit(text: str) -> int:
    """Parse and read, per node, what our tree needs (no spans: the API has none); nodes visited."""
    assert ryml is not None
    tree = ryml.parse_in_arena(text.encode("utf-8"))
    count = 0
    stack = [tree.root_id()]
    while stack:
        node = stack.pop()
        count += 1
        tree.type(node)
        if tree.has_key(node):
            tree.key(node)
            tree.is_key_quoted(node)
        if tree.has_val(node):
            tree.val(node)
            tree.is_val_quoted(node)
        if tree.has_val_tag(node):
            tree.val_tag(node)
        if tree.has_val_anchor(node):
            tree.val_anchor(node)
        child = tree.first_child(node)
        while child != ryml.NONE:
            stack.append(child)
            child = tree.next_sibling(child)
    return count


# ------------------------------------------------------------------ differential


def first_difference(a: Data, b: Data, path: str = "") -> str:
    if type(a) is not type(b):
        return f"{path or '/'}: {a!r} (libyaml) vs {b!r} (rapidyaml)"
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}/{k}: only in {'libyaml' if k in a else 'rapidyaml'}"
            found = first_difference(a[k], b[k], f"{path}/{k}")
            if found:
                return found
        return ""
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path or '/'}: {len(a)} items (libyaml) vs {len(b)} (rapidyaml)"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}/{i}")
            if found:
                return found
        return ""
    return "" if a == b else f"{path or '/'}: {a!r} (libyaml) vs {b!r} (rapidyaml)"


def differential(texts: list[tuple[str, str]]) -> tuple[int, list[str]]:
    """(files compared, differences) over the inputs libyaml reads."""
    problems: list[str] = []
    compared = 0
    for name, text in texts:
        if not libyaml_reads(text):
            continue
        compared += 1
        theirs: list[Data] | None
        try:
            theirs = ryml_data(text)
        except Exception as exc:
            problems.append(f"{name}: rapidyaml fails: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
            continue
        ours = read_data(text)
        if len(ours) != len(theirs):
            problems.append(f"{name}: {len(ours)} documents (libyaml) vs {len(theirs)} (rapidyaml)")
            continue
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            found = first_difference(a, b)
            if found:
                problems.append(f"{name} document {i}: {found[:200]}")
                break
    return compared, problems


# ------------------------------------------------------------------ speed


def median_seconds(work: Callable[[], object], repeat: int) -> float:
    """Median CPU seconds of ``work`` (single-threaded: on a busy machine wall time says little)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        work()
        times.append(time.process_time() - t)
    return statistics.median(times)


def stages(texts: list[str]) -> Iterator[tuple[str, Callable[[], object]]]:
    def each(fn: Callable[[str], object]) -> Callable[[], object]:
        def run() -> None:
            for t in texts:
                fn(t)  # not kept: a heap of live trees would make the cyclic GC the figure

        return run

    def raw(text: str) -> None:
        assert CParser is not None
        parser = CParser(text)
        try:
            parser.raw_parse()
        finally:
            parser.dispose()

    yield "libyaml scan only (C, raw_parse)", each(raw)
    yield "libyaml events into Python", each(lambda t: sum(1 for _ in c_events(t)))
    yield "data, Python reader (pybuild.py)", each(lambda t: data_with_events(t, True))
    if fastbuild.ACTIVE:
        yield "data, C reader (fastbuild)", each(fastbuild.read_data)
    yield "tree with spans, Python builder", each(lambda t: list(parse_with_events(t, 0, 0, True, None)))
    if fastbuild.ACTIVE:
        yield "tree with spans, C builder", each(lambda t: fastbuild.build(t, 0, len(t)))
    yield "read_stream (cut, classify, build)", each(lambda t: read_stream(t, wanted=EVERY))
    if ryml is not None:
        yield "rapidyaml parse only (C++)", each(lambda t: ryml.parse_in_arena(t.encode("utf-8")))
        yield "rapidyaml parse + visit nodes", each(ryml_visit)
        yield "rapidyaml data (convert)", each(ryml_data)


def speed(label: str, named: list[tuple[str, str]], repeat: int) -> None:
    texts = [t for name, t in named if libyaml_reads(t)]
    size = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    print(f"\n{label}: {len(texts)} files, {size:.2f} MB (CPU time, medians of {repeat})")
    for name, work in stages(texts):
        seconds = median_seconds(work, repeat)
        print(f"  {name:36} {seconds * 1000:8.1f} ms  {size / seconds:7.1f} MB/s")


def marks() -> None:
    """What rapidyaml's Python API says about where a node is."""
    assert ryml is not None
    tree = ryml.parse_in_arena(b"a: 1\nb: [x, y]\n")
    wanted = ("location", "location_of", "get_location", "node_location", "lookup_location")
    found = [n for n in wanted if hasattr(tree, n) or hasattr(ryml, n)]
    print(
        f"\nrapidyaml {ryml.version} marks: "
        + (f"has {', '.join(found)}" if found else "no node locations in the Python API")
        + f"; comments: {'yes' if hasattr(tree, 'comment') else 'not kept'}"
        + "; scalars are byte views of its own arena copy (filtered in place: escapes, folding),"
        " so a span's end cannot be read back; collections have no span"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=4000, help="documents of the generated repository")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if ryml is None:
        print("rapidyaml is not installed (pip install rapidyaml): only libyaml is measured", file=sys.stderr)
    corpus = corpus_texts()
    generated = generated_texts(args.docs, args.seed)
    if corpus:
        speed("corpus files", corpus, args.repeat)
    speed("generated realistic repository", generated, args.repeat)
    if ryml is None:
        return 0
    marks()
    for label, named in (("corpus", corpus), ("generated", generated)):
        if not named:
            continue
        compared, problems = differential(named)
        print(f"\ndifferential on {label}: {compared} files libyaml reads, {len(problems)} differ")
        for line in problems[:40]:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
