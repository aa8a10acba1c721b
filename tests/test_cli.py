"""Spec: the command line (docs/usage.md, docs/report-format.md).

Exit codes: 0 nothing to do, 1 changed / would change / scan findings at ``--fail-on``,
2 usage error, 3 needs a human (unreadable, invalid, binary or non-UTF-8 input, a decision
not given, a removed API left in place). 3 wins over 1, and the other files are still done.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import jsonpatch
import jsonschema
import pytest
import yaml
from typer.testing import CliRunner, Result

import k8smigrate
from k8smigrate import registry as registry_module
from k8smigrate.cli import app
from k8smigrate.codes import GENERAL
from k8smigrate.model import Step
from k8smigrate.registry import Registry, discover
from k8smigrate.terminal import use_color

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "report.schema.json"
THIRDPARTY = Path(__file__).resolve().parent / "fixtures" / "thirdparty"

INGRESS = """\
# the public web ingress
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
spec:
  backend:
    serviceName: web  # the frontend
    servicePort: 80
"""
INGRESS_V1 = """\
# the public web ingress
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  defaultBackend:
    service:
      name: web  # the frontend
      port:
        number: 80
"""
ROLE = """\
apiVersion: rbac.authorization.k8s.io/v1beta1
kind: Role
metadata:
  name: reader
rules: []
"""
CONFIGMAP = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: "on"
"""
PSP = """\
apiVersion: policy/v1beta1
kind: PodSecurityPolicy
metadata:
  name: restricted
spec: {}
"""
WIDGET = """\
apiVersion: widgets.example.com/v1alpha1
kind: Widget
metadata:
  name: w
spec:
  size: 3  # three of them
"""
INVALID = "apiVersion: v1\nkind: ConfigMap\ndata: [\n"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in its own folder: config files are searched from the working directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)


def cli(*args: str, input: bytes | str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=input)


def write(path: Path | str, text: str | bytes) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_bytes(text.encode("utf-8"))
    return p


@pytest.fixture
def widgets(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The registry as a package shipping the example Widget migration would make it (an entry point)."""
    monkeypatch.syspath_prepend(str(THIRDPARTY))
    ep = metadata.EntryPoint(name="widgets", value="k8smigrate_widgets", group="k8smigrate.migrations")
    real = metadata.entry_points

    def entry_points(**kwargs: Any) -> Any:
        if kwargs.get("group") == "k8smigrate.migrations":
            return metadata.EntryPoints([ep])
        return real(**kwargs)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    monkeypatch.setattr(registry_module, "declared", lambda: True)  # no dist-info here
    reg = Registry(discover())
    monkeypatch.setattr(registry_module, "_REGISTRY", reg)
    return reg


# ------------------------------------------------------------------ version, help, entry points


def test_version() -> None:
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"k8smigrate {k8smigrate.__version__}\n"


def test_help_lists_every_command_and_completion() -> None:
    result = cli("--help")
    assert result.exit_code == 0
    for command in ("scan", "diff", "apply", "list", "explain", "--install-completion", "--show-completion"):
        assert command in result.stdout


def test_unknown_command_and_option_are_usage_errors() -> None:
    assert cli("frobnicate").exit_code == 2
    assert cli("diff", "--no-such-option", ".").exit_code == 2
    assert cli("diff").exit_code == 2  # PATH is required
    assert cli("scan", ".", "--format", "xml").exit_code == 2
    assert cli("diff", ".", "--color", "sometimes").exit_code == 2


def _console_script() -> str | None:
    return shutil.which("k8smigrate", path=str(Path(sys.executable).parent))


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    write("web.yaml", INGRESS)
    proc = subprocess.run(
        [sys.executable, "-m", "k8smigrate", "diff", "web.yaml", "--target-version", "1.22"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert "+apiVersion: networking.k8s.io/v1\n" in proc.stdout
    assert proc.stderr.splitlines()[-1] == "1 file, 1 would change, 0 errors, 0 warnings, 0 info"


def test_console_script_applies_from_stdin_without_a_terminal(tmp_path: Path) -> None:
    script = _console_script()
    if script is None:
        pytest.skip("the k8smigrate console script is not installed beside this Python")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = subprocess.run(
        [script, "apply", "-", "--target-version", "1.22", "--color", "auto"],
        input=INGRESS.encode(),
        capture_output=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout.decode() == INGRESS_V1  # no colour codes in a pipe
    assert b"\x1b[" not in proc.stderr


def test_shell_completion_completes_commands_and_options(tmp_path: Path) -> None:
    def complete(words: str) -> list[str]:
        env = dict(os.environ, _K8SMIGRATE_COMPLETE="complete_bash", COMP_WORDS=words)
        env["COMP_CWORD"] = str(len(words.split()) - 1)
        proc = subprocess.run(
            [sys.executable, "-m", "k8smigrate"],
            env=env,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=True,
        )
        return proc.stdout.split()

    assert complete("k8smigrate di") == ["diff"]
    assert complete("k8smigrate apply --in") == ["--in-place"]


# ------------------------------------------------------------------ list, explain


def test_list() -> None:
    result = cli("list")
    assert result.exit_code == 0
    line = next(x for x in result.stdout.splitlines() if x.startswith("ingress_networking_v1beta1 "))
    assert line.split() == [
        "ingress_networking_v1beta1",
        "1.19",
        "1.22",
        "networking.k8s.io/v1beta1",
        "→",
        "v1",
        "Ingress",
    ]


def test_list_json() -> None:
    result = cli("list", "--format", "json")
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert rows["ingress_networking_v1beta1"]["from"] == "networking.k8s.io/v1beta1"
    assert rows["ingress_networking_v1beta1"]["removedIn"] == "1.22"
    assert set(rows) == set(k8smigrate.default_registry().names())


def test_explain() -> None:
    result = cli("explain", "ingress_networking_v1beta1")
    assert result.exit_code == 0
    assert result.stdout.startswith(
        "ingress_networking_v1beta1: Ingress networking.k8s.io/v1beta1 → networking.k8s.io/v1\n"
    )
    assert "\nFindings:\n" in result.stdout


def test_explain_shows_decisions(widgets: Registry) -> None:
    result = cli("explain", "widgets_v1alpha1")
    assert result.exit_code == 0
    assert "  --set widgetMode=fast|safe  fast skips the safety checks; safe keeps them." in result.stdout


def test_explain_a_decision_says_what_it_settles_and_who_asks_for_it() -> None:
    lines = cli("explain", "sideEffects").stdout.splitlines()
    assert (
        lines[0] == "sideEffects: a decision (--set sideEffects=None|NoneOnDryRun, no default: a finding asks for it)"
    )
    assert lines[-1] == "Asked by: admissionregistration_v1beta1"
    lines = cli("explain", "unserved-kinds").stdout.splitlines()
    assert lines[0] == "unserved-kinds: a decision (--set unserved-kinds=keep|gate, default keep)"
    assert lines[-1] == "Asked by: the chart-level step (Helm charts)"


def test_explain_a_finding_code_says_its_level_meaning_and_who_reports_it() -> None:
    lines = cli("explain", "k8sm-apps-003").stdout.splitlines()  # as findings print it, or not
    assert lines[0] == "K8SM-APPS-003: info"
    assert "Reported by: workloads_apps_v1beta1; workloads_extensions_v1beta1" in lines
    assert lines[-1] == "(k8smigrate explain workloads_apps_v1beta1 says what it does)"
    lines = cli("explain", "K8SM-TPL-014").stdout.splitlines()
    assert lines[0] == "K8SM-TPL-014: warning" and lines[-1].startswith("Reported by: the template reader")
    lines = cli("explain", "K8SM-GEN-010").stdout.splitlines()
    assert lines[-1].startswith("Reported by: the core (any migration, or reading the input); ")


def test_explain_an_unknown_code_is_a_usage_error_that_says_so() -> None:
    result = cli("explain", "K8SM-XYZ-999")
    assert result.exit_code == 2
    assert "unknown finding code 'K8SM-XYZ-999'" in result.stderr


def test_explain_a_module_with_several_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = [
        Step(("Gadget",), "gadgets.example.com/v1beta1", "gadgets.example.com/v1", "1.20", name="gadgets"),
        Step(("GadgetClass",), "gadgets.example.com/v1beta1", "gadgets.example.com/v1", "1.21", name="gadgets"),
    ]
    monkeypatch.setattr(registry_module, "_REGISTRY", Registry(steps))
    lines = cli("explain", "gadgets").stdout.splitlines()
    assert lines[:4] == [
        "gadgets: Gadget gadgets.example.com/v1beta1 → gadgets.example.com/v1",
        "gadgets.example.com/v1 served from 1.20",
        "gadgets: GadgetClass gadgets.example.com/v1beta1 → gadgets.example.com/v1",
        "gadgets.example.com/v1 served from 1.21",
    ]


def test_explain_unknown_is_a_usage_error() -> None:
    result = cli("explain", "no_such_migration")
    assert result.exit_code == 2
    assert "unknown migration 'no_such_migration'" in result.stderr


# ------------------------------------------------------------------ scan


def test_scan_clean_exits_0() -> None:
    write("m/web.yaml", INGRESS_V1)
    write("m/cm.yaml", CONFIGMAP)
    result = cli("scan", "m", "--target-version", "1.22")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1] == (
        "2 files scanned: 0 documents on removed APIs, 0 on deprecated APIs, 0 readiness findings; "
        "0 errors, 0 warnings, 0 info; 0 fixable by apply, 0 need a human"
    )


def test_scan_removed_api_exits_1() -> None:
    write("web.yaml", INGRESS)
    result = cli("scan", "web.yaml", "--target-version", "1.22")
    assert result.exit_code == 1
    assert result.stdout == (
        "web.yaml:2: removed-api      Ingress web extensions/v1beta1 removed in 1.22 -> networking.k8s.io/v1 "
        "[k8smigrate: ingress_extensions_v1beta1 -> ingress_networking_v1beta1]\n"
    )


def test_scan_deprecated_fails_only_with_fail_on_deprecated() -> None:
    write("web.yaml", INGRESS)
    default = cli("scan", "web.yaml", "--target-version", "1.20", "--only", "ingress_extensions_v1beta1")
    assert default.exit_code == 1  # apply would migrate it (to networking.k8s.io/v1beta1), as apply --check says
    assert "deprecated in 1.14" in default.stdout
    skipped = ["--skip", "ingress_extensions_v1beta1"]  # nothing migrates it: a warning only
    assert cli("scan", "web.yaml", "--target-version", "1.20", *skipped).exit_code == 0
    assert cli("scan", "web.yaml", "--target-version", "1.20", *skipped, "--fail-on", "deprecated").exit_code == 1
    assert cli("scan", "web.yaml", "--target-version", "1.22", "--fail-on", "never").exit_code == 0


def test_scan_stdin() -> None:
    result = cli("scan", "-", "--target-version", "1.22", input=INGRESS)
    assert result.exit_code == 1
    assert result.stdout.startswith("<stdin>:2: removed-api      Ingress web extensions/v1beta1 removed in 1.22")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(INVALID, "invalid.yaml:4: error K8SM-GEN-005 invalid YAML", id="invalid-yaml"),
        pytest.param(b"\x00\x01\x02binary", "invalid.yaml: error K8SM-GEN-013 binary file", id="binary"),
        pytest.param(b"a: caf\xe9\n", "invalid.yaml:1: error K8SM-GEN-013 not UTF-8 (byte 0xe9)", id="latin-1"),
    ],
)
def test_scan_bad_input_exits_3_and_wins_over_1(content: str | bytes, message: str) -> None:
    write("invalid.yaml", content)
    write("web.yaml", INGRESS)
    result = cli("scan", "invalid.yaml", "web.yaml", "--target-version", "1.22")
    assert result.exit_code == 3
    assert message in result.stderr
    assert "web.yaml:2: removed-api      Ingress web" in result.stdout  # the other file is still scanned


def test_diff_reports_duplicate_keys_where_a_migration_reads_the_document() -> None:
    # scan reads documents by their text (fast); duplicate keys need the parser, so diff/apply report them
    write("invalid.yaml", "apiVersion: extensions/v1beta1\nkind: Ingress\nspec: {}\nspec: {}\n")
    result = cli("diff", "invalid.yaml", "--target-version", "1.22")
    assert result.exit_code == 3
    assert "invalid.yaml:4: error K8SM-GEN-006 duplicate key 'spec'" in result.stderr


def test_scan_missing_path_exits_3() -> None:
    result = cli("scan", "nowhere.yaml")
    assert result.exit_code == 3
    assert "nowhere.yaml: error K8SM-GEN-013 no such file or folder" in result.stderr


def test_scan_templated_document_is_listed_not_an_error() -> None:
    write("chart.yaml", INGRESS.replace("name: web\n", "name: {{ .Release.Name }}\n"))
    result = cli("scan", "chart.yaml", "--target-version", "1.22")
    assert result.exit_code == 1  # as apply --check: the template is migrated through its skeleton
    assert result.stdout.rstrip().endswith("(templated)")


# ------------------------------------------------------------------ diff


def test_diff_nothing_to_change_exits_0() -> None:
    write("web.yaml", INGRESS_V1)
    result = cli("diff", "web.yaml", "--target-version", "1.22")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1] == "1 file, 0 would change, 0 errors, 0 warnings, 0 info"


def test_diff_would_change_exits_1_and_writes_nothing() -> None:
    path = write("web.yaml", INGRESS)
    result = cli("diff", "web.yaml", "--target-version", "1.22")
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/web.yaml\n+++ b/web.yaml\n@@ ")
    assert "-apiVersion: extensions/v1beta1\n+apiVersion: networking.k8s.io/v1\n" in result.stdout
    assert path.read_text() == INGRESS
    stderr = result.stderr.splitlines()
    assert stderr[0] == "k8smigrate: target 1.22"
    assert stderr[1].startswith(
        "web.yaml: doc 0 Ingress web: extensions/v1beta1 → networking.k8s.io/v1; spec.backend → spec.defaultBackend"
    )
    assert stderr[-1] == "1 file, 1 would change, 0 errors, 0 warnings, 0 info"


def test_diff_removed_api_left_in_place_exits_3_and_still_diffs_the_rest() -> None:
    write("a-psp.yaml", PSP)
    write("b-web.yaml", INGRESS)
    result = cli("diff", ".", "--target-version", "1.29")
    assert result.exit_code == 3
    assert "--- a/b-web.yaml" in result.stdout
    assert "a-psp.yaml:1: error K8SM-GEN-007 policy/v1beta1 PodSecurityPolicy is removed in 1.25" in result.stderr
    assert result.stderr.splitlines()[-1] == "2 files, 1 would change, 1 error, 0 warnings, 0 info"


def test_diff_directories_recurse_sorted_into_manifests_only() -> None:
    for name in ("b/z.yaml", "b/a.yml", "a.json", "c.txt", "b/notes.md", ".git/x.yaml", "b/.hidden/y.yaml"):
        write(name, ROLE if not name.endswith(".json") else json.dumps(yaml.safe_load(ROLE)))
    result = cli("diff", ".", "--target-version", "1.22")
    assert result.exit_code == 1
    headers = [line[6:] for line in result.stdout.splitlines() if line.startswith("+++ b/")]
    assert headers == ["a.json", "b/a.yml", "b/z.yaml"]


def test_diff_stdin_and_dash_names() -> None:
    result = cli("diff", "-", "--target-version", "1.22", input=ROLE)
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/<stdin>\n+++ b/<stdin>\n")


def test_diff_color_always_and_never() -> None:
    write("web.yaml", INGRESS)
    always = cli("diff", "web.yaml", "--target-version", "1.22", "--color", "always")
    assert "\x1b[32m+apiVersion: networking.k8s.io/v1\x1b[0m\n" in always.stdout
    assert "\x1b[31m-apiVersion: extensions/v1beta1\x1b[0m\n" in always.stdout
    never = cli("diff", "web.yaml", "--target-version", "1.22", "--color", "never")
    assert "\x1b[" not in never.stdout + never.stderr
    auto = cli("diff", "web.yaml", "--target-version", "1.22")  # not a terminal
    assert "\x1b[" not in auto.stdout + auto.stderr


def test_findings_are_coloured_on_stderr_with_color_always() -> None:
    write("psp.yaml", PSP)
    result = cli("diff", "psp.yaml", "--color", "always", "--target-version", "1.29")
    assert "\x1b[31mpsp.yaml:1: error K8SM-GEN-007" in result.stderr


class _Tty:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("choice", "tty", "env", "want"),
    [
        ("auto", True, {}, True),
        ("auto", False, {}, False),
        ("auto", True, {"NO_COLOR": "1"}, False),
        ("auto", True, {"NO_COLOR": ""}, True),  # https://no-color.org: only a non-empty value counts
        ("always", False, {"NO_COLOR": "1"}, True),
        ("never", True, {}, False),
    ],
)
def test_use_color(choice: str, tty: bool, env: dict[str, str], want: bool) -> None:
    assert use_color(choice, _Tty(tty), env) is want


# ------------------------------------------------------------------ apply


def test_apply_one_file_to_stdout() -> None:
    path = write("web.yaml", INGRESS)
    result = cli("apply", "web.yaml", "--target-version", "1.22")
    assert result.exit_code == 1
    assert result.stdout == INGRESS_V1
    assert path.read_text() == INGRESS


def test_apply_unchanged_file_to_stdout_exits_0() -> None:
    write("cm.yaml", CONFIGMAP)
    result = cli("apply", "cm.yaml", "--target-version", "1.22")
    assert result.exit_code == 0
    assert result.stdout == CONFIGMAP


def test_apply_stdin_to_stdout() -> None:
    result = cli("apply", "-", "--target-version", "1.22", input=INGRESS.encode())
    assert result.exit_code == 1
    assert result.stdout == INGRESS_V1


def test_apply_non_utf8_stdin_exits_3() -> None:
    result = cli("apply", "-", "--target-version", "1.22", input=b"kind: \xff\n")
    assert result.exit_code == 3
    assert result.stdout == ""
    assert "<stdin>:1: error K8SM-GEN-013 not UTF-8 (byte 0xff)" in result.stderr


def test_apply_missing_file_exits_3() -> None:
    result = cli("apply", "nowhere.yaml", "--target-version", "1.22")
    assert result.exit_code == 3
    assert "nowhere.yaml: error K8SM-GEN-013 no such file or folder" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["apply", "."], id="folder-to-stdout"),
        pytest.param(["apply", "a.yaml", "b.yaml"], id="two-files-to-stdout"),
        pytest.param(["apply", "--in-place", "--check", "a.yaml"], id="in-place-and-check"),
        pytest.param(["apply", "--in-place", "-"], id="in-place-stdin"),
        pytest.param(["apply", "a.yaml", "--only", "no_such_migration"], id="unknown-only"),
        pytest.param(["apply", "a.yaml", "--skip", "no_such_migration"], id="unknown-skip"),
        pytest.param(["apply", "a.yaml", "--target-version", "one.22"], id="bad-version"),
        pytest.param(["apply", "a.yaml", "--target-version", "1.20", "--min-version", "1.22"], id="min-above"),
        pytest.param(["apply", "a.yaml", "--set", "sideEffects"], id="set-without-value"),
        pytest.param(["apply", "a.yaml", "--set", "noSuchDecision=1"], id="unknown-decision"),
        pytest.param(["apply", "a.yaml", "--output", "no/such/folder/out.yaml"], id="output-folder"),
        pytest.param(["diff", "a.yaml", "--jobs", "-1"], id="negative-jobs"),
    ],
)
def test_usage_errors_exit_2_and_touch_nothing(args: list[str]) -> None:
    a = write("a.yaml", INGRESS)
    write("b.yaml", INGRESS)
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert a.read_text() == INGRESS


def test_usage_error_names_the_problem() -> None:
    write("a.yaml", INGRESS)
    result = cli("apply", "a.yaml", "--only", "ingress_typo")
    assert result.stderr == "k8smigrate: unknown migration 'ingress_typo' (see 'k8smigrate list')\n"


def test_apply_in_place_rewrites_atomically_keeping_the_mode(tmp_path: Path) -> None:
    path = write("web.yaml", INGRESS)
    path.chmod(0o640)
    inode = path.stat().st_ino
    result = cli("apply", "--in-place", "web.yaml", "--target-version", "1.22")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert path.read_text() == INGRESS_V1
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert path.stat().st_ino != inode  # a new file renamed over the old one, not a rewrite
    assert sorted(p.name for p in tmp_path.iterdir()) == ["web.yaml"]  # no temporary file left
    assert result.stderr.splitlines()[-1] == "1 file, 1 written, 0 errors, 0 warnings, 0 info"


def test_apply_in_place_twice_second_run_exits_0_and_writes_nothing() -> None:
    path = write("web.yaml", INGRESS)
    assert cli("apply", "-i", "web.yaml", "--target-version", "1.22").exit_code == 1
    before = path.stat()
    result = cli("apply", "-i", "web.yaml", "--target-version", "1.22")
    assert result.exit_code == 0
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_apply_in_place_bad_files_are_never_written_and_others_are() -> None:
    bad = write("m/a-bad.yaml", ROLE + "---\n" + INVALID)  # one migratable document, one parse error
    binary = write("m/b-binary.yaml", b"\x00\x01apiVersion: rbac.authorization.k8s.io/v1beta1\n")
    latin = write("m/c-latin.yaml", ROLE.encode() + b"# caf\xe9\n")
    good = write("m/d-good.yaml", ROLE)
    result = cli("apply", "--in-place", "m", "--target-version", "1.22")
    assert result.exit_code == 3
    assert bad.read_text() == ROLE + "---\n" + INVALID
    assert binary.read_bytes().startswith(b"\x00\x01")
    assert latin.read_bytes().endswith(b"caf\xe9\n")
    assert good.read_text() == ROLE.replace("v1beta1", "v1")
    # a.yaml: invalid YAML, and its Role left on a removed API (K8SM-GEN-014 says why)
    assert result.stderr.splitlines()[-1] == "4 files, 1 written, 4 errors, 1 warning, 0 info"
    assert "m/a-bad.yaml:10: error K8SM-GEN-005 invalid YAML" in result.stderr


def test_apply_check_writes_nothing() -> None:
    path = write("web.yaml", INGRESS)
    result = cli("apply", "--check", "web.yaml", "--target-version", "1.22")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert path.read_text() == INGRESS
    assert result.stderr.splitlines()[-1] == "1 file, 1 would change, 0 errors, 0 warnings, 0 info"
    write("web.yaml", INGRESS_V1)
    assert cli("apply", "--check", ".", "--target-version", "1.22").exit_code == 0


def test_apply_decision_missing_exits_3_and_leaves_the_document(widgets: Registry) -> None:
    path = write("w.yaml", WIDGET)
    result = cli("apply", "-i", "w.yaml", "--target-version", "1.29")
    assert result.exit_code == 3
    assert path.read_text() == WIDGET
    assert "w.yaml:6: error [widgets_v1alpha1] K8SM-GEN-010 needs a decision: --set widgetMode=fast | safe" in (
        result.stderr
    )


def test_apply_decision_given_migrates(widgets: Registry) -> None:
    path = write("w.yaml", WIDGET)
    result = cli("apply", "-i", "w.yaml", "--target-version", "1.29", "--set", "widgetMode=safe")
    assert result.exit_code == 1, result.stderr
    assert path.read_text() == (
        "apiVersion: widgets.example.com/v1\n"
        "kind: Widget\n"
        "metadata:\n"
        "  name: w\n"
        "spec:\n"
        "  replicas: 3  # three of them\n"
        "  mode: safe\n"
    )


def test_apply_decision_with_a_value_not_allowed_is_a_usage_error(widgets: Registry) -> None:
    write("w.yaml", WIDGET)
    result = cli("apply", "w.yaml", "--set", "widgetMode=turbo")
    assert result.exit_code == 2
    assert "--set widgetMode=turbo: not one of fast | safe" in result.stderr


def test_only_and_skip() -> None:
    write("web.yaml", INGRESS)
    write("role.yaml", ROLE)
    only = cli("diff", ".", "--only", "rbac_v1beta1", "--target-version", "1.22")
    assert [x for x in only.stdout.splitlines() if x.startswith("+++")] == ["+++ b/role.yaml"]
    skip = cli("diff", ".", "--skip", "rbac_v1beta1", "--target-version", "1.18")
    assert [x for x in skip.stdout.splitlines() if x.startswith("+++")] == ["+++ b/web.yaml"]
    assert skip.exit_code == 1


# ------------------------------------------------------------------ git apply


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_unified_diff_applies_with_git_apply(tmp_path: Path) -> None:
    files = {
        "plain.yaml": INGRESS,
        "sub/no-final-newline.yaml": ROLE.rstrip("\n"),
        "crlf.yaml": INGRESS.replace("\n", "\r\n"),
        "two-docs.yml": CONFIGMAP + "---\n" + ROLE + "...\n",
        "untouched.yaml": CONFIGMAP,
    }
    for name, text in files.items():
        write(name, text)
    assert _git(tmp_path, "init", "-q").returncode == 0
    result = cli("diff", ".", "--target-version", "1.22")
    assert result.exit_code == 1
    expected = {}
    for name in files:
        expected[name] = cli("apply", name, "--target-version", "1.22").stdout_bytes
    patch = tmp_path / "change.patch"
    patch.write_bytes(result.stdout_bytes)
    check = _git(tmp_path, "apply", "--check", "--whitespace=nowarn", "change.patch")
    assert check.returncode == 0, check.stderr
    assert _git(tmp_path, "apply", "--whitespace=nowarn", "change.patch").returncode == 0
    for name in files:
        assert (tmp_path / name).read_bytes() == expected[name], name
    assert (tmp_path / "sub/no-final-newline.yaml").read_bytes().endswith(b"rules: []")
    assert b"apiVersion: networking.k8s.io/v1\r\n" in (tmp_path / "crlf.yaml").read_bytes()


# ------------------------------------------------------------------ reports


def _report(*args: str, input: str | None = None) -> tuple[int, dict[str, Any]]:
    result = cli(*args, "--format", "json", input=input)
    data = json.loads(result.stdout)
    jsonschema.validate(data, json.loads(SCHEMA.read_text()))
    return result.exit_code, data


def test_json_report_validates_and_patches_apply(tmp_path: Path) -> None:
    text = CONFIGMAP + "---\n" + INGRESS + "---\n" + ROLE
    write("multi.yaml", text)
    write("psp.yaml", PSP)
    write("bin.yaml", b"\x00binary")
    code, data = _report("diff", ".", "--target-version", "1.25", "--min-version", "1.22")
    assert code == 3
    assert data["version"] == 1
    assert data["command"] == "diff"
    assert data["settings"] == {"targetVersion": "1.25", "minVersion": "1.22", "configFile": None}
    assert data["summary"] == {
        "files": 3,
        "changed": 1,
        "written": 0,
        "findings": {"info": 0, "warning": 0, "error": 2},
        "exitCode": 3,
    }
    assert [e["filename"] for e in data["errors"]] == ["bin.yaml"]
    files = {f["filename"]: f for f in data["files"]}
    assert set(files) == {"multi.yaml", "psp.yaml"}
    multi = files["multi.yaml"]
    assert multi["changed"] is True
    assert multi["written"] is False
    assert multi["diff"].startswith("--- a/multi.yaml\n")
    new_text = k8smigrate.migrate_text(text, target_version="1.25", min_version="1.22").text
    old_docs, new_docs = list(yaml.safe_load_all(text)), list(yaml.safe_load_all(new_text))
    assert [d["index"] for d in multi["documents"]] == [0, 1, 2]
    for doc in multi["documents"]:
        i = doc["index"]
        assert jsonpatch.apply_patch(old_docs[i], doc["patch"]) == new_docs[i]
        assert bool(doc["patch"]) == bool(doc["applied"])
    assert multi["documents"][1]["applied"] == ["ingress_extensions_v1beta1", "ingress_networking_v1beta1"]
    assert multi["documents"][1]["summary"][0] == "spec.backend → spec.defaultBackend"
    assert files["psp.yaml"]["findings"][0]["code"] == "K8SM-GEN-007"


def test_json_report_of_apply_in_place_and_scan() -> None:
    write("web.yaml", INGRESS)
    code, data = _report("apply", "-i", "web.yaml", "--target-version", "1.22")
    assert code == 1
    assert data["files"][0]["written"] is True
    assert data["summary"]["written"] == 1
    code, data = _report("scan", "web.yaml", "--target-version", "1.29")
    assert code == 0
    assert data["scan"] == []
    write("web.yaml", INGRESS)
    code, data = _report("scan", "web.yaml", "--target-version", "1.22")
    assert code == 1
    assert data["scan"][0]["status"] == "removed"
    assert data["scan"][0]["replacement"] == "networking.k8s.io/v1"


def test_json_report_of_stdin() -> None:
    code, data = _report("apply", "-", "--target-version", "1.22", input=INGRESS)
    assert code == 1
    assert data["files"][0]["filename"] == "<stdin>"


def test_output_file_gets_the_report_and_stdout_stays_empty() -> None:
    write("web.yaml", INGRESS)
    result = cli("diff", "web.yaml", "--format", "json", "--output", "report.json", "--target-version", "1.22")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert json.loads(Path("report.json").read_text())["summary"]["changed"] == 1
    result = cli("diff", "web.yaml", "-o", "change.patch", "--color", "always", "--target-version", "1.22")
    assert Path("change.patch").read_text().startswith("--- a/web.yaml\n")  # never colour in a file
    assert "\x1b[" not in Path("change.patch").read_text()
    result = cli("apply", "web.yaml", "-o", "new.yaml", "--target-version", "1.22")
    assert Path("new.yaml").read_text() == INGRESS_V1


def test_markdown_report() -> None:
    write("web.yaml", INGRESS)
    write("psp.yaml", PSP)
    result = cli("diff", ".", "--format", "markdown", "--target-version", "1.29")
    assert result.exit_code == 3
    md = result.stdout
    assert md.startswith("### k8smigrate diff: 1 of 2 files would change\n")
    assert "| `web.yaml` | doc 0 Ingress web | extensions/v1beta1 → networking.k8s.io/v1; " in md
    assert "| error | `psp.yaml:1` | K8SM-GEN-007 | policy/v1beta1 PodSecurityPolicy is removed" in md
    assert "<details><summary>Diff</summary>\n\n```diff\n--- a/web.yaml\n" in md
    assert md.endswith("```\n\n</details>\n")


def test_markdown_report_escapes_table_cells() -> None:
    write("a|b.yaml", INGRESS)
    result = cli("scan", ".", "--format", "markdown", "--target-version", "1.22")
    assert "| `a\\|b.yaml:2` | removed-api | Ingress | web |" in result.stdout


def test_markdown_scan_report() -> None:
    write("web.yaml", INGRESS)
    result = cli("scan", ".", "--format", "markdown", "--target-version", "1.22")
    assert result.exit_code == 1
    assert result.stdout.startswith(
        "### k8smigrate scan: 1 document on deprecated or removed APIs (1 removed), 0 readiness findings in 1 file\n"
    )
    assert (
        "| `web.yaml:2` | removed-api | Ingress | web | `extensions/v1beta1` | removed in 1.22 | networking.k8s.io/v1 | "
        in result.stdout
    )


# A minimal subset of the SARIF 2.1.0 schema: what code-scanning uploads require.
SARIF_SUBSET: dict[str, Any] = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "runs": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "rules": {
                                        "type": "array",
                                        "items": {"type": "object", "required": ["id"]},
                                    }
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["message", "ruleId", "level"],
                            "properties": {
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": {"type": "object", "required": ["text"]},
                                "locations": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation"],
                                                "properties": {
                                                    "region": {
                                                        "type": "object",
                                                        "properties": {"startLine": {"type": "integer", "minimum": 1}},
                                                    }
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def test_sarif_scan_report() -> None:
    write("apps/web.yaml", INGRESS)
    write("apps/old.yaml", INGRESS)
    write("apps/broken.yaml", INVALID)
    result = cli("scan", "apps", "--format", "sarif", "--target-version", "1.20")
    assert result.exit_code == 3
    log = json.loads(result.stdout)
    jsonschema.validate(log, SARIF_SUBSET)
    run = log["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rules == ["K8SM-GEN-005", "K8SM-GEN-008"]
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("K8SM-GEN-005", "error"),
        ("K8SM-GEN-008", "warning"),
        ("K8SM-GEN-008", "warning"),
    ]
    for r in results:
        assert rules[r["ruleIndex"]] == r["ruleId"]
    location = results[1]["locations"][0]["physicalLocation"]
    assert location == {
        "artifactLocation": {"uri": "apps/old.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 2},
    }


def test_sarif_diff_report_levels() -> None:
    write("psp.yaml", PSP)
    write("chart.yaml", INGRESS.replace("name: web\n", "name: {{ .Release.Name }}\n"))
    result = cli("diff", ".", "--format", "sarif", "--target-version", "1.29")
    log = json.loads(result.stdout)
    jsonschema.validate(log, SARIF_SUBSET)
    levels = {r["ruleId"]: r["level"] for r in log["runs"][0]["results"]}
    assert levels["K8SM-GEN-007"] == "error"


def test_every_general_code_is_declared_and_documented() -> None:
    used = set()
    for source in (ROOT / "k8smigrate").rglob("*.py"):
        used |= set(re.findall(r"K8SM-GEN-\d{3}", source.read_text()))
    assert used <= set(GENERAL)
    page = (ROOT / "docs" / "migrations.md").read_text()
    assert [code for code in sorted(GENERAL) if f"| `{code}` |" not in page] == []


# ------------------------------------------------------------------ config files


def test_settings_from_pyproject(tmp_path: Path) -> None:
    write(
        "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.k8smigrate]\ntarget-version = "1.20"\nmin-version = "1.16"\n',
    )
    write("deploy/web.yaml", INGRESS)
    result = cli("apply", "deploy/web.yaml")
    assert result.exit_code == 1
    assert "apiVersion: networking.k8s.io/v1beta1\n" in result.stdout  # 1.16 does not serve v1
    assert result.stderr.splitlines()[0] == (
        f"k8smigrate: target 1.16–1.20; settings from {tmp_path / 'pyproject.toml'}"
    )
    # an explicit option wins over the file
    assert "apiVersion: networking.k8s.io/v1\n" in cli("apply", "deploy/web.yaml", "--min-version", "1.20").stdout


def test_pyproject_without_our_table_is_ignored() -> None:
    write("pyproject.toml", '[project]\nname = "x"\n')
    write("web.yaml", INGRESS)
    result = cli("diff", "web.yaml", "--target-version", "1.22")
    assert result.stderr.splitlines()[0] == "k8smigrate: target 1.22"


def test_settings_from_dot_k8smigrate_toml_in_a_parent_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(".k8smigrate.toml", 'target-version = "1.22"\nskip = ["rbac_v1beta1"]\n')
    write("deploy/role.yaml", ROLE)
    write("deploy/web.yaml", INGRESS)
    monkeypatch.chdir(tmp_path / "deploy")
    result = cli("diff", ".")
    assert result.stderr.splitlines()[0] == (f"k8smigrate: target 1.22; settings from {tmp_path / '.k8smigrate.toml'}")
    assert [x for x in result.stdout.splitlines() if x.startswith("+++")] == ["+++ b/web.yaml"]
    assert result.exit_code == 3  # the Role stays on a removed API, as configured


@pytest.mark.parametrize(
    ("config", "message"),
    [
        pytest.param('target-version = "1.22"\ncolour = "always"\n', "unknown setting 'colour'", id="unknown-key"),
        pytest.param('only = ["no_such_migration"]\n', "unknown migration 'no_such_migration'", id="unknown-only"),
        pytest.param("[decisions]\nwidgetMode = 'fast'\n", "unknown decision 'widgetMode'", id="unknown-decision"),
        pytest.param('target-version = "one"\n', "not a Kubernetes version: 'one'", id="bad-version"),
        pytest.param("target-version = \n", ".k8smigrate.toml: ", id="not-toml"),
    ],
)
def test_bad_config_is_a_usage_error(config: str, message: str) -> None:
    write(".k8smigrate.toml", config)
    write("web.yaml", INGRESS)
    result = cli("diff", "web.yaml")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr


# ------------------------------------------------------------------ third-party migrations


def test_third_party_migration_from_an_entry_point(widgets: Registry) -> None:
    assert widgets.get("widgets_v1alpha1") is not None
    listed = cli("list").stdout
    line = next(x for x in listed.splitlines() if x.startswith("widgets_v1alpha1 "))
    assert line.split() == ["widgets_v1alpha1", "1.28", "-", "widgets.example.com/v1alpha1", "→", "v1", "Widget"]
    result = k8smigrate.migrate_text(WIDGET, decisions={"widgetMode": "fast"})
    assert result.documents[0].applied == ["widgets_v1alpha1"]
    assert "apiVersion: widgets.example.com/v1\n" in result.text
    # the lifecycle the step declares for its own API is the registry's: scan reports it
    rows = k8smigrate.scan_text(WIDGET, target_version="1.29")
    assert [(r.status, r.deprecated_in, r.migration) for r in rows] == [("deprecated", "1.28", "widgets_v1alpha1")]


def test_list_and_explain_show_a_readiness_check_once_with_its_category() -> None:
    lines = [x for x in cli("list").stdout.splitlines() if x.startswith("seccomp_annotations ")]
    assert len(lines) == 1  # not one line per apiVersion it looks at
    assert lines[0].split()[1:3] == ["annotation", "1.25"]
    removed = next(x for x in cli("list").stdout.splitlines() if x.startswith("removed_object_fields "))
    assert removed.split()[1:3] == ["removed-field", "1.24"]  # the earliest entry
    assert "(opt-in: --only)" in next(
        x for x in cli("list").stdout.splitlines() if x.startswith("deprecated_node_labels")
    )
    rows = {row["name"]: row for row in json.loads(cli("list", "--format", "json").stdout)}
    assert (rows["seccomp_annotations"]["type"], rows["seccomp_annotations"]["category"]) == ("check", "annotation")
    explained = cli("explain", "seccomp_annotations").stdout
    assert explained.startswith("seccomp_annotations: a readiness check [annotation] targets from 1.25:")
    assert "looks at CronJob, DaemonSet, Deployment" in explained
