"""Access reviews ``authorization.k8s.io/v1beta1`` → ``authorization.k8s.io/v1``.

SubjectAccessReview and LocalSubjectAccessReview: ``spec.group`` → ``spec.groups`` (the same
``[]string``; only its JSON name changed, see ``SubjectAccessReviewSpec`` in
``k8s.io/api: authorization/{v1beta1,v1}/types.go``), renamed in place with its comments.
When both keys are present the document is left unchanged (K8SM-GEN-003).

SelfSubjectAccessReview and SelfSubjectRulesReview change only their ``apiVersion``. None of
these kinds is persisted and neither version defaults any field.
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Mapping

RENAMED_KINDS = ("SubjectAccessReview", "LocalSubjectAccessReview")


def body(review: Mapping, ctx: Context) -> None:
    spec = review.mapping("spec")
    if review.data("kind") not in RENAMED_KINDS or spec is None or "group" not in spec:
        return
    if "groups" in spec:
        ctx.error("K8SM-GEN-003", "spec has both group (v1beta1) and groups (v1)", spec.get("group"))
        return
    spec.rename("group", "groups")
    ctx.note("spec.group → spec.groups")


MIGRATION = Step(
    kinds=(*RENAMED_KINDS, "SelfSubjectAccessReview", "SelfSubjectRulesReview"),
    from_api="authorization.k8s.io/v1beta1",
    to_api="authorization.k8s.io/v1",
    available_in="1.6",
    body=body,
    summary="Access reviews authorization.k8s.io/v1beta1 → v1: spec.group → spec.groups",
    codes=(BOTH_FORMS.with_summary("spec has both group and groups"),),
)
