"""FlowSchema, PriorityLevelConfiguration ``flowcontrol.apiserver.k8s.io/v1beta1`` → ``v1beta2``.

The two versions have the same fields and defaults (``matchingPrecedence`` 0/unset → 1000,
``assuredConcurrencyShares`` 0/unset → 30, queuing 8/64/50): only ``apiVersion`` changes.
The rename to ``nominalConcurrencyShares`` happens once, in ``flowcontrol_v1beta2``.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("FlowSchema", "PriorityLevelConfiguration"),
    from_api="flowcontrol.apiserver.k8s.io/v1beta1",
    to_api="flowcontrol.apiserver.k8s.io/v1beta2",
    available_in="1.23",
    summary="FlowSchema/PriorityLevelConfiguration flowcontrol v1beta1 → v1beta2 (apiVersion only)",
)
