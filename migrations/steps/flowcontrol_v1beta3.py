"""FlowSchema, PriorityLevelConfiguration ``flowcontrol.apiserver.k8s.io/v1beta3`` → ``v1``.

FlowSchema changes only its ``apiVersion``. For PriorityLevelConfiguration
``spec.limited.nominalConcurrencyShares``, upstream's v1beta3 defaulting
(``SetDefaults_PriorityLevelConfiguration`` in ``pkg/apis/flowcontrol/v1beta3/defaults.go``)
turned 0 into 30 unless the annotation
``flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares`` was present; v1
(``pkg/apis/flowcontrol/v1/defaults.go``) defaults only an absent value and keeps 0 as 0:

- 0 without the annotation → 30, the value the server used (K8SM-FC-001);
- 0 with the annotation → 0 kept (a deliberate "jail" level);
- the annotation itself is removed, as upstream's v1beta3 conversion drops it (K8SM-FC-002).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.flowcontrol import DEFAULT_SHARES, ZERO_SHARES
from k8smigrate.model import Step
from k8smigrate.tree import Mapping

PRESERVE_ZERO = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares"


def body(obj: Mapping, ctx: Context) -> None:
    metadata = obj.mapping("metadata")
    annotations = metadata.mapping("annotations") if metadata is not None else None
    preserve = annotations is not None and PRESERVE_ZERO in annotations
    spec = obj.mapping("spec")
    limited = spec.mapping("limited") if spec is not None else None
    shares = limited.scalar("nominalConcurrencyShares") if limited is not None else None
    if shares is not None and shares.data in (0, None) and not preserve:
        shares.set(DEFAULT_SHARES)
        ctx.info(
            "K8SM-FC-001",
            f"nominalConcurrencyShares 0 meant the default {DEFAULT_SHARES} in v1beta3; written as "
            f"{DEFAULT_SHARES} (v1 keeps an explicit 0 as 0)",
            shares,
        )
    if preserve and annotations is not None and metadata is not None:
        ctx.info(
            "K8SM-FC-002",
            f"annotation {PRESERVE_ZERO} removed (v1 keeps 0 without it)",
            annotations.get(PRESERVE_ZERO),
        )
        annotations.pop(PRESERVE_ZERO)
        if len(annotations) == 0:
            metadata.pop("annotations")


MIGRATION = Step(
    kinds=("FlowSchema", "PriorityLevelConfiguration"),
    from_api="flowcontrol.apiserver.k8s.io/v1beta3",
    to_api="flowcontrol.apiserver.k8s.io/v1",
    available_in="1.29",
    body=body,
    summary="flowcontrol v1beta3 → v1: the concurrency-shares zero kept meaning what it meant",
    codes=(
        ZERO_SHARES,
        Code("K8SM-FC-002", "info", "the preserve-zero-concurrency-shares annotation removed"),
    ),
)
