"""Defines a chart borrows from its subcharts: a library chart's apiVersion helpers.

Helm gives a chart and its subcharts one namespace of defines; Bitnami's charts compute every
apiVersion with ``include "common.capabilities.<kind>.apiVersion"`` from the vendored ``common``
library chart. A chart's computed apiVersions are evaluated with those defines (a define of
the chart's own wins), and a rewrite of such a define is written in the subchart's file.

No-op first (a helper already right), then the rewrite, then precedence and conflicts.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from k8smigrate.cli import app
from k8smigrate.settings import Settings
from k8smigrate.templating import chartplan

from .templating_helpers import COMMON_KUBE_VERSION

LIBRARY = (
    COMMON_KUBE_VERSION
    + """\
{{- define "common.capabilities.policy.apiVersion" -}}
{{- if semverCompare "<1.21-0" (include "common.capabilities.kubeVersion" .) -}}
{{- print "policy/v1beta1" -}}
{{- else -}}
{{- print "OLD" -}}
{{- end -}}
{{- end -}}
"""
)

PDB = """\
apiVersion: {{ include "common.capabilities.policy.apiVersion" . }}
kind: PodDisruptionBudget
metadata:
  name: {{ .Release.Name }}
spec:
  minAvailable: 1
  selector:
    matchLabels:
      app: web
"""


def bitnami_style(folder: Path, newer: str) -> Path:
    """A chart whose PDB takes its apiVersion from the vendored ``common`` library chart, which
    prints ``newer`` from 1.21 on."""
    (folder / "templates").mkdir(parents=True)
    (folder / "Chart.yaml").write_text("apiVersion: v2\nname: web\nversion: 0.1.0\n", encoding="utf-8")
    (folder / "values.yaml").write_text('kubeVersion: ""\n', encoding="utf-8")
    (folder / "templates/pdb.yaml").write_text(PDB, encoding="utf-8")
    common = folder / "charts/common"
    (common / "templates").mkdir(parents=True)
    (common / "Chart.yaml").write_text("apiVersion: v2\nname: common\nversion: 1.0.0\ntype: library\n", "utf-8")
    (common / "templates/_capabilities.tpl").write_text(LIBRARY.replace("OLD", newer), encoding="utf-8")
    return folder


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout + result.stderr


def test_a_library_helper_already_right_is_evaluated_and_left_alone(tmp_path: Path) -> None:
    chart = bitnami_style(tmp_path / "web", "policy/v1")
    code, out = run("scan", "--target-version", "1.29", str(chart))
    assert "computed apiVersion policy/v1 for 1.29" in out
    assert "charts/common/templates/_capabilities.tpl" in out  # where the value comes from
    code, out = run("apply", "--check", "--target-version", "1.29", str(chart))
    assert code == 0, out


def test_a_library_helper_that_prints_a_removed_api_is_rewritten_in_the_subchart(helm: str, tmp_path: Path) -> None:
    chart = bitnami_style(tmp_path / "web", "policy/v1beta1")
    helper = chart / "charts/common/templates/_capabilities.tpl"
    # by default actions are carried as written, and this literal is inside one
    code, out = run("apply", "--check", "--target-version", "1.29", str(chart))
    assert code == 3 and "K8SM-TPL-108" in out and "charts/common/templates/_capabilities.tpl" in out
    args = ["apply", "--in-place", "--target-version", "1.29", "--set", "template-actions=rewrite", str(chart)]
    code, out = run(*args)
    assert code == 1, out
    assert "updating the dependency undoes it" in out
    assert '{{- print "policy/v1" -}}' in helper.read_text(encoding="utf-8")
    assert "policy/v1beta1" in helper.read_text(encoding="utf-8")  # the arm for old releases stays
    rendered = subprocess.run(
        [helm, "template", "r", str(chart), "--kube-version", "1.29.0"], capture_output=True, text=True, check=True
    ).stdout
    assert [d["apiVersion"] for d in yaml.safe_load_all(rendered) if d] == ["policy/v1"]
    code, out = run(*args)
    assert code == 0, out  # idempotent


def test_a_define_of_the_chart_itself_wins_over_the_subcharts(tmp_path: Path) -> None:
    chart = bitnami_style(tmp_path / "web", "policy/v1beta1")
    own = '{{- define "common.capabilities.policy.apiVersion" -}}\npolicy/v1\n{{- end -}}\n'
    (chart / "templates/_overrides.tpl").write_text(own, encoding="utf-8")
    code, out = run("apply", "--check", "--target-version", "1.29", str(chart))
    assert code == 0, out


def test_of_two_vendored_copies_of_a_library_the_one_helm_parses_last_wins() -> None:
    # bitnami: charts/common and charts/postgresql/charts/common; Helm parses the deepest files
    # first, then by name descending, and the last define of a name wins (checked with helm 4)
    from k8smigrate.templating.sites import ChartSources, ParsedChart

    define = '{{- define "x" -}}FROM{{- end -}}\n'
    lent = {
        "charts/sub/charts/common/templates/_cap.tpl": define.replace("FROM", "nested"),
        "charts/common/templates/_cap.tpl": define.replace("FROM", "near"),
        "charts/b/templates/_cap.tpl": define.replace("FROM", "b"),
    }
    templates = {
        "templates/a/_y.tpl": '{{- define "y" -}}deeper{{- end -}}\n',
        "templates/_y.tpl": '{{- define "y" -}}top{{- end -}}\n',
    }
    chart = ParsedChart(ChartSources(templates, lent=lent))
    assert chart.defines["x"][0] == "charts/b/templates/_cap.tpl"  # same depth: the smallest name
    assert chart.defines["y"][0] == "templates/_y.tpl"
    chart = ParsedChart(ChartSources(templates, lent={k: v for k, v in lent.items() if "/b/" not in k}))
    assert chart.defines["x"][0] == "charts/common/templates/_cap.tpl"


def test_two_different_rewrites_of_one_subchart_file_leave_it_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chart = bitnami_style(tmp_path / "web", "policy/v1beta1")
    common = chart / "charts/common"
    path = common / "templates/_capabilities.tpl"
    original = path.read_text(encoding="utf-8")

    parents = original + "# the parent's\n"
    plan = chartplan.ChartPlan(texts={"charts/common/templates/_capabilities.tpl": parents})
    monkeypatch.setattr(chartplan, "plan_for", lambda root, settings: plan)
    settings = Settings(target_version="1.29")
    text, conflict = chartplan.with_parents_edits(common, path, settings, original + "# own\n", original)
    assert text == original and conflict is not None and conflict.code == "K8SM-TPL-106"
    # a rewrite from above only is taken
    assert chartplan.with_parents_edits(common, path, settings, original, original) == (parents, None)
    assert chartplan.with_parents_edits(common, path, settings, parents, original) == (parents, None)
