"""Spec: a run lists its files as the texts of their paths (``files.found_files``).

A run holds its list of files from start to end. A ``Path`` costs about three times the memory
of its text, so that list is of texts: the same texts ``str`` of each ``Path`` gives, in the
order ``Path`` objects sort in (part by part), so that every report lists files as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import commands, files
from k8smigrate.cli import app

ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"

# "a/b" sorts before "a-b/c" part by part ("a" < "a-b"), after it as text ("-" < "/")
TRICKY = ["a/b.yaml", "a-b/c.yaml", "a.b/d.yaml", "a0.yaml", "a/z/y.yaml", "a/z.yaml", "B/x.yaml", "b.yaml"]


def make_tree(root: Path) -> None:
    for name in TRICKY:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(ROLE)


# ------------------------------------------------------------------ the same files as iter_entries


def test_the_texts_are_those_of_iter_entries_paths_in_the_same_order(tmp_path: Path) -> None:
    make_tree(tmp_path)
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")  # a Skipped entry among the files
    found = list(files.found_files([tmp_path]))
    entries = list(files.iter_entries([tmp_path]))
    assert found == [str(e) if isinstance(e, Path) else e for e in entries]
    assert any(isinstance(e, files.Skipped) for e in found)


def test_files_come_in_path_order_not_text_order(tmp_path: Path) -> None:
    make_tree(tmp_path)
    found = [Path(f).relative_to(tmp_path).as_posix() for f in files.found_files([tmp_path]) if isinstance(f, str)]
    assert found == [p.as_posix() for p in sorted(Path(n) for n in TRICKY)]
    assert found != sorted(TRICKY)  # the tree is one where the two orders differ


@pytest.mark.parametrize("folder", [".", "./", "a", "a/", "a//b", "./a/./b", "/", "//", "/x/y", "..", "../a"])
def test_a_childs_text_is_what_str_of_its_path_gives(folder: str) -> None:
    assert files._child(str(Path(folder)), "c.yaml") == str(Path(folder, "c.yaml"))


def test_a_relative_folder_gives_relative_texts_without_a_dot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    expected = [str(p) for p in sorted(Path(n) for n in TRICKY)]
    assert [f for f in files.found_files([Path(".")]) if isinstance(f, str)] == expected


def test_a_file_given_by_name_is_its_paths_text(tmp_path: Path) -> None:
    (tmp_path / "one.yaml").write_text(ROLE)
    assert list(files.found_files([tmp_path / "one.yaml"])) == [str(tmp_path / "one.yaml")]


# ------------------------------------------------------------------ a run holds texts


def test_a_run_lists_its_files_as_texts(tmp_path: Path) -> None:
    make_tree(tmp_path)
    listed = commands._files(str(tmp_path), sweep=False)
    assert listed is not None and len(listed) == len(TRICKY)
    assert all(type(f) is str for f in listed)


def test_a_text_kept_ahead_is_taken_by_a_read_of_its_path_and_the_other_way(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    try:
        kept = files.read_ahead(str(tmp_path / "a.yaml"))
        assert files.read_manifest(tmp_path / "a.yaml") is kept
        assert files.read_manifest(tmp_path / "a.yaml") is not kept  # taken once: the next read reads
        kept = files.read_ahead(tmp_path / "a.yaml")
        assert files.read_manifest(str(tmp_path / "a.yaml")) is kept
        assert kept.path == tmp_path / "a.yaml"
    finally:
        files.forget_read_ahead()


def test_a_file_read_by_the_text_of_its_path_makes_its_path_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    made: list[object] = []

    class Counted(type(Path())):  # type: ignore[misc]  # PosixPath or WindowsPath
        def __new__(cls, *args: object) -> Counted:
            made.append(args)
            return super().__new__(cls, *args)  # type: ignore[no-any-return]

    monkeypatch.setattr(files, "Path", Counted)
    loaded = files.read_manifest(str(tmp_path / "a.yaml"))
    assert made == [] and loaded.text == ROLE
    assert loaded.path == tmp_path / "a.yaml" and loaded.path is loaded.path  # made once
    assert len(made) == 1


def test_a_file_read_by_its_text_equals_one_read_by_its_path(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    by_text, by_path = files.read_manifest(str(tmp_path / "a.yaml")), files.read_manifest(tmp_path / "a.yaml")
    assert by_text == by_path and hash(by_text) == hash(by_path) and len({by_text, by_path}) == 1


def test_a_file_read_ahead_is_given_back_with_the_path_it_is_asked_by(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    try:
        files.read_ahead(str(tmp_path / "a.yaml"))
        asked = tmp_path / "a.yaml"
        assert files.read_manifest(asked).path is asked
    finally:
        files.forget_read_ahead()


def test_a_file_of_the_size_stat_gave_is_read_in_one_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.yaml").write_text(ROLE)
    reads: list[int] = []
    real = files.os.read

    def counted(fd: int, n: int) -> bytes:
        reads.append(n)
        return real(fd, n)

    monkeypatch.setattr(files.os, "read", counted)
    assert files.read_manifest(tmp_path / "a.yaml").text == ROLE
    assert reads == [len(ROLE) + 1]  # one more than its size: the read that returns less is the end


def test_a_scan_reports_files_in_path_order_with_their_paths_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["scan", ".", "--target-version", "1.22", "--format", "json"])
    names = [f["filename"] for f in json.loads(result.stdout)["files"]]
    assert names == [str(p) for p in sorted(Path(n) for n in TRICKY)]
