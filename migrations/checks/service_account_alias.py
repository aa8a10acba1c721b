"""Pod spec ``serviceAccount`` (deprecated alias) → ``serviceAccountName``.

``PodSpec.serviceAccount`` is the Go field ``DeprecatedServiceAccount`` ("Deprecated: Use
serviceAccountName instead", ``core/v1/types.go``). The API server still accepts it: on write
it is used only when ``serviceAccountName`` is empty, and on read it is filled from
``serviceAccountName`` (``Convert_v1_PodSpec_To_core_PodSpec`` in
``pkg/apis/core/v1/conversion.go``). Nothing breaks; the rewrite is clean-up, for any target.
In every pod spec (Pod, workload templates, CronJob job templates) (K8SM-FLD-020):

- without ``serviceAccountName`` the key is renamed, value and comments unchanged;
- beside an equal ``serviceAccountName`` the alias is dropped;
- beside a different one both are kept with a warning: the server uses
  ``serviceAccountName`` and ignores the alias, so nothing breaks, but which one was meant
  is for a human to say (K8SM-FLD-054). A warning, not an error: an error would also hold
  back the document's apiVersion migration for a mismatch the cluster already lives with.
- in a chart template, beside one written by the same action (``{{ template
  "x.serviceAccountName" . }}`` twice), they say the same, but dropping the alias would drop
  that action, which a migration never does: both are kept with an info (K8SM-FLD-067).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import POD_APIS, pod_specs
from k8smigrate.kube.renames import rename_key
from k8smigrate.model import Check
from k8smigrate.templating import placeholders as ph
from k8smigrate.tree import Mapping, Scalar

OLD = "serviceAccount"
NEW = "serviceAccountName"


def body(obj: Mapping, ctx: Context) -> None:
    for _metadata, spec in pod_specs(obj):
        old = spec.get(OLD)
        if not isinstance(old, Scalar):
            continue
        outcome = rename_key(spec, OLD, NEW)
        if outcome == "conflict" and _same_action(old, spec.get(NEW)):
            message = f"{OLD} (deprecated alias) kept: the same template action writes {NEW}; delete it by hand"
            ctx.info("K8SM-FLD-067", message, old)
            continue
        if outcome == "conflict":
            ctx.warn("K8SM-FLD-054", f"{OLD} and {NEW} differ; both kept (the server uses {NEW})", old)
            continue
        why = f"→ {NEW}" if outcome == "renamed" else f"dropped: {NEW} says the same"
        ctx.info("K8SM-FLD-020", f"{OLD} (deprecated alias) {why}", old)
        ctx.note(f"{OLD} → {NEW}")


def _same_action(old: Scalar, new: object) -> bool:
    """Whether both values are one whole template action, with the same text."""
    if not isinstance(new, Scalar) or ph.START not in old.value or ph.START not in new.value:
        return False
    from k8smigrate.templating.values import action_value

    a, b = action_value(old.value), action_value(new.value)
    return a is not None and b is not None and " ".join(a.action.split()) == " ".join(b.action.split())


MIGRATION = Check(
    applies_to=POD_APIS,
    body=body,
    # Only the quoted or block key: "serviceAccountName:" does not contain either string.
    trigger=("serviceAccount:", '"serviceAccount"', "'serviceAccount'"),
    category="removed-field",
    edits=True,
    cleanup=True,
    summary="pod spec serviceAccount (deprecated alias) → serviceAccountName",
    codes=(
        Code("K8SM-FLD-020", "info", "serviceAccount renamed serviceAccountName (or dropped beside an equal one)"),
        Code("K8SM-FLD-054", "warning", "serviceAccount and serviceAccountName differ; both kept"),
        Code("K8SM-FLD-067", "info", "serviceAccount kept beside serviceAccountName: one template action writes both"),
    ),
)
