"""``scan``'s look at a file that gives nothing (``scan._quiet``): sure, or it leaves the file to
the usual reading; and when sure, right: the usual reading finds no row and no problem either."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from k8smigrate import scan
from k8smigrate.registry import default_registry
from k8smigrate.results import Finding
from k8smigrate.scan import ScanEntry, scan_stream
from k8smigrate.settings import Settings
from k8smigrate.yamlio import read_stream
from k8smigrate.yamlio.libyaml import libyaml_accepts
from k8smigrate.yamlio.stream import plain_lone
from tests.strategies import current, join, mutated, rich_streams, streams

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DEPLOYMENT = """\
# a current app
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.27
"""


_SETTINGS: dict[str, Settings] = {}


def _settings(target: str = "1.29") -> Settings:
    """One object per target, as a run has (the look and the rows keep what they found for it)."""
    return _SETTINGS.setdefault(target, Settings(target_version=target))


def _quiet(text: str, target: str = "1.29") -> bool:
    registry = default_registry()
    return scan._quiet(text, _settings(target), registry, scan._api_wanted(registry))


def _read(text: str, target: str, monkeypatch: pytest.MonkeyPatch, look: bool) -> tuple[list[ScanEntry], list[Finding]]:
    """The rows and problems of ``scan_stream``, with the look or without it (always the usual reading)."""
    with monkeypatch.context() as patched:
        if not look:
            patched.setattr(scan, "_quiet", lambda *_args: False)
        problems: list[Finding] = []
        rows = scan_stream(text, _settings(target), "f.yaml", default_registry(), problems)
    return rows, problems


# ------------------------------------------------------------------ not sure: the usual reading


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(DEPLOYMENT + "---\n" + DEPLOYMENT, id="two documents"),
        pytest.param("\ufeff" + DEPLOYMENT, id="a byte order mark"),
        pytest.param(DEPLOYMENT.replace("web\n", "{{ .Values.name }}\n", 1), id="a template marker"),
        pytest.param(DEPLOYMENT.replace("apps/v1", "extensions/v1beta1"), id="a removed API"),
        pytest.param(DEPLOYMENT.replace("replicas: 2", "replicas: [2"), id="invalid YAML"),
        pytest.param("apiVersion: v1\nkind: List\nitems: []\n", id="a List"),
        pytest.param('{"apiVersion": "extensions/v1beta1", "kind": "Ingress"}', id="JSON on a removed API"),
        pytest.param(DEPLOYMENT.replace("apiVersion: apps/v1", "apiVersion: &a apps/v1"), id="an anchored apiVersion"),
        pytest.param(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
            "    seccomp.security.alpha.kubernetes.io/pod: runtime/default\n",
            id="what a check looks for",
        ),
        pytest.param("...\n" + DEPLOYMENT, id="an end marker"),
        pytest.param("---x\n" + DEPLOYMENT, id="a dash line that is not a marker"),
    ],
)
def test_a_text_it_is_not_sure_of_is_read_the_usual_way(text: str) -> None:
    assert not _quiet(text)


def test_a_removed_api_is_not_quiet_only_where_the_window_removes_it() -> None:
    flow = DEPLOYMENT.replace("apps/v1", "flowcontrol.apiserver.k8s.io/v1beta3").replace("Deployment", "FlowSchema")
    assert _quiet(flow, "1.25")  # served then, deprecated only in 1.29
    assert not _quiet(flow, "1.29")


# ------------------------------------------------------------------ sure


@pytest.mark.parametrize(
    "text", [DEPLOYMENT, "---\n" + DEPLOYMENT, "--- # app\n" + DEPLOYMENT, "", "# only a comment\n"]
)
def test_a_plain_current_object_is_quiet(text: str) -> None:
    assert _quiet(text)


def test_a_quiet_text_is_answered_without_reading_the_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    def unread(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("read as a stream")

    monkeypatch.setattr(scan, "read_stream", unread)
    problems: list[Finding] = []
    assert scan_stream(DEPLOYMENT, _settings(), "f.yaml", default_registry(), problems) == []
    assert problems == []


def test_one_plain_piece_is_one_document_from_start_to_end() -> None:
    for text in (DEPLOYMENT, "---\n" + DEPLOYMENT, "--- |\n  text\n"):
        assert plain_lone(text) and libyaml_accepts(text)
        stream = read_stream(text, wanted=lambda _piece: False)
        assert [(d.start, d.end, d.root) for d in stream.documents] == [(0, len(text), None)]
        assert stream.whole


# ------------------------------------------------------------------ and right


def test_the_look_agrees_with_the_usual_reading_on_the_corpus(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = 0
    for path in sorted(corpus.rglob("*.y*ml")):
        text = path.read_text(encoding="utf-8")
        for target in ("1.22", "1.29", "1.35"):
            if _quiet(text, target):
                quiet += 1
                assert _read(text, target, monkeypatch, look=False) == ([], []), path
    assert quiet > 20  # the look is taken (the corpus is mostly on removed APIs: 34 when written)


@FAST
@given(
    st.one_of(
        streams(current()).map(join),
        rich_streams().map(join),
        mutated(),
        streams(current()).map(lambda docs: docs[0] if docs else ""),
    ),
    st.sampled_from(["1.16", "1.22", "1.29", "1.35"]),
)
def test_the_look_agrees_with_the_usual_reading_on_generated_streams(text: str, target: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _read(text, target, monkeypatch, look=True) == _read(text, target, monkeypatch, look=False)
