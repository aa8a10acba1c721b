"""PriorityClass ``scheduling.k8s.io/v1alpha1`` → ``scheduling.k8s.io/v1``.

Only ``apiVersion`` changes: the fields and the ``preemptionPolicy: PreemptLowerPriority``
default are the same as in v1 (``pkg/apis/scheduling/{v1alpha1,v1}/defaults.go``).
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("PriorityClass",),
    from_api="scheduling.k8s.io/v1alpha1",
    to_api="scheduling.k8s.io/v1",
    available_in="1.14",
    summary="PriorityClass scheduling.k8s.io/v1alpha1 → v1: apiVersion only",
)
