"""Spec: YAML aliases and merge keys in the parts that migrations read and edit (issue 14 item 2).

Bodies see what an alias or a merge key stands for, each place on its own
(``k8smigrate/sharing.py``). Where every place that shares a node gets the same edits (or
none), the aliases and merge keys are written back as they were; an edit that would have to
go through an alias or a merge key, or change another place (another List item, an
annotation) that shares the node, leaves the document unchanged with K8SM-GEN-017, located
where the input has the alias or merge key.
"""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings

from k8smigrate.render import Renderer, detect_style
from k8smigrate.sharing import expand, fold
from k8smigrate.tree import Mapping
from k8smigrate.yamlio import EVERY, read_stream
from tests.fuzz_checks import check_shared
from tests.helpers import check_noop, check_transformed, codes, run, validate
from tests.strategies import join, shared_streams

# ------------------------------------------------------------------ no-op cases


def test_anchors_aliases_and_merges_no_migration_edits_stay_as_written() -> None:
    check_noop("""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          labels: &labels {app: web}
        spec:
          selector: {matchLabels: *labels}
          template:
            metadata:
              labels:
                <<: *labels
                tier: front
            spec:
              containers: [{name: web, image: nginx}]
    """)


@pytest.mark.parametrize(
    "text",
    [
        "a: &x {b: [1, &y 2]}\nc: *x\nd: {<<: *x, e: *y}\nf: [*y, {<<: [*x, {g: 1}]}]\n",
        "a: &x {b: 1}\nc:\n  <<: *x\n  b: 2\n",
        "l: &l [1, 2]\nm: *l\n",
    ],
)
def test_expand_then_fold_without_edits_gives_the_same_tree_and_text(text: str) -> None:
    root = read_stream(text, wanted=EVERY).documents[0].root
    assert isinstance(root, Mapping)
    data = root.to_data()
    done = expand(root)
    assert root.to_data() == data
    assert "<<" not in str(root.keys())
    assert fold(done, root) == []
    assert root.pristine()
    assert Renderer(text, detect_style(text, root)).document(root) == text


# ------------------------------------------------------------------ transforms: same edits at every place


def test_backends_shared_inside_one_ingress_are_converted_once_and_stay_aliases() -> None:
    result = check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata: {name: web}
        spec:
          rules:
          - http:
              paths:
              - path: /a
                pathType: Prefix
                backend: &web {serviceName: web, servicePort: 80}
              - path: /b
                pathType: Prefix
                backend: *web
        """,
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata: {name: web}
        spec:
          rules:
          - http:
              paths:
              - path: /a
                pathType: Prefix
                backend: &web {service: {name: web, port: {number: 80}}}
              - path: /b
                pathType: Prefix
                backend: *web
        """,
    )
    validate(result.text)


def test_a_template_alias_is_read_through_no_false_missing_selector() -> None:
    """``template: *tmpl``: the template labels are read through the alias (no K8SM-APPS-001)."""
    result = check_transformed(
        """
        apiVersion: apps/v1beta1
        kind: Deployment
        metadata:
          name: web
          annotations:
            note: &tmpl
              metadata: {labels: {app: web}}
              spec:
                containers: [{name: web, image: nginx}]
        spec:
          revisionHistoryLimit: 3
          template: *tmpl
        """,
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          labels:
            app: web
          annotations:
            note: &tmpl
              metadata: {labels: {app: web}}
              spec:
                containers: [{name: web, image: nginx}]
        spec:
          revisionHistoryLimit: 3
          selector:
            matchLabels:
              app: web
          template: *tmpl
        """,
    )
    assert "K8SM-APPS-001" not in codes(result)


def test_list_items_sharing_a_backend_that_both_migrate_keep_the_alias() -> None:
    result = run("""
        apiVersion: v1
        kind: List
        items:
        - apiVersion: extensions/v1beta1
          kind: Ingress
          metadata: {name: a}
          spec:
            backend: &b {serviceName: s, servicePort: 80}
        - apiVersion: extensions/v1beta1
          kind: Ingress
          metadata: {name: b}
          spec:
            backend: *b
    """)
    assert "defaultBackend: &b {service: {name: s, port: {number: 80}}}" in result.text
    assert "defaultBackend: *b" in result.text
    validate(result.text)


def test_merge_keys_beside_an_edit_are_kept() -> None:
    check_transformed(
        """
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web
          labels: &labels {app: web}
          annotations:
            <<: *labels
            team: shop
        spec:
          backend: {serviceName: web, servicePort: 80}
        """,
        """
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: web
          labels: &labels {app: web}
          annotations:
            <<: *labels
            team: shop
        spec:
          defaultBackend: {service: {name: web, port: {number: 80}}}
        """,
    )


# ------------------------------------------------------------------ refused: K8SM-GEN-017


def _refused(text: str) -> list[tuple[int, str, str]]:
    result = check_noop(text)
    assert codes(result, "error") == ["K8SM-GEN-017"], [f.format() for f in result.findings]
    return [(f.line, f.path, f.message) for f in result.findings if f.code == "K8SM-GEN-017"]


def test_a_backend_made_of_a_merge_key_is_refused_where_the_merge_is() -> None:
    [(line, path, message)] = _refused("""
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web
          annotations:
            base: &base
              serviceName: web
              servicePort: 80
        spec:
          backend: {<<: *base}
    """)
    assert (line, path) == (10, "spec.backend")
    assert message.startswith("serviceName, servicePort come from the merge key << on line 10")


def test_a_merge_with_an_override_is_refused_not_a_false_missing_service_name() -> None:
    [(line, path, message)] = _refused("""
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web
          annotations:
            base: &b {serviceName: web, servicePort: 80}
        spec:
          backend: {<<: *b, servicePort: 81}
    """)
    assert (line, path) == (8, "spec.backend")
    assert "serviceName comes from the merge key" in message


def test_an_alias_of_another_list_items_node_is_refused_at_the_alias() -> None:
    [(line, path, message)] = _refused("""
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: ConfigMap
          metadata: {name: defaults}
          data: {}
          x-backend: &b
            serviceName: web
            servicePort: 80
        - apiVersion: extensions/v1beta1
          kind: Ingress
          metadata: {name: web}
          spec:
            backend: *b
    """)
    assert (line, path) == (15, "items[1].spec.backend")
    assert "through the YAML alias *b (anchored on line 9)" in message


def test_an_edit_of_an_anchored_node_another_item_shares_is_refused_at_the_anchor() -> None:
    [(line, path, message)] = _refused("""
        apiVersion: v1
        kind: List
        items:
        - apiVersion: extensions/v1beta1
          kind: Ingress
          metadata: {name: web}
          spec:
            backend: &b {serviceName: web, servicePort: 80}
        - apiVersion: v1
          kind: ConfigMap
          metadata: {name: copy}
          x-backend: *b
    """)
    assert (line, path) == (8, "items[0].spec.backend")
    assert "also used on line 12 (items[1].x-backend: *b)" in message


def test_an_alias_whose_anchor_an_edit_removes_is_refused() -> None:
    """rollbackTo goes (apps/v1 has none); an annotation aliases it."""
    [(_line, path, message)] = _refused("""
        apiVersion: extensions/v1beta1
        kind: Deployment
        metadata:
          name: web
        spec:
          selector: {matchLabels: {app: web}}
          rollbackTo: &r {revision: 2}
          template:
            metadata:
              labels: {app: web}
              annotations:
                rolled: *r
            spec:
              containers: [{name: web, image: nginx}]
    """)
    assert path == "spec.template.metadata.annotations.rolled"
    assert "would lose its anchor &r" in message


def test_an_apiversion_shared_with_another_key_is_refused() -> None:
    [(line, path, _message)] = _refused("""
        x-api: &v extensions/v1beta1
        apiVersion: *v
        kind: Ingress
        metadata: {name: web}
        spec:
          backend: {serviceName: web, servicePort: 80}
    """)
    assert (line, path) == (2, "apiVersion")


def test_an_alias_bomb_is_refused_before_any_body_runs() -> None:
    bomb = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}\na0: &a0 [x, x]\n"
    for i in range(1, 24):
        bomb += f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n"
    result = run(bomb)
    assert codes(result, "error") == ["K8SM-GEN-011"]
    assert "alias bomb" in result.findings[0].message


# ------------------------------------------------------------------ the property


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(shared_streams())
def test_aliases_and_merge_keys_migrate_as_their_written_out_copies_or_are_refused(docs: list[str]) -> None:
    check_shared(join(docs))


def test_the_property_sees_both_outcomes() -> None:
    """The generator makes streams the tool migrates through aliases and streams it refuses."""
    refused = "apiVersion: extensions/v1beta1\nkind: Ingress\nx-shared: &s {serviceName: a, servicePort: 80}\n"
    assert "K8SM-GEN-017" in codes(check_shared(refused + "spec:\n  backend: *s\n"))
    kept = check_shared(refused + "spec:\n  backend: {serviceName: a, servicePort: 80}\n  tls: [{hosts: [*s]}]\n")
    assert yaml.safe_load(kept.text)["apiVersion"] == "networking.k8s.io/v1"


def test_a_key_set_over_a_merged_one_may_not_be_renamed_away() -> None:
    """Found by the property: the control-plane check renames the key the mapping sets over the
    merged one, which would bring the merged ``master`` key back."""
    [(line, path, message)] = _refused("""
        x-shared: &shared
          node-role.kubernetes.io/master: ""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: a}
        spec:
          selector: {matchLabels: {app: a}}
          template:
            metadata: {labels: {app: a}}
            spec:
              containers: [{name: a, image: nginx}]
              nodeSelector:
                <<: *shared
                node-role.kubernetes.io/master: ""
    """)
    assert (line, path) == (13, "spec.template.spec.nodeSelector")
    assert message.startswith("node-role.kubernetes.io/master would come back from the merge key <<")
