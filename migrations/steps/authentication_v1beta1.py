"""TokenReview ``authentication.k8s.io/v1beta1`` → ``authentication.k8s.io/v1``.

Only ``apiVersion`` changes: ``spec.token`` and ``spec.audiences`` are the same in both
versions (``k8s.io/api: authentication/{v1beta1,v1}/types.go``). TokenReview is not persisted;
it appears in manifests mostly as a request body kept for tests or scripts.

SelfSubjectReview shares this group version but has its own lifecycle; it is not handled here.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("TokenReview",),
    from_api="authentication.k8s.io/v1beta1",
    to_api="authentication.k8s.io/v1",
    available_in="1.6",
    summary="TokenReview authentication.k8s.io/v1beta1 → v1: apiVersion only",
)
