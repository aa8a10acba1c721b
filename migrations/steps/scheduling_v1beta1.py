"""PriorityClass ``scheduling.k8s.io/v1beta1`` → ``scheduling.k8s.io/v1``.

Only ``apiVersion`` changes: ``value``, ``globalDefault``, ``description`` and
``preemptionPolicy`` are the same, and ``preemptionPolicy`` defaults to
``PreemptLowerPriority`` in both versions (``pkg/apis/scheduling/{v1beta1,v1}/defaults.go``).
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("PriorityClass",),
    from_api="scheduling.k8s.io/v1beta1",
    to_api="scheduling.k8s.io/v1",
    available_in="1.14",
    summary="PriorityClass scheduling.k8s.io/v1beta1 → v1: apiVersion only",
)
