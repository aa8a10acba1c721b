"""Admission webhooks ``admissionregistration.k8s.io/v1beta1`` → ``admissionregistration.k8s.io/v1``.

MutatingWebhookConfiguration and ValidatingWebhookConfiguration (and their lists) keep every
field name; what changes is defaulting (``SetDefaults_ValidatingWebhook`` /
``SetDefaults_MutatingWebhook`` in ``pkg/apis/admissionregistration/{v1beta1,v1}/defaults.go``).
In every ``webhooks[]`` entry:

- ``failurePolicy`` absent: v1beta1 meant ``Ignore``, v1 means ``Fail`` (a webhook that is down
  would then block every matching write) → ``failurePolicy: Ignore`` pinned (K8SM-WH-004);
- ``matchPolicy`` absent: v1beta1 ``Exact``, v1 ``Equivalent`` → ``matchPolicy: Exact`` pinned;
- ``timeoutSeconds`` absent: v1beta1 30 s, v1 10 s → ``timeoutSeconds: 30`` pinned;
- ``admissionReviewVersions`` absent or empty: v1beta1 sent ``["v1beta1"]``; v1 has no default
  and requires the field → ``admissionReviewVersions: ["v1beta1"]`` written (K8SM-WH-002), also
  with ``--adopt-new-defaults`` because there is no new default to adopt. A list naming neither
  ``v1`` nor ``v1beta1`` is rejected by v1 (K8SM-WH-005);
- ``sideEffects`` absent, ``Unknown`` or ``Some``: v1 accepts only ``None`` and ``NoneOnDryRun``
  and no value reproduces the old behaviour (dry-run requests were rejected; now the webhook is
  called on them). It is a decision: ``--set sideEffects=None`` (the webhook has no side
  effects) or ``--set sideEffects=NoneOnDryRun`` (it checks ``request.dryRun`` itself). Without
  it the document is left unchanged (K8SM-GEN-010); with it the value is written (K8SM-WH-001).
  The one value applies to every webhook of the run that needs it.

Unchanged defaults are not pinned: ``namespaceSelector`` / ``objectSelector`` ``{}``,
``reinvocationPolicy: Never``, ``rules[].scope: "*"``, ``clientConfig.service.port: 443``.
A key written as ``null`` counts as absent, as it does for the API server. Pinned defaults are
appended at the end of their webhook, in v1 field order.

v1 rejects two webhooks with the same ``name`` in one configuration (K8SM-WH-003; rename by
hand: names appear in metrics, audit logs and error messages).

Helm charts: a ``sideEffects`` or ``admissionReviewVersions`` that a template writes only under a
condition (linkerd's ``{{- if not .Values.omitWebhookSideEffects }}``) is missing from the
renderings where it is false, which v1 rejects: the document is left as it is (K8SM-TPL-017).
A pinned default written only under a condition is kept and said (K8SM-TPL-016).

ValidatingAdmissionPolicy and its Binding share this group version but are other kinds, with
another lifecycle; they are not touched here.
"""

from __future__ import annotations

from k8smigrate.codes import CONDITIONAL_REQUIRED, DECISION_NEEDED, NEW_DEFAULT, Code
from k8smigrate.context import Context
from k8smigrate.decisions import Decision
from k8smigrate.model import Step
from k8smigrate.scalars import Data
from k8smigrate.templating.values import written_under
from k8smigrate.tree import Mapping, Node, Scalar, Sequence

REVIEW_VERSIONS = ("v1", "v1beta1")
ALLOWED_SIDE_EFFECTS = ("None", "NoneOnDryRun")

# (key, v1beta1 default, why it is pinned) in v1 field order; sideEffects sits between them.
PINNED: tuple[tuple[str, Data, str], ...] = (
    ("failurePolicy", "Ignore", "the v1beta1 default; v1 defaults to Fail"),
    ("matchPolicy", "Exact", "the v1beta1 default; v1 defaults to Equivalent"),
)
TIMEOUT = ("timeoutSeconds", 30, "the v1beta1 default; v1 defaults to 10")


def is_unset(node: Node | None) -> bool:
    """Absent or ``null``: the API server sees a nil pointer either way."""
    return node is None or (isinstance(node, Scalar) and node.style is None and node.data is None)


def pin(webhook: Mapping, key: str, value: Data, why: str, ctx: Context) -> None:
    node = webhook.get(key)
    if node is None or not is_unset(node):
        ctx.pin(webhook, key, value, "K8SM-WH-004", why)  # set: kept (said when a template sets it only at times)
    elif is_unset(node):
        if ctx.adopt_new_defaults:
            ctx.info("K8SM-GEN-002", f"{key} left null: {why}", node)
            return
        webhook.set(key, value)
        ctx.info("K8SM-WH-004", f"pinned {key}: {value} ({why})", webhook.get(key))


def current_side_effects(webhook: Mapping) -> Data:
    node = webhook.get("sideEffects")
    return None if is_unset(node) or node is None else node.to_data()


def decide_side_effects(webhooks: list[Mapping], ctx: Context) -> str | bool | None:
    """The chosen sideEffects when some webhook needs one, True when none does, None without a choice."""
    needing = [w for w in webhooks if current_side_effects(w) not in ALLOWED_SIDE_EFFECTS]
    chosen: str | None = None
    for webhook in needing:
        chosen = ctx.decision("sideEffects", webhook.get("sideEffects") or webhook)
    return chosen if needing else True


def set_side_effects(webhook: Mapping, chosen: str, ctx: Context) -> None:
    current = current_side_effects(webhook)
    if current in ALLOWED_SIDE_EFFECTS:
        return
    webhook.set("sideEffects", chosen)
    was = "absent" if current is None else f"{current}"
    ctx.warn(
        "K8SM-WH-001",
        f"sideEffects {was} → {chosen} (--set sideEffects={chosen}); the webhook is now called on dry runs",
        webhook.get("sideEffects"),
    )


def check_review_versions(webhook: Mapping, ctx: Context) -> None:
    node = webhook.get("admissionReviewVersions")
    if is_unset(node) or (isinstance(node, Sequence) and len(node) == 0):
        return
    listed = node.to_data() if node is not None else None
    if not isinstance(listed, list) or not any(v in REVIEW_VERSIONS for v in listed):
        ctx.error(
            "K8SM-WH-005",
            f"admissionReviewVersions {listed!r} names neither v1 nor v1beta1; v1 rejects it on create",
            node,
        )


def write_review_versions(webhook: Mapping, ctx: Context) -> None:
    node = webhook.get("admissionReviewVersions")
    if not (is_unset(node) or (isinstance(node, Sequence) and len(node) == 0)):
        return
    webhook.set("admissionReviewVersions", Sequence.of([Scalar.of("v1beta1", style='"')], flow=True))
    ctx.info(
        "K8SM-WH-002",
        'admissionReviewVersions: ["v1beta1"] written (what v1beta1 sent; v1 requires the field); '
        "add v1 once the webhook answers v1 AdmissionReviews",
        webhook.get("admissionReviewVersions"),
    )


def conditional_required(webhook: Mapping, ctx: Context) -> None:
    """sideEffects and admissionReviewVersions that a chart writes only under a condition
    (linkerd's ``{{- if not .Values.omitWebhookSideEffects }}``): v1 requires both, so the
    rendering where the condition is false is an object the API server rejects."""
    for key in ("sideEffects", "admissionReviewVersions"):
        condition = written_under(webhook.entry(key))
        if condition is not None:
            ctx.error(
                CONDITIONAL_REQUIRED.code,
                f"{key} is written only under {condition}: v1 requires it in every rendering (v1beta1 "
                "defaulted it); write it in every case, then migrate",
                webhook.get(key),
            )


def duplicate_names(webhooks: list[Mapping], ctx: Context) -> None:
    seen: set[str] = set()
    for webhook in webhooks:
        name = webhook.get("name")
        value = name.to_data() if name is not None else None
        if not isinstance(value, str):
            continue
        if value in seen:
            ctx.error(
                "K8SM-WH-003",
                f"webhook name {value!r} is used twice; v1 requires unique names: rename one by hand",
                name,
            )
        seen.add(value)


def body(config: Mapping, ctx: Context) -> None:
    found = config.sequence("webhooks")
    webhooks = [w for _i, w in found.mappings()] if found is not None else []
    # Everything that needs a human is reported first, before any edit.
    duplicate_names(webhooks, ctx)
    for webhook in webhooks:
        check_review_versions(webhook, ctx)
        conditional_required(webhook, ctx)
    chosen = decide_side_effects(webhooks, ctx)
    if ctx.failed or chosen is None:
        return
    for webhook in webhooks:
        for key, value, why in PINNED:
            pin(webhook, key, value, why, ctx)
        if isinstance(chosen, str):
            set_side_effects(webhook, chosen, ctx)
        pin(webhook, *TIMEOUT, ctx)
        write_review_versions(webhook, ctx)


MIGRATION = Step(
    kinds=("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"),
    from_api="admissionregistration.k8s.io/v1beta1",
    to_api="admissionregistration.k8s.io/v1",
    available_in="1.16",
    body=body,
    summary="Admission webhooks v1beta1 → v1: old defaults pinned, sideEffects decided",
    codes=(
        Code("K8SM-WH-001", "warning", "sideEffects absent/Unknown/Some set to the --set sideEffects value"),
        Code("K8SM-WH-002", "info", 'admissionReviewVersions: ["v1beta1"] written (required in v1)'),
        Code("K8SM-WH-003", "error", "two webhooks with the same name in one configuration"),
        Code("K8SM-WH-004", "info", "failurePolicy: Ignore, matchPolicy: Exact or timeoutSeconds: 30 pinned"),
        Code("K8SM-WH-005", "error", "admissionReviewVersions names neither v1 nor v1beta1"),
        NEW_DEFAULT.with_summary("--adopt-new-defaults: a v1beta1 default left unset, the v1 default applies"),
        DECISION_NEEDED.with_summary("sideEffects needs a decision (--set sideEffects=None|NoneOnDryRun)"),
    ),
    decisions=(
        Decision(
            "sideEffects",
            ALLOWED_SIDE_EFFECTS,
            "v1 requires sideEffects None or NoneOnDryRun. None: the webhook has no side effects "
            "(it is now also called on dry-run requests). NoneOnDryRun: it has side effects but skips "
            "them when request.dryRun is true.",
        ),
    ),
)
