"""SelfSubjectReview ``authentication.k8s.io/v1beta1`` → ``v1``.

The request has no fields besides metadata; only ``apiVersion`` changes. v1 is served
from 1.28.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("SelfSubjectReview",),
    from_api="authentication.k8s.io/v1beta1",
    to_api="authentication.k8s.io/v1",
    available_in="1.28",
    summary="SelfSubjectReview authentication v1beta1 → v1 (apiVersion only)",
)
