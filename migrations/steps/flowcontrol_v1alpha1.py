"""FlowSchema, PriorityLevelConfiguration ``flowcontrol.apiserver.k8s.io/v1alpha1`` → ``v1beta1``.

v1alpha1 (alpha, removed in 1.21) and v1beta1 have the same fields and defaults: only
``apiVersion`` changes. The next steps (``flowcontrol_v1beta1``, ``flowcontrol_v1beta2``,
``flowcontrol_v1beta3``) go on to ``v1``.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("FlowSchema", "PriorityLevelConfiguration"),
    from_api="flowcontrol.apiserver.k8s.io/v1alpha1",
    to_api="flowcontrol.apiserver.k8s.io/v1beta1",
    available_in="1.20",
    summary="FlowSchema/PriorityLevelConfiguration flowcontrol v1alpha1 → v1beta1 (apiVersion only)",
)
