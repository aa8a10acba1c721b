"""Spec: a chart's values.yaml scheduling defaults follow the master → control-plane node role.

No-op cases first, then the edits (window from 1.25: renamed; a window that starts before:
the control-plane twin added), then a whole chart through ``migrate_paths`` and ``scan``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from k8smigrate import migrate_paths, scan_file
from k8smigrate.registry import default_registry
from k8smigrate.settings import Settings
from k8smigrate.templating.values_scheduling import migrate_values

VALUES = """\
# Default values for the chart.
image:
  repository: example/agent   # pinned below
  tag: "1.0"

daemonset:
  tolerations:
  # run on the control plane too
  - key: node-role.kubernetes.io/master
    operator: Exists
    effect: NoSchedule
  nodeSelector: {}
"""


def run(text: str, target: str = "1.29", minimum: str | None = None) -> tuple[str, list[str]]:
    settings = Settings(target_version=target, min_version=minimum)
    out, findings = migrate_values(text, settings, "chart/values.yaml", default_registry())
    return out, [f"{f.code}:{f.line}" for f in findings]


def test_noop_without_the_master_role() -> None:
    text = VALUES.replace("master", "control-plane")
    assert run(text) == (text, [])


def test_noop_where_a_value_named_like_a_pod_field_is_something_else() -> None:
    text = "tolerations: node-role.kubernetes.io/master\nnodeSelector: [node-role.kubernetes.io/master]\n"
    assert run(text) == (text, [])


def test_noop_before_the_role_changes() -> None:
    assert run(VALUES, target="1.23") == (VALUES, [])


def test_a_toleration_is_renamed_when_every_release_lacks_the_master_taint() -> None:
    out, codes = run(VALUES)
    assert out == VALUES.replace("key: node-role.kubernetes.io/master", "key: node-role.kubernetes.io/control-plane")
    assert codes == ["K8SM-FLD-018:9"]


def test_a_window_that_starts_before_1_25_gets_the_control_plane_twin() -> None:
    out, codes = run(VALUES, minimum="1.22")
    twin = (
        "  - key: node-role.kubernetes.io/control-plane\n    operator: Exists\n    effect: NoSchedule\n"
        "  nodeSelector: {}\n"
    )
    assert out.endswith(twin) and "# run on the control plane too\n  - key: node-role.kubernetes.io/master" in out
    assert codes == ["K8SM-FLD-018:9"]
    assert run(out, minimum="1.22") == (out, [])  # a second run changes nothing


def test_a_node_selector_on_the_master_label_is_renamed_at_any_depth() -> None:
    text = 'agent:\n  nodeSelector:\n    node-role.kubernetes.io/master: ""  # control plane only\n'
    out, codes = run(text)
    assert out == text.replace("/master", "/control-plane")
    assert codes == ["K8SM-FLD-017:3"]


def chart(tmp_path: Path) -> Path:
    root = tmp_path / "agent"
    (root / "templates").mkdir(parents=True)
    (root / "Chart.yaml").write_text("apiVersion: v2\nname: agent\nversion: 0.1.0\n")
    (root / "values.yaml").write_text(VALUES)
    (root / "templates" / "daemonset.yaml").write_text(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  template:\n    spec:\n"
        "      containers:\n      - name: agent\n        image: example/agent\n"
        "{{- with .Values.daemonset.tolerations }}\n      tolerations:\n{{ toYaml . | indent 6 }}\n{{- end }}\n"
    )
    return root


def test_apply_writes_the_chart_defaults(tmp_path: Path) -> None:
    root = chart(tmp_path)
    template = (root / "templates" / "daemonset.yaml").read_text()
    outcomes = list(migrate_paths(root, in_place=True, target_version="1.29"))
    assert "key: node-role.kubernetes.io/control-plane" in (root / "values.yaml").read_text()
    assert (root / "templates" / "daemonset.yaml").read_text() == template
    codes = [f.code for o in outcomes if o.path.name == "values.yaml" for f in o.result.findings]
    assert codes == ["K8SM-FLD-018"]
    again = list(migrate_paths(root, in_place=True, target_version="1.29"))
    assert not any(o.result.changed for o in again)


def test_scan_reports_what_apply_fixes_in_values(tmp_path: Path) -> None:
    root = chart(tmp_path)
    rows = scan_file(root / "values.yaml", target_version="1.29").scan or []
    assert [(r.code, r.line, r.migration, r.subject()) for r in rows] == [
        ("K8SM-FLD-018", 9, "control_plane_role", "chart defaults")
    ]


SCRIPT_BEFORE_TOLERATIONS = """\
script: {chomp}
  echo hi

{gap}tolerations:
  - key: node-role.kubernetes.io/master
    operator: Exists
"""


@pytest.mark.parametrize("chomp", ["|", "|-", "|+", ">"])
@pytest.mark.parametrize("gap", ["", "\n", "# the tolerations\n"])
def test_blank_lines_after_a_block_scalar_stay(chomp: str, gap: str) -> None:
    # node-feature-discovery's config: | before its tolerations: a block scalar's span takes in
    # the blank lines after it, which the next key's head holds too; copied with both, they
    # doubled (and a |+ scalar read one more line)
    text = SCRIPT_BEFORE_TOLERATIONS.format(chomp=chomp, gap=gap)
    out, _findings = run(text)
    assert out == text.replace("node-role.kubernetes.io/master", "node-role.kubernetes.io/control-plane")
