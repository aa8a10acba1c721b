"""DRA kinds ``resource.k8s.io/v1beta1`` → ``resource.k8s.io/v1``: ResourceClaim(Template), ResourceSlice, DeviceClass.

Dynamic Resource Allocation reached ``resource.k8s.io/v1`` in 1.34 (on by default; the
betas never were). ``v1beta2`` (1.33) reshaped two structs and ``v1`` kept that shape
(k8s.io/api ``resource/{v1beta1,v1beta2,v1}/types.go``); the conversions are upstream's
``Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest`` and
``Convert_v1beta1_Device_To_resource_Device`` (``pkg/apis/resource/v1beta1/conversion.go``):

- **A device request** (``spec.devices.requests[]`` of a ResourceClaim,
  ``spec.spec.devices.requests[]`` of a ResourceClaimTemplate): everything but ``name`` and
  ``firstAvailable`` (``deviceClassName``, ``selectors``, ``allocationMode``, ``count``,
  ``adminAccess``, ``tolerations``, ``capacity``…) moves, in its order and with its comments,
  under a new ``exactly`` right after ``name``, which upstream does when any of those fields
  is set. ``firstAvailable`` (its sub-requests keep their shape) stays where it is.
- **A device** of a ResourceSlice (``spec.devices[]``): the fields of ``basic``
  (``attributes``, ``capacity``, ``consumesCounters``, ``nodeName``, ``taints``…) move up
  into the device, after ``name``, and ``basic`` goes.
- DeviceClass, the rest of the specs and ``status`` have the same shape (``nodeName`` and
  ``allNodes`` of a ResourceSlice became pointers: the same YAML). The defaults are the same
  (``allocationMode: ExactCount``, ``count: 1``, toleration ``operator: Equal``), so
  nothing is pinned.

A request that already has an ``exactly`` beside the old fields is an error (K8SM-GEN-003):
which one was meant cannot be told. The v1beta1 round-trip annotation
``resource.k8s.io/basic-device-names`` is upstream's bookkeeping and is not written.
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS
from k8smigrate.context import Context, mappings_at
from k8smigrate.model import Step
from k8smigrate.tree import Entry, Mapping, Scalar

GROUP = "resource.k8s.io"
KEEP = ("name", "firstAvailable")


def body(obj: Mapping, ctx: Context) -> None:
    kind = obj.data("kind")
    if kind == "ResourceClaim":
        requests = mappings_at(obj, "spec", "devices", "requests")
    elif kind == "ResourceClaimTemplate":
        requests = mappings_at(obj, "spec", "spec", "devices", "requests")
    else:
        requests = []
    for request in requests:
        exact_request(request, ctx)
    if kind == "ResourceSlice":
        for device in mappings_at(obj, "spec", "devices"):
            flatten_device(device, ctx)


def exact_request(request: Mapping, ctx: Context) -> None:
    """Everything but ``name`` and ``firstAvailable`` → ``exactly: {…}`` after ``name``."""
    moving = [k for k in request if k not in KEEP and k != "exactly"]
    if not moving:
        return
    if "exactly" in request:
        ctx.error("K8SM-GEN-003", f"request has exactly and the v1beta1 fields {', '.join(moving)}", request)
        return
    at = request.index("name")
    exactly = Mapping(flow=request.flow)
    for key in moving:
        entry = request.pop(key)
        if entry is not None:
            exactly.insert(entry)
    request.insert(Entry(Scalar("exactly"), exactly), at=0 if at is None else at + 1)
    ctx.note("devices.requests[]: " + ", ".join(moving) + " → exactly")


def flatten_device(device: Mapping, ctx: Context) -> None:
    """``basic: {…}`` → its fields on the device, after ``name``."""
    basic = device.mapping("basic")
    if basic is None:
        return
    clash = [k for k in basic if k in device and k != "basic"]
    if clash:
        ctx.error("K8SM-GEN-003", f"device has basic.{clash[0]} and {clash[0]} both", device)
        return
    at = device.index("basic") or 0
    device.pop("basic")
    for offset, key in enumerate(list(basic.keys())):
        moved = basic.pop(key)
        if moved is not None:
            device.insert(moved, at=at + offset)
    ctx.note("devices[].basic → devices[]")


MIGRATION = Step(
    kinds=("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"),
    from_api=f"{GROUP}/v1beta1",
    to_api=f"{GROUP}/v1",
    available_in="1.34",
    body=body,
    summary="DRA resource.k8s.io/v1beta1 → v1: requests under exactly, ResourceSlice devices without basic",
    codes=(BOTH_FORMS.with_summary("a request with exactly and v1beta1 fields, or a device field twice"),),
)
