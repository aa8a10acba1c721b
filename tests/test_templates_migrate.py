"""Migrating templates through their YAML skeleton: what changes, what is carried, what is refused.

No-op cases first, then transforms, then the documents left as they are (with their
findings); a hypothesis property at the end: whatever values and control lines an Ingress
template has, every action comes out exactly once and a second run changes nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate import migrate_text
from k8smigrate.settings import Settings
from k8smigrate.templating.migrate import migrate_template
from tests.helpers import dedent
from tests.templating_helpers import BITNAMI_STYLE_DEPLOYMENT

ACTION = re.compile(r"\{\{.*?\}\}", re.S)


def migrate(text: str, **kwargs: object) -> tuple[str, list[str]]:
    result = migrate_text(dedent(text), target_version="1.29", **kwargs)  # type: ignore[arg-type]
    return result.text, [f.code for f in result.findings]


def test_a_template_that_needs_nothing_is_left_as_it_is_without_findings() -> None:
    text = dedent(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: {{ include "x.fullname" . }}
          labels:
            {{- include "x.labels" . | nindent 4 }}
        spec:
          {{- if not .Values.autoscaling.enabled }}
          replicas: {{ .Values.replicaCount }}
          {{- end }}
        """
    )
    assert migrate(text) == (text, [])


def test_values_inside_quotes_and_keys_from_actions_are_carried() -> None:
    text = """
        apiVersion: rbac.authorization.k8s.io/v1beta1
        kind: ClusterRole
        metadata:
          name: "{{ .Release.Name }}-{{ .Values.name }}"
          annotations:
            {{- range $k, $v := .Values.annotations }}
            {{ $k }}: {{ $v | quote }}
            {{- end }}
        rules: []
        """
    out, codes = migrate(text)
    assert out == dedent(text).replace("v1beta1", "v1")
    assert codes == []


def test_an_ingress_port_from_values_becomes_a_number_and_keeps_its_action() -> None:
    text = """
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web
        spec:
          backend:
            serviceName: {{ .Values.name }}
            servicePort: {{ .Values.service.port }}
        """
    result = migrate_template(
        dedent(text), Settings(target_version="1.29"), values={"service": {"port": 80}}, filename="i.yaml"
    )
    assert "      port:\n        number: {{ .Values.service.port }}\n" in result.text
    assert "K8SM-ING-011" in [f.code for f in result.findings]


def test_a_port_from_a_field_of_a_variable_declared_as_a_values_path_is_resolved() -> None:
    # bitwardenrs: $websockets := .Values.bitwardenrs.websockets, then servicePort: {{ $websockets.port }}
    text = """
        {{- $websockets := .Values.bitwardenrs.websockets }}
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web
        spec:
          backend:
            serviceName: web
            servicePort: {{ $websockets.port }}
        """
    values = {"bitwardenrs": {"websockets": {"port": 3012}}}
    result = migrate_template(dedent(text), Settings(target_version="1.29"), values=values, filename="i.yaml")
    assert "      port:\n        number: {{ $websockets.port }}\n" in result.text
    assert "K8SM-ING-011" in [f.code for f in result.findings]


def test_the_last_annotation_below_an_action_that_writes_the_others_is_deleted_alone() -> None:
    # bitnami postgresql's headless Service: the annotations an action writes stay, with their key
    head = "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n"
    notes = "  annotations: {{- toYaml .Values.commonAnnotations | nindent 4 }}\n"
    tolerate = '    service.alpha.kubernetes.io/tolerate-unready-endpoints: "true"\n'
    spec = "spec:\n  publishNotReadyAddresses: true\n"
    result = migrate_text(head + notes + tolerate + "spec:\n  clusterIP: None\n", target_version="1.29")
    assert result.text == head + notes + "spec:\n  clusterIP: None\n  publishNotReadyAddresses: true\n"
    # where the field already says it, nothing is gained: kept (postgresql writes it under a
    # condition that makes it a label when false)
    result = migrate_text(head + notes + tolerate + spec, target_version="1.29")
    assert result.text == head + notes + tolerate + spec
    [info] = [f for f in result.findings if f.code == "K8SM-FLD-015"]
    assert "kept below its action; spec.publishNotReadyAddresses: true already says it" in info.message


DEFAULT_PORT_INGRESS = """
    {{- $httpPort := .Values.httpPort -}}
    apiVersion: extensions/v1beta1
    kind: Ingress
    metadata:
      name: web
    spec:
      rules:
      {{- range .Values.ingress.hosts }}
      - http:
          paths:
          - backend:
              serviceName: web
              servicePort: PORT
      {{- end }}
    """


@pytest.mark.parametrize(
    ("port", "values", "renders"),
    [
        # elastic's elasticsearch and kibana: a range item's field, else the chart's port
        ("{{ .servicePort | default $httpPort }}", {"httpPort": 9200, "ingress": {"hosts": [{}]}}, "9200"),
        ("{{ default $httpPort .servicePort }}", {"httpPort": 9200, "ingress": {"hosts": [{}]}}, "9200"),
        ("{{ .Values.servicePort | default .Values.httpPort }}", {"httpPort": 9200}, "9200"),
        ("{{ default 80 .Values.servicePort }}", {"servicePort": ""}, "80"),
        ("{{ .Values.servicePort | default 80 }}", {"servicePort": 8080}, "8080"),
        # argo-cd: `$servicePort := ternary .Values.https .Values.http .Values.tls`
        ("{{ ternary .Values.https .Values.http .Values.tls }}", {"https": 443, "http": 80, "tls": True}, "443"),
        ("{{ ternary .Values.https .Values.http .Values.tls }}", {"https": 443, "http": 80, "tls": False}, "80"),
        ("{{ ternary .Values.https .Values.http .Values.tls }}", {"https": 443, "http": 80}, "80"),
    ],
)
def test_a_port_behind_default_is_resolved_as_the_chart_renders_it(
    port: str, values: dict[str, Any], renders: str
) -> None:
    text = dedent(DEFAULT_PORT_INGRESS).replace("PORT", port)
    result = migrate_template(text, Settings(target_version="1.29"), values=values, filename="i.yaml")
    assert f"\n              number: {port}\n" in result.text and "serviceName" not in result.text
    [info] = [f for f in result.findings if f.code == "K8SM-ING-011"]
    assert f"servicePort renders '{renders}'" in info.message


def test_a_port_from_a_variable_declared_as_a_ternary_is_resolved() -> None:
    text = "{{- $port := ternary .Values.https .Values.http .Values.tls -}}\n" + dedent(DEFAULT_PORT_INGRESS)
    text = text.replace("PORT", "{{ $port }}")
    result = migrate_template(text, Settings(target_version="1.29"), values={"https": 443, "http": 80}, filename="i")
    assert "number: {{ $port }}\n" in result.text
    [info] = [f for f in result.findings if f.code == "K8SM-ING-011"]
    assert "servicePort renders '80'" in info.message


@pytest.mark.parametrize(
    ("port", "values"),
    [
        # an item of values.yaml sets the field: which one the range writes is not known
        ("{{ .servicePort | default $httpPort }}", {"httpPort": 9200, "ingress": {"hosts": [{"servicePort": "http"}]}}),
        ("{{ .Values.servicePort | default .Values.unset }}", {}),  # nothing to fall back on
        ("{{ .Values.servicePort | default .Values.httpPort | quote }}", {"httpPort": 9200}),  # more than default
        ("{{ ternary .Values.https .Values.http .tls }}", {"https": 443, "http": 80, "x": [{"tls": True}]}),
    ],
)
def test_a_port_behind_default_that_cannot_be_told_stays_a_decision(port: str, values: dict[str, Any]) -> None:
    text = dedent(DEFAULT_PORT_INGRESS).replace("PORT", port)
    result = migrate_template(text, Settings(target_version="1.29"), values=values, filename="i.yaml")
    assert result.text == text
    assert "K8SM-GEN-010" in [f.code for f in result.findings]


EXTRA_PATHS = """
    apiVersion: extensions/v1beta1
    kind: Ingress
    metadata:
      name: web
    spec:
      rules:
        - http:
            paths:
    {{- with .Values.ingress.extraPaths }}
    {{ toYaml . | indent 10 }}
    {{- end }}
              - path: /
                backend:
                  serviceName: web
                  servicePort: 80
    """


def test_paths_an_action_writes_from_values_are_migrated_around_with_a_warning_naming_the_action() -> None:
    # oauth2-proxy: values.yaml documents extraPaths with serviceName/servicePort; a v1 Ingress
    # rejects them, so whoever gives them must write the v1 shape
    out, codes = migrate(EXTRA_PATHS)
    assert "apiVersion: networking.k8s.io/v1\n" in out and "{{ toYaml . | indent 10 }}" in out
    assert codes.count("K8SM-ING-012") == 1
    [warning] = [
        f for f in migrate_text(dedent(EXTRA_PATHS), target_version="1.29").findings if f.code == "K8SM-ING-012"
    ]
    assert warning.level == "warning" and "{{ toYaml . | indent 10 }}" in warning.message
    assert warning.line == dedent(EXTRA_PATHS).splitlines().index("{{ toYaml . | indent 10 }}") + 1


def test_a_port_name_from_values_becomes_a_name() -> None:
    text = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nspec:\n  backend:\n    serviceName: a\n    servicePort: {{ .Values.port }}\n"
    result = migrate_template(text, Settings(target_version="1.29"), values={"port": "http"})
    assert "name: {{ .Values.port }}" in result.text


def test_a_quoted_port_from_values_is_written_unquoted_under_number() -> None:
    text = 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nspec:\n  backend:\n    serviceName: a\n    servicePort: "{{ .Values.port }}"\n'
    result = migrate_template(text, Settings(target_version="1.29"), values={"port": 80})
    assert "      port:\n        number: {{ .Values.port }}\n" in result.text  # it must render an integer
    assert [f.code for f in result.findings if f.level == "error"] == []


SERVICE = """\
apiVersion: v1
kind: Service
metadata:
  name: {{ include "x.fullname" . }}
  annotations:
    service.alpha.kubernetes.io/tolerate-unready-endpoints: "{{ .Values.tolerate }}"
spec:
  ports:
  - port: 80
"""


def test_a_templated_tolerate_unready_annotation_moves_to_the_field_as_its_action() -> None:
    result = migrate_template(SERVICE, Settings(target_version="1.29"), values={"tolerate": "true"})
    assert result.text == (
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ include "x.fullname" . }}\nspec:\n  ports:\n'
        "  - port: 80\n  publishNotReadyAddresses: {{ .Values.tolerate }}\n"
    )
    assert [f.code for f in result.findings] == ["K8SM-FLD-015"]


def test_a_templated_tolerate_unready_annotation_of_unknown_value_is_left_with_an_error() -> None:
    result = migrate_template(SERVICE, Settings(target_version="1.29"), values={})
    assert result.text == SERVICE
    assert "K8SM-TPL-003" in [f.code for f in result.findings]


def test_an_unknown_templated_port_is_a_decision() -> None:
    text = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nspec:\n  backend:\n    serviceName: a\n    servicePort: {{ .Values.port | quote }}\n"
    out, codes = migrate(text)
    assert out == text and "K8SM-GEN-010" in codes
    out, codes = migrate(text, decisions={"templated-service-port": "number"})
    assert "number: {{ .Values.port | quote }}" in out


def test_if_else_branches_that_write_one_key_twice_are_left_out_of_the_skeleton() -> None:
    text = """
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: x
        spec:
        {{- if .Values.minAvailable }}
          minAvailable: {{ .Values.minAvailable }}
        {{- else }}
          minAvailable: 1
        {{- end }}
          selector:
            matchLabels:
              app: x
        """
    out, codes = migrate(text)
    assert out == dedent(text).replace("policy/v1beta1", "policy/v1")
    assert codes == []


def test_finding_messages_name_the_actions() -> None:
    text = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nspec:\n  backend:\n    serviceName: a\n    servicePort: {{ .Values.port | quote }}\n"
    result = migrate_text(text, target_version="1.29")
    assert all("\ue000" not in f.message for f in result.findings)


def test_a_migration_that_would_copy_an_action_leaves_the_document_with_an_error() -> None:
    # the object has no labels: the old API copied the templated pod labels to it, which
    # stand below it (an alias cannot come before its anchor)
    text = """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: x
        spec:
          template:
            metadata:
              labels:
                app: {{ .Values.name }}
            spec:
              containers: []
        """
    out, codes = migrate(text)
    assert out == dedent(text)
    assert "K8SM-TPL-003" in codes


def test_one_document_left_as_it_is_does_not_stop_the_others() -> None:
    text = """
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: {{ dict
            "a" 1 }} x: y
        ---
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: b
        """
    out, codes = migrate(text)
    first, second = out.split("---\n")
    assert "policy/v1beta1" in first and "policy/v1\n" in second
    assert "K8SM-TPL-002" in codes


def test_a_computed_kind_on_a_removed_api_is_an_error_never_silent() -> None:
    # opa's webhook: kind from values.yaml, apiVersion a literal removed in 1.22
    text = (
        "kind: {{ .Values.kind }}\napiVersion: admissionregistration.k8s.io/v1beta1\n"
        "metadata:\n  name: w\nwebhooks: []\n"
    )
    result = migrate_template(text, Settings(target_version="1.29"), values={"kind": "ValidatingWebhookConfiguration"})
    assert result.text == text
    (finding,) = [f for f in result.findings if f.level == "error"]
    assert (finding.code, finding.line) == ("K8SM-TPL-005", 1)
    assert "ValidatingWebhookConfiguration (removed in 1.22)" in finding.message
    unresolved = migrate_template(text, Settings(target_version="1.29"))
    assert "MutatingWebhookConfiguration" in next(f.message for f in unresolved.findings if f.code == "K8SM-TPL-005")
    assert not migrate_template(text, Settings(target_version="1.21")).findings


def test_a_computed_api_version_that_can_render_a_removed_api_is_an_error() -> None:
    text = "apiVersion: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}\nkind: Role\nrules: []\n"
    result = migrate_template(text, Settings(target_version="1.29"), values={"rbac": {"apiVersion": "v1beta1"}})
    assert [f.code for f in result.findings] == ["K8SM-TPL-005"]


def test_an_action_joined_to_the_line_before_is_never_read_as_a_key_that_holds_the_lines_below() -> None:
    # kubernetes-dashboard: `{{- "\n" }}{{ tpl (toYaml .customPaths | indent 10) $ }}` after
    # `paths:`; read as a key at its own column, the paths below became its value and the
    # Ingress moved to v1 with its v1beta1 backends: an object the API server rejects
    text = """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        metadata:
          name: x
        spec:
          rules:
            - http:
                paths:
          {{- "" }}
                  - path: /
                    backend:
                      serviceName: svc
                      servicePort: 443
        """
    out, codes = migrate(text)
    assert out == dedent(text) and codes == ["K8SM-TPL-002"]


def test_a_control_line_above_a_field_replaced_by_another_stays_where_it_was() -> None:
    # datadog: `{{- end }}` closes a ports item, and the removed topologyKeys below it becomes
    # internalTrafficPolicy; the line must stay, not go with the field (K8SM-TPL-003 before)
    text = """
        apiVersion: v1
        kind: Service
        metadata:
          name: s
        spec:
          ports:
            - port: 1
        {{- if .Values.apm }}
            - port: 2
        {{- end }}
          topologyKeys:
            - "kubernetes.io/hostname"
        """
    out, codes = migrate(text)
    assert out == dedent(text).replace(
        '  topologyKeys:\n    - "kubernetes.io/hostname"\n', "  internalTrafficPolicy: Local\n"
    )
    assert codes == ["K8SM-FLD-001"]


def test_an_invalid_go_template_is_left_unchanged_with_a_located_error() -> None:
    text = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: {{ .Values.x\n"
    out, codes = migrate(text)
    assert out == text and codes == ["K8SM-TPL-001"]


# ---------------------------------------------------------------- workload selectors from templated labels


def test_a_plain_deployment_still_gets_a_copy_of_its_labels_as_selector() -> None:
    text = """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: x
          labels:
            app: x
        spec:
          template:
            metadata:
              labels:
                app: x
            spec:
              containers: []
        """
    out, _codes = migrate(text, adopt_new_defaults=True)
    assert "&" not in out and "*" not in out
    assert "spec:\n  selector:\n    matchLabels:\n      app: x\n  template:\n" in out


def test_a_selector_already_written_is_left_to_the_template() -> None:
    text = """
        apiVersion: apps/v1beta1
        kind: Deployment
        metadata:
          name: x
          labels:
            app: {{ .Values.name }}
        spec:
          selector:
            matchLabels:
              app: {{ .Values.name }}
          template:
            metadata:
              labels:
                app: {{ .Values.name }}
            spec:
              containers: []
        """
    out, codes = migrate(text)
    assert "&" not in out and "*" not in out
    assert "K8SM-TPL-003" not in codes


def test_templated_labels_become_the_selector_through_a_yaml_alias() -> None:
    # spartakus, keel, mailhog...: the old API defaulted the selector to these labels
    text = """
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: {{ template "x.fullname" . }}
          labels:
            app: {{ template "x.name" . }}
        spec:
          template:
            metadata:
              labels:
                app: {{ template "x.name" . }}
                release: {{ .Release.Name }}
            spec:
              containers: []
        """
    out, codes = migrate(text, adopt_new_defaults=True)
    assert (
        out
        == dedent(text)
        .replace("extensions/v1beta1", "apps/v1")
        .replace("      labels:\n        app", "      labels: &podlabels\n        app")
        + "  selector:\n    matchLabels: *podlabels\n"
    )
    assert Counter(ACTION.findall(out)) == Counter(ACTION.findall(dedent(text)))
    assert "K8SM-TPL-003" not in codes and "K8SM-APPS-003" in codes
    rendered = yaml.safe_load(ACTION.sub("r", out))
    assert rendered["spec"]["selector"]["matchLabels"] == {"app": "r", "release": "r"}


def test_labels_written_by_an_include_or_under_a_condition_are_aliased_whole() -> None:
    text = """
        apiVersion: apps/v1beta1
        kind: StatefulSet
        metadata:
          name: x
          labels:
            app: x
        spec:
          serviceName: x
          template:
            metadata:
              labels:
        {{ include "x.labels" . | indent 8 }}
                {{- if .Values.canary }}
                track: canary
                {{- end }}
            spec:
              containers: []
          updateStrategy:
            type: RollingUpdate
        """
    out, codes = migrate(text, adopt_new_defaults=True)
    assert "      labels: &podlabels\n" in out
    assert "  template:\n" in out.split("  selector:\n    matchLabels: *podlabels\n")[0]
    assert "K8SM-TPL-003" not in codes
    assert Counter(ACTION.findall(out)) == Counter(ACTION.findall(dedent(text)))


def test_labels_that_are_the_value_of_an_nindent_include_are_aliased() -> None:
    text = """
        apiVersion: extensions/v1beta1
        kind: DaemonSet
        metadata:
          name: x
          labels: {{ include "x.labels" . | nindent 4 }}
        spec:
          template:
            metadata:
              labels: {{ include "x.labels" . | nindent 8 }}
            spec:
              containers: []
        """
    out, codes = migrate(text, adopt_new_defaults=True)
    assert '      labels: &podlabels {{ include "x.labels" . | nindent 8 }}\n' in out
    assert out.endswith("  selector:\n    matchLabels: *podlabels\n")
    assert "K8SM-APPS-001" not in codes and "K8SM-APPS-003" in codes
    assert Counter(ACTION.findall(out)) == Counter(ACTION.findall(dedent(text)))


def test_labels_an_include_starts_on_their_key_line_are_aliased_not_copied_in_part() -> None:
    # the include writes labels too: a selector of the lines below only would select more pods.
    # Without the if around podLabels, nothing but the key's line says the labels are templated
    podlabels = (
        "        {{- if .Values.podLabels }}\n        {{- toYaml .Values.podLabels | nindent 8 }}\n        {{- end }}\n"
    )
    assert podlabels in BITNAMI_STYLE_DEPLOYMENT
    text = BITNAMI_STYLE_DEPLOYMENT.replace(podlabels, "")
    out, codes = migrate(text, adopt_new_defaults=True)
    assert '      labels: &podlabels {{- include "web.labels" . | nindent 8 }}\n' in out
    assert out.endswith("  selector:\n    matchLabels: *podlabels\n")
    assert "K8SM-APPS-003" in codes and "K8SM-TPL-002" not in codes
    assert Counter(ACTION.findall(out)) == Counter(ACTION.findall(text))


def test_the_anchor_name_does_not_collide_with_one_the_document_has() -> None:
    text = """
        apiVersion: extensions/v1beta1
        kind: DaemonSet
        metadata:
          name: x
          labels: &podlabels
            app: x
        spec:
          template:
            metadata:
              labels:
                app: {{ .Values.name }}
            spec:
              containers: []
        """
    out, _codes = migrate(text, adopt_new_defaults=True)
    assert "      labels: &podlabels2\n" in out and "    matchLabels: *podlabels2\n" in out


TRIMMED_POD = """
          template:
            metadata:
              labels:
                app: {{ .Values.name }}
                tier: web
            spec:
              containers: []
        {{- if .Values.nodeSelector }}
              nodeSelector:
        {{ toYaml .Values.nodeSelector | indent 8 }}
        {{- end -}}
        """
DEPLOYMENT_HEAD = """
        apiVersion: apps/v1beta1
        kind: Deployment
        metadata:
          name: x
          labels:
            app: x
        spec:
        """.rstrip(" ")


def test_a_selector_that_would_follow_a_trimming_tag_takes_the_labels_before_the_template() -> None:
    # swift: the pod spec ends with {{- end -}}, which would join a selector after it to the line
    # before; the labels move into the selector (&podlabels) and the template refers to them
    text = DEPLOYMENT_HEAD + TRIMMED_POD.lstrip("\n")
    out, codes = migrate(text)
    assert "K8SM-TPL-003" not in codes and "K8SM-APPS-003" in codes
    assert out.startswith("apiVersion: apps/v1\n")
    assert "spec:\n  selector:\n    matchLabels: &podlabels\n      app: {{ .Values.name }}\n      tier: web\n" in out
    assert "    metadata:\n      labels: *podlabels\n    spec:\n" in out
    assert out.endswith("{{ toYaml .Values.nodeSelector | indent 8 }}\n{{- end -}}\n")
    assert Counter(ACTION.findall(out)) == Counter(ACTION.findall(text))
    assert migrate(out)[0] == out


def test_the_labels_go_before_the_template_only_in_the_document_that_needs_it() -> None:
    first = """
        ---
        apiVersion: apps/v1beta1
        kind: Deployment
        metadata:
          name: y
          labels:
            app: y
        spec:
          template:
            metadata:
              labels:
                app: {{ .Values.name }}
            spec:
              containers: []
        ---
        """.rstrip(" ")
    out, codes = migrate(first + DEPLOYMENT_HEAD.lstrip("\n") + TRIMMED_POD.lstrip("\n"))
    assert "K8SM-TPL-003" not in codes
    assert "    matchLabels: *podlabels\n---\n" in out  # the first document: after its template, as usual
    assert "    matchLabels: &podlabels\n      app: {{ .Values.name }}\n      tier: web\n" in out


def test_labels_that_an_indented_action_writes_cannot_move_and_the_document_is_left_with_an_error() -> None:
    # moving them into the selector would re-indent {{- include … | nindent 8 }}
    text = DEPLOYMENT_HEAD + TRIMMED_POD.lstrip("\n").replace(
        "                app: {{ .Values.name }}\n                tier: web\n",
        '        {{- include "x.labels" . | nindent 8 }}\n',
    )
    out, codes = migrate(text)
    assert out == dedent(text)
    assert "K8SM-TPL-003" in codes


# ---------------------------------------------------------------- fields deleted under a condition


def test_a_deleted_annotation_keeps_the_condition_around_the_ones_left() -> None:
    # coredns: the critical-pod annotation (non-functional since 1.16) beside another one
    text = """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: x
        spec:
          selector:
            matchLabels:
              app: x
          template:
            metadata:
              labels:
                app: x
              annotations:
                checksum/config: {{ .Values.sum }}
                {{- if .Values.isClusterService }}
                scheduler.alpha.kubernetes.io/critical-pod: ''
                scheduler.alpha.kubernetes.io/tolerations: '[]'
                {{- end }}
            spec:
              containers: []
        """
    out, codes = migrate(text)
    assert out == dedent(text).replace("        scheduler.alpha.kubernetes.io/critical-pod: ''\n", "")
    assert "K8SM-FLD-010" in codes and "K8SM-GEN-004" not in codes and "K8SM-TPL-003" not in codes


def test_a_mapping_emptied_under_a_condition_leaves_the_condition_empty() -> None:
    # stash, voyager: annotations written only for a critical add-on
    text = """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: x
        spec:
          selector:
            matchLabels:
              app: x
          template:
            metadata:
              labels:
                app: x
        {{- if and .Values.criticalAddon (eq .Release.Namespace "kube-system") }}
              annotations:
                scheduler.alpha.kubernetes.io/critical-pod: ''
        {{- end }}
            spec:
              containers: []
        """
    out, codes = migrate(text)
    expected = dedent(text).replace("      annotations:\n        scheduler.alpha.kubernetes.io/critical-pod: ''\n", "")
    assert out == expected
    assert "K8SM-GEN-004" not in codes and "K8SM-TPL-003" not in codes


def test_a_deleted_field_that_an_action_writes_is_still_refused() -> None:
    text = """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: x
        spec:
          selector:
            matchLabels:
              app: x
          template:
            metadata:
              labels:
                app: x
              annotations:
                scheduler.alpha.kubernetes.io/critical-pod: {{ .Values.critical | quote }}
            spec:
              containers: []
        """
    out, codes = migrate(text)
    assert out == dedent(text)
    assert "K8SM-TPL-003" in codes


# ---------------------------------------------------------------- a key written again by a values block


def test_two_conditions_that_write_one_key_with_literal_values_are_still_refused() -> None:
    # hlf-peer: each branch has a value a migration might have to change
    text = """
        apiVersion: extensions/v1beta1
        kind: DaemonSet
        metadata:
          name: x
        spec:
          selector:
            matchLabels:
              app: x
          template:
            metadata:
              labels:
                app: x
            spec:
              containers: []
              {{- if .Values.a }}
              nodeSelector:
                kubernetes.io/os: linux
              {{- end }}
              {{- if .Values.b }}
              nodeSelector:
                kubernetes.io/os: windows
              {{- end }}
        """
    out, codes = migrate(text)
    assert out == dedent(text)
    assert "K8SM-TPL-004" in codes


MASTER = """
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      name: speaker
    spec:
      selector:
        matchLabels:
          app: x
      template:
        metadata:
          labels:
            app: x
        spec:
          containers: []
          tolerations:
          - key: node-role.kubernetes.io/master
            effect: NoSchedule
        {{- with .Values.speaker.tolerations }}
          tolerations:
    {{ toYaml . | indent 8 }}
        {{- end }}
    """


def test_a_literal_key_that_values_may_override_is_migrated_and_the_override_kept() -> None:
    # metallb's speaker: the master toleration is literal; a values block may replace the list
    out, codes = migrate(MASTER)
    assert out == dedent(MASTER).replace("node-role.kubernetes.io/master", "node-role.kubernetes.io/control-plane")
    assert "K8SM-TPL-004" not in codes and "K8SM-FLD-018" in codes


def test_an_override_written_before_the_literal_key_is_left_out_as_well() -> None:
    text = MASTER.replace(
        "          containers: []\n          tolerations:\n          - key: node-role.kubernetes.io/master\n"
        "            effect: NoSchedule\n",
        "          containers: []\n",
    ).replace(
        "        {{- end }}\n",
        "        {{- end }}\n          tolerations:\n          - key: node-role.kubernetes.io/master\n"
        "            effect: NoSchedule\n",
    )
    out, codes = migrate(text, min_version="1.19")
    assert "      - key: node-role.kubernetes.io/master\n        effect: NoSchedule\n" in out
    assert out.endswith("      - key: node-role.kubernetes.io/control-plane\n        effect: NoSchedule\n")
    assert "K8SM-TPL-004" not in codes


def test_a_literal_key_the_migration_renames_is_not_migrated_apart_from_its_override() -> None:
    text = """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        metadata:
          name: x
        spec:
          backend:
            serviceName: web
            servicePort: 80
          {{- with .Values.backend }}
          backend:
        {{ toYaml . | indent 4 }}
          {{- end }}
        """
    out, codes = migrate(text)
    assert out == dedent(text)
    assert "K8SM-TPL-003" in codes


# ---------------------------------------------------------------- property

VALUE = st.sampled_from(
    ["{{ .Values.a }}", '{{ include "x.name" . }}', "{{ $fullName }}", "web", "{{ .Values.b | quote }}", "{{- .x -}}"]
)
CONTROL = st.sampled_from(["{{- if .Values.x }}", "{{- end }}", "{{/* a note */}}", "{{- $y := 1 }}"])


@st.composite
def ingresses(draw: st.DrawFn) -> str:
    lines = ["apiVersion: networking.k8s.io/v1beta1", "kind: Ingress", "metadata:", f"  name: {draw(VALUE)}"]
    lines += ["spec:", "  rules:"]
    for _ in range(draw(st.integers(1, 3))):
        lines.append(f"    - host: {draw(VALUE)}")
        lines += ["      http:", "        paths:", f"          - path: {draw(VALUE)}", "            backend:"]
        lines.append(f"              serviceName: {draw(VALUE)}")
        lines.append(f"              servicePort: {draw(st.sampled_from(['80', 'http', '{{ .Values.port }}']))}")
        if draw(st.booleans()):
            lines.insert(len(lines) - 4, f"      {draw(CONTROL)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None)
@given(ingresses())
def test_every_action_survives_a_migration(text: str) -> None:
    result = migrate_template(text, Settings(target_version="1.29"), values={"port": 8080})
    assert Counter(ACTION.findall(result.text)) == Counter(ACTION.findall(text))
    again = migrate_template(result.text, Settings(target_version="1.29"), values={"port": 8080})
    assert again.text == result.text


# ------------------------------------------------------------------ a skeleton that cannot be read

UNREADABLE = """apiVersion: {api}
kind: {kind}
metadata:
  name: web
              app: "{{{{ .Release.Name }}}}"
"""


def _unreadable(api: str, kind: str) -> list[tuple[str, str]]:
    result = migrate_template(UNREADABLE.format(api=api, kind=kind), Settings(target_version="1.29"), "t.yaml")
    assert result.text == UNREADABLE.format(api=api, kind=kind)
    return [(f.level, f.code) for f in result.findings]


def test_an_unreadable_document_of_a_kind_nothing_migrates_is_not_an_error() -> None:
    # networking.k8s.io/v1 is looked at for Ingresses (their controllers): a NetworkPolicy of it is not
    assert _unreadable("networking.k8s.io/v1", "NetworkPolicy") == [("info", "K8SM-TPL-007")]


def test_an_unreadable_document_a_migration_may_need_is_an_error() -> None:
    assert _unreadable("networking.k8s.io/v1", "Ingress") == [("error", "K8SM-TPL-002")]
    assert _unreadable("extensions/v1beta1", "NetworkPolicy") == [("error", "K8SM-TPL-002")]
    assert _unreadable("networking.k8s.io/v1", "{{ .Values.kind }}") == [("error", "K8SM-TPL-002")]


TWICE = """apiVersion: {api}
kind: DaemonSet
metadata:
  name: web
spec:
  template:
    spec:
      restartPolicy: Always
      containers:
      - name: c
        image: "{{{{ .Values.image.repository }}}}:{{{{ .Values.image.tag }}}}"
      restartPolicy: Always
"""


def test_a_key_written_twice_is_not_an_error_where_only_a_templated_value_was_looked_at() -> None:
    # the ingress-controller check reads templated images (their values.yaml default): that it met
    # the duplicate does not make a document that needs nothing an error
    text = TWICE.format(api="apps/v1")
    result = migrate_template(text, Settings(target_version="1.29"), "t.yaml", values={"image": {"tag": "1"}})
    assert result.text == text
    assert [(f.level, f.code) for f in result.findings] == [("info", "K8SM-TPL-007")]


def test_a_key_written_twice_in_a_document_a_migration_needs_is_an_error() -> None:
    text = TWICE.format(api="extensions/v1beta1")
    result = migrate_template(text, Settings(target_version="1.29"), "t.yaml")
    assert result.text == text
    assert ("error", "K8SM-TPL-004") in [(f.level, f.code) for f in result.findings]


HPA_V2BETA1 = """
    apiVersion: autoscaling/v2beta1
    kind: HorizontalPodAutoscaler
    metadata:
      name: x
    spec:
      scaleTargetRef:
        apiVersion: apps/v1
        kind: Deployment
        name: x
      maxReplicas: 5
    """


@pytest.mark.parametrize(
    "metrics",
    [
        "  metrics:\n    {{- toYaml .Values.autoscaling.metrics | nindent 4 }}\n",
        # the literal item below could be converted, the ones the action writes could not
        "  metrics: {{- toYaml .Values.extraMetrics | nindent 4 }}\n"
        "    - type: Resource\n      resource:\n        name: cpu\n        targetAverageUtilization: 80\n",
    ],
)
def test_hpa_metrics_a_template_action_writes_are_refused_not_left_in_the_old_shape(metrics: str) -> None:
    # v2 with v2beta1 metrics (targetAverageUtilization from values) is an object the API server rejects
    text = dedent(HPA_V2BETA1) + metrics
    out, codes = migrate(text)
    assert out == text
    assert "K8SM-HPA-007" in codes


# ------------------------------------------------------------ fields written only under a condition

CONDITIONAL_SIDE_EFFECTS = """
    apiVersion: admissionregistration.k8s.io/v1beta1
    kind: ValidatingWebhookConfiguration
    metadata:
      name: validator
    webhooks:
    - name: validator.example.io
      clientConfig:
        service:
          name: validator
          namespace: default
      failurePolicy: Ignore
      {{- if not .Values.omitWebhookSideEffects }}
      sideEffects: None
      {{- end }}
    """


def test_a_required_field_written_only_under_a_condition_leaves_the_document_with_an_error() -> None:
    # linkerd: with omitWebhookSideEffects the v1 webhook had no sideEffects, which v1 rejects
    result = migrate_text(dedent(CONDITIONAL_SIDE_EFFECTS), target_version="1.29", filename="w.yaml")
    assert result.text == dedent(CONDITIONAL_SIDE_EFFECTS)
    [error] = [f for f in result.findings if f.level == "error"]
    assert error.code == "K8SM-TPL-017" and "{{- if not .Values.omitWebhookSideEffects }}" in error.message


CONDITIONAL_HISTORY = """
    apiVersion: extensions/v1beta1
    kind: Deployment
    metadata:
      name: web
    spec:
      {{- if .Values.revisionHistoryLimit }}
      revisionHistoryLimit: {{ .Values.revisionHistoryLimit }}
      {{- end }}
      {{- with .Values.maxSurge }}
      strategy:
        rollingUpdate:
          maxSurge: {{ . }}
      {{- end }}
      progressDeadlineSeconds: 600
      template:
        metadata:
          labels:
            app: web
        spec:
          containers:
            - name: web
              image: nginx
    """


def test_an_old_default_written_only_under_a_condition_is_kept_and_said() -> None:
    result = migrate_text(dedent(CONDITIONAL_HISTORY), target_version="1.29", filename="d.yaml")
    assert "apiVersion: apps/v1\n" in result.text
    said = [f for f in result.findings if f.code == "K8SM-TPL-016"]
    assert {f.message.split(" is written")[0] for f in said} == {"revisionHistoryLimit", "strategy"}
    assert all(f.level == "warning" and "{{- " in f.message for f in said)


def test_a_field_after_a_block_that_ends_above_it_is_not_conditional() -> None:
    # progressDeadlineSeconds follows {{- end }}: written in every rendering
    result = migrate_text(dedent(CONDITIONAL_HISTORY), target_version="1.29", filename="d.yaml")
    assert not [f for f in result.findings if f.code == "K8SM-TPL-016" and "progressDeadlineSeconds" in f.message]


@pytest.mark.parametrize(
    ("condition", "counts"),
    [
        ("{{- if not .Values.omitWebhookSideEffects }}\n      # the chart's own comment", True),
        ('{{- if semverCompare ">=1.12-0" .Capabilities.KubeVersion.GitVersion }}', False),  # cert-manager's
    ],
)
def test_a_condition_on_values_counts_and_one_on_the_cluster_does_not(condition: str, counts: bool) -> None:
    text = dedent(CONDITIONAL_SIDE_EFFECTS).replace("{{- if not .Values.omitWebhookSideEffects }}", condition)
    result = migrate_text(text, target_version="1.29", filename="w.yaml")
    assert ("K8SM-TPL-017" in [f.code for f in result.findings]) is counts
    assert (result.text == text) is counts
