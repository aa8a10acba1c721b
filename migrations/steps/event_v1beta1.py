"""Event ``events.k8s.io/v1beta1`` → ``events.k8s.io/v1``.

The two versions have the same fields. What differs is validation on create
(``ValidateEventCreate`` in ``pkg/apis/core/validation/events.go``): v1beta1 creates get
only the legacy checks, v1 creates the strict ones. To make an Event that v1 accepts,
k8smigrate moves the old fields to their v1 homes where those are unset:

- ``deprecatedSource.component`` → ``reportingController``, ``deprecatedSource.host`` →
  ``reportingInstance`` (K8SM-EVT-001);
- ``deprecatedFirstTimestamp`` → ``eventTime`` (K8SM-EVT-002);
- ``deprecatedLastTimestamp`` + ``deprecatedCount`` → ``series: {lastObservedTime, count}``
  when the count is at least 2 (v1 requires ``count >= 2`` in a series); otherwise the two
  are dropped (K8SM-EVT-003).

``eventTime`` and ``series.lastObservedTime`` are ``metav1.MicroTime``, which the API server
parses with ``time.Parse(RFC3339Micro, …)`` (``MicroTime.UnmarshalJSON`` in apimachinery
``pkg/apis/meta/v1/micro_time.go``; ``RFC3339Micro`` is ``2006-01-02T15:04:05.000000Z07:00``),
and Go's parser wants exactly as many fraction digits as the layout has: six. The old fields
are ``metav1.Time`` (``time.RFC3339``: any fraction or none is read, whole seconds are
kept). So the timestamp is written with exactly six digits: ``…00Z`` → ``…00.000000Z``,
``…00.5Z`` → ``…00.500000Z`` (a ``,`` separator, which Go also reads, becomes ``.``), and
more than six digits are cut to six, as ``MicroTime`` marshals them. A timestamp that is not
RFC 3339 is copied as it is.

What is still missing for v1 (``eventTime``, ``action``, ``reason``,
``reportingController``, ``reportingInstance``, a ``type`` of Normal or Warning) is listed
in K8SM-EVT-004: the API server rejects such an Event on create. Events are rarely kept in
manifests; these are best-effort rewrites.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.regexcode import regex
from k8smigrate.tree import Mapping, Scalar

_RFC3339 = regex(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:[.,](\d+))?(Z|[+-]\d\d:\d\d)$")


def micro_time(value: str) -> str:
    """An RFC 3339 timestamp with exactly the six fraction digits ``RFC3339Micro`` parses."""
    match = _RFC3339.match(value)
    if match is None:
        return value
    seconds, fraction, zone = match.groups()
    return f"{seconds}.{((fraction or '') + '000000')[:6]}{zone}"


def body(event: Mapping, ctx: Context) -> None:
    source = event.mapping("deprecatedSource")
    if source is not None:
        after = "deprecatedSource"
        for old, new in (("component", "reportingController"), ("host", "reportingInstance")):
            if old in source and new not in event:
                event.set(new, source.data(old), after=after)
                after = new
                ctx.warn("K8SM-EVT-001", f"deprecatedSource.{old} → {new}", event.get(new))
        event.pop("deprecatedSource")
    first = event.scalar("deprecatedFirstTimestamp")
    if first is not None:
        if "eventTime" not in event and first.data:
            event.set("eventTime", micro_time(str(first.value)), after="deprecatedFirstTimestamp")
            ctx.warn("K8SM-EVT-002", "deprecatedFirstTimestamp → eventTime", event.get("eventTime"))
        event.pop("deprecatedFirstTimestamp")
    move_series(event, ctx)
    check_strict(event, ctx)


def move_series(event: Mapping, ctx: Context) -> None:
    last = event.scalar("deprecatedLastTimestamp")
    count = event.scalar("deprecatedCount")
    if last is None and count is None:
        return
    number = count.data if count is not None else None
    if isinstance(number, int) and number >= 2 and last is not None and last.data and "series" not in event:
        series = Mapping.of({"count": number, "lastObservedTime": micro_time(str(last.value))})
        event.set("series", series, after="deprecatedCount" if count is not None else "deprecatedLastTimestamp")
        ctx.warn("K8SM-EVT-003", "deprecatedLastTimestamp/deprecatedCount → series", series)
    else:
        ctx.warn(
            "K8SM-EVT-003",
            "deprecatedLastTimestamp/deprecatedCount dropped (v1 rejects them on create)",
            last or count,
        )
    event.pop("deprecatedLastTimestamp")
    event.pop("deprecatedCount")


def check_strict(event: Mapping, ctx: Context) -> None:
    missing = [
        k
        for k in ("eventTime", "action", "reason", "reportingController", "reportingInstance")
        if not isinstance(event.get(k), Scalar) or not event.data(k)
    ]
    if event.data("type") not in ("Normal", "Warning"):
        missing.append("type (Normal or Warning)")
    if missing:
        ctx.warn(
            "K8SM-EVT-004",
            f"events.k8s.io/v1 rejects this Event on create: missing {', '.join(missing)}",
            event,
        )


MIGRATION = Step(
    kinds=("Event",),
    from_api="events.k8s.io/v1beta1",
    to_api="events.k8s.io/v1",
    available_in="1.19",
    body=body,
    summary="Event events.k8s.io/v1beta1 → v1: deprecated* fields moved for v1's stricter create checks",
    codes=(
        Code("K8SM-EVT-001", "warning", "deprecatedSource moved to reportingController/reportingInstance"),
        Code("K8SM-EVT-002", "warning", "deprecatedFirstTimestamp moved to eventTime"),
        Code("K8SM-EVT-003", "warning", "deprecatedLastTimestamp/deprecatedCount moved to series, or dropped"),
        Code("K8SM-EVT-004", "warning", "fields v1 requires on create are missing"),
    ),
)
