"""CronJob ``batch/v1beta1`` → ``batch/v1``.

The two versions have the same fields (``jobTemplate.spec`` is the batch/v1 JobSpec in
both) and the same defaults (``concurrencyPolicy: Allow``, ``suspend: false``,
``successfulJobsHistoryLimit: 3``, ``failedJobsHistoryLimit: 1``): only ``apiVersion``
changes.

A ``CRON_TZ=`` or ``TZ=`` prefix in ``spec.schedule`` was never officially supported;
``spec.timeZone`` (GA in 1.27) is the supported way, and current API servers reject a
schedule containing ``TZ`` on create (upstream ``validateScheduleFormat``: "cannot use TZ or
CRON_TZ in schedule, use timeZone field instead"; only updates of an object that already had
it pass). K8SM-CJ-001 suggests the move; the schedule is not rewritten, because
``timeZone`` is not served by every release of a window that starts before 1.24.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.regexcode import regex
from k8smigrate.tree import Mapping

_TZ_PREFIX = regex(r"^\s*(CRON_TZ|TZ)=(\S+)\s")


def body(obj: Mapping, ctx: Context) -> None:
    spec = obj.mapping("spec")
    schedule = spec.scalar("schedule") if spec is not None else None
    if schedule is None or not isinstance(schedule.data, str):
        return
    match = _TZ_PREFIX.match(schedule.data)
    if match:
        ctx.warn(
            "K8SM-CJ-001",
            f"schedule has a {match.group(1)}= prefix, which current API servers reject on create; "
            f"use spec.timeZone: {match.group(2)} and drop the prefix",
            schedule,
        )


MIGRATION = Step(
    kinds=("CronJob",),
    from_api="batch/v1beta1",
    to_api="batch/v1",
    available_in="1.21",
    body=body,
    summary="CronJob batch/v1beta1 → batch/v1 (apiVersion only)",
    codes=(Code("K8SM-CJ-001", "warning", "a CRON_TZ=/TZ= prefix in schedule; use spec.timeZone"),),
)
