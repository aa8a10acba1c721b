"""Version conditions of a chart: which releases never take an ``if``'s first arm (``gates``).

Then what they are for: a document on a removed API that the chart writes only where the
API is still served is left alone (K8SM-TPL-008), by ``apply`` and by ``scan``; the same
document without the condition, or with one that still writes it where the API is gone,
keeps its error.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from k8smigrate.cli import app
from k8smigrate.templating.gates import gates
from k8smigrate.versions import KubeVersion, Window

from .templating_helpers import COMMON_KUBE_VERSION, CRD_BY_BRANCH, chart, run_cli, write_chart

PSP = (
    "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: {{ .Release.Name }}\n"
    "spec:\n  privileged: false\n"
)
OLD = '{{- if semverCompare "<1.25-0" .Capabilities.KubeVersion.GitVersion }}\n'
OLD_AND_ENABLED = '{{- if and .Values.psp.create (semverCompare "<1.25-0" .Capabilities.KubeVersion.GitVersion) }}\n'
SUPPORTED_HELPER = (
    '{{- define "x.psp.supported" -}}\n'
    '{{- if semverCompare "<1.25-0" .Capabilities.KubeVersion.GitVersion -}}true{{- end -}}\n'
    "{{- end -}}\n"
)
BY_HELPER = '{{- if and (include "x.psp.supported" .) .Values.psp.create }}\n'
END = "{{- end }}\n"


def off(template: str, window: Window, values: str = "psp:\n  create: true\n", **more: str) -> set[str]:
    sources = chart({"psp.yaml": template, **more}, values)
    found = gates(sources, window, list(sources.templates))
    return {str(r) for gate in found.get("templates/psp.yaml", []) for r in gate.off}


def releases(first: int, last: int) -> set[str]:
    return {str(KubeVersion(1, m)) for m in range(first, last + 1)}


# ---------------------------------------------------------------------------- no gate


def test_a_condition_on_values_only_is_no_gate() -> None:
    assert off("{{- if .Values.psp.create }}\n" + PSP + END, Window.of("1.29", "1.22")) == set()


def test_a_condition_true_at_every_release_of_the_window_is_no_gate() -> None:
    assert off(OLD.replace("<1.25-0", "<1.30-0") + PSP + END, Window.of("1.29", "1.25")) == set()


def test_conditions_are_read_only_where_a_document_is_on_a_removed_api() -> None:
    assert off(OLD + PSP + END, Window.of("1.24", "1.22")) == set()  # PodSecurityPolicy is served to 1.24


# ---------------------------------------------------------------------------- gates


def test_a_version_condition_is_off_from_the_release_it_names() -> None:
    assert off(OLD + PSP + END, Window.of("1.29", "1.22")) == releases(25, 29)


def test_a_values_switch_beside_the_version_does_not_make_the_release_matter_less() -> None:
    # a user can turn psp.create on; nobody can make 1.29 older than 1.25
    assert off(OLD_AND_ENABLED + PSP + END, Window.of("1.29", "1.22"), values="psp:\n  create: false\n") == (
        releases(25, 29)
    )


def test_a_version_condition_in_a_helper_counts_too() -> None:
    assert off(BY_HELPER + PSP + END, Window.of("1.29", "1.22"), **{"_helpers.tpl": SUPPORTED_HELPER}) == (
        releases(25, 29)
    )


# ---------------------------------------------------------------------------- apply and scan


def chart_folder(folder: Path, template: str) -> Path:
    files = {"Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n", "values.yaml": "psp:\n  create: true\n"}
    files["templates/psp.yaml"] = template
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_psp_written_only_before_1_25_needs_nothing(tmp_path: Path) -> None:
    chart_dir = chart_folder(tmp_path / "c", OLD_AND_ENABLED + PSP + END)
    for command in (["apply", "--check"], ["scan"]):
        result = CliRunner().invoke(
            app, [*command, "--target-version", "1.29", "--min-version", "1.19", str(chart_dir)]
        )
        assert result.exit_code == 0, result.output
        assert "K8SM-TPL-008" in result.output and "K8SM-GEN-007" not in result.output
        assert "no release of 1.25–1.29 meets: nothing to migrate" in result.output


def test_a_psp_without_a_version_condition_keeps_its_error(tmp_path: Path) -> None:
    chart_dir = chart_folder(tmp_path / "c", "{{- if .Values.psp.create }}\n" + PSP + END)
    result = CliRunner().invoke(app, ["apply", "--check", "--target-version", "1.29", str(chart_dir)])
    assert result.exit_code == 3
    assert "K8SM-GEN-007" in result.output and "K8SM-TPL-008" not in result.output


def test_a_condition_that_still_writes_it_where_the_api_is_gone_keeps_the_error(tmp_path: Path) -> None:
    chart_dir = chart_folder(tmp_path / "c", OLD.replace("<1.25-0", "<1.27-0") + PSP + END)
    result = CliRunner().invoke(
        app, ["apply", "--check", "--target-version", "1.29", "--min-version", "1.22", str(chart_dir)]
    )
    assert result.exit_code == 3
    assert "K8SM-GEN-007" in result.output and "K8SM-TPL-008" not in result.output


# ---------------------------------------------------------------------------- lines no release renders

APPARMOR_BY_RELEASE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  selector:
    matchLabels: {app: a}
  template:
    metadata:
      labels: {app: a}
      annotations:
        {{- if semverCompare "<1.30-0" (include "common.capabilities.kubeVersion" .) }}
        container.apparmor.security.beta.kubernetes.io/main: unconfined
        {{- end }}
    spec:
      containers:
        - name: main
          image: nginx
          {{- if semverCompare ">=1.30-0" (include "common.capabilities.kubeVersion" .) }}
          securityContext:
            appArmorProfile:
              type: Unconfined
          {{- end }}
"""
"""cilium's idiom (Bitnami): the AppArmor annotations for releases before 1.30, the field after."""


def apparmor_chart(folder: Path) -> Path:
    return write_chart(folder, {"deployment.yaml": APPARMOR_BY_RELEASE, "_helpers.tpl": COMMON_KUBE_VERSION})


def test_lines_that_some_release_of_the_window_renders_are_read(tmp_path: Path) -> None:
    # 1.29 renders the annotation: the AppArmor check sees it (and keeps it for 1.29)
    code, output = run_cli(
        "apply", "--check", "--target-version", "1.35", "--min-version", "1.29", str(apparmor_chart(tmp_path / "c"))
    )
    assert code == 0, output
    assert "K8SM-FLD-042" in output  # AppArmor annotations kept: unknown before 1.30


def test_lines_that_no_release_of_the_window_renders_are_left_out(tmp_path: Path) -> None:
    chart_dir = apparmor_chart(tmp_path / "c")
    for command in (["apply", "--check"], ["scan"]):
        code, output = run_cli(*command, "--target-version", "1.35", str(chart_dir))
        assert code == 0, output
        assert "apparmor" not in output.lower(), output  # never moved into the field the other arm writes


def test_only_arms_on_lines_of_their_own_inside_a_document_are_left_out() -> None:
    from k8smigrate.templating.gates import Gate, unreached

    window = Window.of("1.35", None)
    never = frozenset({KubeVersion(1, 35)})
    text = (
        "kind: A\n"
        'x: {{ if semverCompare "<1.30-0" .Capabilities.KubeVersion.GitVersion }}a{{ else }}b{{ end }}\n'
        "y:\n"
        '  {{- if semverCompare "<1.30-0" .Capabilities.KubeVersion.GitVersion }}\n'
        "  z: 1\n"
        "  {{- end }}\n"
        '{{- if semverCompare "<1.30-0" .Capabilities.KubeVersion.GitVersion }}\n'
        "w: 2\n"
        "{{- end }}\n"
    )
    inline_start = text.index("}}a") + 2
    own = text.index("}}\n  z") + 2
    top = text.index("}}\nw") + 2
    gates = [
        Gate(inline_start, inline_start + 1, "if", never),
        Gate(own, text.index("{{- end }}\n{{"), "if", never),
        Gate(top, text.rindex("{{- end"), "if", never),
    ]
    assert unreached(text, gates, window) == [(own, text.index("{{- end }}\n{{"))]
    assert unreached(text, [gates[1]], Window.of("1.35", "1.29")) == []  # 1.29 takes it


# ---------------------------------------------------------------------------- else arms

BY_RELEASE_ARMS = (
    "kind: A\n"
    'spec:\n{{- if semverCompare ">=1.11-0" .Capabilities.KubeVersion.GitVersion }}\n'
    "  versions: [v1]\n"
    "{{- else }}\n"
    "  version: v1\n"
    "{{- end }}\n"
)


def else_gates(template: str, window: Window) -> list[tuple[str, set[str]]]:
    sources = chart({"crd.yaml": template}, "")
    found = gates(sources, window, list(sources.templates))
    return [(template[g.start : g.end].strip(), {str(r) for r in g.off}) for g in found.get("templates/crd.yaml", [])]


def test_an_else_arm_is_off_where_the_first_arm_is_always_taken() -> None:
    assert else_gates(BY_RELEASE_ARMS, Window.of("1.29", "1.22")) == [("version: v1", releases(22, 29))]


def test_an_else_arm_a_providers_version_string_takes_is_no_gate() -> None:
    # ">=1.11" without -0 is false for "v1.29.0-eks-…": the else arm renders on such clusters
    assert else_gates(BY_RELEASE_ARMS.replace(">=1.11-0", ">=1.11"), Window.of("1.29", "1.22")) == []


CRD_BY_RELEASE = CRD_BY_BRANCH.replace("CONDITION", 'semverCompare ">=1.11-0" .Capabilities.KubeVersion.GitVersion')


def test_a_crd_whose_old_arm_no_release_takes_is_migrated_through_its_first_arm(tmp_path: Path) -> None:
    folder = write_chart(tmp_path / "c", {"crd.yaml": CRD_BY_RELEASE})
    code, output = run_cli("apply", "--in-place", "--target-version", "1.29", str(folder))
    assert code == 1, output
    migrated = (folder / "templates" / "crd.yaml").read_text(encoding="utf-8")
    schema_at = migrated.index("      schema:\n        openAPIV3Schema:\n")
    assert migrated.index("      storage: true\n") < schema_at < migrated.index("{{- else }}\n  version: v1\n")


def test_a_crd_whose_old_arm_some_cluster_takes_is_left_with_an_error(tmp_path: Path) -> None:
    template = CRD_BY_RELEASE.replace(">=1.11-0", ">=1.11")
    folder = write_chart(tmp_path / "c", {"crd.yaml": template})
    code, output = run_cli("apply", "--in-place", "--target-version", "1.29", str(folder))
    assert code == 3, output
    assert "K8SM-TPL-003" in output
    assert (folder / "templates" / "crd.yaml").read_text(encoding="utf-8") == template
