"""A chart's document of a kind nothing serves any more: ``--set unserved-kinds=gate``.

By default the document stays as it is with its error, which names the option. With it, the
chart writes the document only for the releases that serve it (an ``if`` on the cluster's
version around it, as upstream charts did for PodSecurityPolicy); the next run reads that as
gated (K8SM-TPL-008). The real helm proves that the rendering is unchanged where the API is
served and that nothing is rendered where it is not.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from k8smigrate.templating.gotemplate import tags
from k8smigrate.templating.unserved import GatePlan, gate_plan, wrapped
from k8smigrate.versions import KubeVersion, Window

from .templating_helpers import run_cli, write_chart

PSP_BODY = "kind: PodSecurityPolicy\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  privileged: false\n"
PSP = "apiVersion: policy/v1beta1\n" + PSP_BODY
GATE = '{{- if semverCompare "<1.25-0" $.Capabilities.KubeVersion.GitVersion }}\n'
END = "{{- end }}\n"
CONFIG_MAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  a: b\n"
HELPER = (
    '{{- define "c.psp.apiVersion" -}}\n'
    '{{- if semverCompare "<1.10-0" .Capabilities.KubeVersion.GitVersion -}}\n'
    '{{- print "extensions/v1beta1" -}}\n'
    "{{- else -}}\n"
    '{{- print "policy/v1beta1" -}}\n'
    "{{- end -}}\n"
    "{{- end -}}\n"
)
COMPUTED = 'apiVersion: {{ template "c.psp.apiVersion" . }}\n' + PSP_BODY
SWITCH = "{{- if .Values.psp.create }}\n"


def chart(folder: Path, templates: dict[str, str]) -> Path:
    return write_chart(folder, templates, "psp:\n  create: true\n")


run = run_cli


def wrap(text: str) -> str | None:
    done = wrapped(text, tags(text)[0], (0, len(text)), KubeVersion(1, 25))
    return None if done is None else done.text


# ---------------------------------------------------------------------------- no change


def test_by_default_the_document_stays_and_its_error_names_the_option(tmp_path: Path) -> None:
    folder = chart(tmp_path / "c", {"psp.yaml": SWITCH + PSP + END})
    before = (folder / "templates/psp.yaml").read_text(encoding="utf-8")
    code, output = run("apply", "--in-place", "--target-version", "1.29", "--min-version", "1.22", str(folder))
    assert code == 3
    assert "K8SM-GEN-007" in output
    assert "In a chart, --set unserved-kinds=gate writes it only for the releases before 1.25" in output
    assert (folder / "templates/psp.yaml").read_text(encoding="utf-8") == before


def test_an_apiversion_an_if_else_picks_gets_one_error_naming_the_option(tmp_path: Path) -> None:
    # prometheus-consul-exporter: Has "policy/v1beta1" picks policy/v1beta1, else extensions/v1beta1
    picked = (
        '{{- if .Capabilities.APIVersions.Has "policy/v1beta1" }}\n'
        "apiVersion: policy/v1beta1\n{{- else }}\napiVersion: extensions/v1beta1\n{{- end }}\n"
    )
    folder = chart(tmp_path / "c", {"psp.yaml": SWITCH + picked + PSP_BODY + END})
    code, output = run("apply", "--check", "--target-version", "1.29", str(folder))
    assert code == 3
    assert "needs a human (1)" in output and "K8SM-TPL-104" not in output
    assert output.count("In a chart, --set unserved-kinds=gate writes it only for the releases before 1.25") == 2


def test_scan_names_the_option_for_a_literal_apiversion(tmp_path: Path) -> None:
    folder = chart(tmp_path / "c", {"psp.yaml": SWITCH + PSP + END})
    code, output = run("scan", "--target-version", "1.29", str(folder))
    assert code == 3
    assert "decide with: --set unserved-kinds=gate" in output


def test_a_computed_apiversion_keeps_its_error_by_default_and_it_names_the_option(tmp_path: Path) -> None:
    folder = chart(tmp_path / "c", {"psp.yaml": SWITCH + COMPUTED + END, "_helpers.tpl": HELPER})
    code, output = run("apply", "--check", "--target-version", "1.29", "--min-version", "1.22", str(folder))
    assert code == 3
    assert (
        "K8SM-TPL-104" in output and "--set unserved-kinds=gate writes it only for the releases before 1.25" in output
    )
    code, output = run("scan", "--target-version", "1.29", "--min-version", "1.22", str(folder))
    assert code == 3
    assert "K8SM-TPL-005 --set unserved-kinds=gate" in output


def test_a_kind_that_an_apiversion_serves_at_the_target_is_not_gated() -> None:
    assert gate_plan("extensions/v1beta1", "Ingress", Window.of("1.29", "1.29")) is None  # networking.k8s.io/v1
    assert gate_plan("policy/v1beta1", "PodSecurityPolicy", Window.of("1.24", "1.22")) is None  # still served
    assert gate_plan("extensions/v1beta1", "PodSecurityPolicy", Window.of("1.24", "1.19")) is None  # policy/v1beta1


def test_a_document_whose_lines_do_not_hold_whole_blocks_is_not_wrapped() -> None:
    assert wrap(PSP.replace("spec:\n", "spec:\n{{- end }}\n")) is None  # closes a block opened before
    assert wrap(PSP.replace("spec:\n", "{{- else }}\nspec:\n")) is None  # an arm of a block opened before
    assert wrap(PSP.replace("spec:\n", SWITCH + "spec:\n")) is None  # opens a block that closes after more YAML


def test_an_option_that_cannot_wrap_the_document_says_so_and_leaves_it(tmp_path: Path) -> None:
    template = SWITCH + PSP + "{{- else }}\n" + CONFIG_MAP + END
    folder = chart(tmp_path / "c", {"psp.yaml": template})
    args = ["apply", "--in-place", "--set", "unserved-kinds=gate", "--target-version", "1.29", str(folder)]
    code, output = run(*args)
    assert code == 3
    assert "--set unserved-kinds=gate cannot put an if around it" in output
    assert (folder / "templates/psp.yaml").read_text(encoding="utf-8") == template
    code, output = run("apply", "--check", "--target-version", "1.29", str(folder))
    assert code == 3
    assert "unserved-kinds" not in output  # not offered where it would not work


# ---------------------------------------------------------------------------- gate


def test_the_gate_is_at_the_removal_of_what_the_document_is_written_as() -> None:
    assert gate_plan("policy/v1beta1", "PodSecurityPolicy", Window.of("1.29", "1.19")) == GatePlan(KubeVersion(1, 25))
    # no release of the window serves it: written only where it was, before 1.16
    assert gate_plan("extensions/v1beta1", "PodSecurityPolicy", Window.of("1.29", "1.29")) == GatePlan(
        KubeVersion(1, 16)
    )
    # policy/v1beta1 serves 1.19 to 1.24: written as that, before 1.25
    assert gate_plan("extensions/v1beta1", "PodSecurityPolicy", Window.of("1.29", "1.19")) == GatePlan(
        KubeVersion(1, 25), "policy/v1beta1"
    )


def test_a_document_written_at_an_apiversion_already_gone_is_written_as_the_one_that_serves(tmp_path: Path) -> None:
    old = PSP.replace("policy/v1beta1", "extensions/v1beta1")
    folder = chart(tmp_path / "c", {"psp.yaml": SWITCH + old + END})
    window = ["--target-version", "1.29", "--min-version", "1.19"]
    code, output = run("apply", "--check", *window, str(folder))
    assert code == 3
    assert (
        "In a chart, --set unserved-kinds=gate writes it as policy/v1beta1 only for the releases before 1.25" in output
    )
    code, output = run("apply", "--in-place", "--set", "unserved-kinds=gate", *window, str(folder))
    assert code == 1, output
    assert (folder / "templates/psp.yaml").read_text(encoding="utf-8") == SWITCH + GATE + PSP + END + END
    assert "writes it as policy/v1beta1 (the same fields)" in output
    code, output = run("apply", "--check", *window, str(folder))
    assert code == 0, output


def test_the_if_goes_inside_the_blocks_around_the_document() -> None:
    assert wrap(SWITCH + PSP + END) == SWITCH + GATE + PSP + END + END


def test_a_block_that_opens_in_the_document_closes_before_the_gate_ends() -> None:
    labels = "  labels:\n{{- if .Values.labels }}\n{{ toYaml .Values.labels | indent 4 }}\n{{- end }}\n"
    text = PSP.replace("  name: {{ .Release.Name }}\n", "  name: {{ .Release.Name }}\n" + labels)
    assert wrap(text) == GATE + text + END
    # a block still open at the last line of YAML closes on the lines right after it
    opened = "apiVersion: policy/v1beta1\n{{- with .Values.extra }}\nextra: {{ . }}\n\n{{- end }}\n"
    assert wrap(opened) == GATE + opened + END


def test_a_file_without_a_final_line_break_gets_one_inside_the_end() -> None:
    assert wrap(PSP.rstrip("\n")) == GATE + PSP.rstrip("\n") + "\n{{- end }}"


def test_only_the_documents_of_an_unserved_kind_are_gated(tmp_path: Path) -> None:
    folder = chart(tmp_path / "c", {"all.yaml": CONFIG_MAP + "---\n" + SWITCH + PSP + END + "---\n" + CONFIG_MAP})
    args = ["apply", "--in-place", "--set", "unserved-kinds=gate", "--target-version", "1.29", "--min-version", "1.22"]
    code, output = run(*args, str(folder))
    assert code == 1, output
    assert (folder / "templates/all.yaml").read_text(encoding="utf-8") == (
        CONFIG_MAP + "---\n" + SWITCH + GATE + PSP + END + END + "---\n" + CONFIG_MAP
    )
    assert "K8SM-TPL-009" in output and "K8SM-GEN-007" not in output
    assert "from 1.25 on, enforce Pod Security Admission" in output


def test_a_computed_apiversion_is_gated_and_the_next_run_reads_it_as_gated(tmp_path: Path) -> None:
    folder = chart(tmp_path / "c", {"psp.yaml": SWITCH + COMPUTED + END, "_helpers.tpl": HELPER})
    window = ["--target-version", "1.29", "--min-version", "1.22"]
    code, output = run("apply", "--in-place", "--set", "unserved-kinds=gate", *window, str(folder))
    assert code == 1, output
    assert "K8SM-TPL-009" in output and "K8SM-TPL-104" not in output
    assert (folder / "templates/psp.yaml").read_text(encoding="utf-8") == SWITCH + GATE + COMPUTED + END + END
    for command in (["apply", "--check"], ["scan"]):
        code, output = run(*command, *window, str(folder))
        assert code == 0, output
        assert "K8SM-TPL-104" not in output and "K8SM-TPL-005" not in output
    code, output = run("apply", "--check", *window, str(folder))
    assert "K8SM-TPL-008" in output and "(apiVersion computed by the chart: policy/v1beta1)" in output


def test_an_if_that_picks_the_apiversion_line_goes_inside_the_gate(tmp_path: Path) -> None:
    picked = (
        '{{- if .Capabilities.APIVersions.Has "policy/v1beta1" }}\n'
        "apiVersion: policy/v1beta1\n"
        "{{ else }}\n"
        "apiVersion: extensions/v1beta1\n"
        "{{ end -}}\n"
    )
    folder = chart(tmp_path / "c", {"psp.yaml": SWITCH + picked + PSP_BODY + END})
    code, output = run("apply", "--in-place", "--set", "unserved-kinds=gate", "--target-version", "1.29", str(folder))
    assert code == 1, output
    assert (folder / "templates/psp.yaml").read_text(encoding="utf-8") == SWITCH + GATE + picked + PSP_BODY + END + END
    assert output.count("K8SM-TPL-009") == 1  # gated once, though the chart step and the file both see it
    code, output = run("apply", "--check", "--target-version", "1.29", str(folder))
    assert code == 0, output


def test_a_gated_literal_is_read_as_gated_by_every_later_run(tmp_path: Path) -> None:
    folder = chart(tmp_path / "c", {"psp.yaml": SWITCH + PSP + END})
    run("apply", "--in-place", "--set", "unserved-kinds=gate", "--target-version", "1.29", str(folder))
    for window in (["--target-version", "1.29"], ["--target-version", "1.29", "--min-version", "1.19"]):
        code, output = run("apply", "--check", "--set", "unserved-kinds=gate", *window, str(folder))
        assert code == 0, output
        assert "K8SM-TPL-008" in output


# ---------------------------------------------------------------------------- proof with helm


def render(helm: str, folder: Path, release: str) -> list[dict]:
    out = subprocess.run(
        [helm, "template", "r", str(folder), "--kube-version", release], capture_output=True, text=True, check=True
    ).stdout
    return [d for d in yaml.safe_load_all(out) if d]


def test_helm_renders_the_gated_chart_as_before_where_the_api_is_served_and_nothing_after(
    helm: str, tmp_path: Path
) -> None:
    templates = {"psp.yaml": SWITCH + PSP + END, "computed.yaml": SWITCH + COMPUTED + END, "_helpers.tpl": HELPER}
    original = chart(tmp_path / "original", templates)
    gated = chart(tmp_path / "gated", templates)
    args = ["apply", "--in-place", "--set", "unserved-kinds=gate", "--target-version", "1.29", "--min-version", "1.22"]
    code, output = run(*args, str(gated))
    assert code == 1, output
    assert render(helm, gated, "1.24.0") == render(helm, original, "1.24.0")
    assert len([d for d in render(helm, gated, "1.24.0") if d["kind"] == "PodSecurityPolicy"]) == 2
    for release in ("1.25.0", "1.29.0"):
        assert [d for d in render(helm, gated, release) if d["kind"] == "PodSecurityPolicy"] == []


def test_a_gated_document_reads_as_gated_with_a_comment_or_a_document_marker_before_its_gate(tmp_path: Path) -> None:
    # a second run must not gate it again: the comment above the chart's `if` (aws-calico), and
    # an `if` that opens before the document's `---` (kubernetes-dashboard), render nothing of it
    for name, template in {
        "comment": "# the policy\n" + SWITCH + PSP + END,
        "marker": SWITCH + CONFIG_MAP + "---\n" + PSP + END,
    }.items():
        folder = chart(tmp_path / name, {"psp.yaml": template})
        window = ["--target-version", "1.29", "--min-version", "1.22"]
        code, output = run("apply", "--in-place", "--set", "unserved-kinds=gate", *window, str(folder))
        assert code == 1 and "K8SM-TPL-009" in output, output
        code, output = run("apply", "--check", "--set", "unserved-kinds=gate", *window, str(folder))
        assert code == 0 and "K8SM-TPL-008" in output, (name, output)
