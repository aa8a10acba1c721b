"""Spec: a short CLI run imports only what its command needs (issue 19's start-up cost).

No timing here (that is ``bench/``): these look at which modules a fresh process has loaded
once a command is done, so a heavy import that creeps back into every start fails a test
instead of going unnoticed until the next benchmark.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from k8smigrate import entrypoints
from k8smigrate.registry import discover
from k8smigrate.yamlio import fastbuild
from tests.library_sources import module_names

PROBE = """
import sys
from k8smigrate.console import main
sys.argv = ["k8smigrate", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
sys.stdout.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""

NOT_NEEDED = (
    "pydantic",  # typer 0.29 coerces parameters with it (pyproject keeps typer below)
    "jsonpatch",  # RFC 6902 patches, for reports only
    "deepdiff",
    "rich",  # the progress bar, on a terminal only
    "multiprocessing",  # worker processes, for large inputs only
    "concurrent.futures.process",
    "k8smigrate.sarif",
    "k8smigrate.markdown",
    "importlib.metadata",  # entry points, only when some distribution declares ours (entrypoints.py)
    "json",  # JSON reports and list --format json
    "csv",  # the removal table is split on tabs (lifecycles._rows)
    "k8smigrate.catalog",  # list and explain
    "k8smigrate.sharing",  # documents with anchors and aliases
    "typer",  # a plain command line is parsed by argv (tests/test_argv.py); typer for the rest
    "k8smigrate.cli",
)

INGRESS = """apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
spec:
  backend:
    serviceName: web
    servicePort: 80
"""


def loaded(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> set[str]:
    """The modules of a fresh process after ``k8smigrate ARGS`` (run in ``cwd``)."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120, env=env, cwd=cwd
    )
    line = proc.stdout.rsplit("\nMODULES ", 1)[1]
    return set(line.split())


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for i in range(20):  # more files than a serial run is decided on by count alone
        (tmp_path / f"m{i:02d}.yaml").write_text(INGRESS if i % 2 else "apiVersion: v1\nkind: ConfigMap\n")
    return tmp_path


@pytest.mark.parametrize(
    "command",
    [["apply", "--check"], ["scan"], ["diff"], ["apply", "--check", "--jobs", "2"]],
    ids=["apply-check", "scan", "diff", "apply-check-jobs-2"],
)
def test_a_run_on_a_small_repository_imports_nothing_it_does_not_need(repo: Path, command: list[str]) -> None:
    modules = loaded(*command, str(repo), "--target-version", "1.22", "--color", "never")
    assert "k8smigrate.engine" in modules  # the probe ran the command
    assert sorted(m for m in NOT_NEEDED if m in modules) == []


@pytest.mark.parametrize("command", [["apply", "--check"], ["scan"]], ids=["apply-check", "scan"])
def test_a_run_that_shows_no_diff_and_has_no_bug_imports_neither_difflib_nor_traceback(
    repo: Path, command: list[str]
) -> None:
    modules = loaded(*command, str(repo), "--target-version", "1.22", "--color", "never")
    assert "k8smigrate.engine" in modules  # the probe ran the command
    assert sorted(m for m in ("difflib", "traceback", "textwrap") if m in modules) == []


RUAMEL = ("ruamel", "_ruamel_yaml", "k8smigrate.yamlio.events", "k8smigrate.yamlio.pybuild")
"""ruamel.yaml and the modules that read with it: with the C builder, only what it declines needs them."""


@pytest.mark.skipif(
    not fastbuild.ACTIVE and os.environ.get("K8SMIGRATE_REQUIRE_FASTBUILD") != "1",
    reason="the C tree builder is not built (a C compiler at install time)",
)
@pytest.mark.parametrize("command", [["apply", "--check"], ["scan"], ["diff"]], ids=["apply-check", "scan", "diff"])
def test_a_run_over_valid_yaml_does_not_import_ruamel(repo: Path, command: list[str]) -> None:
    modules = loaded(*command, str(repo), "--target-version", "1.22", "--color", "never")
    assert "k8smigrate.yamlio.fastbuild" in modules and "k8smigrate.engine" in modules
    assert sorted(m for m in modules if m.startswith(RUAMEL)) == []


# ------------------------------------------------------------------ typing: its names come from runtime_typing

NEEDS_TYPING = (
    "k8smigrate.cli",  # typer reads the commands' annotations
    "k8smigrate.templating.",  # NamedTuple classes (a chart's run reads with them)
    *RUAMEL,  # ruamel.yaml imports typing
)
"""Modules that import ``typing`` at run time; any other module of the package must not."""

EVERY_MODULE = """
import sys
for name in sys.argv[1:]:
    __import__(name)
    if "typing" in sys.modules:
        print("TYPING AFTER", name)
        break
else:
    print("DONE", len(sys.argv) - 1)
"""


@pytest.mark.parametrize("command", [["apply", "--check"], ["scan"], ["diff"]], ids=["apply-check", "scan", "diff"])
def test_a_run_over_plain_manifests_does_not_import_typing(repo: Path, command: list[str]) -> None:
    # run in the repository: a pyproject.toml in the working folder is read with tomllib, which imports typing
    modules = loaded(*command, str(repo), "--target-version", "1.22", "--color", "never", cwd=repo)
    assert "k8smigrate.engine" in modules  # the probe ran the command
    assert "typing" not in modules
    assert "k8smigrate.runtime_typing" in modules


def test_no_module_a_plain_run_may_import_imports_typing(tmp_path: Path) -> None:
    """Each migration's and check's module is imported by the first document that needs it, so
    every module but those that need typing is looked at, not only those one run imports."""
    names = [name for name in module_names() if not name.startswith(NEEDS_TYPING)]
    proc = subprocess.run(
        [sys.executable, "-c", EVERY_MODULE, *names],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("DONE"), proc.stdout
    assert int(proc.stdout.split()[1]) > 200  # the package's modules were listed


def test_the_stand_ins_take_what_the_library_writes() -> None:
    """What ``runtime_typing`` gives at run time (mypy sees typing's own names)."""
    from k8smigrate import runtime_typing as rt

    assert rt.TYPE_CHECKING is False
    T = rt.TypeVar("T")

    class Box(rt.Generic[T]):
        pass

    class Shape(rt.Protocol):
        pass

    assert Box[int] is Box and issubclass(Shape, rt.Generic)
    assert rt.Literal["a", "b"] is rt.Any and (rt.Any | None) is not None


def test_without_the_c_builder_ruamel_reads_and_the_output_is_the_same(repo: Path) -> None:
    args = ("diff", str(repo), "--target-version", "1.22", "--color", "never")
    pure = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "K8SMIGRATE_PURE": "1"},
    )
    usual = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    assert "ruamel.yaml" in pure.stdout.rsplit("\nMODULES ", 1)[1].split()
    assert pure.stdout.rsplit("\nMODULES ", 1)[0] == usual.stdout.rsplit("\nMODULES ", 1)[0]
    assert pure.stderr == usual.stderr and "networking.k8s.io/v1" in pure.stdout


def test_a_command_line_argv_cannot_read_is_parsed_by_typer(repo: Path) -> None:
    modules = loaded("scan", str(repo), "--jobs", "1", "-j", "1")  # an option given twice
    assert "typer" in modules
    assert "k8smigrate.engine" in modules


def test_a_json_report_imports_what_it_needs(repo: Path) -> None:
    modules = loaded("diff", str(repo), "--target-version", "1.22", "--format", "json")
    assert "jsonpatch" in modules  # the patches of the report


# ------------------------------------------------------------------ entry points, found without importlib.metadata

THIRDPARTY = Path(__file__).resolve().parent / "fixtures" / "thirdparty"


def dist_info(site: Path, name: str, entry_points: str | None) -> None:
    """An installed distribution as pip leaves it: a ``NAME-VERSION.dist-info`` folder."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)


def test_distributions_without_our_group_are_not_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist_info(tmp_path, "plain", None)
    dist_info(tmp_path, "tool", "[console_scripts]\ntool = tool:main\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert not entrypoints.declared()


def test_a_dist_info_declaring_the_group_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist_info(tmp_path, "k8smigrate_widgets", "[k8smigrate.migrations]\nwidgets = k8smigrate_widgets\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert entrypoints.declared()


def test_the_group_is_found_beside_bytes_that_are_not_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the files are searched as bytes: what a text search with errors="replace" would find
    dist_info(tmp_path, "k8smigrate_widgets", None)
    text = b"[console_scripts]\nw = w:main \xff\xe2\n[k8smigrate.migrations]\xc3\nwidgets = k8smigrate_widgets\n"
    (tmp_path / "k8smigrate_widgets-1.0.dist-info" / "entry_points.txt").write_bytes(text)
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert entrypoints.declared()


def test_an_egg_info_declaring_the_group_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = tmp_path / "k8smigrate_widgets.egg-info"
    info.mkdir()
    (info / "entry_points.txt").write_text("[k8smigrate.migrations]\nwidgets = k8smigrate_widgets\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert entrypoints.declared()


def test_a_zip_on_the_path_is_left_to_importlib_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "bundle.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip: the scan cannot see inside one
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert entrypoints.declared()


def test_a_fake_installed_plugin_is_loaded_by_the_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist_info(tmp_path, "k8smigrate_widgets", "[k8smigrate.migrations]\nwidgets = k8smigrate_widgets\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(THIRDPARTY))
    assert "widgets_v1alpha1" in [m.name for m in discover()]


def test_a_short_run_with_a_plugin_installed_reads_its_entry_points(repo: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    dist_info(site, "k8smigrate_widgets", "[k8smigrate.migrations]\nwidgets = k8smigrate_widgets\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(THIRDPARTY)])}
    modules = loaded("list", env=env)
    assert "importlib.metadata" in modules
    assert "k8smigrate_widgets" in modules


# ------------------------------------------------------------------ only the command asked for is built

RUN = """
import sys
from k8smigrate import cli
whole = sys.argv[1] == "whole"
sys.argv = ["k8smigrate", *sys.argv[2:]]
try:
    cli.app(prog_name="k8smigrate") if whole else cli.main()
except SystemExit as exc:
    sys.stdout.write(f"\\nEXIT {exc.code}\\n")
"""


@pytest.mark.parametrize(
    "args",
    [["apply", "--help"], ["scan", "-h"], ["diff", "--bogus"], ["apply"], ["list", "--help"], ["explain", "--help"]],
    ids=["apply-help", "scan-h", "diff-bad-option", "apply-no-path", "list-help", "explain-help"],
)
def test_a_command_built_alone_says_what_the_whole_app_says(args: list[str]) -> None:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}

    def run(how: str) -> tuple[str, str]:
        proc = subprocess.run([sys.executable, "-c", RUN, how, *args], capture_output=True, text=True, env=env)
        return proc.stdout, proc.stderr

    assert run("lean") == run("whole")


def test_a_command_line_naming_its_command_builds_only_that_one() -> None:
    import typer

    from k8smigrate.cli import app, app_for

    whole = typer.main.get_command(app)
    assert isinstance(whole, typer.core.TyperGroup)
    for name in ("scan", "diff", "apply", "list", "explain"):
        lean = typer.main.get_command(app_for([name, "x.yaml"]))
        assert isinstance(lean, typer.core.TyperGroup)
        assert list(lean.commands) == [name]
        assert described(lean.commands[name]) == described(whole.commands[name])
        assert [p.name for p in lean.params] == [p.name for p in whole.params]  # --version, completion, --help


def described(command: Any) -> list[object]:
    """What a click command is: its help and each parameter's names, default, type and help."""
    params = [
        (
            p.name,
            p.opts,
            p.secondary_opts,
            p.required,
            p.default,
            p.nargs,
            type(p.type),
            getattr(p.type, "choices", None),
            getattr(p, "help", None),
        )
        for p in command.params
    ]
    return [command.name, command.help, command.short_help, params]


@pytest.mark.parametrize("argv", [[], ["--help"], ["--version"], ["aply", "x.yaml"], ["x.yaml", "apply"]])
def test_any_other_command_line_gets_the_whole_app(argv: list[str]) -> None:
    from k8smigrate.cli import app, app_for

    assert app_for(argv) is app


def test_shell_completion_gets_the_whole_app(monkeypatch: pytest.MonkeyPatch) -> None:
    from k8smigrate.cli import app, app_for

    monkeypatch.setenv("_K8SMIGRATE_COMPLETE", "complete_bash")
    assert app_for(["apply"]) is app


@pytest.mark.parametrize("command", [["apply", "--check"], ["diff"]], ids=["apply-check", "diff"])
def test_a_rewriting_run_does_not_import_scan(repo: Path, command: list[str]) -> None:
    modules = loaded(*command, str(repo), "--target-version", "1.22", "--color", "never")
    assert "k8smigrate.engine" in modules  # the probe ran the command
    assert "k8smigrate.scan" not in modules  # scan's rows and table: only scan needs them


def test_the_package_still_exports_scan_entry() -> None:
    import k8smigrate
    from k8smigrate.scan import ScanEntry

    assert k8smigrate.ScanEntry is ScanEntry
    assert "ScanEntry" in k8smigrate.__all__


# ------------------------------------------------------------------ the console scripts import the CLI with GC paused

FRESH = """
import sys
import {module}
print(" ".join(sorted(m for m in sys.modules if m.startswith("k8smigrate"))))
"""


def fresh_modules(module: str) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-c", FRESH.format(module=module)], capture_output=True, text=True, check=True
    )
    return proc.stdout.split()


def test_the_console_module_imports_nothing_of_the_library() -> None:
    # so that cli and the library are imported inside console.main, with the collector paused
    # (runtime_typing: typing's names for annotations, a module of stand-ins that builds nothing)
    assert fresh_modules("k8smigrate.console") == ["k8smigrate", "k8smigrate.console", "k8smigrate.runtime_typing"]


def test_the_package_imports_its_names_on_first_use() -> None:
    assert fresh_modules("k8smigrate") == ["k8smigrate"]
    import k8smigrate
    from k8smigrate.api import migrate_text

    assert k8smigrate.migrate_text is migrate_text
    assert set(k8smigrate.__all__) <= set(dir(k8smigrate))
    assert all(getattr(k8smigrate, name) is not None for name in k8smigrate.__all__)


def test_the_console_scripts_are_the_console_module() -> None:
    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'k8smigrate = "k8smigrate.console:script"' in text
    assert 'kubectl-k8smigrate = "k8smigrate.console:kubectl_script"' in text
    main = (Path(__file__).resolve().parent.parent / "k8smigrate" / "__main__.py").read_text(encoding="utf-8")
    assert "script()" in main  # python -m k8smigrate ends as the script does


# ------------------------------------------------------------------ ending the process at once

AT_ONCE = """
import atexit, sys
from k8smigrate import console
atexit.register(lambda: print("teardown ran", file=sys.stderr, flush=True))
def entry():
    print("out", end="")  # still in the buffer when the process ends
    print("err", end="", file=sys.stderr)
    {body}
console.exit_at_once(entry)
"""


BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
"""The environment with a pipe's stdout buffered, as it is by default: "out" stays in the buffer."""


@pytest.mark.parametrize(
    ("body", "status", "stderr"),
    [
        ("pass", 0, "err"),
        ("sys.exit(None)", 0, "err"),
        ("sys.exit(3)", 3, "err"),
        ("sys.exit(-1)", 255, "err"),
        ("sys.exit('no such thing')", 1, "errno such thing\n"),  # printed, as Python prints it
    ],
)
def test_the_scripts_end_with_the_status_sys_exit_gives_the_output_flushed(body: str, status: int, stderr: str) -> None:
    run = [sys.executable, "-c", AT_ONCE.format(body=body)]
    proc = subprocess.run(run, capture_output=True, text=True, timeout=60, env=BUFFERED)
    assert (proc.returncode, proc.stdout, proc.stderr) == (status, "out", stderr)  # no teardown: atexit did not run


def test_a_reader_that_left_gives_1_and_no_message() -> None:
    # the output is still in the buffer when the reader leaves: the flush at the end finds it gone
    probe = AT_ONCE.format(body="sys.stdin.readline()")
    proc = subprocess.Popen(
        [sys.executable, "-c", probe],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=BUFFERED,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    proc.stdin.write(b"go on\n")
    proc.stdin.close()
    with proc.stderr:
        assert (proc.wait(timeout=60), proc.stderr.read()) == (1, b"err")


UNWRITABLE = """
import atexit, errno, io, sys
from k8smigrate import console
class Full(io.StringIO):
    def flush(self):
        raise OSError(errno.ENOSPC, "No space left on device")
def entry():
    sys.stdout = Full()
    sys.exit(3)
console.exit_at_once(entry)
"""


def test_an_output_that_cannot_be_written_gives_3_and_says_why() -> None:
    # as a command that cannot write its output ends (an unwritable --output, a full stdout)
    proc = subprocess.run([sys.executable, "-c", UNWRITABLE], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stderr) == (3, "k8smigrate: cannot write to stdout: No space left on device\n")


def test_the_installed_script_ends_at_once(repo: Path) -> None:
    # a whole run through the console script: its output and status are main's
    args = ["scan", str(repo), "--target-version", "1.22", "--color", "never"]
    script = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom k8smigrate.console import script\nsys.argv=['k8smigrate',*sys.argv[1:]]\nscript()",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    usual = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom k8smigrate.console import main\nsys.argv=['k8smigrate',*sys.argv[1:]]\nmain()",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (script.returncode, script.stdout, script.stderr) == (usual.returncode, usual.stdout, usual.stderr)
    assert script.returncode == 1 and "fixable by apply" in script.stderr


def test_the_console_main_leaves_the_collector_as_it_found_it() -> None:
    probe = (
        "import gc, sys\n"
        "from k8smigrate import console\n"
        "sys.argv = ['k8smigrate', '--version']\n"
        "try:\n    console.main()\nexcept SystemExit:\n    pass\n"
        "print(gc.isenabled())\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["k8smigrate", "0.1.0", "True"]


# ------------------------------------------------------------------ run from a source checkout, or half installed

ROOT = Path(__file__).resolve().parent.parent

FROM_SOURCE = """
import sys
# only the checkout's own folder finds the package: not an install's mapping of migrations/
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in str(getattr(f, "__module__", ""))]
sys.path.insert(0, sys.argv.pop(1))
from k8smigrate.console import main
import k8smigrate
assert k8smigrate.__file__.startswith(sys.path[0]), k8smigrate.__file__
sys.argv = ["k8smigrate", *sys.argv[1:]]
main()
"""


def test_a_source_checkout_run_as_python_m_finds_its_migrations(repo: Path) -> None:
    # python -m k8smigrate in the repository's folder imports the package from there, where
    # only an install maps migrations/ to k8smigrate.migrations: it was an "internal error"
    args = ("scan", str(repo), "--target-version", "1.22", "--color", "never")
    proc = subprocess.run([sys.executable, "-c", FROM_SOURCE, str(ROOT), *args], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr  # would change: every migration was found
    assert "internal error" not in proc.stderr
    assert "10 fixable by apply" in proc.stderr


WITHOUT = """
import sys
sys.modules[sys.argv.pop(1)] = None  # not installed: importing it raises ModuleNotFoundError
from k8smigrate.console import main
sys.argv = ["k8smigrate", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize(
    ("missing", "args"),
    [
        ("typer", ("--help",)),  # typer parses it
        ("ruamel", ("scan", "--target-version", "1.22", "-")),  # argv parses it, a reader needs ruamel
    ],
)
def test_a_package_k8smigrate_needs_but_not_installed_is_named_not_called_a_bug(
    missing: str, args: tuple[str, ...]
) -> None:
    env = {**os.environ, "K8SMIGRATE_PURE": "1"}  # the pure reader: ruamel reads
    proc = subprocess.run(
        [sys.executable, "-c", WITHOUT, missing, *args], input=INGRESS, capture_output=True, text=True, env=env
    )
    assert proc.returncode == 4
    package = {"typer": "typer", "ruamel": "ruamel.yaml"}[missing]
    assert f"k8smigrate: the package {package} is not installed, and k8smigrate needs it" in proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


def test_the_console_exit_code_for_a_missing_package_is_the_crash_code() -> None:
    from k8smigrate import dependencies, exits

    assert dependencies.EXIT_CRASH == exits.EXIT_CRASH


# ------------------------------------------------------------------ inspect, imported when first used

DEFERRED = """
import sys
for name in ("pathlib", "urllib.parse", "urllib", "ipaddress"):  # an editable install's hook imports them at start
    sys.modules.pop(name, None)
from k8smigrate import console
sys.argv = ["k8smigrate", *sys.argv[1:]]
try:
    console.main()
except SystemExit:
    pass
inspect = sys.modules["inspect"]
print("imported" if "signature" in vars(inspect) else "deferred", file=sys.stderr)
ipaddress = sys.modules["ipaddress"]
print("imported" if "ip_address" in vars(ipaddress) else "deferred", file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["scan", "{examples}", "--target-version", "1.29"],
        ["apply", "--check", "{examples}", "--target-version", "1.29"],
        ["diff", "{examples}", "--target-version", "1.22", "--format", "json"],
    ],
)
def test_a_run_never_imports_inspect_nor_ipaddress(args: list[str]) -> None:
    # dataclasses imports inspect for one thing: the docstring of a class that has none;
    # urllib.parse (pathlib's) imports ipaddress for the host of a URL in brackets
    argv = [a.format(examples=ROOT / "examples") for a in args]
    proc = subprocess.run([sys.executable, "-c", DEFERRED, *argv], capture_output=True, text=True, timeout=120)
    assert proc.stderr.splitlines()[-2:] == ["deferred", "deferred"], proc.stderr


def test_typer_commands_import_inspect_when_they_use_it() -> None:
    proc = subprocess.run([sys.executable, "-c", DEFERRED, "--help"], capture_output=True, text=True, timeout=120)
    assert "Usage: k8smigrate" in proc.stdout
    assert proc.stderr.splitlines()[-2] == "imported"


def test_the_deferred_module_is_the_module_once_used() -> None:
    probe = (
        "import sys\n"
        "from k8smigrate.console import _defer_inspect\n"
        "_defer_inspect()\n"
        "import inspect as early\n"
        "from inspect import signature\n"  # reading a name imports it
        "import inspect\n"
        "print(inspect is sys.modules['inspect'], early.signature is signature, type(inspect).__name__)\n"
        "from urllib.parse import urlsplit\n"  # a URL with a host in brackets: urllib asks ipaddress
        "print(urlsplit('http://[::1]:80/').hostname, type(sys.modules['ipaddress']).__name__)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert proc.stdout.split() == ["True", "True", "module", "::1", "module"]


def test_every_dataclass_of_the_library_has_a_docstring() -> None:
    # one without makes dataclasses call inspect.signature while the library is imported
    import ast

    missing = []
    for folder in ("k8smigrate", "migrations"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ClassDef) or ast.get_docstring(node) is not None:
                    continue
                if any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                    missing.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert missing == []
