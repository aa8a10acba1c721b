"""Spec: a thread finds libyaml's verdict on the texts a run read ahead, and a verdict it found
is exactly the one ``libyaml_accepts`` would find; a text it did not check is checked as before.

Where the C module is not built these tests skip (as ``test_fastbuild`` does), except under
``K8SMIGRATE_REQUIRE_FASTBUILD=1`` (``.ci/run`` sets it), where that is a failure.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from k8smigrate.cli import app
from k8smigrate.files import decode
from k8smigrate.yamlio import fastbuild, libyaml, prechecked

from .strategies import join, streams

pytestmark = pytest.mark.skipif(
    not fastbuild.ACTIVE and os.environ.get("K8SMIGRATE_REQUIRE_FASTBUILD") != "1",
    reason="the C module is not built here (no C compiler at install time)",
)

TEXTS = [
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
    "a: [\n",  # libyaml rejects it
    "name: caf\u00e9 \u2014 \U0001f600\n",  # not ASCII: the bytes differ from the code points
    "a: 1\r\nb:\r\n  - c\r\n",
    "",
    "a: 1\n---\nb: [\n",  # the second document breaks the stream
    "{1:1}\n",  # ruamel's libyaml rejects what libyaml 0.2.5 reads
    "---\na: 1\n...\n---\nb: 2\n",
]


def _pairs(texts: list[str]) -> list[tuple[str, bytes]]:
    """Each text as a run reads it: decoded from its bytes, so a new object."""
    return [(decode(raw), raw) for raw in (t.encode() for t in texts)]


def _wait() -> None:
    for thread in threading.enumerate():
        if thread.name == "k8smigrate-precheck":
            thread.join(timeout=10)
            assert not thread.is_alive()


@pytest.fixture(autouse=True)
def _stopped() -> Iterator[None]:
    prechecked.stop()  # a thread an earlier test's run stopped may still be ending its text
    _wait()
    yield
    prechecked.stop()
    _wait()


# ------------------------------------------------------------------ nothing to do


def test_a_single_text_starts_no_thread() -> None:
    pairs = _pairs(TEXTS[:1])
    prechecked.precheck(pairs)
    assert not any(t.name == "k8smigrate-precheck" for t in threading.enumerate())
    assert prechecked.verdict(pairs[0][0]) is None


def test_a_text_not_handed_over_is_not_known() -> None:
    pairs = _pairs(TEXTS)
    prechecked.precheck(pairs)
    _wait()
    assert prechecked.verdict("a: 1\n") is None
    assert prechecked.verdict(decode(TEXTS[0].encode())) is None  # equal, but not the text read


def test_a_text_after_a_bom_is_left_out() -> None:
    raw = b"\xef\xbb\xbfa: 1\n"
    pairs = [*_pairs(TEXTS[:1]), (decode(raw), raw)]
    prechecked.precheck(pairs)
    _wait()
    assert prechecked.verdict(pairs[1][0]) is None  # read_stream asks about the text after the BOM
    assert prechecked.verdict(pairs[0][0]) is True


# ------------------------------------------------------------------ verdicts


def test_each_verdict_is_libyamls() -> None:
    pairs = _pairs(TEXTS)
    prechecked.precheck(pairs)
    _wait()
    assert [prechecked.verdict(text) for text, _raw in pairs] == [fastbuild.accepts(t) for t in TEXTS]
    assert [fastbuild.accepts(t) for t in TEXTS] == [True, False, True, True, True, False, False, True]


def test_a_verdict_is_given_once_then_libyaml_is_asked_again() -> None:
    pairs = _pairs(TEXTS)
    prechecked.precheck(pairs)
    _wait()
    assert prechecked.verdict(pairs[1][0]) is False
    assert prechecked.verdict(pairs[1][0]) is None  # the text is no longer held for it
    assert libyaml.libyaml_accepts(pairs[1][0]) is False


def test_libyaml_accepts_takes_the_verdict_found(monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = _pairs(TEXTS)
    prechecked.precheck(pairs)
    _wait()
    asked: list[str] = []
    monkeypatch.setattr(libyaml, "accepts_in_c", lambda text: asked.append(text) or True)
    assert [libyaml.libyaml_accepts(text) for text, _raw in pairs] == [fastbuild.accepts(t) for t in TEXTS]
    assert asked == []
    assert libyaml.libyaml_accepts("b: [\n") is True  # not handed over: asked (here, of the stand-in)
    assert asked == ["b: [\n"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streams())
def test_verdicts_agree_with_libyaml_on_generated_streams(docs: list[str]) -> None:
    text = join(docs)
    texts = [text, text[: len(text) // 2], text + "\n  x: [\n", text.replace(":", "\u00e9:", 1)]
    pairs = _pairs(texts)
    prechecked.precheck(pairs)
    _wait()
    assert [prechecked.verdict(t) for t, _raw in pairs] == [fastbuild.accepts(t) for t in texts]


# ------------------------------------------------------------------ the thread


def test_a_verdict_not_found_yet_is_not_known(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()

    def held(texts: list[bytes], verdicts: bytearray) -> None:
        gate.wait(10)  # the thread has found nothing yet when the run asks

    monkeypatch.setattr(prechecked, "accepts_each", held)
    pairs = _pairs(TEXTS)
    prechecked.precheck(pairs)
    assert prechecked.verdict(pairs[0][0]) is None
    gate.set()


def test_stop_ends_the_thread_and_forgets_the_verdicts() -> None:
    pairs = _pairs(["a: [1, 2, 3]\n" * 2000] * 200)
    prechecked.precheck(pairs)
    prechecked.stop()
    _wait()
    assert all(prechecked.verdict(text) is None for text, _raw in pairs)


def test_settle_ends_the_thread_and_keeps_what_it_found() -> None:
    pairs = _pairs(TEXTS)
    prechecked.precheck(pairs)
    prechecked.settle()
    assert not any(t.name == "k8smigrate-precheck" for t in threading.enumerate())
    found = [prechecked.verdict(text) for text, _raw in pairs]
    assert all(v is None or v == fastbuild.accepts(t) for v, t in zip(found, TEXTS, strict=True))


def test_a_new_batch_ends_the_last_and_keeps_what_it_found() -> None:
    first, second = _pairs(TEXTS), _pairs(TEXTS)
    prechecked.precheck(first)
    _wait()
    prechecked.precheck(second)
    _wait()
    assert prechecked.verdict(first[0][0]) is True  # each verdict is of the very text it names
    assert prechecked.verdict(second[0][0]) is True


def test_a_verdict_found_elsewhere_is_taken_and_not_found_again(monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = _pairs(TEXTS)
    text, raw = pairs[0]
    prechecked.found(text, raw, bytearray([2]), 0)  # as the prefetch notes its own (2: rejected)
    checked: list[bytes] = []
    monkeypatch.setattr(prechecked, "accepts_each", lambda batch, verdicts: checked.extend(batch))
    prechecked.precheck(pairs)
    _wait()
    assert raw not in checked and len(checked) == len(TEXTS) - 1
    assert prechecked.verdict(text) is False


def test_the_c_function_checks_its_arguments() -> None:
    from k8smigrate import _fastbuild

    with pytest.raises(TypeError, match="bytes"):
        _fastbuild.accepts_each([b"a: 1\n", "a: 1\n"], bytearray(3))  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"len\(texts\) \+ 1"):
        _fastbuild.accepts_each([b"a: 1\n"], bytearray(1))
    verdicts = bytearray(3)
    verdicts[2] = 1  # stopped before it starts
    _fastbuild.accepts_each([b"a: 1\n", b"a: [\n"], verdicts)
    assert verdicts == bytearray(b"\0\0\1")


# ------------------------------------------------------------------ in a run


def _repo(folder: Path) -> Path:
    (folder / "a.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")
    (folder / "b.yaml").write_text("apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: [\n")
    (folder / "c.yaml").write_bytes(b"\xef\xbb\xbfapiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
    (folder / "d.yaml").write_text("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: caf\u00e9\n")
    return folder


@pytest.mark.parametrize(
    ("command", "found"),
    [
        (["scan"], [False, True, True]),  # b is rejected; c has a BOM
        (["apply", "--check"], [False, True]),  # and d, to migrate, is parsed once, into its tree
    ],
)
def test_a_run_in_process_on_two_cores_takes_the_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], found: list[bool]
) -> None:
    repo = _repo(tmp_path)
    answers: list[bool | None] = []
    verdict = prechecked.verdict
    monkeypatch.setattr(libyaml, "verdict", lambda text: answers.append(verdict(text)) or answers[-1])
    handed: list[int] = []
    precheck = prechecked.precheck

    def counted(texts: list[tuple[str, bytes]]) -> None:
        handed.append(len(texts))
        precheck(texts)
        _wait()  # all found before the run asks, so that every answer below is the thread's

    monkeypatch.setattr(prechecked, "precheck", counted)
    runner = CliRunner()
    serial = runner.invoke(app, [*command, str(repo), "--target-version", "1.29", "--jobs", "1"])
    assert handed == [] and answers.count(None) == len(answers)  # one job: no thread
    answers.clear()
    asked = runner.invoke(app, [*command, str(repo), "--target-version", "1.29", "--jobs", "2"])
    assert handed == [4]
    assert sorted(a for a in answers if a is not None) == found
    assert (serial.exit_code, serial.stdout, serial.stderr) == (asked.exit_code, asked.stdout, asked.stderr)
    assert "b.yaml" in asked.stdout + asked.stderr


def test_the_facts_pass_starts_it_once_every_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The thread works while the facts are gathered (another core is idle then), and the
    main pass keeps it running, with what it found, instead of starting it again."""
    from k8smigrate import api, files

    repo = _repo(tmp_path)
    handed: list[int] = []
    precheck = prechecked.precheck
    monkeypatch.setattr(prechecked, "precheck", lambda texts: handed.append(len(texts)) or precheck(texts))
    at_gathering: list[tuple[bool, int]] = []
    gather = api.gather_each

    def gathering(*args: Any) -> Any:
        at_gathering.append((prechecked.started(), len(files.kept_ahead())))
        return gather(*args)

    monkeypatch.setattr(api, "gather_each", gathering)
    result = CliRunner().invoke(app, ["scan", str(repo), "--target-version", "1.29", "--jobs", "2"])
    assert "b.yaml" in result.stdout + result.stderr
    assert at_gathering == [(True, 4)]  # every file read, the thread started, before the facts
    assert handed == [4]


def test_a_pool_is_started_after_the_thread_ended(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from k8smigrate import forkpool, parallel

    for i in range(parallel.SERIAL_BELOW * 2):
        (tmp_path / f"m{i:03d}.yaml").write_text(f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n")
    monkeypatch.setattr(parallel, "SCAN_SERIAL_BYTES", 0)  # workers, for a few bytes
    handed: list[int] = []
    precheck = prechecked.precheck
    monkeypatch.setattr(prechecked, "precheck", lambda texts: handed.append(len(texts)) or precheck(texts))
    threads_at_start: list[list[str]] = []

    def until_stopped(texts: list[bytes], verdicts: bytearray) -> None:
        while not verdicts[-1]:  # a thread still running when the pool forks, unless it is ended
            time.sleep(0.001)

    monkeypatch.setattr(prechecked, "accepts_each", until_stopped)

    real = forkpool.ForkPool.__init__

    def watched(self: forkpool.ForkPool[Any, Any], *args: Any, **kwargs: Any) -> None:
        threads_at_start.append([t.name for t in threading.enumerate()])
        real(self, *args, **kwargs)

    monkeypatch.setattr(forkpool.ForkPool, "__init__", watched)
    runner = CliRunner()
    serial = runner.invoke(app, ["scan", str(tmp_path), "--target-version", "1.29", "--jobs", "1"])
    pooled = runner.invoke(app, ["scan", str(tmp_path), "--target-version", "1.29", "--jobs", "2"])
    assert handed == [parallel.SERIAL_BELOW * 2]  # read ahead in this process (its facts stage)
    assert len(threads_at_start) == 1  # the files' pool (the facts stayed here)
    assert "k8smigrate-precheck" not in threads_at_start[0]
    assert (serial.exit_code, serial.stdout) == (pooled.exit_code, pooled.stdout)
