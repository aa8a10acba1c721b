"""SelfSubjectReview ``authentication.k8s.io/v1alpha1`` → ``v1beta1``.

The request has no fields besides metadata; only ``apiVersion`` changes. The next step,
``selfsubjectreview_v1beta1``, goes on to ``v1``.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("SelfSubjectReview",),
    from_api="authentication.k8s.io/v1alpha1",
    to_api="authentication.k8s.io/v1beta1",
    available_in="1.27",
    summary="SelfSubjectReview authentication v1alpha1 → v1beta1 (apiVersion only)",
)
