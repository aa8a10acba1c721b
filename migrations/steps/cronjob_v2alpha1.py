"""CronJob ``batch/v2alpha1`` → ``batch/v1beta1`` (alpha, served only when enabled; removed in 1.21).

The fields are the same. Upstream's ``SetDefaults_CronJob`` for v2alpha1
(``pkg/apis/batch/v2alpha1/defaults.go``) did not default the history limits, so an unset
``successfulJobsHistoryLimit``/``failedJobsHistoryLimit`` kept every finished Job; batch/v1beta1
and batch/v1 keep 3 and 1. k8smigrate pins ``2147483647`` for each absent limit
(K8SM-CJ-002; skipped with ``--adopt-new-defaults``). The next step, ``cronjob_v1beta1``,
goes on to ``batch/v1``.
"""

from __future__ import annotations

from k8smigrate.codes import NEW_DEFAULT, Code
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Mapping

MAX_INT32 = 2147483647


def body(obj: Mapping, ctx: Context) -> None:
    spec = obj.mapping("spec")
    if spec is None:
        return
    why = "batch/v2alpha1 kept every finished Job; batch/v1 keeps {}"
    ctx.pin(spec, "successfulJobsHistoryLimit", MAX_INT32, "K8SM-CJ-002", why.format(3), after="schedule")
    ctx.pin(
        spec,
        "failedJobsHistoryLimit",
        MAX_INT32,
        "K8SM-CJ-002",
        why.format(1),
        after="successfulJobsHistoryLimit",
    )


MIGRATION = Step(
    kinds=("CronJob",),
    from_api="batch/v2alpha1",
    to_api="batch/v1beta1",
    available_in="1.8",
    body=body,
    summary="CronJob batch/v2alpha1 → batch/v1beta1: unlimited job history pinned",
    codes=(
        Code("K8SM-CJ-002", "info", "a history limit pinned to 2147483647 (v2alpha1 kept every Job)"),
        NEW_DEFAULT.with_summary("with --adopt-new-defaults, an old default left unset"),
    ),
)
