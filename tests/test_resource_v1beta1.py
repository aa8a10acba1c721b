"""Spec: DRA resource.k8s.io/v1beta1 → v1 (resource_v1beta1): requests under ``exactly``, devices without ``basic``."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

CLAIM = """
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: two-gpus
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com  # the class
      selectors:
      - cel:
          expression: device.attributes["gpu.example.com"].model == "a100"
      allocationMode: ExactCount
      count: 2
    constraints:
    - requests: [gpu]
      matchAttribute: gpu.example.com/numa
"""


# ------------------------------------------------------------------ no-op cases


def test_noop_before_v1_is_served() -> None:
    check_noop(CLAIM, target_version="1.33")


def test_noop_already_v1() -> None:
    check_noop(CLAIM.replace("v1beta1", "v1"), target_version="1.35")


# ------------------------------------------------------------------ transforms


def test_claim_request_fields_move_under_exactly() -> None:
    result = check_transformed(
        CLAIM,
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata:
          name: two-gpus
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu.example.com  # the class
                selectors:
                - cel:
                    expression: device.attributes["gpu.example.com"].model == "a100"
                allocationMode: ExactCount
                count: 2
            constraints:
            - requests: [gpu]
              matchAttribute: gpu.example.com/numa
        """,
        target_version="1.34",
    )
    assert codes(result) == []
    validate(result.text, "1.35.0")


def test_template_requests_in_flow_style_and_first_available_kept() -> None:
    result = check_transformed(
        """
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceClaimTemplate
        metadata: {name: t}
        spec:
          spec:
            devices:
              requests:
              - {name: any, deviceClassName: gpu.example.com, adminAccess: true}
              - name: small-or-big
                firstAvailable:
                - {name: small, deviceClassName: small.example.com}
                - {name: big, deviceClassName: big.example.com, count: 2}
        """,
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: t}
        spec:
          spec:
            devices:
              requests:
              - {name: any, exactly: {deviceClassName: gpu.example.com, adminAccess: true}}
              - name: small-or-big
                firstAvailable:
                - {name: small, deviceClassName: small.example.com}
                - {name: big, deviceClassName: big.example.com, count: 2}
        """,
        target_version="1.35",
    )
    validate(result.text, "1.35.0")


def test_slice_devices_lose_basic() -> None:
    result = check_transformed(
        """
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceSlice
        metadata:
          name: node-1-gpu
        spec:
          driver: gpu.example.com
          nodeName: node-1
          pool: {name: node-1, generation: 1, resourceSliceCount: 1}
          devices:
          - name: gpu-0
            basic:
              attributes:
                model: {string: a100}  # the model
              capacity:
                memory: {value: 40Gi}
        """,
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata:
          name: node-1-gpu
        spec:
          driver: gpu.example.com
          nodeName: node-1
          pool: {name: node-1, generation: 1, resourceSliceCount: 1}
          devices:
          - name: gpu-0
            attributes:
              model: {string: a100}  # the model
            capacity:
              memory: {value: 40Gi}
        """,
        target_version="1.34",
    )
    validate(result.text, "1.35.0")


def test_device_class_is_a_rename() -> None:
    text = "apiVersion: resource.k8s.io/{v}\nkind: DeviceClass\nmetadata: {{name: g}}\nspec: {{}}\n"
    check_transformed(text.format(v="v1beta1"), text.format(v="v1"), target_version="1.35")


def test_deprecated_at_1_35_when_the_window_cannot_reach_v1() -> None:
    result = check_noop(CLAIM, target_version="1.35", min_version="1.33")
    assert codes(result) == ["K8SM-GEN-008"]


# ------------------------------------------------------------------ errors


def test_a_request_with_both_shapes_is_an_error() -> None:
    result = run(
        CLAIM.replace("      count: 2\n", "      count: 2\n      exactly: {deviceClassName: other}\n"),
        target_version="1.35",
    )
    assert codes(result, "error") == ["K8SM-GEN-003"]
    assert "apiVersion: resource.k8s.io/v1beta1" in result.text
