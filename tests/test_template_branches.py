"""If/else branches that give one place two shapes: the first branch is migrated, the others carried.

A skeleton that keeps every branch of ``{{- if .Values.host }} - host … secretName {{- else }}
- secretName {{- end }}`` does not parse. The else branches are then left out, as comment lines,
and carried as they are; that is right only when they need nothing, which is verified by
migrating the document with each of them kept instead. No-op cases first, then the migrated
Ingress, then the documents left as they are (with their findings); every action comes out
exactly once and a second run changes nothing in each case.
"""

from __future__ import annotations

import re
from collections import Counter

from k8smigrate import migrate_text
from k8smigrate.results import FileResult, Finding
from tests.helpers import dedent
from tests.templating_helpers import CRD_BY_BRANCH

ACTION = re.compile(r"\{\{.*?\}\}", re.S)


def migrate(text: str) -> FileResult:
    result = migrate_text(text, target_version="1.29", filename="t.yaml")
    assert Counter(ACTION.findall(result.text)) == Counter(ACTION.findall(text))
    assert migrate_text(result.text, target_version="1.29", filename="t.yaml").text == result.text
    return result


def the_error(text: str) -> Finding:
    """The one error of a document left as it is (the text comes out unchanged)."""
    result = migrate(text)
    assert result.text == text
    [error] = [f for f in result.findings if f.level == "error"]
    return error


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


TLS = """\
  tls:
  - hosts:
    {{- if .Values.ingress.hostName }}
    - {{ .Values.ingress.hostName }}
    secretName: {{ .Values.ingress.tlsSecret }}
    {{- else }}
    - secretName: {{ .Values.ingress.tlsSecret }}
    {{- end }}
"""

# a StatefulSet whose data volume is a claim template, or else one more pod volume
STATEFULSET = dedent(
    """
    apiVersion: apps/v1
    kind: StatefulSet
    metadata:
      name: db
    spec:
      serviceName: db
      selector:
        matchLabels:
          app: db
      template:
        metadata:
          labels:
            app: db
        spec:
          containers:
          - name: db
            image: mongo:4.4
          volumes:
          - name: config
            emptyDir: {}
    {{- if .Values.persistence.enabled }}
      volumeClaimTemplates:
      - metadata:
          name: data
        spec:
          accessModes: [ReadWriteOnce]
    {{- else }}
          - name: data
            hostPath:
              path: /var/run/docker.sock
    {{- end }}
    """
)


def test_a_document_that_needs_nothing_is_read_through_its_first_branch_and_left_as_it_is() -> None:
    # --port: a flag some checks look for (in control-plane pods), so a migration reads this document
    text = STATEFULSET.replace("hostPath:\n          path: /var/run/docker.sock", "emptyDir: {}").replace(
        "image: mongo:4.4\n", "image: mongo:4.4\n        args: [--port=27017]\n"
    )
    result = migrate(text)
    assert result.text == text
    assert result.findings == []


def test_a_document_that_needs_nothing_with_an_if_else_masked_inside_a_value_is_left_as_it_is() -> None:
    # jenkins: the first branch writes the whole securityContext with tpl (toYaml …), so that
    # if/else has no place of its own in the skeleton to compare the outside by
    text = dedent(
        """
        {{- if .Capabilities.APIVersions.Has "apps/v1" }}
        apiVersion: apps/v1
        {{- else }}
        apiVersion: apps/v1beta1
        {{- end }}
        kind: StatefulSet
        metadata:
          name: jenkins
        spec:
          serviceName: jenkins
          selector:
            matchLabels: {app: jenkins}
          template:
            metadata:
              labels: {app: jenkins}
            spec:
        {{- if .Values.controller.usePodSecurityContext }}
              securityContext:
          {{- if hasKey .Values.controller "podSecurityContextOverride" }}
            {{- tpl (toYaml .Values.controller.podSecurityContextOverride | nindent 8) . -}}
          {{- else }}
                runAsUser: {{ default 0 .Values.controller.runAsUser }}
          {{- end }}
        {{- end }}
              containers:
              - name: jenkins
                image: jenkins/jenkins:lts
        """
    )
    result = migrate(text)
    assert result.text == text
    assert [f.code for f in result.findings if f.level == "error"] == []


def test_an_else_branch_too_short_to_mask_alone_is_left_out_with_its_tag() -> None:
    # prometheus' ClusterRoles: a PSP rule, else `[]`; the parser reports the `[]` (a simple
    # key without ':') at the line after it, and `[]` is too short for a placeholder of its own
    text = dedent(
        """
        kind: ClusterRole
        apiVersion: rbac.authorization.k8s.io/v1
        metadata:
          name: x
        rules:
        {{- if .Values.psp }}
          - apiGroups: [extensions]
            resources: [podsecuritypolicies]
            verbs: [use]
        {{- else }}
          []
        {{- end }}
        """
    )
    result = migrate(text)
    assert result.text == text
    assert [(f.code, f.line) for f in result.findings] == [("K8SM-PSP-002", 7)]


def test_a_document_no_migration_looks_at_is_not_read_through_its_branches() -> None:
    text = (
        dedent(
            """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: web
        spec:
          ingressClassName: nginx
        """
        )
        + TLS
    )
    result = migrate(text)
    assert result.text == text
    assert [(f.code, f.line) for f in result.findings] == [("K8SM-TPL-007", line_of(text, "- secretName"))]


def test_what_the_migration_finds_in_a_branch_left_out_is_still_reported() -> None:
    result = migrate(STATEFULSET)
    assert result.text == STATEFULSET
    assert [(f.code, f.line) for f in result.findings] == [("K8SM-CRI-008", line_of(STATEFULSET, "path: /var/run"))]


def test_the_first_branch_is_migrated_with_the_document_and_the_others_are_carried() -> None:
    text = (
        dedent(
            """
        {{- if .Values.ingress.enabled }}
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: {{ template "x.fullname" . }}
        spec:
          rules:
          - http:
              paths:
                - path: /
                  backend:
                    serviceName: {{ template "x.fullname" . }}
                    servicePort: 80
        """
        )
        + TLS
        + "{{- end }}\n"
    )
    result = migrate(text)
    assert result.text == text.replace("extensions/v1beta1", "networking.k8s.io/v1").replace(
        """\
          backend:
            serviceName: {{ template "x.fullname" . }}
            servicePort: 80
""",
        """\
          pathType: ImplementationSpecific
          backend:
            service:
              name: {{ template "x.fullname" . }}
              port:
                number: 80
""",
    )
    assert TLS in result.text  # both branches, as they were
    assert [f.level for f in result.findings] == ["info"]


def test_an_else_branch_with_an_old_backend_leaves_the_document_with_an_error_naming_it() -> None:
    text = dedent(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        metadata:
          name: web
        spec:
          rules:
          {{- if .Values.hosts }}
          {{- range .Values.hosts }}
            - host: {{ . | quote }}
          {{- end }}
          {{- else }}
          - http:
              paths:
              - backend:
                  serviceName: web
                  servicePort: 80
          {{- end }}
        """
    )
    error = the_error(text)
    assert (error.code, error.line) == ("K8SM-TPL-003", line_of(text, "{{- else }}"))
    assert "the branch after '{{- else }}' (line 11)" in error.message
    assert "would change it too" in error.message


def test_an_else_branch_that_a_new_key_would_follow_leaves_the_document_with_an_error() -> None:
    # apps/v1 needs the selector the old API defaulted from the (templated) pod labels: it is
    # added after the pod template, which the else branch continues (one more pod volume), so
    # that rendered without persistence, the volume would follow the selector
    text = (
        STATEFULSET.replace("apiVersion: apps/v1\n", "apiVersion: apps/v1beta1\n")
        .replace("  name: db\n", "  name: db\n  labels:\n    app: db\n", 1)
        .replace("  selector:\n    matchLabels:\n      app: db\n", "")
        .replace("        app: db\n", "        app: {{ .Values.name }}\n")
        .replace("        hostPath:\n          path: /var/run/docker.sock\n", "        emptyDir: {}\n")
    )
    error = the_error(text)
    assert (error.code, error.line) == ("K8SM-TPL-003", line_of(text, "{{- else }}"))
    assert "would change it too" in error.message


def test_an_else_branch_that_does_not_parse_either_is_an_unreadable_document() -> None:
    text = dedent(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        metadata:
          name: web
        spec:
          backend:
            serviceName: web
            servicePort: 80
          tls:
          - hosts:
            {{- if .Values.host }}
            - {{ .Values.host }}
            secretName: tls
            {{- else }}
            - secretName: tls
           hosts: []
            {{- end }}
        """
    )
    error = the_error(text)
    assert (error.code, error.line) == ("K8SM-TPL-002", line_of(text, "{{- else }}"))
    assert "the branch after '{{- else }}' (line 14)" in error.message and "does not parse either" in error.message


# ------------------------------------------------------------ branches all in the skeleton

CRD_BRANCHES = CRD_BY_BRANCH.replace("CONDITION", ".Values.multiVersion")

INGRESS_BRANCHES = """\
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
spec:
  rules:
    - http:
        paths:
        {{- if .Values.api }}
          - path: /api
            backend:
              serviceName: api
              servicePort: 80
        {{- else }}
          - path: /
            backend:
              serviceName: web
              servicePort: 80
        {{- end }}
"""


def test_branches_each_migrated_alike_alone_are_migrated_together() -> None:
    result = migrate(INGRESS_BRANCHES)
    assert not [f for f in result.findings if f.level == "error"]
    assert "serviceName" not in result.text and result.text.count("pathType: ImplementationSpecific") == 2


def test_branches_a_migration_reads_as_written_at_once_leave_the_document_with_an_error() -> None:
    # deliveryhero's controllers: version dropped because versions is in the other branch, and the
    # schema moved under the else: the rendering of either branch was a v1 CRD the server rejects
    error = the_error(CRD_BRANCHES)
    assert error.code == "K8SM-TPL-003" and "would be migrated differently" in error.message
    assert error.line == line_of(CRD_BRANCHES, "{{- if .Values.multiVersion }}")


# ------------------------------------------------------------ branches that write the same keys

UNIFI_BACKEND = """\
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: x
spec:
  rules:
    - http:
        paths:
          - path: /
            backend:
              {{- if .Values.unified }}
              serviceName: x
              {{- else }}
              serviceName: x-gui
              {{- end }}
              servicePort: https-gui
"""


def rendered(text: str, first: bool) -> dict[str, object]:
    """The data of a one-if template rendered with its first branch taken or not."""
    import yaml

    out, branch = [], 0
    for line in text.splitlines():
        tag = line.strip()
        if tag.startswith("{{- if"):
            branch = 1
        elif tag.startswith("{{- else"):
            branch = 2
        elif tag.startswith("{{- end"):
            branch = 0
        elif branch == 0 or (branch == 1) == first:
            out.append(line)
    data = yaml.safe_load("\n".join(out))
    assert isinstance(data, dict)
    return data


def test_each_branch_that_writes_the_same_keys_gets_its_own_migration() -> None:
    # unifi: serviceName x or x-gui; the skeleton holds the first, the else needs the same move
    result = migrate(UNIFI_BACKEND)
    assert not [f for f in result.findings if f.level == "error"]
    assert "serviceName" not in result.text
    for first, name in ((True, "x"), (False, "x-gui")):
        backend = rendered(result.text, first)["spec"]["rules"][0]["http"]["paths"][0]["backend"]  # type: ignore[index]
        assert backend == {"service": {"name": name, "port": {"name": "https-gui"}}}


CRD_VERSION_BRANCHES = CRD_BRANCHES.replace(
    "  versions:\n    - name: v1\n      served: true\n      storage: true\n", "  version: v2\n"
)


def test_each_crd_version_branch_becomes_its_own_versions_list() -> None:
    result = migrate(CRD_VERSION_BRANCHES)
    assert not [f for f in result.findings if f.level == "error"]
    for first, name in ((True, "v2"), (False, "v1")):
        spec = rendered(result.text, first)["spec"]
        assert [v["name"] for v in spec["versions"]] == [name]  # type: ignore[index]
        assert spec["versions"][0]["schema"]["openAPIV3Schema"]["type"] == "object"  # type: ignore[index]
        assert "version" not in spec and "validation" not in spec  # type: ignore[operator]


def test_a_branch_whose_own_migration_needs_a_human_leaves_the_document_with_an_error() -> None:
    # the else branch's port is an action whose value is unknown: a decision, not a guess
    text = UNIFI_BACKEND.replace(
        "              serviceName: x\n", "              serviceName: x\n              servicePort: 443\n"
    ).replace(
        "              serviceName: x-gui\n              {{- end }}\n              servicePort: https-gui\n",
        "              serviceName: x-gui\n              servicePort: {{ .Values.port | quote }}\n              {{- end }}\n",
    )
    assert text.count("servicePort") == 2
    error = the_error(text)
    assert error.code == "K8SM-TPL-003"


ISTIO_INJECTOR = """\
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingWebhookConfiguration
metadata:
  name: injector
webhooks:
  - name: injector.example.io
    clientConfig:
      service:
        name: injector
        namespace: default
    sideEffects: None
    failurePolicy: Fail
    admissionReviewVersions: ["v1beta1", "v1"]
    objectSelector:
{{- if .Values.autoInject }}
      matchLabels:
        inject: "auto"
{{- else }}
      matchLabels:
        inject: "true"
{{- end }}
"""


def test_keys_a_migration_appends_after_an_if_else_are_written_after_its_end() -> None:
    # istio's injector: the pinned defaults go after the objectSelector's if/else, not into its first branch
    result = migrate(ISTIO_INJECTOR)
    assert not [f for f in result.findings if f.level == "error"]
    assert result.text.endswith("{{- end }}\n    matchPolicy: Exact\n    timeoutSeconds: 30\n")
