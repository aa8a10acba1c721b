"""Deployment, StatefulSet, ControllerRevision ``apps/v1beta1`` → ``apps/v1``.

From upstream's ``pkg/apis/apps/v1beta1/defaults.go`` compared with
``pkg/apis/apps/v1/defaults.go``; k8smigrate writes the old values where the fields are absent:

- ``spec.selector``: ``{matchLabels: <spec.template.metadata.labels>}`` (required in
  apps/v1; K8SM-APPS-003). No selector and no template labels: K8SM-APPS-001, untouched.
- ``metadata.labels``: the template labels when empty (the old API copied them; K8SM-APPS-002).
- Deployment ``spec.revisionHistoryLimit: 2`` (apps/v1 keeps 10; K8SM-APPS-005).
  ``maxUnavailable``/``maxSurge`` (25%) and ``progressDeadlineSeconds`` (600) did not change.
- Deployment ``spec.rollbackTo`` is dropped (K8SM-APPS-010: use ``kubectl rollout undo``).
- StatefulSet ``spec.updateStrategy.type: OnDelete`` (apps/v1 defaults to RollingUpdate;
  K8SM-APPS-004). ``podManagementPolicy`` and ``revisionHistoryLimit`` did not change.
- ControllerRevision changes only its ``apiVersion``.

Pins are skipped with ``--adopt-new-defaults`` (K8SM-GEN-002 each).
"""

from __future__ import annotations

from dataclasses import replace

from k8smigrate.context import Context
from k8smigrate.kube.workloads import CODES, default_selector, deployment_spec, pin_path
from k8smigrate.model import Step
from k8smigrate.tree import Mapping

BASE = Step(
    kinds=(),
    from_api="apps/v1beta1",
    to_api="apps/v1",
    available_in="1.9",
    codes=CODES,
)


def deployment(obj: Mapping, ctx: Context) -> None:
    spec = deployment_spec(obj, ctx)
    if spec is None:
        return
    pin_path(
        ctx,
        spec,
        (),
        "revisionHistoryLimit",
        2,
        "K8SM-APPS-005",
        "apps/v1beta1 kept 2 old ReplicaSets by default; apps/v1 keeps 10",
        before="template",
    )


def statefulset(obj: Mapping, ctx: Context) -> None:
    default_selector(obj, ctx)
    spec = obj.mapping("spec")
    if spec is None or ctx.failed:
        return
    pin_path(
        ctx,
        spec,
        ("updateStrategy",),
        "type",
        "OnDelete",
        "K8SM-APPS-004",
        "apps/v1beta1 defaulted StatefulSet updates to OnDelete; apps/v1 to RollingUpdate",
        before="template",
    )


MIGRATIONS = [
    replace(
        BASE,
        kinds=("Deployment",),
        body=deployment,
        summary="Deployment apps/v1beta1 → apps/v1: selector written, revisionHistoryLimit pinned",
    ),
    replace(
        BASE,
        kinds=("StatefulSet",),
        body=statefulset,
        summary="StatefulSet apps/v1beta1 → apps/v1: selector written, OnDelete pinned",
    ),
    replace(
        BASE,
        kinds=("ControllerRevision",),
        summary="ControllerRevision apps/v1beta1 → apps/v1 (apiVersion only)",
    ),
]
