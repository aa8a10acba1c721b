"""Spec: documents and bytes (docs/architecture.md "The path of a document").

Untouched documents are copied byte for byte; migrated ones change only the migrated
fields, in the style found there; comments travel; bad input becomes findings.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from k8smigrate import migrate_text
from tests.helpers import codes, dedent
from tests.strategies import join, streams

ROLE_V1BETA1 = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\nrules: []\n"
ROLE_V1 = ROLE_V1BETA1.replace("v1beta1", "v1")
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c  # keep   me\ndata:\n  k: 'yes'\n"


def migrate(text: str, **kwargs: object) -> str:
    result = migrate_text(text, target_version="1.29", **kwargs)  # type: ignore[arg-type]
    assert "K8SM-GEN-012" not in codes(result)
    return result.text


# ------------------------------------------------------------------ untouched documents


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        "# only a comment\n",
        "---\n",
        "---\n...\n",
        CONFIGMAP,
        CONFIGMAP.replace("\n", "\r\n"),
        "\ufeff" + CONFIGMAP,
        CONFIGMAP.rstrip("\n"),
        "%YAML 1.1\n---\n" + CONFIGMAP + "...\n",
        "# head\n---\n" + CONFIGMAP + "---\n# tail only\n",
        '{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "b"}}',
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  script: |\n    ---\n    # not a comment\n\n\n",
        "- just\n- a list\n",
        "plain scalar document\n",
        "kind: Ingress\napiVersion: networking.k8s.io/v1\n",
    ],
    ids=lambda t: repr(t[:30]),
)
def test_untouched_streams_are_byte_identical(text: str) -> None:
    result = migrate_text(text, target_version="1.29")
    assert result.text == text
    assert not result.changed
    assert result.diff == ""


def test_only_the_migrated_document_changes() -> None:
    text = CONFIGMAP + "---\n" + ROLE_V1BETA1 + "---\n" + CONFIGMAP
    assert migrate(text) == CONFIGMAP + "---\n" + ROLE_V1 + "---\n" + CONFIGMAP


def test_rename_is_a_one_line_change() -> None:
    text = "# header\n" + ROLE_V1BETA1.replace("rules: []", "rules: []   # trailing spaces kept   ")
    out = migrate(text)
    changed = [(a, b) for a, b in zip(text.splitlines(), out.splitlines(), strict=True) if a != b]
    assert changed == [("apiVersion: rbac.authorization.k8s.io/v1beta1", "apiVersion: rbac.authorization.k8s.io/v1")]


# ------------------------------------------------------------------ formatting survives


def test_crlf_survives_and_new_lines_use_it() -> None:
    text = dedent(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        spec:
          backend:
            serviceName: web
            servicePort: 80
        """
    ).replace("\n", "\r\n")
    out = migrate(text)
    assert "\n" not in out.replace("\r\n", "")
    assert out.endswith("number: 80\r\n")


def test_bom_and_missing_final_newline_survive() -> None:
    out = migrate("\ufeff" + ROLE_V1BETA1.rstrip("\n"))
    assert out == "\ufeff" + ROLE_V1.rstrip("\n")


def test_missing_final_newline_survives_a_structural_edit() -> None:
    text = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80"
    out = migrate(text)
    assert out.endswith("number: 80")


def test_directives_markers_and_comments_between_documents_survive() -> None:
    text = "%YAML 1.1\n---\n" + ROLE_V1BETA1 + "...\n# between\n---   # marker comment\n" + ROLE_V1BETA1
    assert migrate(text) == "%YAML 1.1\n---\n" + ROLE_V1 + "...\n# between\n---   # marker comment\n" + ROLE_V1


def test_block_scalar_with_document_marker_is_one_document() -> None:
    text = "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: |\n    ---\n    x\n---\n" + ROLE_V1BETA1
    out = migrate(text)
    assert out == text.replace(ROLE_V1BETA1, ROLE_V1)
    assert len(migrate_text(text, target_version="1.29").documents) == 2


def test_indentation_style_of_the_document_is_used() -> None:
    text = dedent(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        spec:
            rules:
                -   http:
                        paths:
                            -   path: /
                                backend:
                                    serviceName: web
                                    servicePort: 80
        """
    )
    assert migrate(text) == dedent(
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        spec:
            rules:
                -   http:
                        paths:
                            -   path: /
                                pathType: ImplementationSpecific
                                backend:
                                    service:
                                        name: web
                                        port:
                                            number: 80
        """
    )


def test_json_manifest_stays_json() -> None:
    text = json.dumps(
        {
            "apiVersion": "networking.k8s.io/v1beta1",
            "kind": "Ingress",
            "metadata": {"name": "x"},
            "spec": {
                "rules": [{"http": {"paths": [{"path": "/", "backend": {"serviceName": "web", "servicePort": 80}}]}}]
            },
        },
        indent=2,
    )
    out = migrate(text)
    data = json.loads(out)
    assert data["apiVersion"] == "networking.k8s.io/v1"
    assert data["spec"]["rules"][0]["http"]["paths"][0] == {
        "path": "/",
        "pathType": "ImplementationSpecific",
        "backend": {"service": {"name": "web", "port": {"number": 80}}},
    }
    assert out.startswith('{\n  "apiVersion": "networking.k8s.io/v1",\n  "kind": "Ingress",\n')


def test_compact_json_stays_one_line() -> None:
    text = '{"apiVersion": "rbac.authorization.k8s.io/v1beta1", "kind": "Role", "rules": []}\n'
    assert migrate(text) == text.replace("v1beta1", "v1")


def test_flow_backend_is_rewritten_inline() -> None:
    text = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nspec:\n  backend: {serviceName: web, servicePort: 80}  # c\n"
    assert migrate(text) == (
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nspec:\n"
        "  defaultBackend: {service: {name: web, port: {number: 80}}}  # c\n"
    )


def test_anchors_aliases_and_merge_keys_survive() -> None:
    text = dedent(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        metadata:
          labels: &labels {app: web}
          annotations:
            <<: *labels
        spec:
          backend:
            serviceName: web
            servicePort: &port 80
          rules:
          - http:
              paths:
              - backend:
                  serviceName: web
                  servicePort: *port
        """
    )
    out = migrate(text)
    assert "labels: &labels {app: web}" in out
    assert "<<: *labels" in out
    assert "number: &port 80" in out
    assert "number: *port" in out


def test_quoted_keys_and_values_keep_their_quotes() -> None:
    text = dedent(
        """
        "apiVersion": 'rbac.authorization.k8s.io/v1beta1'
        "kind": "Role"
        rules: []
        """
    )
    assert migrate(text) == text.replace("v1beta1", "v1")


# ------------------------------------------------------------------ comments travel


def test_comments_travel_with_restructured_keys() -> None:
    text = dedent(
        """
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        spec:
          backend:  # default
            # which service
            serviceName: web  # the web tier
            # which port
            servicePort: http   # named
          # rules follow
          rules: []
        """
    )
    assert migrate(text) == dedent(
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        spec:
          defaultBackend:  # default
            service:
              # which service
              name: web  # the web tier
              port:
                # which port
                name: http   # named
          # rules follow
          rules: []
        """
    )


# ------------------------------------------------------------------ YAML 1.1 safety of new strings


@pytest.mark.parametrize(
    "name", ["yes", "no", "on", "off", "y", "n", "true", "null", "~", "1.10", "1e3", "0x1f", "2024-01-01"]
)
def test_new_strings_read_back_as_strings_in_yaml_1_1(name: str) -> None:
    text = dedent(
        f"""
        apiVersion: networking.k8s.io/v1beta1
        kind: Ingress
        spec:
          backend:
            serviceName: web
            servicePort: "{name}"
        """
    )
    result = migrate_text(text, target_version="1.29")
    if not result.changed:
        return  # an invalid port name is an error, and the document stays as it was
    port = yaml.safe_load(result.text)["spec"]["defaultBackend"]["service"]["port"]
    assert port == {"name": name}


# ------------------------------------------------------------------ lists


def test_list_items_migrate_one_by_one() -> None:
    text = dedent(
        """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: rbac.authorization.k8s.io/v1alpha1
          kind: RoleBinding
          subjects:
          - kind: ServiceAccount
            apiVersion: v1
            name: default
          roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
        - apiVersion: rbac.authorization.k8s.io/v1beta1
          kind: Role
          rules: []
        - apiVersion: v1
          kind: ConfigMap
        """
    )
    result = migrate_text(text, target_version="1.29")
    assert result.text == text.replace("rbac.authorization.k8s.io/v1alpha1", "rbac.authorization.k8s.io/v1").replace(
        "rbac.authorization.k8s.io/v1beta1", "rbac.authorization.k8s.io/v1"
    ).replace("apiVersion: v1\n    name: default", 'apiGroup: ""\n    name: default')
    assert result.documents[0].applied == ["rbac_v1alpha1", "rbac_v1beta1"]


def test_typed_list_follows_its_items() -> None:
    text = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: RoleList\nitems:\n- kind: Role\n  rules: []\n- rules: []\n"
    assert migrate(text) == text.replace("v1beta1", "v1")


# ------------------------------------------------------------------ templates and bad input


def test_a_templated_document_is_read_through_its_skeleton_and_the_others_migrate() -> None:
    templated = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web  # {{ .Values.name }}\n"
    text = templated + "---\n" + ROLE_V1BETA1
    result = migrate_text(text, target_version="1.29")
    assert result.text == templated + "---\n" + ROLE_V1
    assert [f.code for f in result.findings if f.document == 0] == []


def test_a_jinja_template_that_is_not_yaml_as_a_whole_is_migrated_through_its_skeleton() -> None:
    text = "{% if rbac %}\n" + ROLE_V1BETA1 + "{% endif %}\n---\n" + ROLE_V1BETA1
    result = migrate_text(text, target_version="1.29")
    assert result.text == "{% if rbac %}\n" + ROLE_V1 + "{% endif %}\n---\n" + ROLE_V1
    assert not {f.code for f in result.findings} & {"K8SM-GEN-001", "K8SM-GEN-014", "K8SM-GEN-007"}


def test_template_markers_inside_quoted_strings_do_not_block_migration() -> None:
    text = ROLE_V1BETA1.replace("name: a", 'name: "{{ .Release.Name }}-a"')
    assert migrate(text) == text.replace("v1beta1", "v1")


def test_invalid_yaml_is_an_error_with_its_line_and_nothing_changes() -> None:
    text = ROLE_V1BETA1 + "---\napiVersion: v1\nkind: [\n"
    result = migrate_text(text, target_version="1.29")
    parse_errors = [f for f in result.findings if f.code == "K8SM-GEN-005"]
    assert [f.document for f in parse_errors] == [1]
    assert 8 <= parse_errors[0].line <= 9
    assert result.text == text


def test_duplicate_keys_are_an_error_naming_both_lines() -> None:
    text = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: a\n  name: b\n"
    result = migrate_text(text, target_version="1.29")
    assert result.text == text
    (finding,) = [f for f in result.findings if f.code == "K8SM-GEN-006"]
    assert finding.line == 5 and "line 4" in finding.message


def test_alias_bomb_is_an_error_not_a_hang() -> None:
    lines = ["apiVersion: networking.k8s.io/v1beta1", "kind: Ingress", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    lines += ["spec:", "  backend:", "    serviceName: web", "    servicePort: 80", ""]
    text = "\n".join(lines)
    result = migrate_text(text, target_version="1.29")
    assert result.text == text
    assert "K8SM-GEN-011" in codes(result)


def test_new_strings_with_flow_indicators_are_quoted_inside_flow_mappings() -> None:
    # found by the fuzz run: a label value "a,b" copied into a flow selector
    text = dedent(
        """
        apiVersion: extensions/v1beta1
        kind: DaemonSet
        metadata: {name: w}
        spec:
          template: {metadata: {labels: {app: "a,b"}}, spec: {containers: [{name: w, image: nginx}]}}
        """
    )
    result = migrate_text(text, target_version="1.29")
    assert "K8SM-GEN-012" not in codes(result)
    assert yaml.safe_load(result.text)["spec"]["selector"] == {"matchLabels": {"app": "a,b"}}


def test_a_new_string_with_a_colon_is_quoted_inside_flow_collections_only() -> None:
    # PyYAML (YAML 1.1) refuses ':' in a flow plain scalar; block context takes it (fuzz finding)
    from tests.helpers import check_transformed

    head = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\n"
    result = check_transformed(
        head + "nodeRegistration: {criSocket: /run/containerd/containerd.sock}\n",
        head + 'nodeRegistration: {criSocket: "unix:///run/containerd/containerd.sock"}\n',
        target_version="1.29",
    )
    assert yaml.safe_load(result.text)["nodeRegistration"]["criSocket"].startswith("unix://")
    block = migrate_text(head + "nodeRegistration:\n  criSocket: /run/containerd/containerd.sock\n")
    assert "  criSocket: unix:///run/containerd/containerd.sock\n" in block.text


_MARKER_TEXT = st.lists(
    st.sampled_from(["-", ".", "\n", " ", "\t", "\r", "a", "---", "...", "\n---", "\n...", "--- a", "\n...\n"]),
    max_size=16,
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_MARKER_TEXT)
def test_document_markers_are_found_where_the_line_start_pattern_finds_them(text: str) -> None:
    from k8smigrate.yamlio.stream import _DOC_MARKER, _markers

    assert _markers(text) == [(m.start(), m.group(0)) for m in _DOC_MARKER.finditer(text)]


def _read(stream: Any) -> list[tuple[Any, ...]]:
    return [
        (d.index, d.start, d.end, d.line, d.api_version, d.kind, d.name, d.namespace, d.templated, d.root is not None)
        for d in stream.documents
    ]


_PREDICATES = [
    lambda piece: False,
    lambda piece: True,
    lambda piece: "Ingress" in piece,
    lambda piece: len(piece) % 2 == 0,
]


@settings(max_examples=200, deadline=None)
@given(streams(), st.sampled_from(range(4)), st.sampled_from(range(4)))
def test_a_stream_read_again_with_another_pre_filter_is_what_reading_it_with_that_one_gives(
    docs: list[str], first: int, then: int
) -> None:
    # scan reads a file for its API rows, then hands that reading to its checks (read_again)
    from k8smigrate.yamlio import read_again, read_stream

    text = join(docs)
    before = read_stream(text, wanted=_PREDICATES[first])
    again = read_again(before, _PREDICATES[then])
    if again is None:
        assert not before.libyaml  # only a stream read on the fast path is read again
        return
    direct = read_stream(text, wanted=_PREDICATES[then])
    assert _read(again) == _read(direct)
    assert (again.whole, again.libyaml, again.bom, again.boms, again.text) == (
        direct.whole,
        direct.libyaml,
        direct.bom,
        direct.boms,
        direct.text,
    )
