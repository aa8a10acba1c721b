"""A block of a template whose own lines do not read as YAML: left out, kept as written, warned.

Real charts carry blocks that are written one indentation off (hoard's Ingress ``tls`` range
puts ``secretName`` under the host list; burrow's ``extraArgs`` range writes its items deeper
than the list they extend). With those lines in, the template's YAML skeleton does not parse,
and the whole document used to be left alone (K8SM-TPL-002), so the Ingress around them kept
its removed API. Where such a block is taken, helm renders the same broken lines, so the block
is left out of the skeleton, carried byte for byte, and named in a warning (K8SM-TPL-014);
the rest of the document is migrated. It is refused (K8SM-TPL-002, as before) when the block
holds a top-level key (it is the document itself), or when the migration changes a key the
block writes too (the block would need the same change). No-op cases first, then the
migrated documents, then the refusals; every action comes out exactly once and a second run
changes nothing.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import yaml

from k8smigrate import migrate_text
from k8smigrate.results import FileResult
from tests.helpers import dedent

from .templating_helpers import run_cli, write_chart

ACTION = re.compile(r"\{\{.*?\}\}", re.S)

TLS_ONE_OFF = """
  {{- range .Values.ingress.tls }}
  - hosts:
  {{- range .hosts }}
    - {{ . }}
  {{- end }}
      secretName: {{ .secretName }}
  {{- end }}
"""


def migrate(text: str) -> FileResult:
    result = migrate_text(text, target_version="1.29", filename="t.yaml")
    assert Counter(ACTION.findall(result.text)) == Counter(ACTION.findall(text))
    assert migrate_text(result.text, target_version="1.29", filename="t.yaml").text == result.text
    return result


def ingress(api: str, backend: str, block: str = TLS_ONE_OFF) -> str:
    head = f"apiVersion: {api}\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  tls:\n"
    rules = "  rules:\n  - http:\n      paths:\n      - path: /\n        backend:\n"
    return head + block.lstrip("\n") + rules + backend


V1_BACKEND = "          service:\n            name: web\n            port:\n              number: 80\n"
OLD_BACKEND = "          serviceName: web\n          servicePort: 80\n"


def codes(result: FileResult) -> list[tuple[str, str]]:
    return [(f.level, f.code) for f in result.findings]


# ------------------------------------------------------------------ nothing to migrate


def test_a_current_document_with_a_block_that_does_not_read_is_unchanged_with_the_warning() -> None:
    text = ingress("networking.k8s.io/v1", V1_BACKEND)
    result = migrate(text)
    assert result.text == text
    assert codes(result) == [("warning", "K8SM-TPL-014")]


def test_a_document_that_reads_gets_no_warning() -> None:
    block = "  {{- range .Values.ingress.tls }}\n  - secretName: {{ .secretName }}\n  {{- end }}\n"
    text = ingress("networking.k8s.io/v1", V1_BACKEND, block)
    result = migrate(text)
    assert result.text == text and result.findings == []


# ------------------------------------------------------------------ migrated around the block


def test_the_document_around_the_block_is_migrated_and_the_block_kept_byte_for_byte() -> None:
    text = ingress("extensions/v1beta1", OLD_BACKEND)
    result = migrate(text)
    assert result.text == ingress("networking.k8s.io/v1", V1_BACKEND).replace(
        "      - path: /\n", "      - path: /\n        pathType: ImplementationSpecific\n"
    )
    assert TLS_ONE_OFF.lstrip("\n") in result.text
    [warning] = [f for f in result.findings if f.level == "warning"]
    assert warning.code == "K8SM-TPL-014"
    assert warning.line == text.splitlines().index("  {{- range .Values.ingress.tls }}") + 1
    assert "lines 7–13, under '{{- range .Values.ingress.tls }}'" in warning.message
    assert not [f for f in result.findings if f.level == "error"]


def backend_if(first_branch: str) -> str:
    """An Ingress whose servicePort is written by an if/else, the first branch as given."""
    head = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n"
    backend = "  backend:\n    serviceName: web\n"
    return (
        head
        + backend
        + f"  {{{{- if .Values.port }}}}\n{first_branch}  {{{{- else }}}}\n    servicePort: 80\n  {{{{- end }}}}\n"
    )


def test_a_first_branch_that_does_not_read_is_left_out_and_its_else_branch_migrated() -> None:
    result = migrate(backend_if("  - {{ .Values.port }}\n"))
    assert "  - {{ .Values.port }}\n" in result.text and "number: 80" in result.text
    assert ("warning", "K8SM-TPL-014") in codes(result)


def test_a_block_that_writes_only_what_its_actions_write_is_left_out_without_a_finding() -> None:
    # kube-state-metrics: labels from an include, then more from values; nothing to check in them
    labels = (
        "  labels:\n"
        '    {{- include "x.labels" . | indent 4 }}\n'
        "    {{- with .Values.labels }}\n"
        "    {{- toYaml . | nindent 4 }}\n"
        "    {{- end }}\n"
    )
    text = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n" + labels
    text += "spec:\n  backend:\n    serviceName: web\n    servicePort: 80\n"
    result = migrate(text)
    assert result.text.startswith("apiVersion: networking.k8s.io/v1\n")
    assert "    {{- with .Values.labels }}\n    {{- toYaml . | nindent 4 }}\n" in result.text
    assert [f for f in result.findings if f.code.startswith("K8SM-TPL")] == []


# ------------------------------------------------------------------ left as they are


def test_a_block_with_a_key_the_migration_changes_is_refused() -> None:
    block = "  {{- range .Values.extra }}\n  - secretName: {{ . }}\n     serviceName: {{ . }}\n  {{- end }}\n"
    text = ingress("extensions/v1beta1", OLD_BACKEND, block)
    result = migrate(text)
    assert result.text == text
    [error] = [f for f in result.findings if f.level == "error"]
    assert error.code == "K8SM-TPL-002" and "(serviceName)" in error.message


def test_a_first_branch_that_does_not_read_and_writes_a_key_the_migration_changes_is_refused() -> None:
    text = backend_if("      servicePort: {{ .Values.port }}\n")  # one level too deep
    result = migrate(text)
    assert result.text == text
    [error] = [f for f in result.findings if f.level == "error"]
    assert (error.code, error.line) == ("K8SM-TPL-002", 8)
    assert "do not read as YAML" in error.message and "(servicePort)" in error.message


def test_a_block_that_holds_top_level_keys_is_not_left_out() -> None:
    text = dedent(
        """
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web
        {{- if .Values.extra }}
        spec:
          rules: []
         tls: []
        {{- end }}
        """
    )
    result = migrate(text)
    assert result.text == text
    [error] = [f for f in result.findings if f.level == "error"]
    assert error.code == "K8SM-TPL-002" and "skeleton does not parse" in error.message


def test_tags_at_column_0_inside_a_block_scalar_leave_their_block_out_and_the_rest_is_migrated() -> None:
    # the tags end the block scalar in the skeleton (a comment at column 0), not in the rendering:
    # `{{- if .D }}` is too short for a comment at the script's column, and no tag above it
    # in the script has a region to take it in
    sidecar = dedent(
        """
        {{- if .Values.sidecar }}
              - name: sidecar
                image: sidecar
                args:
                - |
                  run
        {{- if .D }}
                  debug
        {{- end }}
                  done
        {{- end }}
        """
    )
    head = "kind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n"
    pod = "  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n"
    body = head + pod + "      - name: web\n        image: web\n" + sidecar
    result = migrate("apiVersion: apps/v1beta2\n" + body)
    assert result.text == "apiVersion: apps/v1\n" + body
    [warning] = [f for f in result.findings if f.level == "warning"]  # the outer block holds the inner
    assert (warning.code, warning.line) == ("K8SM-TPL-014", body.count("\n", 0, body.index("{{- if")) + 2)
    assert "lines 17–27, under '{{- if .Values.sidecar }}'" in warning.message


def test_a_document_only_a_report_only_check_reads_is_no_error_when_it_does_not_read(tmp_path: Path) -> None:
    # kubeapps' Service: its deprecated loadBalancerIP is an info (K8SM-FLD-021), never an edit
    text = "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\nspec:\n  {{- .Values.x | indent 2 }}\n"
    text += "  loadBalancerIP: 1.2.3.4\n"
    result = migrate(text)
    assert result.text == text
    assert [(f.level, f.code) for f in result.findings] == [("info", "K8SM-TPL-007")]
    folder = write_chart(tmp_path / "c", {"svc.yaml": text})
    code, output = run_cli("scan", "--target-version", "1.29", str(folder))
    assert code == 0 and "info K8SM-TPL-007" in output, output


# ------------------------------------------------------------------ scan answers as apply


def test_scan_lists_the_document_around_the_block_with_the_warning(tmp_path: Path) -> None:
    folder = write_chart(tmp_path / "c", {"ingress.yaml": ingress("extensions/v1beta1", OLD_BACKEND)})
    code, output = run_cli("scan", "--target-version", "1.29", str(folder))
    assert code == 1, output
    assert "ingress.yaml:1: removed-api      Ingress web extensions/v1beta1" in output
    assert "ingress.yaml:7: warning K8SM-TPL-014 lines 7–13" in output


def test_scan_gives_the_refusal_apply_gives(tmp_path: Path) -> None:
    block = "  {{- range .Values.extra }}\n  - secretName: {{ . }}\n     serviceName: {{ . }}\n  {{- end }}\n"
    folder = write_chart(tmp_path / "c", {"ingress.yaml": ingress("extensions/v1beta1", OLD_BACKEND, block)})
    code, output = run_cli("scan", "--target-version", "1.29", str(folder))
    assert code == 3, output
    assert "ingress.yaml:7: error K8SM-TPL-002" in output and "(serviceName)" in output


# ------------------------------------------------------------------ proof with helm


def test_helm_renders_the_migrated_chart_as_the_migrated_rendering_where_the_block_is_not_taken(
    helm: str, tmp_path: Path
) -> None:
    template = "{{- if .Values.ingress.enabled }}\n" + ingress("extensions/v1beta1", OLD_BACKEND) + "{{- end }}\n"
    values = "ingress:\n  enabled: true\n  tls: []\n"
    folder = write_chart(tmp_path / "c", {"ingress.yaml": template}, values)
    before = render(helm, folder)
    code, output = run_cli("apply", "--in-place", "--target-version", "1.29", str(folder))
    assert code == 1 and "K8SM-TPL-014" in output, output
    migrated = migrate_text(before, target_version="1.29").text
    assert list(yaml.safe_load_all(render(helm, folder))) == list(yaml.safe_load_all(migrated))
    assert "networking.k8s.io/v1" in migrated


def render(helm: str, folder: Path) -> str:
    command = [helm, "template", "r", str(folder), "--kube-version", "1.29.0"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout
