"""Spec: ``migrate_paths`` takes one path or an iterable of paths, and nothing else (issue 14, item 1).

A ``str`` is one path: iterating it would make ``"a.yaml"`` into ``a``, ``.``, ``y``… and
``.`` would rewrite the whole working folder. Anything that is not a ``str`` or
``os.PathLike`` (or an iterable of them) is a TypeError at the call, before any file is read.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

from k8smigrate.api import migrate_paths

ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"
ROLE_V1 = ROLE.replace("v1beta1", "v1")


class Named(os.PathLike[str]):
    def __init__(self, path: str) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return self.path


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("a.yaml", "other.yaml"):
        (tmp_path / name).write_text(ROLE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    "given",
    [
        pytest.param("a.yaml", id="str"),
        pytest.param(Path("a.yaml"), id="Path"),
        pytest.param(Named("a.yaml"), id="PathLike"),
        pytest.param(["a.yaml"], id="list-of-str"),
        pytest.param(("a.yaml",), id="tuple"),
        pytest.param([Named("a.yaml")], id="list-of-PathLike"),
    ],
)
def test_one_path_or_an_iterable_of_paths_migrates_exactly_those(folder: Path, given: object) -> None:
    outcomes = list(migrate_paths(given, in_place=True))  # type: ignore[arg-type]
    assert [(o.path.name, o.written) for o in outcomes] == [("a.yaml", True)]
    assert (folder / "a.yaml").read_text() == ROLE_V1
    assert (folder / "other.yaml").read_text() == ROLE  # a str iterated per character would reach "."


def test_a_generator_of_paths_is_an_iterable(folder: Path) -> None:
    def paths() -> Iterator[str]:
        yield "a.yaml"
        yield "other.yaml"

    assert [o.path.name for o in migrate_paths(paths())] == ["a.yaml", "other.yaml"]


def test_a_pure_path_is_a_path(folder: Path) -> None:
    assert [o.path.name for o in migrate_paths(PurePosixPath("a.yaml"))] == ["a.yaml"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(42, id="int"),
        pytest.param(None, id="None"),
        pytest.param(b"a.yaml", id="bytes"),
        pytest.param([42], id="list-of-int"),
        pytest.param(["a.yaml", None], id="a-None-among-paths"),
        pytest.param([b"a.yaml"], id="list-of-bytes"),
        pytest.param([Named(b"a.yaml")], id="PathLike-of-bytes"),  # type: ignore[arg-type]
    ],
)
def test_anything_else_is_a_type_error_at_the_call_and_nothing_is_touched(folder: Path, given: object) -> None:
    with pytest.raises(TypeError, match=r"str or os\.PathLike"):
        migrate_paths(given, in_place=True)  # type: ignore[arg-type]  # not even iterated
    assert (folder / "a.yaml").read_text() == ROLE
