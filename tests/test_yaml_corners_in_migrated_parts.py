"""Spec: YAML corners inside documents that a migration edits (issue 14 items 8 and 9).

Block scalars with trailing blank lines in a block that moves to a new parent keep their
exact lines; ``.nan``, two byte-order marks and an empty list item read back as they were
written; go-yaml v2 number forms (``0o120``) are read as Kubernetes reads them, with a
warning, never turned into a port name.
"""

from __future__ import annotations

import pytest

from tests.helpers import check_transformed, codes, run, validate

RUNTIME_CLASS = """
apiVersion: node.k8s.io/v1alpha1
kind: RuntimeClass
metadata:
  name: kata
spec:
  runtimeHandler: kata
  scheduling:
    tolerations:
    - key: a
      operator: Exists
      effect: {indicator}
        NoSchedule

    - key: b
      operator: Exists
"""

MOVED = """
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: kata
handler: kata
scheduling:
  tolerations:
  - key: a
    operator: Exists
    effect: {indicator}
      NoSchedule

  - key: b
    operator: Exists
"""


# ------------------------------------------------------------------ transforms


@pytest.mark.parametrize("indicator", ["|", "|-", "|+", ">", ">+", ">-"])
def test_a_block_scalar_followed_by_a_blank_line_moves_with_its_lines_exactly(indicator: str) -> None:
    """One blank line stays one (with ``|``) and keeping chomping is no internal error."""
    check_transformed(RUNTIME_CLASS.format(indicator=indicator), MOVED.format(indicator=indicator))


def test_a_block_scalar_in_a_moved_crd_schema_keeps_its_blank_lines() -> None:
    result = run("""
        apiVersion: apiextensions.k8s.io/v1beta1
        kind: CustomResourceDefinition
        metadata: {name: widgets.example.com}
        spec:
          group: example.com
          names: {kind: Widget, plural: widgets}
          scope: Namespaced
          version: v1
          validation:
            openAPIV3Schema:
              type: object
              description: |
                A widget.

                More text.

              x-kubernetes-preserve-unknown-fields: true
    """)
    assert "        description: |\n          A widget.\n\n          More text.\n\n        x-kubernetes" in result.text
    validate(result.text)


def test_nan_in_a_migrated_document_reads_back() -> None:
    result = run("""
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata:
          name: web
          annotations: {ratio: .nan}
        spec:
          backend: {serviceName: web, servicePort: 80}
    """)
    assert "annotations: {ratio: .nan}" in result.text
    assert "K8SM-ING-001" not in codes(result, "error")


def test_two_byte_order_marks_survive_a_migration() -> None:
    text = "\ufeff\ufeffapiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}\nspec:\n  backend: {serviceName: web, servicePort: 80}\n"
    result = run(text)
    assert result.text.startswith("\ufeff\ufeffapiVersion: networking.k8s.io/v1\n")


def test_an_empty_list_item_is_valid_yaml() -> None:
    result = run(
        """
        apiVersion: rbac.authorization.k8s.io/v1beta1
        kind: Role
        metadata: {name: reader}
        rules:
        -
        - verbs: [get]
    """,
        target_version="1.22",
    )
    assert result.text.startswith("apiVersion: rbac.authorization.k8s.io/v1\n")
    assert "rules:\n-\n- verbs: [get]\n" in result.text
    assert codes(result, "error") == []


# ------------------------------------------------------------------ warnings


@pytest.mark.parametrize("written", ["0o120", "0120", "0x50"])
def test_a_port_in_a_go_yaml_number_form_is_that_number_with_a_warning(written: str) -> None:
    result = run(f"""
        apiVersion: extensions/v1beta1
        kind: Ingress
        metadata: {{name: web}}
        spec:
          backend: {{serviceName: web, servicePort: {written}}}
    """)
    assert "defaultBackend: {service: {name: web, port: {number: 80}}}" in result.text
    assert "K8SM-ING-008" in codes(result, "warning")
