"""PodSecurityPolicy ``extensions/v1beta1`` → ``policy/v1beta1`` (only for targets before 1.25).

The two versions have the same fields: only ``apiVersion`` changes. ``policy/v1beta1`` is
itself removed in 1.25, together with the PodSecurityPolicy admission controller, and
PodSecurityPolicy has **no replacement API**. For a target of 1.25 or later nothing is
rewritten and nothing is deleted: every PodSecurityPolicy document gets an error finding
(K8SM-GEN-007 or K8SM-GEN-009) that says what to do instead: enforce Pod Security
Admission with the namespace labels ``pod-security.kubernetes.io/enforce`` (``privileged``,
``baseline`` or ``restricted``, plus ``audit``/``warn``), or use a policy webhook, then
delete the PodSecurityPolicy and the RBAC rules that grant ``use`` on it. The mapping from
PodSecurityPolicy fields to the three levels: ``k8smigrate explain podsecuritypolicy``
(docs/podsecuritypolicy.md).
"""

from k8smigrate.codes import REMOVED_API, REPLACEMENT_UNAVAILABLE
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("PodSecurityPolicy",),
    from_api="extensions/v1beta1",
    to_api="policy/v1beta1",
    available_in="1.10",
    summary="PodSecurityPolicy extensions/v1beta1 → policy/v1beta1 (targets < 1.25; no replacement after)",
    codes=(
        REMOVED_API.with_summary("PodSecurityPolicy is removed at the target (1.25+) and has no replacement"),
        REPLACEMENT_UNAVAILABLE.with_summary(
            "extensions/v1beta1 PodSecurityPolicy at 1.25+: policy/v1beta1 is not served either"
        ),
    ),
)
