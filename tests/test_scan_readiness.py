"""Spec: ``scan`` lists upgrade-readiness findings beside the API rows, each with a category (issue 10).

A readiness row is a check's finding, found as ``diff`` would find it: ``breaking`` when it is
an error or something ``apply`` changes because the target needs it, else its level. The
default ``--fail-on removed`` fails on breaking rows; ``deprecated`` on warnings too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import scan_text
from k8smigrate.cli import app
from k8smigrate.exits import FAIL_ON, Tally, exit_code
from k8smigrate.model import CATEGORIES, Check
from k8smigrate.registry import Registry, default_registry
from tests.helpers import dedent

SECCOMP = dedent(
    """
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
      namespace: shop
    spec:
      selector:
        matchLabels: {app: web}
      template:
        metadata:
          labels: {app: web}
          annotations:
            seccomp.security.alpha.kubernetes.io/pod: runtime/default
        spec:
          containers:
          - name: web
            image: nginx
    """
)

DOCKER_SOCKET = dedent(
    """
    apiVersion: v1
    kind: Pod
    metadata:
      name: agent
    spec:
      containers:
      - name: agent
        image: agent
      volumes:
      - name: docker
        hostPath:
          path: /var/run/docker.sock
    """
)

KUBELET = dedent(
    """
    apiVersion: kubelet.config.k8s.io/v1beta1
    kind: KubeletConfiguration
    featureGates:
      CSIMigration: false
      ServerSideApply: true
    """
)

PLAIN = dedent(
    """
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: plain
    spec:
      selector:
        matchLabels: {app: plain}
      template:
        metadata:
          labels: {app: plain}
        spec:
          containers:
          - name: plain
            image: nginx
    """
)


def rows(text: str, target: str, **kwargs: str) -> list[tuple[str, str, str, str | None]]:
    return [(e.category, e.status, e.code, e.migration) for e in scan_text(text, target_version=target, **kwargs)]


# ------------------------------------------------------------------ no-op


def test_no_rows_for_a_current_manifest() -> None:
    assert scan_text(PLAIN, target_version="1.35") == []


def test_no_rows_below_the_release_where_it_breaks() -> None:
    # the seccomp annotations stop working in 1.27 (partly in 1.25); at 1.24 nothing is due
    assert scan_text(SECCOMP, target_version="1.24") == []
    assert scan_text(DOCKER_SOCKET, target_version="1.23") == []


def test_opt_in_checks_do_not_scan_unless_named() -> None:
    text = PLAIN.replace("containers:", "nodeSelector:\n        beta.kubernetes.io/os: linux\n      containers:")
    assert scan_text(text, target_version="1.29") == []


def test_every_builtin_check_has_a_category() -> None:
    checks = default_registry().checks
    assert checks and all(m.category in CATEGORIES for m in checks), [m.name for m in checks if not m.category]


def test_an_unknown_category_is_refused_when_the_registry_is_built() -> None:
    from k8smigrate.migrations.checks.docker_socket import body

    m = Check(applies_to={"v1": ("Pod",)}, body=body, name="x", category="y")
    with pytest.raises(Exception, match="unknown category 'y'"):
        Registry([m])


# ------------------------------------------------------------------ rows


def test_a_fixed_annotation_is_a_breaking_row_with_its_migration() -> None:
    (entry,) = scan_text(SECCOMP, target_version="1.27")
    assert (entry.category, entry.status, entry.level, entry.code) == ("annotation", "breaking", "info", "K8SM-FLD-007")
    assert (entry.kind, entry.name, entry.namespace, entry.line) == ("Deployment", "web", "shop", 13)
    assert entry.migration == "seccomp_annotations"
    assert entry.format().startswith("<string>:13: annotation       Deployment shop/web: info K8SM-FLD-007 ")
    assert entry.format().endswith("[k8smigrate: seccomp_annotations]")


def test_a_clean_up_apply_would_make_is_an_info_row() -> None:
    # serviceAccount is a deprecated alias the server still reads: renaming it fixes nothing that breaks
    text = PLAIN.replace("containers:", "serviceAccount: robot\n      containers:")
    (entry,) = scan_text(text, target_version="1.29")
    assert (entry.code, entry.status, entry.migration) == ("K8SM-FLD-020", "info", "service_account_alias")
    assert entry.action == "apply"  # apply --check would change it (exit 1), as it would for any row it fixes


def test_a_warning_is_a_warning_row_left_to_a_human() -> None:
    (entry,) = scan_text(DOCKER_SOCKET, target_version="1.24")
    assert (entry.category, entry.status, entry.code, entry.migration) == ("runtime", "warning", "K8SM-CRI-008", None)
    assert entry.format().endswith("[manual]")


def test_errors_break_and_informational_rows_do_not() -> None:
    assert rows(KUBELET, "1.29") == [
        ("feature-gate", "breaking", "K8SM-GATE-002", None),  # CSIMigration=false: the gate is gone
        ("feature-gate", "info", "K8SM-GATE-004", None),  # ServerSideApply=true: locked, may go
    ]
    assert rows(KUBELET, "1.23") == [("feature-gate", "info", "K8SM-GATE-005", None)]


def test_api_rows_come_first_then_the_readiness_rows_of_the_document() -> None:
    old = SECCOMP.replace("apps/v1", "extensions/v1beta1")
    assert [(e.category, e.line) for e in scan_text(old, target_version="1.27")] == [
        ("removed-api", 1),
        ("annotation", 13),
    ]


def test_a_scan_changes_nothing_and_its_rows_match_diff() -> None:
    from k8smigrate import migrate_text

    text = SECCOMP + "---\n" + DOCKER_SOCKET + "---\n" + KUBELET
    found = {(e.code, e.line) for e in scan_text(text, target_version="1.29")}
    result = migrate_text(text, target_version="1.29")
    assert found == {(f.code, f.line) for f in result.findings}


# ------------------------------------------------------------------ fail-on and reports


def test_fail_on_thresholds() -> None:
    nothing, change, warning, human = Tally(0, 0, 0), Tally(1, 0, 0), Tally(0, 0, 1), Tally(0, 1, 0)
    assert exit_code(change, "removed") == 1 and exit_code(warning, "removed") == 0
    assert exit_code(warning, "deprecated") == 1 and exit_code(nothing, "deprecated") == 0
    assert exit_code(change, "never") == 0 and exit_code(human, "never") == 3
    assert set(FAIL_ON) == {"removed", "deprecated", "never"}


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def test_cli_exit_codes_follow_fail_on(runner: CliRunner) -> None:
    Path("pod.yaml").write_text(DOCKER_SOCKET)
    Path("web.yaml").write_text(SECCOMP)
    assert runner.invoke(app, ["scan", "pod.yaml", "--target-version", "1.29"]).exit_code == 0
    assert (
        runner.invoke(app, ["scan", "pod.yaml", "--target-version", "1.29", "--fail-on", "deprecated"]).exit_code == 1
    )
    result = runner.invoke(app, ["scan", "web.yaml", "--target-version", "1.29"])
    assert result.exit_code == 1
    assert result.stdout.startswith("web.yaml:13: annotation ")
    assert (
        "0 on deprecated APIs, 1 readiness finding; 0 errors, 0 warnings, 1 info; 1 fixable by apply" in result.stderr
    )


def test_json_markdown_and_sarif_carry_the_rows(runner: CliRunner) -> None:
    Path("kubelet.yaml").write_text(KUBELET)
    args = ["scan", "kubelet.yaml", "--target-version", "1.29", "--format"]
    data = json.loads(runner.invoke(app, [*args, "json"]).stdout)
    first = data["scan"][0]
    assert (first["category"], first["status"], first["level"], first["code"]) == (
        "feature-gate",
        "breaking",
        "error",
        "K8SM-GATE-002",
    )
    markdown = runner.invoke(app, [*args, "markdown"]).stdout
    assert "| `kubelet.yaml:4` | feature-gate | KubeletConfiguration |" in markdown
    assert "2 readiness findings" in markdown
    sarif = json.loads(runner.invoke(app, [*args, "sarif"]).stdout)
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("K8SM-GATE-002", "error"), ("K8SM-GATE-004", "note")]
    rules = {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert {"K8SM-GATE-002", "K8SM-GATE-004"} <= rules


def test_scan_file_is_the_library_entry_point(tmp_path: Path) -> None:
    import k8smigrate

    (tmp_path / "web.yaml").write_text(SECCOMP)
    outcome = k8smigrate.scan_file(tmp_path / "web.yaml", settings=k8smigrate.Settings(target_version="1.27"))
    assert [e.code for e in outcome.scan] == ["K8SM-FLD-007"] and outcome.error is None
    (tmp_path / "bad.yaml").write_bytes(b"\x00binary")
    bad = k8smigrate.scan_file(tmp_path / "bad.yaml")
    assert bad.scan == [] and bad.error is not None and bad.error.code == "K8SM-GEN-013"


def test_skip_and_set_shape_the_readiness_rows(runner: CliRunner) -> None:
    Path("pod.yaml").write_text(DOCKER_SOCKET)
    base = ["scan", "pod.yaml", "--target-version", "1.29"]
    assert "K8SM-CRI-008" in runner.invoke(app, base).stdout
    assert runner.invoke(app, [*base, "--skip", "docker_socket"]).stdout == ""
    text = PLAIN.replace("containers:", "nodeSelector:\n        beta.kubernetes.io/os: linux\n      containers:")
    Path("web.yaml").write_text(text)
    opted = runner.invoke(app, ["scan", "web.yaml", "--target-version", "1.29", "--only", "deprecated_node_labels"])
    assert "K8SM-FLD-019" in opted.stdout


def test_an_internal_error_of_a_readiness_check_is_reported_not_swallowed() -> None:
    from k8smigrate.context import Context
    from k8smigrate.results import Finding
    from k8smigrate.scan import scan_stream
    from k8smigrate.settings import Settings
    from k8smigrate.tree import Mapping

    def broken(obj: Mapping, ctx: Context) -> None:
        raise RuntimeError("boom")

    check = Check(applies_to={"v1": ("Pod",)}, body=broken, name="broken", trigger="magic")
    problems: list[Finding] = []
    rows = scan_stream("apiVersion: v1\nkind: Pod\nmagic: 1\n", Settings(), "p.yaml", Registry([check]), problems)
    assert rows == [] and [p.code for p in problems] == ["K8SM-GEN-012"]


def test_the_usage_docs_name_every_category() -> None:
    usage = (Path(__file__).parent.parent / "docs" / "usage.md").read_text(encoding="utf-8")
    scan_row = next(line for line in usage.splitlines() if line.startswith("| `scan PATH"))
    assert [c for c in CATEGORIES if f"`{c}`" not in scan_row] == []
