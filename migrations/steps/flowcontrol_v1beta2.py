"""FlowSchema, PriorityLevelConfiguration ``flowcontrol.apiserver.k8s.io/v1beta2`` → ``v1beta3``.

FlowSchema changes only its ``apiVersion``. In PriorityLevelConfiguration,
``spec.limited.assuredConcurrencyShares`` is renamed ``nominalConcurrencyShares`` (upstream
conversion copies the value; comments stay with the key).

The zero trap: v1beta2 defaulted ``assuredConcurrencyShares: 0`` to 30
(``pkg/apis/flowcontrol/v1beta2/defaults.go``), while v1 keeps an explicit 0 as 0, a level
that can run nothing on its own. A literal 0 is therefore written as 30, the value the
server actually used (K8SM-FC-001). An absent value stays absent: every version defaults
it to 30.
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS
from k8smigrate.context import Context
from k8smigrate.kube.flowcontrol import DEFAULT_SHARES, ZERO_SHARES
from k8smigrate.model import Step
from k8smigrate.tree import Mapping


def body(obj: Mapping, ctx: Context) -> None:
    spec = obj.mapping("spec")
    limited = spec.mapping("limited") if spec is not None else None
    if limited is None or "assuredConcurrencyShares" not in limited:
        return
    if "nominalConcurrencyShares" in limited:
        ctx.error(
            "K8SM-GEN-003",
            "spec.limited has both assuredConcurrencyShares and nominalConcurrencyShares",
            limited,
        )
        return
    limited.rename("assuredConcurrencyShares", "nominalConcurrencyShares")
    ctx.note("spec.limited.assuredConcurrencyShares → nominalConcurrencyShares")
    shares = limited.scalar("nominalConcurrencyShares")
    if shares is not None and shares.data in (0, None):
        shares.set(DEFAULT_SHARES)
        ctx.info(
            "K8SM-FC-001",
            f"assuredConcurrencyShares {shares.value or 0!s} meant the default {DEFAULT_SHARES}; "
            f"written as nominalConcurrencyShares: {DEFAULT_SHARES} (v1 keeps an explicit 0 as 0)",
            shares,
        )


MIGRATION = Step(
    kinds=("FlowSchema", "PriorityLevelConfiguration"),
    from_api="flowcontrol.apiserver.k8s.io/v1beta2",
    to_api="flowcontrol.apiserver.k8s.io/v1beta3",
    available_in="1.26",
    body=body,
    summary="flowcontrol v1beta2 → v1beta3: assuredConcurrencyShares → nominalConcurrencyShares",
    codes=(
        ZERO_SHARES,
        BOTH_FORMS.with_summary("both assuredConcurrencyShares and nominalConcurrencyShares are set"),
    ),
)
