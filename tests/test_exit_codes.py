"""Spec: a crash has its own exit code (issue 14, item 18).

0 nothing to do, 1 changed or would change, 2 usage error, 3 needs a human: a CI job reads
these. An internal error (an exception that escapes: a bug) must not look like 1, "pending
changes": it exits 4, after the traceback and a line saying it is a bug. SIGINT and SIGTERM
exit 130 and 143 (tests/test_interrupts.py). README and docs/usage.md say all of it.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from k8smigrate import cli, commands, console

ROOT = Path(__file__).resolve().parent.parent
ROLE = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"


@pytest.fixture
def main(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``cli.main`` tunes the collector for a short-lived process; give the test process its own back."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.fixture(params=["typer", "console"])
def entry(request: pytest.FixtureRequest) -> Callable[[], None]:
    """typer's parse (``cli.main``), and the console script's (``argv``'s fast path for these lines)."""
    return cli.main if request.param == "typer" else console.main


def run_main(monkeypatch: pytest.MonkeyPatch, main: Callable[[], None], *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["k8smigrate", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    return int(exc.value.code or 0)


def test_the_ordinary_codes_are_unchanged(
    main: None, entry: Callable[[], None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "role.yaml").write_text(ROLE)
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
    assert run_main(monkeypatch, entry, "diff", str(tmp_path / "role.yaml"), "--target-version", "1.22") == 1
    assert run_main(monkeypatch, entry, "diff", str(tmp_path / "cm.yaml"), "--target-version", "1.22") == 0
    assert run_main(monkeypatch, entry, "diff", str(tmp_path / "role.yaml"), "--target-version", "nope") == 2
    assert run_main(monkeypatch, entry, "diff", str(tmp_path / "missing.yaml"), "--target-version", "1.22") == 3


def test_an_internal_error_exits_4_with_the_traceback(
    main: None,
    entry: Callable[[], None],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    (tmp_path / "role.yaml").write_text(ROLE)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(commands, "_migrate", broken)
    assert (
        run_main(monkeypatch, entry, "diff", str(tmp_path / "role.yaml"), "--target-version", "1.22")
        == cli.EXIT_CRASH
        == 4
    )
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "RuntimeError: a bug" in err
    assert err.rstrip().endswith("please report it with the traceback above); exit code 4")


def test_the_docs_give_every_exit_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    assert "4 internal error" in readme and "130/143" in readme
    assert "Exit code **4**" in usage and "**130**" in usage and "**143**" in usage


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    "args",
    [
        ["scan", "{role}", "--target-version", "1.22"],
        ["diff", "{role}", "--target-version", "1.22"],
        ["apply", "{role}", "--target-version", "1.22"],
        ["list"],
        ["explain", "rbac_v1beta1"],
        ["--version"],
    ],
)
def test_a_stdout_that_cannot_take_the_output_exits_3_and_says_why(
    tmp_path: Path, args: list[str], buffered: bool
) -> None:
    # a full disk is not a bug: one line says why, as for an unwritable --output, and no traceback
    import os

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here to fill")
    (tmp_path / "role.yaml").write_text(ROLE)
    argv = [a.format(role=tmp_path / "role.yaml") for a in args]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"  # the write itself fails, not the flush at exit
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "k8smigrate", *argv], stdout=full, stderr=subprocess.PIPE, text=True, env=env
        )
    complaints = [line for line in proc.stderr.splitlines() if "cannot write" in line]
    assert (proc.returncode, complaints) == (3, ["k8smigrate: cannot write to stdout: No space left on device"])
    assert "Traceback" not in proc.stderr


def _started_without(fd: int, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``k8smigrate ARGS`` started with descriptor ``fd`` closed (``<&-``, ``>&-``, ``2>&-``)."""
    import os

    pipes = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    del pipes[("stdin", "stdout", "stderr")[fd]]  # the closed one is not given a pipe
    return subprocess.run(
        [sys.executable, "-m", "k8smigrate", *args],
        cwd=cwd,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(fd),  # only a close, before exec
        **pipes,  # type: ignore[arg-type]
    )


def test_a_closed_stdin_is_a_file_not_read(tmp_path: Path) -> None:
    proc = _started_without(0, ["apply", "-", "--target-version", "1.22"], tmp_path)
    assert proc.returncode == 3
    assert "<stdin>: error K8SM-GEN-013 stdin is closed; not read" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_closed_stdout_fails_only_a_command_that_writes_there(tmp_path: Path) -> None:
    (tmp_path / "role.yaml").write_text(ROLE)
    check, write = (
        ["apply", "--check", "role.yaml", "--target-version", "1.22"],
        ["apply", "role.yaml", "--target-version", "1.22"],
    )
    quiet, loud = (_started_without(1, args, tmp_path) for args in (check, write))
    assert quiet.returncode == 1 and "cannot write" not in quiet.stderr  # writes nothing to stdout
    assert loud.returncode == 3
    assert "k8smigrate: cannot write to stdout: stdout is closed" in loud.stderr
    assert "Traceback" not in loud.stderr


def test_a_closed_stderr_keeps_the_exit_code(tmp_path: Path) -> None:
    (tmp_path / "role.yaml").write_text(ROLE)
    codes = [
        _started_without(2, ["apply", "--check", "role.yaml", "--target-version", v], tmp_path).returncode
        for v in ("1.22", "x")
    ]
    assert codes == [1, 2]  # changed; a usage error
