"""Spec: render and verify: the spliced text must read back as the edited tree, or it is refused."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate.render import detect_style
from k8smigrate.tree import Mapping
from k8smigrate.verify import comments, dropped_comments, read_back
from k8smigrate.yamlio import EVERY, read_stream


def tree(text: str) -> Mapping:
    root = read_stream(text, wanted=EVERY).documents[0].root
    assert isinstance(root, Mapping)
    return root


def test_the_text_of_the_tree_reads_back() -> None:
    assert read_back(tree("a: 1\n"), "a: 1\n") == ({"a": 1}, "")


def test_a_text_that_says_something_else_is_refused() -> None:
    assert read_back(tree("a: 1\n"), "a: 2\n") == (None, "the edited document does not read back as intended")


def test_two_documents_are_refused() -> None:
    assert read_back(tree("a: 1\n"), "a: 1\n---\nb: 2\n")[1] == "the edited document does not read back as one document"


def test_a_text_that_does_not_parse_is_refused() -> None:
    data, problem = read_back(tree("a: 1\n"), "a: [1\n")
    assert data is None and problem.startswith("the edited document does not parse:")


def test_each_dropped_copy_of_a_comment_is_named_once_with_its_line() -> None:
    old = "a: 1  # keep\nb: 2  # gone\n# gone\n"
    assert dropped_comments(old, "a: 1  # keep\n") == [("# gone", 1), ("# gone", 2)]
    assert dropped_comments(old, "a: 1  # keep\n# gone\n") == [("# gone", 1)]  # which copy went: the first
    assert dropped_comments("a: 1\n", "") == []


def test_a_document_written_with_crlf_gets_new_lines_with_crlf() -> None:
    text = "a: 1\r\nb:\r\n  c: 2\r\n"
    assert detect_style(text, tree(text)).newline == "\r\n"
    assert detect_style("a: 1\nb: 2\r\n", tree("a: 1\nb: 2\r\n")).newline == "\r\n"
    assert detect_style("a: 1\n", tree("a: 1\n")).newline == "\n"


_LINE = st.text(alphabet=st.sampled_from(list(" \t#:'\"ab-")), max_size=12)


@settings(max_examples=500, deadline=None)
@given(st.lists(_LINE, max_size=8), st.lists(_LINE, max_size=8), st.integers(min_value=0, max_value=4))
def test_a_comment_is_found_dropped_exactly_when_comments_say_so(old: list[str], added: list[str], shift: int) -> None:
    """The look that answers most edits at once (every line with a # kept) never hides a drop."""
    old_text = "\n".join(old) + "\n"
    new_text = "\n".join([" " * shift + line for line in old[::2]] + added) + "\n"
    assert bool(dropped_comments(old_text, new_text)) == bool(comments(old_text) - comments(new_text))
