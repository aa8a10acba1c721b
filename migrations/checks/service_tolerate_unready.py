"""Service ``tolerate-unready-endpoints`` annotation (gone in 1.24) → ``spec.publishNotReadyAddresses``.

Deprecated in 1.11 for ``spec.publishNotReadyAddresses`` (kubernetes PR #63742) and removed
from the Endpoints controller in 1.24 (PR #108020; the EndpointSlice controller never read
it): the annotation is then silently ignored. For targets from 1.24 on, on a Service, a
value that Go's ``strconv.ParseBool`` reads as true becomes ``spec.publishNotReadyAddresses:
true``; false is only deleted (K8SM-FLD-015). A true annotation beside
``publishNotReadyAddresses: false`` is an error (K8SM-FLD-040); a value that is not a
boolean was ignored by the controller and is deleted with a warning (K8SM-FLD-041).

In a Helm chart, an annotation written by one action that is a plain ``.Values`` path with a
boolean default (``"{{ .Values.tolerateUnreadyEndpoints }}"``) moves to
``spec.publishNotReadyAddresses`` as that action, unquoted: it renders the boolean the
install's values give, as the annotation did (K8SM-FLD-015). Any other templated value is
left for a human (deleting it would lose the action: K8SM-TPL-003). An annotation the field
already says, alone below ``annotations: {{- toYaml … | nindent 4 }}``, is kept (nothing to
gain, and bitnami's postgresql writes it where a false condition makes it a label).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.feature_gates import parse_bool
from k8smigrate.kube.podspec import child, drop_annotation
from k8smigrate.model import Check
from k8smigrate.templating.placeholders import holds_placeholder, opened_by_action
from k8smigrate.tree import Mapping, Scalar

KEY = "service.alpha.kubernetes.io/tolerate-unready-endpoints"


def body(service: Mapping, ctx: Context) -> None:
    metadata = service.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    node = notes.get(KEY) if notes is not None else None
    if metadata is None or not isinstance(node, Scalar):
        return
    value = _as_bool(node.data)
    spec = child(service, "spec")
    if spec is None:
        return
    current = spec.data("publishNotReadyAddresses")
    if holds_placeholder(node.value) and current is None and _templated(node, metadata, spec, ctx):
        return
    if value and current is False:
        ctx.error("K8SM-FLD-040", f"annotation {KEY}: true, but spec.publishNotReadyAddresses is false", node)
        return
    if value is None:
        ctx.warn(
            "K8SM-FLD-041",
            f"annotation {KEY}: {node.value!r} is not a boolean (it was ignored); deleted",
            node,
        )
    elif value and current is None:
        ctx.info(
            "K8SM-FLD-015",
            f"annotation {KEY} (ignored from 1.24) → spec.publishNotReadyAddresses: true",
            node,
        )
        spec.set("publishNotReadyAddresses", True)
    else:
        why = "spec.publishNotReadyAddresses: true already says it" if value else "false is the default"
        if notes is not None and len(notes.entries) == 1 and opened_by_action(metadata.entry("annotations")):
            # the action on the annotations line writes the others; where it is under a condition
            # (bitnami's postgresql), this line may be a label in some renderings: nothing to gain
            ctx.info("K8SM-FLD-015", f"annotation {KEY} (ignored from 1.24) kept below its action; {why}", node)
            return
        ctx.info("K8SM-FLD-015", f"annotation {KEY} (ignored from 1.24) deleted; {why}", node)
    drop_annotation(metadata, KEY)
    ctx.note(f"{KEY} → spec.publishNotReadyAddresses")


def _as_bool(data: object) -> bool | None:
    """What Go's ``strconv.ParseBool`` reads in the value (a YAML boolean as Go prints it)."""
    return parse_bool(str(data).lower() if isinstance(data, bool) else str(data))


def _templated(node: Scalar, metadata: Mapping, spec: Mapping, ctx: Context) -> bool:
    """A chart's annotation written by one action (``"{{ .Values.tolerate }}"``) whose values.yaml
    default is a boolean: the action moves to the field, unquoted, so it renders the boolean
    whatever the install sets; False (nothing done) when its value is not known."""
    from k8smigrate.templating.values import action_value

    found = action_value(node.value)
    default = found.value if found is not None and found.known else None
    if _as_bool(default) is None:
        return False
    spec.set("publishNotReadyAddresses", Scalar(node.value))
    drop_annotation(metadata, KEY)
    ctx.info(
        "K8SM-FLD-015",
        f"annotation {KEY} (ignored from 1.24) → spec.publishNotReadyAddresses: the template action, unquoted, "
        f"renders the boolean (the chart's default: {default!r} from {found.source if found else ''})",
        node,
    )
    ctx.note(f"{KEY} → spec.publishNotReadyAddresses")
    return True


MIGRATION = Check(
    applies_to={"v1": ("Service",)},
    body=body,
    matters_from="1.24",
    trigger="service.alpha.kubernetes.io/tolerate-unready-endpoints",
    category="annotation",
    edits=True,
    summary="Service tolerate-unready-endpoints annotation (ignored from 1.24) → publishNotReadyAddresses",
    codes=(
        Code("K8SM-FLD-015", "info", "tolerate-unready-endpoints moved to spec.publishNotReadyAddresses"),
        Code("K8SM-FLD-040", "error", "the annotation says true and spec.publishNotReadyAddresses says false"),
        Code("K8SM-FLD-041", "warning", "a tolerate-unready-endpoints value that is not a boolean, deleted"),
    ),
)
