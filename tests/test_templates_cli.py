"""A chart is a unit: `scan|diff|apply CHART_DIR` and folders of charts, exit codes, the hook's view."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from k8smigrate.cli import app
from k8smigrate.files import iter_entries

CHART = {
    "Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
    "values.yaml": "rbac:\n  create: true\nimage: {{ not a template }}\n",
    "ci/x-values.yaml": "apiVersion: v1beta1\n",
    "templates/_helpers.tpl": '{{- define "c.name" -}}c{{- end -}}\n',
    "templates/NOTES.txt": "{{ .Release.Name }}\n",
    "templates/deployment.yaml": (
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include "c.name" . }}\n'
        "spec:\n  selector:\n    matchLabels:\n      app: c\n  template:\n    metadata:\n"
        "      labels:\n        app: c\n    spec:\n      containers: []\n"
    ),
    "templates/role.yaml": (
        "{{- if .Values.rbac.create }}\napiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\n"
        'metadata:\n  name: {{ include "c.name" . }}\nrules: []\n{{- end }}\n'
    ),
    "crds/widgets.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n",
}


def make(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def test_a_chart_lists_its_manifests_partials_and_values_files_only(tmp_path: Path) -> None:
    chart = make(tmp_path / "c", CHART)
    names = [p.relative_to(chart).as_posix() for p in iter_entries([tmp_path]) if isinstance(p, Path)]
    assert names == [
        "ci/x-values.yaml",  # values files may hold objects the chart renders (values_objects)
        "crds/widgets.yaml",
        "templates/_helpers.tpl",
        "templates/deployment.yaml",
        "templates/role.yaml",
        "values.yaml",
    ]


def test_a_chart_that_needs_nothing_exits_zero(tmp_path: Path) -> None:
    files = {k: v for k, v in CHART.items() if k != "templates/role.yaml"}
    chart = make(tmp_path / "c", files)
    result = CliRunner().invoke(app, ["apply", "--check", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 0, result.output


def test_apply_in_place_migrates_a_folder_of_charts(tmp_path: Path) -> None:
    make(tmp_path / "charts" / "a", CHART)
    make(tmp_path / "charts" / "b", CHART)
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(tmp_path / "charts")])
    assert result.exit_code == 1, result.output
    for name in ("a", "b"):
        role = (tmp_path / "charts" / name / "templates" / "role.yaml").read_text(encoding="utf-8")
        assert role == CHART["templates/role.yaml"].replace("v1beta1", "v1")
        assert (tmp_path / "charts" / name / "values.yaml").read_text(encoding="utf-8") == CHART["values.yaml"]
    assert "K8SM-GEN-001" not in result.stderr


def test_scan_of_a_chart_reports_its_templates(tmp_path: Path) -> None:
    chart = make(tmp_path / "c", CHART)
    result = CliRunner().invoke(app, ["scan", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 1
    assert 'templates/role.yaml:2: removed-api      Role {{ include "c.name" . }}' in result.stdout


# ---------------------------------------------------------------------------- computed apiVersions on disk

HELPER_LITERALS = (
    '{{- define "c.ingress.apiVersion" -}}\n'
    '{{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" -}}\n'
    "networking.k8s.io/v1beta1\n"
    "{{- else -}}\n"
    "extensions/v1beta1\n"
    "{{- end -}}\n"
    "{{- end -}}\n"
)
INGRESS_BY_HELPER = (
    'apiVersion: {{ include "c.ingress.apiVersion" . }}\nkind: Ingress\nmetadata:\n  name: web\n'
    "spec:\n  backend:\n    serviceName: web\n    servicePort: {{ .Values.port }}\n"
)


def test_in_place_a_helper_written_first_does_not_stop_the_body_migration(tmp_path: Path) -> None:
    # _helpers.tpl is written before ingress.yaml: the template must still get its body migrated
    chart = make(
        tmp_path / "c",
        {
            "Chart.yaml": CHART["Chart.yaml"],
            "values.yaml": "port: 80\n",
            "templates/_helpers.tpl": HELPER_LITERALS,
            "templates/ingress.yaml": INGRESS_BY_HELPER,
        },
    )
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 1, result.output  # changed, nothing for a human
    helpers = (chart / "templates/_helpers.tpl").read_text(encoding="utf-8")
    assert helpers == HELPER_LITERALS.replace("networking.k8s.io/v1beta1\n", "networking.k8s.io/v1\n").replace(
        "extensions/v1beta1\n", "networking.k8s.io/v1\n"
    )
    ingress = (chart / "templates/ingress.yaml").read_text(encoding="utf-8")
    assert "serviceName" not in ingress and "number: {{ .Values.port }}" in ingress
    again = CliRunner().invoke(app, ["apply", "--check", "--target-version", "1.29", str(chart)])
    assert again.exit_code == 0, again.output


def test_an_apiversion_whose_body_cannot_be_migrated_is_left_with_an_error(tmp_path: Path) -> None:
    # a servicePort that needs a decision: moving the apiVersion alone would give an invalid Ingress
    ingress = INGRESS_BY_HELPER.replace("{{ .Values.port }}", "{{ tpl (toString .Values.port) . }}")
    files = {
        "Chart.yaml": CHART["Chart.yaml"],
        "values.yaml": "port: 80\n",
        "templates/_helpers.tpl": HELPER_LITERALS,
        "templates/ingress.yaml": ingress,
    }
    chart = make(tmp_path / "c", files)
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 3  # needs a human
    assert "K8SM-TPL-109" in result.output and "K8SM-GEN-010" in result.output
    assert {name: (chart / name).read_text(encoding="utf-8") for name in files} == files


def test_a_literal_printed_by_an_action_is_reported_and_every_action_kept(tmp_path: Path) -> None:
    helper = HELPER_LITERALS.replace(
        "networking.k8s.io/v1beta1\n{{- else", '{{- print "networking.k8s.io/v1beta1" -}}\n{{- else'
    )
    files = {
        "Chart.yaml": CHART["Chart.yaml"],
        "values.yaml": "port: 80\n",
        "templates/_helpers.tpl": helper,
        "templates/ingress.yaml": INGRESS_BY_HELPER,
    }
    chart = make(tmp_path / "c", files)
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(chart)])
    assert result.exit_code == 3
    assert "K8SM-TPL-108" in result.output
    assert (chart / "templates/_helpers.tpl").read_text(encoding="utf-8") == helper
    assert (chart / "templates/ingress.yaml").read_text(encoding="utf-8") == INGRESS_BY_HELPER


PRINTING_HELPER = (
    '{{- define "c.ingress.apiVersion" -}}\n'
    '{{- if semverCompare "<1.14-0" .Capabilities.KubeVersion.GitVersion -}}\n'
    '{{- print "extensions/v1beta1" -}}\n'
    "{{- else -}}\n"
    '{{- print "networking.k8s.io/v1beta1" -}}\n'
    "{{- end -}}\n"
    "{{- end -}}\n"
)


def printing_chart(folder: Path) -> Path:
    files = {
        "Chart.yaml": CHART["Chart.yaml"],
        "values.yaml": "port: 80\n",
        "templates/_helpers.tpl": PRINTING_HELPER,
        "templates/ingress.yaml": INGRESS_BY_HELPER,
    }
    return make(folder, files)


def test_template_actions_rewrite_rewrites_the_printed_literal_and_migrates_the_body(tmp_path: Path) -> None:
    chart = printing_chart(tmp_path / "c")
    args = ["apply", "--in-place", "--target-version", "1.29", "--set", "template-actions=rewrite", str(chart)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    helpers = (chart / "templates/_helpers.tpl").read_text(encoding="utf-8")
    assert helpers == PRINTING_HELPER.replace('print "networking.k8s.io/v1beta1"', 'print "networking.k8s.io/v1"')
    ingress = (chart / "templates/ingress.yaml").read_text(encoding="utf-8")
    assert "serviceName" not in ingress and "number: {{ .Values.port }}" in ingress
    assert "K8SM-TPL-102" in result.output and "kept (--set dead-branches=remove removes it)" in result.output


def test_dead_branches_remove_replaces_the_if_by_its_live_arm(tmp_path: Path) -> None:
    chart = printing_chart(tmp_path / "c")
    args = ["apply", "--in-place", "--target-version", "1.29", "--set", "dead-branches=remove", str(chart)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 3, result.output  # the live arm still prints v1beta1: K8SM-TPL-108
    assert "K8SM-TPL-108" in result.output and "template-actions=rewrite" in result.output
    helpers = (chart / "templates/_helpers.tpl").read_text(encoding="utf-8")
    assert helpers == (
        '{{- define "c.ingress.apiVersion" -}}\n{{- print "networking.k8s.io/v1beta1" -}}\n{{- end -}}\n'
    )
    assert "is taken by no release of 1.29: removed" in result.output


def test_dead_branches_remove_replaces_an_if_of_literals_too(tmp_path: Path) -> None:
    # datadog's rbac.apiVersion: its arms are literals, which a rewrite alone could also set
    helper = (
        '{{- define "c.rbac.apiVersion" -}}\n{{- if semverCompare "^1.8-0" .Capabilities.KubeVersion.GitVersion -}}\n'
        '"rbac.authorization.k8s.io/v1"\n{{- else -}}\n"rbac.authorization.k8s.io/v1beta1"\n{{- end -}}\n{{- end -}}\n'
    )
    role = 'apiVersion: {{ template "c.rbac.apiVersion" . }}\nkind: Role\nmetadata:\n  name: r\nrules: []\n'
    chart = make(tmp_path / "c", {**CHART, "templates/_helpers.tpl": helper, "templates/role.yaml": role})
    args = ["apply", "--in-place", "--target-version", "1.29", "--set", "dead-branches=remove", str(chart)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    helpers = (chart / "templates/_helpers.tpl").read_text(encoding="utf-8")
    assert helpers == '{{- define "c.rbac.apiVersion" -}}\n"rbac.authorization.k8s.io/v1"\n{{- end -}}\n'
    assert "is taken by no release of 1.29: removed" in result.output


PDB_BY_VERSION = (
    'apiVersion: {{ if semverCompare ">=1.21-0" .Capabilities.KubeVersion.GitVersion }}policy/v1'
    "{{ else }}policy/v1beta1{{ end }}\n"
    "kind: PodDisruptionBudget\nmetadata:\n  name: {{ .Release.Name }}\n"
    "spec:\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app: web\n"
)
INGRESS_BY_VERSION = (
    'apiVersion: {{ if semverCompare ">=1.19-0" .Capabilities.KubeVersion.GitVersion }}networking.k8s.io/v1'
    "{{ else }}networking.k8s.io/v1beta1{{ end }}\n"
    "kind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n"
)


def apply_one_template(folder: Path, name: str, text: str, *options: str) -> Result:
    """``apply`` over a chart of one template (no values it reads)."""
    chart = make(folder, {"Chart.yaml": CHART["Chart.yaml"], "values.yaml": "x: 1\n", f"templates/{name}": text})
    return CliRunner().invoke(app, ["apply", *options, "--target-version", "1.29", str(chart)])


def test_a_chart_that_already_branches_its_apiversion_across_the_window_needs_nothing(tmp_path: Path) -> None:
    # policy/v1 arrives in 1.21, policy/v1beta1 leaves in 1.25: each release gets the one it serves
    result = apply_one_template(tmp_path / "c", "pdb.yaml", PDB_BY_VERSION, "--check", "--min-version", "1.19")
    assert result.exit_code == 0, result.output
    assert "K8SM-TPL-103" not in result.output and "K8SM-TPL-005" not in result.output


def test_a_branched_apiversion_whose_one_body_cannot_serve_every_branch_is_an_error(tmp_path: Path) -> None:
    chart = tmp_path / "c"
    result = apply_one_template(chart, "ingress.yaml", INGRESS_BY_VERSION, "--in-place", "--min-version", "1.16")
    assert result.exit_code == 3, result.output
    assert "K8SM-TPL-103" in result.output
    assert "networking.k8s.io/v1beta1 at 1.16–1.18; networking.k8s.io/v1 at 1.19–1.29" in result.output
    assert (chart / "templates/ingress.yaml").read_text(encoding="utf-8") == INGRESS_BY_VERSION


def test_a_chart_decision_takes_only_its_own_values(tmp_path: Path) -> None:
    chart = printing_chart(tmp_path / "c")
    result = CliRunner().invoke(
        app, ["apply", "--check", "--target-version", "1.29", "--set", "dead-branches=maybe", str(chart)]
    )
    assert result.exit_code == 2
    assert "--set dead-branches=maybe: not one of keep | remove" in result.output


VALUES_API_CHART = {
    "Chart.yaml": CHART["Chart.yaml"],
    "values.yaml": "rbac:\n  apiVersion: v1beta1  # the default\n",
    "templates/role.yaml": "apiVersion: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}\nkind: Role\n"
    "metadata:\n  name: r\nrules: []\n",
}


def test_a_template_whose_apiversion_is_rewritten_in_a_file_not_written_gets_an_error(tmp_path: Path) -> None:
    chart = make(tmp_path / "c", VALUES_API_CHART)
    written = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(chart)])
    assert written.exit_code == 1, written.output  # values.yaml rewritten, nothing for a human
    assert "K8SM-GEN-013" not in written.stderr
    assert "apiVersion: v1  # the default" in (chart / "values.yaml").read_text(encoding="utf-8")
    chart = make(tmp_path / "d", VALUES_API_CHART)
    (chart / "values.yaml").chmod(0o444)  # refused: the chart still renders v1beta1
    refused = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(chart)])
    assert refused.exit_code == 3
    assert (
        "templates/role.yaml:1: error K8SM-GEN-013 this apiVersion is rewritten in values.yaml, which was not "
        "written: the chart still renders the old API"
    ) in refused.stderr
