"""Service ``load-balancer-source-ranges`` annotation → ``spec.loadBalancerSourceRanges`` (clean-up).

The annotation ``service.beta.kubernetes.io/load-balancer-source-ranges`` is the deprecated
spelling of ``spec.loadBalancerSourceRanges`` (WEB-1.28 labels page). Upstream still reads it:
API validation (``pkg/apis/core/validation``) checks the annotation only when the field is
empty, and the cloud-provider helper (``GetLoadBalancerSourceRanges``) reads the field first
and falls back to the annotation, split on commas with spaces trimmed. Nothing breaks at any
release, so this is a clean-up for every target (K8SM-FLD-016, info):

- the comma list (spaces allowed) becomes ``spec.loadBalancerSourceRanges``, one CIDR per
  item, and the annotation is deleted; an empty value, which means "every source", is only
  deleted;
- when the field is already there with the same set of ranges, the annotation is deleted;
- when the field says something else, the field already wins upstream but which one was meant
  is for a human to say: an error, and the document is left unchanged (K8SM-FLD-060).
"""

from __future__ import annotations

from k8smigrate.context import Context
from k8smigrate.registry import Migration
from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping, Node, Scalar, Sequence

from ._podspec import child, drop_annotation

KEY = "service.beta.kubernetes.io/load-balancer-source-ranges"
FIELD = "loadBalancerSourceRanges"


def split(value: object) -> list[str]:
    """A comma list as upstream reads it: items trimmed, empty items dropped."""
    text = "" if value is None else str(value)
    return [part.strip() for part in text.split(",") if part.strip()]


def current_ranges(spec: Mapping) -> list[str] | None:
    """The field's ranges (trimmed: validation allows space padding), None when it is absent or empty."""
    node = spec.get(FIELD)
    if node is None or (isinstance(node, Scalar) and node.data is None):
        return None
    data = node.to_data()
    if not isinstance(data, list):
        return [str(data)]  # not a list: never equal to the annotation
    return [str(item).strip() for item in data] or None


def body(service: Mapping, ctx: Context) -> None:
    metadata = service.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    node = notes.get(KEY) if notes is not None else None
    if metadata is None or notes is None or not isinstance(node, Scalar):
        return
    spec = child(service, "spec")
    if spec is None:
        return
    ranges = split(node.data)
    existing = current_ranges(spec)
    if existing is not None and set(existing) != set(ranges):
        ctx.error(
            "K8SM-FLD-060",
            f"annotation {KEY} ({', '.join(ranges) or 'empty'}) and spec.{FIELD} ({', '.join(existing)}) "
            "differ (the field wins upstream); keep one by hand",
            node,
        )
        return
    if existing is not None:
        why = f"deleted: spec.{FIELD} says the same"
    elif not ranges:
        why = "deleted: it is empty, which means every source (the default)"
    else:
        why = f"→ spec.{FIELD}"
        items: list[Node | Data] = [*ranges]
        spec.set(FIELD, Sequence.of(items), comments_from=notes.entry(KEY))
    ctx.info("K8SM-FLD-016", f"annotation {KEY} (deprecated) {why}", node)
    drop_annotation(metadata, KEY)
    ctx.note(f"{KEY} → spec.{FIELD}")


MIGRATION = Migration(
    kinds=("Service",),
    from_api="v1",
    to_api="v1",
    available_in="1.17",
    trigger=KEY,
    body=body,
    fixer=True,
    cleanup=True,
    category="annotation",
    summary="Service load-balancer-source-ranges annotation (deprecated) → spec.loadBalancerSourceRanges",
    codes={
        "K8SM-FLD-016": "info: load-balancer-source-ranges moved to spec.loadBalancerSourceRanges (or dropped)",
        "K8SM-FLD-060": "error: the annotation and spec.loadBalancerSourceRanges list different ranges",
    },
)
