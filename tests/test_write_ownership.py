"""Spec: an in-place write keeps what the file was, or does not happen (issue 14, item 19).

- Owner and group are kept where the process may set them (root: always; a member of the
  file's group: the group); what could not be kept is a warning (K8SM-GEN-018) naming both.
- A file with other hard links is not written (error K8SM-GEN-013, file unchanged): the
  rename would leave the other names on the old text. ``--break-hardlinks`` writes it anyway.
- A read-only file (no write permission for this process, or no ``w`` bit at all) is not
  written (error K8SM-GEN-013); ``--force-readonly`` writes it and keeps its mode.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate.api import migrate_file
from k8smigrate.cli import app
from k8smigrate.files import WritePolicy

ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"
ROLE_V1 = ROLE.replace("v1beta1", "v1")
root_only = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to own files as others"
)
NOBODY, GROUP, OTHER = 65534, 4242, 12345


def apply(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["apply", "--in-place", *args, "--target-version", "1.22"])
    return result.exit_code, result.stderr


# ------------------------------------------------------------------ ordinary files


def test_an_ordinary_file_is_written_without_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    code, err = apply(str(path))
    assert code == 1 and "K8SM-GEN-018" not in err and "K8SM-GEN-013" not in err
    assert path.read_text() == ROLE_V1


# ------------------------------------------------------------------ hard links


def test_a_hard_linked_file_is_not_split(tmp_path: Path) -> None:
    path, twin = tmp_path / "role.yaml", tmp_path / "elsewhere.txt"
    path.write_text(ROLE)
    os.link(path, twin)
    code, err = apply(str(path))
    assert code == 3
    message = "has 2 hard links; rewriting it would split them (not written; --break-hardlinks writes it)"
    assert f"{path}: error K8SM-GEN-013 {message}" in err
    assert path.read_text() == twin.read_text() == ROLE
    assert path.stat().st_ino == twin.stat().st_ino


def test_break_hardlinks_writes_a_new_file_and_the_other_name_keeps_the_old_text(tmp_path: Path) -> None:
    path, twin = tmp_path / "role.yaml", tmp_path / "elsewhere.txt"
    path.write_text(ROLE)
    os.link(path, twin)
    code, _ = apply("--break-hardlinks", str(path))
    assert code == 1
    assert path.read_text() == ROLE_V1 and twin.read_text() == ROLE
    assert path.stat().st_nlink == twin.stat().st_nlink == 1


def test_the_library_takes_the_same_policy(tmp_path: Path) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    os.link(path, tmp_path / "twin.yaml")
    refused = migrate_file(path, in_place=True)
    assert not refused.written and refused.error is not None and "hard links" in refused.error.message
    allowed = migrate_file(path, in_place=True, write_policy=WritePolicy(break_hardlinks=True))
    assert allowed.written and allowed.error is None


# ------------------------------------------------------------------ read-only files


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o555])
def test_a_read_only_file_is_not_written(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    path.chmod(mode)
    code, err = apply(str(path))
    assert code == 3
    assert (
        f"{path}: error K8SM-GEN-013 read-only file (mode {mode:04o}); not written (--force-readonly writes it)" in err
    )
    assert path.read_text() == ROLE


def test_the_json_report_lists_the_refusal_with_the_file_too(tmp_path: Path) -> None:
    """A file migrated but not written says why in its own findings (as ``errors[]`` does)."""
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    path.chmod(0o444)
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.22", "--format", "json", str(path)])
    report = json.loads(result.stdout)
    (entry,) = report["files"]
    assert entry["changed"] and not entry["written"]
    assert [f["code"] for f in entry["findings"] if f["level"] == "error"] == ["K8SM-GEN-013"]
    assert [e["code"] for e in report["errors"]] == ["K8SM-GEN-013"]


def test_each_document_the_refusal_keeps_unchanged_is_named(tmp_path: Path) -> None:
    path = tmp_path / "roles.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n" + ROLE)
    path.chmod(0o444)
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.22", "--format", "json", str(path)])
    (entry,) = json.loads(result.stdout)["files"]
    assert [(f["code"], f["document"]) for f in entry["findings"] if f["level"] == "error"] == [("K8SM-GEN-013", 1)]


def test_force_readonly_writes_it_and_keeps_the_mode(tmp_path: Path) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    path.chmod(0o444)
    code, _ = apply("--force-readonly", str(path))
    assert code == 1
    assert path.read_text() == ROLE_V1
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


# ------------------------------------------------------------------ owner and group


@root_only
def test_root_keeps_another_users_owner_and_group(tmp_path: Path) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    os.chown(path, OTHER, GROUP)
    path.chmod(0o640)
    code, err = apply(str(path))
    assert code == 1 and "K8SM-GEN-018" not in err
    st = path.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (OTHER, GROUP, 0o640)


def test_an_owner_that_cannot_be_kept_is_a_warning_naming_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "role.yaml"
    path.write_text(ROLE)
    here = path.stat()
    calls: list[tuple[int, int]] = []
    real_fstat = os.fstat

    def fstat(fd: int) -> os.stat_result:  # the new file looks like another user's, as for non-root
        st = real_fstat(fd)
        if stat.S_ISREG(st.st_mode) and not calls:
            return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, NOBODY, NOBODY, *st[6:]))
        return st

    def fchown(fd: int, uid: int, gid: int) -> None:
        calls.append((uid, gid))
        if uid != -1:
            raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fstat", fstat)
    monkeypatch.setattr(os, "fchown", fchown)
    outcome = migrate_file(path, in_place=True)
    assert outcome.written
    assert calls == [(here.st_uid, here.st_gid), (-1, here.st_gid)]  # both, then the group alone
    (warning,) = [f for f in outcome.findings if f.code == "K8SM-GEN-018"]
    assert warning.level == "warning" and warning.message.startswith("written, but its owner could not be kept (was ")


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder every user may enter and write (pytest's own is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="k8smigrate-owner-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder)


def as_user(uid: int, gid: int, groups: list[int], work: Callable[[], dict[str, object]]) -> dict[str, object]:
    """``work()`` in a forked child that dropped to ``uid`` (modules are imported before)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read)
        try:
            os.setgroups(groups)
            os.setgid(gid)
            os.setuid(uid)
            answer = work()
        except BaseException:
            answer = {"crash": traceback.format_exc()}
        os.write(write, json.dumps(answer).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        data = fh.read()
    os.waitpid(pid, 0)
    answer: dict[str, object] = json.loads(data)
    assert "crash" not in answer, answer["crash"]
    return answer


def migrate_as_user(path: Path) -> Callable[[], dict[str, object]]:
    def work() -> dict[str, object]:
        outcome = migrate_file(path, in_place=True)
        return {"written": outcome.written, "findings": [f.format() for f in outcome.findings]}

    return work


@root_only
@pytest.mark.parametrize(("groups", "kept_group", "lost"), [([GROUP], True, "owner"), ([], False, "owner and group")])
def test_a_user_keeps_the_group_where_a_member_and_is_told_what_was_lost(
    shared_folder: Path, groups: list[int], kept_group: bool, lost: str
) -> None:
    path = shared_folder / "role.yaml"
    path.write_text(ROLE)
    os.chown(path, 0, GROUP)
    path.chmod(0o666)
    migrate_file(path)  # a dry run first: imports everything the child needs
    answer = as_user(NOBODY, NOBODY, groups, migrate_as_user(path))
    assert answer["written"] is True
    st = path.stat()
    assert (st.st_uid, st.st_gid) == (NOBODY, GROUP if kept_group else NOBODY)
    assert stat.S_IMODE(st.st_mode) == 0o666
    now = f"{NOBODY}:{GROUP if kept_group else NOBODY}"
    assert answer["findings"] == [
        f"{path}: warning K8SM-GEN-018 written, but its {lost} could not be kept (was 0:{GROUP}, now {now})"
    ]


@root_only
def test_a_file_the_user_may_not_write_is_read_only_for_that_user(shared_folder: Path) -> None:
    path = shared_folder / "role.yaml"
    path.write_text(ROLE)
    path.chmod(0o644)  # root's: the folder would allow the rename, the file does not allow writing
    migrate_file(path)  # a dry run first: imports everything the child needs
    answer = as_user(NOBODY, NOBODY, [], migrate_as_user(path))
    assert answer["written"] is False
    assert answer["findings"] == [
        f"{path}: error K8SM-GEN-013 read-only file (mode 0644); not written (--force-readonly writes it)"
    ]
    assert path.read_text() == ROLE and path.stat().st_uid == 0
