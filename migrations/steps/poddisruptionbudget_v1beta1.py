"""PodDisruptionBudget ``policy/v1beta1`` → ``policy/v1``.

The fields are the same; the meaning of an empty selector is not. Follows upstream's
``Convert_v1beta1_PodDisruptionBudget_To_policy_PodDisruptionBudget``
(``pkg/apis/policy/v1beta1/conversion.go``) and the selectors of ``pkg/apis/policy/helper.go``:

- ``selector: {}`` (also ``{matchLabels: {}}`` or ``{matchExpressions: []}``: upstream
  compares semantically) selected **no** pods in v1beta1 and selects **all** pods of the
  namespace in v1. It becomes upstream's match-none selector, exactly what the API server
  stores for such a PDB::

      selector:
        matchExpressions:
        - key: pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match
          operator: Exists

  (K8SM-PDB-001: it matches nothing only while no pod has that label; write a real
  selector or delete the PDB).
- The v1beta1 match-all sentinel (that key with ``operator: DoesNotExist`` alone) becomes
  ``{}`` (K8SM-PDB-002).
- In any other selector, requirements on that key are removed, as upstream's
  ``StripPDBV1beta1Label`` does (K8SM-PDB-003).

An absent or null selector selects no pods in both versions and is left alone. A selector that
template actions write entirely from values (istio's ``matchLabels:`` then ``{{ .Values.labels |
toYaml | indent 6 }}``; not an ``include`` of the chart's selector labels) may render empty,
which then selects every pod in policy/v1 (K8SM-PDB-004).
``minAvailable``, ``maxUnavailable`` and ``unhealthyPodEvictionPolicy`` are unchanged.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.templating import placeholders as ph
from k8smigrate.tree import Mapping, Scalar, Sequence

PDB_V1BETA1_LABEL = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match"


def _is_empty(selector: Mapping) -> bool:
    keys = selector.keys()
    return all(k in ("matchLabels", "matchExpressions") for k in keys) and not any(selector.data(k) for k in keys)


def _requirement(selector: Mapping, operator: str) -> bool:
    """True when the selector is exactly one requirement ``{key: <label>, operator: <operator>}``."""
    data = selector.to_data()
    assert isinstance(data, dict)
    if data.get("matchLabels") or set(data) - {"matchLabels", "matchExpressions"}:
        return False
    return data.get("matchExpressions") == [{"key": PDB_V1BETA1_LABEL, "operator": operator}]


def body(pdb: Mapping, ctx: Context) -> None:
    spec = pdb.mapping("spec")
    selector = spec.mapping("selector") if spec is not None else None
    if spec is None or selector is None:
        return
    if _is_empty(selector):
        none = Mapping.of({"matchExpressions": [{"key": PDB_V1BETA1_LABEL, "operator": "Exists"}]})
        spec.set("selector", none)
        ctx.warn(
            "K8SM-PDB-001",
            "selector {} selected no pods in policy/v1beta1 but selects every pod in policy/v1; "
            "rewritten to upstream's match-none selector. Write a real selector, or delete this PDB",
            none,
        )
        ctx.note("spec.selector {} → match-none selector")
    elif _requirement(selector, "DoesNotExist"):
        spec.set("selector", Mapping.of({}, flow=True))
        ctx.info(
            "K8SM-PDB-002",
            "v1beta1 match-all selector rewritten to {} (match all in policy/v1)",
            spec.get("selector"),
        )
        ctx.note("spec.selector match-all sentinel → {}")
    else:
        if _written_by_actions(selector):
            ctx.warn(
                "K8SM-PDB-004",
                "the selector is written by template actions only: where they render it empty, policy/v1 "
                "selects every pod of the namespace (policy/v1beta1 selected none); give it a label that "
                "is always there, or do not render the PDB then",
                selector,
            )
        strip_label(selector, ctx)


def _written_by_actions(selector: Mapping) -> bool:
    """Whether every label and requirement of the selector comes from values through a template
    action (``toYaml .Values.…``): an ``include`` of the chart's selector labels writes fixed ones."""
    literal = actions = 0
    for entry in selector.entries:
        if ph.holds_placeholder(entry.name):
            if not _values_dump(entry.name):
                return False
            actions += 1
            continue
        value = entry.value
        parts = (
            [(e.name, e.value) for e in value.entries]
            if isinstance(value, Mapping)
            else [("", i.value) for i in value.items]
            if isinstance(value, Sequence)
            else [("", value)]
        )
        for key, node in parts:
            written = key if ph.holds_placeholder(key) else ""
            if not key and isinstance(node, Scalar) and ph.holds_placeholder(node.value):
                written = node.value
            if written and not _values_dump(written):
                return False  # a define's labels, a literal key with an action's value: there
            if written:
                actions += 1  # entries or items an action writes from values
            elif key or not (isinstance(node, Scalar) and node.data is None):
                literal += 1
    return actions > 0 and literal == 0


def _values_dump(text: str) -> bool:
    """Whether the action behind a placeholder writes values as they are (``toYaml .Values.x``)."""
    from k8smigrate.templating.values import action_value

    found = ph.CODE.search(text)
    action = action_value(found.group()) if found is not None else None
    source = action.action if action is not None else ""
    return ".Values" in source and not any(word in source for word in ("include", "template", "tpl"))


def strip_label(selector: Mapping, ctx: Context) -> None:
    expressions = selector.sequence("matchExpressions")
    if expressions is None:
        return
    doomed = [i for i, m in expressions.mappings() if m.data("key") == PDB_V1BETA1_LABEL]
    if not doomed:
        return
    kept = Sequence(flow=expressions.flow)
    for i, item in enumerate(expressions.items):
        if i not in doomed:
            kept.insert(item)
    if len(kept):
        selector.set("matchExpressions", kept)
    else:
        selector.pop("matchExpressions")
    ctx.warn(
        "K8SM-PDB-003",
        f"requirement on {PDB_V1BETA1_LABEL} removed from the selector, as the API server does",
        selector,
    )


MIGRATION = Step(
    kinds=("PodDisruptionBudget",),
    from_api="policy/v1beta1",
    to_api="policy/v1",
    available_in="1.21",
    body=body,
    summary="PodDisruptionBudget policy/v1beta1 → v1: empty selector kept selecting no pods",
    codes=(
        Code("K8SM-PDB-001", "warning", "selector {} rewritten to the match-none selector"),
        Code("K8SM-PDB-002", "info", "the v1beta1 match-all selector rewritten to {}"),
        Code("K8SM-PDB-003", "warning", "a requirement on the v1beta1 empty-selector label removed"),
        Code("K8SM-PDB-004", "warning", "a selector written only by template actions, which may render empty"),
    ),
)
