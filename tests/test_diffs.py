"""Spec: the unified diff of a file is what ``difflib.unified_diff`` writes (``git apply``
accepts it); a stream of many documents is compared document by document, which gives the
same diff where the documents' markers stay, without difflib's cost over the whole file."""

from __future__ import annotations

import difflib
import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate import diffs
from k8smigrate.diffs import APART_FROM, LARGE, unified_diff

ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: r{i}\nrules: []\n"
ITEM = "- apiVersion: rbac.authorization.k8s.io/v1beta1\n  kind: Role\n  metadata:\n    name: r{i}\n  rules: []\n"


def difflibs(old: str, new: str, name: str = "f.yaml") -> str:
    """What the diff was before documents were compared apart: difflib over the whole file."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=f"a/{name}", tofile=f"b/{name}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def stream(docs: list[str]) -> str:
    return "---\n".join(docs)


# ------------------------------------------------------------------ nothing to show


def test_an_unchanged_file_has_no_diff() -> None:
    text = stream([ROLE.format(i=i) for i in range(APART_FROM + 1)])
    assert unified_diff(text, text, "f.yaml") == ""


# ------------------------------------------------------------------ the diff


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("a\nb\n", "a\nc\n"),
        ("x", "y"),  # no final newline on either side
        ("a\n", "a"),
        ("", "a\n"),
        ("a\n", ""),
        ("a\n---\nb\n", "a\n---\nc"),
        ("--- # first\na: 1\n---\nb: 2\n", "--- # first\na: 2\n---\nb: 3\n"),
        ("\n".join(map(str, range(40))) + "\n", "\n".join(map(str, range(1, 41))) + "\n"),  # two hunks
    ],
)
def test_a_few_documents_get_difflibs_diff(old: str, new: str) -> None:
    assert unified_diff(old, new, "f.yaml") == difflibs(old, new)


def test_the_names_are_quoted_as_git_quotes_them() -> None:
    assert unified_diff("a\n", "b\n", "we\nird.yaml").splitlines()[:2] == [
        '--- "a/we\\nird.yaml"',
        '+++ "b/we\\nird.yaml"',
    ]


@pytest.mark.parametrize("share", [1.0, 0.1, 0.01])
def test_many_documents_compared_apart_give_the_same_diff(share: float) -> None:
    rng = random.Random(7)
    docs = [ROLE.format(i=i) for i in range(APART_FROM + 50)]
    new = [d.replace("v1beta1", "v1") if rng.random() < share else d for d in docs]
    assert unified_diff(stream(docs), stream(new), "f.yaml") == difflibs(stream(docs), stream(new))


def test_a_line_added_at_a_documents_end_stays_in_its_document() -> None:
    # difflib over the whole file may pair the new line with the next marker instead (both
    # apply); apart, each document's lines are compared with its own
    docs = [ROLE.format(i=i) for i in range(APART_FROM + 1)]
    new = [d.replace("v1beta1", "v1") for d in docs]
    new[3] = new[3] + "# added\n"
    diff = unified_diff(stream(docs), stream(new), "f.yaml")
    assert "   name: r3\n rules: []\n+# added\n ---\n" in diff
    assert _patched(stream(docs), diff) == stream(new)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of the first sequence of every comparison difflib is asked for."""
    lengths: list[int] = []
    matcher = difflib.SequenceMatcher

    def counted(junk: object, a: list[str], b: list[str]) -> difflib.SequenceMatcher[str]:
        lengths.append(len(a))
        return matcher(None, a, b)

    monkeypatch.setattr(difflib, "SequenceMatcher", counted)
    return lengths


def test_many_documents_are_compared_apart(seen: list[int]) -> None:
    # each comparison is one document's: difflib never sees the whole file
    docs = [ROLE.format(i=i) for i in range(APART_FROM + 1)]  # as many markers as APART_FROM
    unified_diff(stream(docs), stream([d.replace("v1beta1", "v1") for d in docs]), "f.yaml")
    assert len(seen) == APART_FROM + 1 and max(seen) == 5
    seen.clear()
    unified_diff(stream(docs[:-1]), stream([d.replace("v1beta1", "v1") for d in docs[:-1]]), "f.yaml")
    assert seen == [len(stream(docs[:-1]).splitlines())]  # fewer documents: the whole file, as before


def listed(items: list[str]) -> str:
    return "apiVersion: v1\nkind: List\nitems:\n" + "".join(items)


def test_a_large_list_compared_between_its_unique_lines_gives_the_same_diff(seen: list[int]) -> None:
    # kubectl get -o yaml: one document; its items' names stand once in each file
    rng = random.Random(3)
    items = [ITEM.format(i=i) for i in range(LARGE // 10 + 100)]  # both files: over LARGE lines
    new = [item.replace("v1beta1", "v1") if rng.random() < 0.05 else item for item in items]
    expected = difflibs(listed(items), listed(new))
    seen.clear()  # difflib's own comparison of the whole files, above
    assert unified_diff(listed(items), listed(new), "f.yaml") == expected
    assert len(seen) > len(items) and max(seen) < 10  # piece by piece, never the whole file


def test_a_smaller_file_is_compared_whole() -> None:
    items = [ITEM.format(i=i) for i in range(LARGE // 20)]
    old, new = listed(items), listed([item.replace("v1beta1", "v1") for item in items])
    assert diffs._syncs(old.splitlines(True), new.splitlines(True)) is None
    assert unified_diff(old, new, "f.yaml") == difflibs(old, new)


def test_markers_that_do_not_agree_compare_the_whole_file() -> None:
    docs = [ROLE.format(i=i) for i in range(APART_FROM + 1)]
    new = [*docs[:-2], docs[-2] + docs[-1]]  # a marker gone
    old_text, new_text = stream(docs), stream(new)
    assert len(diffs._opcodes(old_text.splitlines(True), new_text.splitlines(True))) == 1 + 2  # equal, delete, equal
    assert unified_diff(old_text, new_text, "f.yaml") == difflibs(old_text, new_text)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([APART_FROM - 50, APART_FROM + 1]),
    st.lists(st.tuples(st.booleans(), st.sampled_from(["v1", "v2", "x: [1, 2]", "# note", ""])), min_size=1),
)
def test_apart_or_whole_the_diff_rebuilds_the_new_file(count: int, edits: list[tuple[bool, str]]) -> None:
    docs = [ROLE.format(i=i) for i in range(count)]
    new = list(docs)
    for i, (edit, what) in enumerate(edits):
        at = (i * 37) % len(docs)
        if edit:
            new[at] = new[at].replace("rules: []\n", f"rules: []\n{what}\n" if what else "")
    old_text, new_text = stream(docs), stream(new)
    assert _patched(old_text, unified_diff(old_text, new_text, "f.yaml")) == new_text


def _patched(old: str, diff: str) -> str:
    """``old`` with the unified ``diff`` applied (what ``git apply`` and ``patch`` do); both
    texts end with a newline here, so no line says "No newline at end of file"."""
    lines = old.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    for line in diff.splitlines(keepends=True)[2:]:  # after the two headers
        if line.startswith("@@ "):
            old_range = line.split()[1][1:]
            start, _sep, length = old_range.partition(",")
            begin = int(start) - 1 if length != "0" else int(start)
            out += lines[at:begin]
            at = begin
        else:
            if line[0] in "- ":
                assert lines[at].removesuffix("\n") == line[1:].removesuffix("\n")
                at += 1
            if line[0] in "+ ":
                out.append(line[1:])
    out += lines[at:]
    return "".join(out)


@given(st.lists(st.integers(0, 30), max_size=40, unique=True))
def test_the_sync_lines_are_a_longest_run_in_order_in_both(seconds: list[int]) -> None:
    pairs = list(enumerate(seconds))
    run = diffs._increasing(pairs)
    assert all(p in pairs for p in run)
    assert all(x[0] < y[0] and x[1] < y[1] for x, y in pairwise(run))
    longest = [1] * len(seconds)  # the textbook O(n²) answer
    for i in range(len(seconds)):
        for j in range(i):
            if seconds[j] < seconds[i]:
                longest[i] = max(longest[i], longest[j] + 1)
    assert len(run) == max(longest, default=0)
