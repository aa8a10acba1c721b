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

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.comma_lists import move_to_field
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

KEY = "service.beta.kubernetes.io/load-balancer-source-ranges"
FIELD = "loadBalancerSourceRanges"


def body(service: Mapping, ctx: Context) -> None:
    conflict = ("K8SM-FLD-060", "the field wins upstream")
    move_to_field(service, ctx, KEY, FIELD, "K8SM-FLD-016", empty="every source (the default)", conflict=conflict)


MIGRATION = Check(
    applies_to={"v1": ("Service",)},
    body=body,
    trigger=KEY,
    category="annotation",
    edits=True,
    cleanup=True,
    summary="Service load-balancer-source-ranges annotation (deprecated) → spec.loadBalancerSourceRanges",
    codes=(
        Code("K8SM-FLD-016", "info", "load-balancer-source-ranges moved to spec.loadBalancerSourceRanges (or dropped)"),
        Code("K8SM-FLD-060", "error", "the annotation and spec.loadBalancerSourceRanges list different ranges"),
    ),
)
