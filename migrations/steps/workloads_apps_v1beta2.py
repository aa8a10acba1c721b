"""Deployment, DaemonSet, ReplicaSet, StatefulSet, ControllerRevision ``apps/v1beta2`` → ``apps/v1``.

``pkg/apis/apps/v1beta2/defaults.go`` and ``pkg/apis/apps/v1/defaults.go`` set the same
defaults, and the two versions have the same fields: only ``apiVersion`` changes. Unlike
extensions/v1beta1 and apps/v1beta1, apps/v1beta2 did not default ``spec.selector`` from
the template labels, so an object without a selector was already invalid; it is reported
(K8SM-APPS-012) and left untouched rather than guessed.
"""

from __future__ import annotations

from dataclasses import replace

from k8smigrate.kube.workloads import SELECTOR_REQUIRED, require_selector
from k8smigrate.model import Step

BASE = Step(
    kinds=(),
    from_api="apps/v1beta2",
    to_api="apps/v1",
    available_in="1.9",
)

MIGRATIONS = [
    replace(
        BASE,
        kinds=("Deployment", "DaemonSet", "ReplicaSet", "StatefulSet"),
        body=require_selector,
        summary="workloads apps/v1beta2 → apps/v1 (apiVersion only; selector required)",
        codes=(SELECTOR_REQUIRED,),
    ),
    replace(
        BASE,
        kinds=("ControllerRevision",),
        summary="ControllerRevision apps/v1beta2 → apps/v1 (apiVersion only)",
    ),
]
