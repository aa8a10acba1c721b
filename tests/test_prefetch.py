"""Spec: a run's files read, and checked by libyaml, on another core from its start (``prefetch``).

The thread reads what the walk of ``files`` lists and nothing else, each file its very bytes
with libyaml's verdict; a run takes each file from it once, a file it left alone is read as
usual, and whatever a run did not take is gone when it ends. A run prints the same with it as
without it. Where the C module is not built these tests skip (as ``test_fastbuild`` does), except
under ``K8SMIGRATE_REQUIRE_FASTBUILD=1`` (CI).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given as given_any
from hypothesis import settings
from hypothesis import strategies as st

from k8smigrate import files, prefetch
from k8smigrate.files import InputError, found_files, read_manifest
from k8smigrate.yamlio import fastbuild, prechecked
from k8smigrate.yamlio.libyaml import libyaml_accepts

pytestmark = pytest.mark.skipif(
    not fastbuild.ACTIVE and os.environ.get("K8SMIGRATE_REQUIRE_FASTBUILD") != "1",
    reason="the C module is not built here (no C compiler at install time)",
)

INGRESS = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n"
SERVICE = "# current\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n"


@pytest.fixture(autouse=True)
def _nothing_left() -> Iterator[None]:
    prefetch.drop()
    yield
    prefetch.drop()
    prechecked.stop()


def _taken(paths: list[str]) -> dict[str, tuple[bytes, int]]:
    """What the thread read below ``paths``, every file checked: path -> (bytes, verdict)."""
    prefetch.start(paths)
    prefetch.settle(hurry=False)
    read = {path: (raw, verdicts[place]) for path, (raw, verdicts, place) in prefetch._taken.items()}
    prefetch.drop()
    return read


def _tree(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "a.yaml").write_text(INGRESS)
    (root / "b.yml").write_text(SERVICE)
    (root / "c.json").write_text('{"apiVersion": "v1", "kind": "Service"}')
    (root / "sub" / "d.yaml.j2").write_text(SERVICE)
    (root / "broken.yaml").write_text("a: [1\n")
    return root


# ------------------------------------------------------------------ what it is started for


@pytest.mark.parametrize(
    ("command", "given"),
    [
        ("apply", {"paths": ["x"], "in_place": True}),  # writes manifests: reads its own
        ("scan", {"paths": ["x"], "jobs": "1"}),  # one core
        ("list", {"paths": ["x"]}),
        ("scan", {"paths": ["-"]}),  # stdin only
    ],
)
def test_a_run_that_writes_manifests_or_uses_one_core_reads_its_own(command: str, given: dict[str, object]) -> None:
    assert not prefetch.wanted(command, given)  # type: ignore[arg-type]


def test_a_run_on_more_than_one_core_reads_its_paths_ahead_but_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert prefetch.wanted("scan", {"paths": ["a", "-", "b"]}) == ["a", "b"]
    assert prefetch.wanted("apply", {"paths": ["a"], "check": True, "jobs": "4"}) == ["a"]
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert prefetch.wanted("diff", {"paths": ["a"]}) is None


# ------------------------------------------------------------------ what it reads


def test_it_reads_the_files_the_walk_lists_by_the_same_paths(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    for given in (str(root), str(root) + "/", str(root) + "/./"):
        listed = {f for f in found_files([Path(given)]) if isinstance(f, str)}
        assert set(_taken([given])) == listed, given


def test_a_relative_path_is_written_as_the_walk_writes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path / "repo")
    monkeypatch.chdir(tmp_path)
    for given in ("repo", "./repo", "repo/"):
        assert set(_taken([given])) == {f for f in found_files([Path(given)]) if isinstance(f, str)}
    monkeypatch.chdir(tmp_path / "repo")
    assert "a.yaml" in _taken(["."])


@pytest.mark.parametrize(
    "raw", ["", ".", "./", "a", "a/", "a//b", "./a/./b/.", "a/../b", "/", "//", "///", "//a", "///a//b/", "/./a", ".."]
)
def test_a_path_is_written_as_pathlib_writes_it(raw: str) -> None:
    assert prefetch.path_text(raw) == str(Path(raw))


@settings(max_examples=300, deadline=None)
@given_any(st.lists(st.sampled_from(["", ".", "..", "a", "b.yaml", " ", "ü"]), max_size=6).map("/".join))
def test_any_path_is_written_as_pathlib_writes_it(raw: str) -> None:
    assert prefetch.path_text(raw) == str(Path(raw))


STARTS_ALONE = """
import sys
for name in ("pathlib", "urllib.parse", "urllib", "fnmatch", "re"):  # an editable install's hook imports them at start
    sys.modules.pop(name, None)
from k8smigrate import prefetch
prefetch.start([sys.argv[1]])
started_with = sorted(name for name in ("pathlib", "re") if name in sys.modules)
prefetch.settle(hurry=False)
print(started_with, len(prefetch._taken))
"""


def test_it_starts_before_pathlib_and_re_are_imported(tmp_path: Path) -> None:
    """The thread starts as soon as the command line is read: what it needs to start imports
    neither ``pathlib`` nor ``re`` (4 ms of a run's one busy core at that point)."""
    _tree(tmp_path / "repo")
    proc = subprocess.run(
        [sys.executable, "-c", STARTS_ALONE, str(tmp_path / "repo")], capture_output=True, text=True, check=True
    )
    imported, taken = proc.stdout.rsplit(" ", 1)
    assert imported == "[]", proc.stdout
    assert int(taken) == (5 if fastbuild.ACTIVE else 0)  # it read the files (five: the broken one too)


def test_each_file_is_its_bytes_with_libyamls_verdict(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    read = _taken([str(root)])
    assert len(read) == 5
    for path, (raw, verdict) in read.items():
        assert raw == Path(path).read_bytes()
        assert verdict == (1 if libyaml_accepts(raw.decode()) else 2), path
    assert read[str(root / "broken.yaml")][1] == 2


def test_what_the_walk_would_not_read_it_leaves_alone(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    (root / "notes.txt").write_text(SERVICE)
    (root / ".git").mkdir()
    (root / ".git" / "x.yaml").write_text(SERVICE)
    (root / "link.yaml").symlink_to(root / "a.yaml")
    (root / "linked").symlink_to(root / "sub")
    os.mkfifo(root / "pipe.yaml")  # opening it could wait for a writer
    chart = root / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "templates" / "t.yaml").write_text(SERVICE)
    (chart / "Chart.yaml").write_text("name: c\n")  # a chart is read as files reads charts
    read = _taken([str(root)])
    assert sorted(Path(p).relative_to(root).as_posix() for p in read) == [
        "a.yaml",
        "b.yml",
        "broken.yaml",
        "c.json",
        "sub/d.yaml.j2",
    ]


def test_a_file_given_by_name_is_read_and_a_link_given_by_name_is_left(tmp_path: Path) -> None:
    (tmp_path / "one.txt").write_text(SERVICE)  # given by name: read whatever its name
    (tmp_path / "link.yaml").symlink_to(tmp_path / "one.txt")
    assert set(_taken([str(tmp_path / "one.txt"), str(tmp_path / "link.yaml")])) == {str(tmp_path / "one.txt")}


def test_it_reads_ahead_as_much_as_a_run_reads_ahead_in_one_process() -> None:
    from k8smigrate import parallel

    assert prefetch.LIMIT == parallel.FACTS_SERIAL_BYTES  # past it, workers read the files: nothing to keep


def test_past_the_limit_it_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _tree(tmp_path / "repo")
    monkeypatch.setattr(prefetch, "LIMIT", 100)
    assert _taken([str(root)]) == {}


def test_the_c_functions_check_their_arguments() -> None:
    from k8smigrate import _fastbuild

    with pytest.raises(TypeError):
        _fastbuild.prefetch_start([b"x"], (".yaml",), "Chart.yaml", 8, 1024, 1024)  # type: ignore[list-item]
    with pytest.raises(ValueError):
        _fastbuild.prefetch_start(["a\0b"], (".yaml",), "Chart.yaml", 8, 1024, 1024)
    assert _fastbuild.prefetch_take() is None  # nothing started


# ------------------------------------------------------------------ how a run uses it


def test_a_run_takes_a_file_from_it_once_with_its_verdict(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    prefetch.start([str(root)])
    prefetch.settle(hurry=False)
    (root / "a.yaml").write_text(SERVICE)  # changed since it was read: the run reads what was read then
    first = read_manifest(str(root / "a.yaml"))
    assert first.text == INGRESS and first.raw == INGRESS.encode()
    assert prechecked.verdict(first.text) is True  # libyaml is not asked again
    assert read_manifest(str(root / "a.yaml")).text == SERVICE  # taken once: the next read is the disk's


def test_a_run_weighs_the_files_read_ahead_without_asking_the_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from k8smigrate import parallel

    root = _tree(tmp_path / "repo")
    paths = [f for f in found_files([root]) if isinstance(f, str)] * 4  # enough files to be weighed
    prefetch.start([str(root)])
    prefetch.settle()

    def no_stat(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("stat")

    monkeypatch.setattr(os, "stat", no_stat)
    assert parallel.in_process(paths, 2, serial_bytes=10**6)
    assert not parallel.in_process(paths, 2, serial_bytes=100)


def test_files_read_ahead_with_their_verdicts_start_no_precheck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from k8smigrate import parallel
    from k8smigrate.files import forget_read_ahead, read_ahead

    root = _tree(tmp_path / "repo")
    (tmp_path / "outside.yaml").write_text(SERVICE)
    paths = [f for f in found_files([root]) if isinstance(f, str)]
    batches: list[int] = []
    monkeypatch.setattr(prechecked, "precheck", lambda texts: batches.append(len(texts)))
    for extra in ([], [str(tmp_path / "outside.yaml")]):  # one more file the thread did not read
        forget_read_ahead()
        prechecked.stop()
        prefetch.start([str(root)])
        prefetch.settle(hurry=False)
        for path in paths + extra:
            read_ahead(path)
        parallel._precheck_kept(2)
    assert batches == [len(paths) + 1]  # only the second run, where a text has no verdict yet


def test_a_file_over_the_size_limit_is_refused_as_when_read_from_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path / "repo")
    prefetch.start([str(root)])
    prefetch.settle()
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 16)
    with pytest.raises(InputError, match="too large"):
        read_manifest(str(root / "a.yaml"))


def _console(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    from k8smigrate import console

    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "argv", ["k8smigrate", *argv])
    with redirect_stdout(out), redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        console.main()
    return int(exit_.value.code or 0), out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["scan", "--target-version", "1.29"],
        ["diff", "--target-version", "1.29"],
        ["apply", "--check", "--target-version", "1.29"],
        ["scan", "--target-version", "1.29", "--jobs", "2"],
    ],
)
def test_a_run_prints_what_it_prints_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    root = _tree(tmp_path / "repo")
    for i in range(40):  # enough files for worker processes
        (root / f"app-{i}.yaml").write_text(INGRESS if i % 4 == 0 else SERVICE)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    started: list[list[str]] = []
    start = prefetch.start

    def spy(paths: list[str]) -> None:
        started.append(list(paths))
        start(paths)

    monkeypatch.setattr(prefetch, "start", spy)
    with_it = _console([*argv, str(root)], monkeypatch)
    assert started == [[str(root)]]
    assert not prefetch._running and not prefetch._taken  # what the run did not take is gone
    monkeypatch.setattr(prefetch, "wanted", lambda *_args: None)
    assert with_it == _console([*argv, str(root)], monkeypatch)


def test_no_worker_is_forked_while_it_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from k8smigrate import forkpool
    from k8smigrate.api import scan_file
    from k8smigrate.parallel import parallel_map
    from k8smigrate.settings import Settings

    root = _tree(tmp_path / "repo")
    for i in range(40):
        (root / f"app-{i}.yaml").write_text(SERVICE)
    running: list[bool] = []
    init = forkpool.ForkPool.__init__

    def spy(self: object, *args: object, **kwargs: object) -> None:
        running.append(prefetch._running)
        init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(forkpool.ForkPool, "__init__", spy)
    prefetch.start([str(root)])
    paths = [f for f in found_files([root]) if isinstance(f, str)]
    outcomes = list(parallel_map(scan_file, paths, Settings(target_version="1.29"), 2, serial_bytes=0))
    assert running == [False]
    assert len(outcomes) == len(paths)
