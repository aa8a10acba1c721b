"""Deployment, DaemonSet, ReplicaSet ``extensions/v1beta1`` → ``apps/v1``.

Upstream's ``SetDefaults_Deployment``, ``SetDefaults_DaemonSet`` and ``SetDefaults_ReplicaSet``
in ``pkg/apis/extensions/v1beta1/defaults.go`` filled in values that ``apps/v1``
(``pkg/apis/apps/v1/defaults.go``) no longer fills, or fills differently. To keep the
behaviour the object had, k8smigrate writes the old values where the fields are absent:

- ``spec.selector``: ``{matchLabels: <spec.template.metadata.labels>}`` (required in
  apps/v1; K8SM-APPS-003). No selector and no template labels: K8SM-APPS-001, untouched.
- ``metadata.labels``: the template labels when empty (the old API copied them; K8SM-APPS-002).
- Deployment ``spec.revisionHistoryLimit: 2147483647`` (unset meant "keep every old
  ReplicaSet"; apps/v1 keeps 10; K8SM-APPS-005) and ``spec.progressDeadlineSeconds:
  2147483647`` (unset meant "no deadline"; apps/v1 uses 600; K8SM-APPS-006).
- Deployment ``spec.strategy.rollingUpdate.maxUnavailable: 1`` and ``maxSurge: 1`` when the
  strategy is RollingUpdate or unset (apps/v1 defaults both to 25%; K8SM-APPS-007).
- DaemonSet ``spec.updateStrategy.type: OnDelete`` (apps/v1 defaults to RollingUpdate, which
  would roll every node at the next template change; K8SM-APPS-004).
- Deployment ``spec.rollbackTo`` is dropped (K8SM-APPS-010: use ``kubectl rollout undo``);
  DaemonSet ``spec.templateGeneration`` is dropped (K8SM-APPS-011: the server sets it).

Pins are skipped with ``--adopt-new-defaults`` (K8SM-GEN-002 each). ReplicaSet needs only
the selector and labels rules.
"""

from __future__ import annotations

from dataclasses import replace

from k8smigrate.context import Context
from k8smigrate.kube.workloads import CODES, MAX_INT32, default_selector, deployment_spec, drop, pin_path
from k8smigrate.model import Step
from k8smigrate.tree import Mapping

BASE = Step(
    kinds=(),
    from_api="extensions/v1beta1",
    to_api="apps/v1",
    available_in="1.9",
    codes=CODES,
)


def deployment(obj: Mapping, ctx: Context) -> None:
    spec = deployment_spec(obj, ctx)
    if spec is None:
        return
    strategy = spec.mapping("strategy")
    kind = strategy.data("type") if strategy is not None else None
    if kind in (None, "RollingUpdate"):
        why = "extensions/v1beta1 defaulted it to 1; apps/v1 uses 25%"
        for key in ("maxUnavailable", "maxSurge"):
            pin_path(ctx, spec, ("strategy", "rollingUpdate"), key, 1, "K8SM-APPS-007", why, before="template")
    pin_path(
        ctx,
        spec,
        (),
        "revisionHistoryLimit",
        MAX_INT32,
        "K8SM-APPS-005",
        "unset kept every old ReplicaSet in extensions/v1beta1; apps/v1 keeps 10",
        before="template",
    )
    pin_path(
        ctx,
        spec,
        (),
        "progressDeadlineSeconds",
        MAX_INT32,
        "K8SM-APPS-006",
        "unset meant no progress deadline in extensions/v1beta1; apps/v1 uses 600",
        before="template",
    )


def daemonset(obj: Mapping, ctx: Context) -> None:
    default_selector(obj, ctx)
    spec = obj.mapping("spec")
    if spec is None or ctx.failed:
        return
    drop(
        spec,
        "templateGeneration",
        "info",
        "K8SM-APPS-011",
        "spec.templateGeneration dropped: apps/v1 has no such field (the server tracks it)",
        ctx,
    )
    pin_path(
        ctx,
        spec,
        ("updateStrategy",),
        "type",
        "OnDelete",
        "K8SM-APPS-004",
        "extensions/v1beta1 defaulted DaemonSet updates to OnDelete; apps/v1 to RollingUpdate",
        before="template",
    )


MIGRATIONS = [
    replace(
        BASE,
        kinds=("Deployment",),
        body=deployment,
        summary="Deployment extensions/v1beta1 → apps/v1: selector written, old defaults pinned",
    ),
    replace(
        BASE,
        kinds=("DaemonSet",),
        body=daemonset,
        summary="DaemonSet extensions/v1beta1 → apps/v1: selector written, OnDelete pinned",
    ),
    replace(
        BASE,
        kinds=("ReplicaSet",),
        body=default_selector,
        summary="ReplicaSet extensions/v1beta1 → apps/v1: selector written from template labels",
    ),
]
