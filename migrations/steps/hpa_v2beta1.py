"""HorizontalPodAutoscaler ``autoscaling/v2beta1`` → ``autoscaling/v2``.

Metric sources are restructured as upstream's conversions in
``pkg/apis/autoscaling/v2beta1/conversion.go`` do (``Convert_v2beta1_*MetricSource_To_autoscaling_*``):

- ``resource``/``containerResource``: ``targetAverageUtilization: N`` →
  ``target: {type: Utilization, averageUtilization: N}``; otherwise ``targetAverageValue: Q``
  → ``target: {type: AverageValue, averageValue: Q}``.
- ``pods``: ``metricName``/``selector`` → ``metric: {name, selector}``; ``targetAverageValue``
  → ``target: {type: AverageValue, averageValue}``.
- ``object``: the trap: v2beta1 ``object.target`` is the *described object* reference, v2
  ``object.target`` is the metric target. The reference is renamed ``describedObject`` first;
  then ``metricName``/``selector`` → ``metric``, and ``averageValue`` (when set) →
  ``target: {type: AverageValue, averageValue}``, else ``targetValue`` →
  ``target: {type: Value, value}``.
- ``external``: ``metricName``/``metricSelector`` → ``metric: {name, selector}``;
  ``targetValue`` (when set) → ``target: {type: Value, value}``, else ``targetAverageValue`` →
  ``target: {type: AverageValue, averageValue}``.

Upstream also carries the quantity that does not match ``type`` (for example ``value``
beside ``type: AverageValue``); only the one that ``type`` uses is written, and a source
with both is reported (K8SM-HPA-002). Keys keep their comments when renamed.

``spec.behavior`` has no field in v2beta1; upstream round-trips it through the annotation
``autoscaling.alpha.kubernetes.io/behavior`` (JSON). That annotation becomes
``spec.behavior`` (K8SM-HPA-003), and the other round-trip annotations upstream drops
(``…/metrics``, ``…/current-metrics``, ``…/conditions``) are removed (K8SM-HPA-004).
``status`` has a different shape in v2 and is dropped (K8SM-HPA-005). Defaults are the
same in both versions (``minReplicas: 1``; no metrics means CPU utilization 80%; behavior
defaults apply only when ``behavior`` is set), so nothing is pinned.

A metric without the fields its type needs cannot be converted (K8SM-HPA-001), nor can metrics
a chart's template action writes (``{{- toYaml .Values.autoscaling.metrics | nindent 4 }}``,
K8SM-HPA-007): their v2beta1 fields are in the values, which the step does not see. A
``scaleTargetRef.apiVersion`` whose group no longer serves the kind at the target
(``extensions/v1beta1`` Deployment, …) is reported (K8SM-HPA-006): the HPA controller looks
its target up by group and kind only (``reconcileAutoscaler`` in
``pkg/controller/podautoscaler/horizontal.go``), so the HPA stops scaling; it is not rewritten.
A removed version of a group that still serves the kind (``apps/v1beta1``, ``apps/v1beta2``)
keeps working and is left alone.
"""

from __future__ import annotations

import json

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.autoscaling import STATUS_DROPPED, TARGET_REMOVED, check_scale_target
from k8smigrate.model import Step
from k8smigrate.scalars import Data
from k8smigrate.templating.placeholders import holds_placeholder, opened_by_action
from k8smigrate.tree import Entry, Mapping, Node, Scalar

ANNOTATION_PREFIX = "autoscaling.alpha.kubernetes.io/"
BEHAVIOR = ANNOTATION_PREFIX + "behavior"
DROPPED = tuple(ANNOTATION_PREFIX + n for n in ("metrics", "current-metrics", "conditions"))


def body(hpa: Mapping, ctx: Context) -> None:
    spec = hpa.mapping("spec")
    check_scale_target(spec, ctx)
    if spec is not None:
        metrics = spec.sequence("metrics")
        if metrics is not None and opened_by_action(spec.entry("metrics")):
            templated_metrics(metrics, ctx)
        for item in metrics.items if metrics is not None else []:
            if isinstance(item.value, Mapping):
                convert_metric(item.value, ctx)
            elif isinstance(item.value, Scalar) and holds_placeholder(item.value.value):
                templated_metrics(item.value, ctx)
    if ctx.failed:
        return
    lift_behavior(hpa, spec, ctx)
    if "status" in hpa:
        ctx.info(
            "K8SM-HPA-005",
            "status dropped: its shape differs in autoscaling/v2 (the server rebuilds it)",
            hpa.get("status"),
        )
        hpa.pop("status")


def templated_metrics(node: Node, ctx: Context) -> None:
    ctx.error(
        "K8SM-HPA-007",
        "metrics written by a template action: their autoscaling/v2beta1 fields (targetAverageUtilization, …) "
        "cannot be converted here; write them in the autoscaling/v2 shape (target: {type, averageUtilization}) "
        "where the action takes them from",
        node,
    )


def convert_metric(metric: Mapping, ctx: Context) -> None:
    for key in ("resource", "containerResource"):
        source = metric.mapping(key)
        if source is not None:
            target_from(
                source,
                ctx,
                ("targetAverageUtilization", "Utilization", "averageUtilization"),
                ("targetAverageValue", "AverageValue", "averageValue"),
            )
    pods = metric.mapping("pods")
    if pods is not None:
        metric_identifier(pods, "selector")
        target_from(pods, ctx, ("targetAverageValue", "AverageValue", "averageValue"))
    obj = metric.mapping("object")
    if obj is not None:
        reference = obj.mapping("target")
        if reference is not None and "describedObject" not in obj:
            obj.rename("target", "describedObject")
        metric_identifier(obj, "selector")
        target_from(obj, ctx, ("averageValue", "AverageValue", "averageValue"), ("targetValue", "Value", "value"))
    external = metric.mapping("external")
    if external is not None:
        metric_identifier(external, "metricSelector")
        target_from(
            external,
            ctx,
            ("targetValue", "Value", "value"),
            ("targetAverageValue", "AverageValue", "averageValue"),
        )


def metric_identifier(source: Mapping, selector_key: str) -> None:
    """``metricName`` + ``selector_key`` → ``metric: {name, selector}``, at the first one's place."""
    if "metricName" not in source:
        return
    at = min(i for i in (source.index("metricName"), source.index(selector_key)) if i is not None)
    identifier = Mapping()
    for old, new in (("metricName", "name"), (selector_key, "selector")):
        entry = source.pop(old)
        if entry is not None:
            entry.key = Scalar(new)
            entry.renamed = True
            identifier.insert(entry)
    source.insert(Entry(Scalar("metric"), identifier), at=at)


def target_from(source: Mapping, ctx: Context, *choices: tuple[str, str, str]) -> None:
    """Build ``target: {type, <field>}`` from the first old key present, in the order of ``choices``."""
    if isinstance(source.get("target"), Mapping) and all(old not in source for old, _t, _n in choices):
        return  # already converted
    present = [c for c in choices if c[0] in source]
    if not present:
        ctx.error("K8SM-HPA-001", "metric has no target value to convert", source)
        return
    old, kind, new = present[0]
    at = min(i for i in (source.index(c[0]) for c in present) if i is not None)
    target = Mapping()
    target.set("type", kind)
    entry = source.pop(old)
    assert entry is not None
    entry.key = Scalar(new)
    entry.renamed = True
    target.insert(entry)
    for other, _kind, _new in present[1:]:
        dropped = source.pop(other)
        assert dropped is not None
        ctx.warn(
            "K8SM-HPA-002",
            f"{old} and {other} are both set; {kind} uses {old} only, {other} dropped",
            dropped.value,
        )
    source.insert(Entry(Scalar("target"), target), at=at)
    ctx.note(f"{old} → target.{new} (type {kind})")


def lift_behavior(hpa: Mapping, spec: Mapping | None, ctx: Context) -> None:
    metadata = hpa.mapping("metadata")
    annotations = metadata.mapping("annotations") if metadata is not None else None
    if annotations is None or metadata is None:
        return
    raw = annotations.scalar(BEHAVIOR)
    if raw is not None and spec is not None and "behavior" not in spec:
        behavior = parse_behavior(raw.data)
        if behavior:
            spec.set("behavior", behavior)
            ctx.info("K8SM-HPA-003", f"annotation {BEHAVIOR} lifted into spec.behavior", spec.get("behavior"))
        else:
            ctx.warn(
                "K8SM-HPA-004",
                f"annotation {BEHAVIOR} is not a valid behavior; dropped as upstream does",
                raw,
            )
        annotations.pop(BEHAVIOR)
    for key in DROPPED:
        if key in annotations:
            ctx.warn("K8SM-HPA-004", f"round-trip annotation {key} dropped, as upstream does", annotations.get(key))
            annotations.pop(key)
    if len(annotations) == 0:
        metadata.pop("annotations")


_BEHAVIOR_KEYS = {
    k.lower(): k
    for k in (
        "scaleUp",
        "scaleDown",
        "stabilizationWindowSeconds",
        "selectPolicy",
        "policies",
        "type",
        "value",
        "periodSeconds",
        "tolerance",
    )
}


def parse_behavior(text: object) -> dict[str, Data] | None:
    """The annotation's JSON with lower-camel keys (upstream writes Go field names; Go reads either)."""
    try:
        data = json.loads(str(text))
    except ValueError:
        return None

    def fix(value: Data) -> Data:
        if isinstance(value, dict):
            out: dict[str, Data] = {}
            for k, v in value.items():
                name = _BEHAVIOR_KEYS.get(str(k).lower())
                if name is None:
                    raise ValueError(k)
                if v is not None:
                    out[name] = fix(v)
            return out
        if isinstance(value, list):
            return [fix(v) for v in value]
        return value

    try:
        fixed = fix(data)
    except ValueError:
        return None
    return fixed if isinstance(fixed, dict) and fixed else None


MIGRATION = Step(
    kinds=("HorizontalPodAutoscaler",),
    from_api="autoscaling/v2beta1",
    to_api="autoscaling/v2",
    available_in="1.23",
    body=body,
    summary="HPA autoscaling/v2beta1 → v2: metric targets restructured, status dropped",
    codes=(
        Code("K8SM-HPA-001", "error", "a metric without the target value its type needs"),
        Code("K8SM-HPA-002", "warning", "two target quantities set; only the one the type uses is kept"),
        Code("K8SM-HPA-003", "info", "the behavior annotation lifted into spec.behavior"),
        Code("K8SM-HPA-004", "warning", "a round-trip annotation (or an unreadable behavior annotation) dropped"),
        Code("K8SM-HPA-007", "error", "metrics written by a template action, whose v2beta1 fields cannot be converted"),
        STATUS_DROPPED,
        TARGET_REMOVED,
    ),
)
