"""Spec: deep flow nesting is refused while the stream is cut, before any parser sees it (issue 14 item 16).

libyaml and ruamel's own parser both take time quadratic in the depth of flow collections
(``x: `` and 180,000 ``[`` took minutes). The stream reader counts brackets in one linear
pass (``k8smigrate/yamlio/stream.py``); a document deeper than the tree holds is refused with
K8SM-GEN-011 and left as it is, and the other documents are read as usual. What it costs
is measured by ``bench/broken.py``, never asserted here.
"""

from __future__ import annotations

import pytest

from k8smigrate.yamlio import EVERY, read_stream
from k8smigrate.yamlio import events as events_module
from tests.helpers import check_noop, codes, run

INGRESS = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}\nspec:\n  backend: {serviceName: web, servicePort: 80}\n"


# ------------------------------------------------------------------ no-op cases


def test_brackets_in_quoted_scalars_and_comments_do_not_count() -> None:
    text = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"
        f"data:\n  a: \"{'[' * 600}\"\n  b: '{'{' * 600}'\n  # {'[' * 600}\n"
    )
    result = check_noop(text)
    assert codes(result) == []


def test_deep_but_legal_nesting_is_read() -> None:
    check_noop("x: " + "[" * 400 + "]" * 400 + "\n")


def test_a_migrated_document_nested_near_the_limit_gets_a_patch_of_the_whole_document() -> None:
    # jsonpatch recurses twice per level: the diff of a document the reader accepts must not crash
    deep = "  x: " + "{a: " * 490 + "1" + "}" * 490 + "\n"
    result = run(INGRESS + deep)
    assert "networking.k8s.io/v1" in result.text
    [document] = result.documents
    assert [(op["op"], op["path"]) for op in document.patch] == [("replace", "")]
    assert document.patch[0]["value"]["apiVersion"] == "networking.k8s.io/v1"


# ------------------------------------------------------------------ refused


@pytest.mark.parametrize(
    "hostile",
    [
        pytest.param("x: " + "[" * 180_000 + "\n", id="180k-open-brackets"),
        pytest.param("x: " + "{a: " * 2_500 + "\n", id="open-flow-mappings"),
        pytest.param("x: " + "[" * 600 + "]" * 600 + "\n", id="closed-but-too-deep"),
    ],
)
def test_hostile_flow_nesting_is_refused_without_parsing_it(hostile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    real = events_module.events

    def spy(source: str, libyaml: bool = False):  # type: ignore[no-untyped-def]
        seen.append(len(source))
        return real(source, libyaml=libyaml)

    monkeypatch.setattr("k8smigrate.yamlio.pybuild.events", spy)
    stream = read_stream(INGRESS + "---\n" + hostile, wanted=EVERY)
    assert [d.problem.code if d.problem else None for d in stream.documents] == [None, "K8SM-GEN-011"]
    assert all(size < len(hostile) for size in seen), "the hostile document went to a parser"


def test_a_hostile_document_is_an_error_at_its_line_and_nothing_changes() -> None:
    text = INGRESS + "---\nx: " + "[" * 3_000 + "\n"
    result = run(text)
    assert result.text == text
    [found] = [f for f in result.findings if f.code == "K8SM-GEN-011"]
    assert (found.level, found.document, found.line) == ("error", 1, 7)
    assert "nesting deeper than 500 levels" in found.message
