"""Spec: in-place writes (issue 7; docs/usage.md "Files and safety").

Atomic (a temporary file in the same folder, then a rename), mode kept, nothing written
when nothing changed, a file that changed on disk meanwhile is not overwritten, a failed
file is never written, and a crash mid-run leaves every file either old or new.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from k8smigrate import api
from k8smigrate.api import migrate_file, migrate_paths
from k8smigrate.files import InputError, read_manifest, write_atomic

ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"
ROLE_V1 = ROLE.replace("v1beta1", "v1")
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"


def test_nothing_is_written_when_nothing_changed(tmp_path: Path) -> None:
    path = tmp_path / "cm.yaml"
    path.write_text(CONFIGMAP)
    before = path.stat()
    outcome = migrate_file(path, in_place=True)
    assert not outcome.written and outcome.error is None
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o755])
def test_write_goes_through_a_temporary_file_in_the_same_folder_and_keeps_the_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: int
) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    path.chmod(mode)
    renames: list[tuple[Path, Path]] = []
    real = os.replace

    def replace(src: str, dst: str) -> None:
        renames.append((Path(src), Path(dst)))
        assert stat.S_IMODE(os.stat(src).st_mode) == mode  # the mode is set before the rename
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert migrate_file(path, in_place=True).written
    ((src, dst),) = renames
    assert src.parent == dst.parent == path.resolve().parent and src.name.startswith(".role.yaml.")
    assert path.read_text() == ROLE_V1
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["role.yaml"]


def test_a_file_changed_between_read_and_write_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    real = api.migrate_stream

    def migrate_while_someone_edits(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        path.write_text(ROLE + "# edited meanwhile\n")
        return result

    monkeypatch.setattr(api, "migrate_stream", migrate_while_someone_edits)
    outcome = migrate_file(path, in_place=True)
    assert not outcome.written
    assert outcome.error is not None
    assert outcome.error.format() == f"{path}: error K8SM-GEN-013 file changed while it was being migrated; not written"
    assert path.read_text() == ROLE + "# edited meanwhile\n"


def test_write_atomic_refuses_a_file_that_changed(tmp_path: Path) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    loaded = read_manifest(path)
    path.write_text(CONFIGMAP)
    with pytest.raises(InputError, match="changed while"):
        write_atomic(loaded, ROLE_V1)
    assert path.read_text() == CONFIGMAP


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param("apiVersion: v1\nkind: [\n", id="invalid-yaml"),
        pytest.param(ROLE + "rules: []\n", id="duplicate-key"),
        pytest.param(ROLE + "? [a]\n: b\n", id="complex-key"),
        pytest.param(ROLE + "x: " + "[" * 1000 + "]" * 1000 + "\n", id="deep-nesting"),
    ],
)
def test_a_file_with_a_failed_document_is_never_written(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "mixed.yaml"
    path.write_text(ROLE + "---\n" + bad)
    outcome = migrate_file(path, in_place=True)
    assert not outcome.written
    assert any(f.level == "error" and f.line > 0 for f in outcome.findings)
    assert path.read_text() == ROLE + "---\n" + bad


def test_an_error_writing_one_file_costs_only_that_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (tmp_path / name).write_text(ROLE)
    real = os.replace

    def replace(src: str, dst: str) -> None:
        if str(dst).endswith("b.yaml"):
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    outcomes = list(migrate_paths([tmp_path], in_place=True))
    assert [(o.path.name, o.written) for o in outcomes] == [("a.yaml", True), ("b.yaml", False), ("c.yaml", True)]
    assert outcomes[1].error is not None and "No space left on device" in outcomes[1].error.message
    assert [(tmp_path / n).read_text() for n in ("a.yaml", "b.yaml", "c.yaml")] == [ROLE_V1, ROLE, ROLE_V1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml", "c.yaml"]  # no temporary file left


def test_a_crash_mid_run_leaves_every_file_old_or_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (tmp_path / name).write_text(ROLE)
    real = os.replace
    calls = []

    def replace(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the process dies while renaming the second file
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        list(migrate_paths([tmp_path], in_place=True))
    assert [(tmp_path / n).read_text() for n in ("a.yaml", "b.yaml", "c.yaml")] == [ROLE_V1, ROLE, ROLE]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml", "c.yaml"]
