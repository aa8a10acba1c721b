"""CustomResourceDefinition ``apiextensions.k8s.io/v1beta1`` → ``apiextensions.k8s.io/v1``.

Follows upstream's ``Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_…`` and
``Convert_apiextensions_CustomResourceConversion_To_v1_…`` (``v1/conversion.go``) after
v1beta1 defaulting (``v1beta1/defaults.go``), so that the CRD behaves as it did:

- ``spec.version`` becomes ``spec.versions: [{name, served: true, storage: true}]``; beside a
  ``versions`` list it is dropped. When it does not name ``versions[0]`` (v1beta1 validation
  rejected that) but names another listed version, the list wins (K8SM-CRD-013); when it names
  no listed version the CRD is left alone (K8SM-CRD-010).
- Top-level ``validation`` (as ``schema``), ``subresources``, ``additionalPrinterColumns`` and
  ``selectableFields`` go into every version: the original block, with its comments, moves to
  ``versions[0]`` (re-indented, nothing else in it changes); the other versions get copies
  without comments. ``JSONPath`` → ``jsonPath`` in every printer column, per-version ones too.
- ``spec.conversion.webhookClientConfig`` → ``spec.conversion.webhook.clientConfig`` and
  ``conversionReviewVersions`` → ``webhook.conversionReviewVersions``, pinned to ``[v1beta1]``
  where v1beta1 defaulted it (K8SM-CRD-012): the webhook keeps receiving v1beta1
  ConversionReviews. With a strategy other than ``Webhook`` those settings are dropped
  (K8SM-CRD-011), as v1 rejects them; ``Webhook`` without a client config is K8SM-CRD-014.
- ``scope: Namespaced`` is written where it was defaulted (required in v1; K8SM-CRD-016).
- ``preserveUnknownFields``: v1beta1 defaulted it to ``true`` (nothing pruned); v1 rejects
  ``true``. Unset or ``true``: the key goes and ``x-kubernetes-preserve-unknown-fields: true``
  is added to the schema root and to every ``type: object`` node at any depth, including
  ``additionalProperties`` schemas and array items; ``additionalProperties: true`` becomes
  ``{x-kubernetes-preserve-unknown-fields: true}`` (dropped beside ``properties``, where v1
  allows no schema). Root-only is not equivalent: the pruning algorithm
  (``pkg/apiserver/schema/pruning/algorithm.go``) still recurses into declared children and
  empties their unknown fields (K8SM-CRD-002); the key's comments go to the root's extension.
  ``false`` (the v1 default, still accepted by v1) is kept as written.
  A version without a schema gets ``{type: object, x-kubernetes-preserve-unknown-fields:
  true}`` (K8SM-CRD-001). ``--adopt-new-defaults`` skips the injection (K8SM-GEN-002).
- Structural schemas (required in v1): a missing ``type`` is added where it can be inferred
  (``object`` at the root and beside ``properties``, ``array`` beside ``items``), each repair
  listed with its path (K8SM-CRD-003). Any other violation of
  ``pkg/apiserver/schema/validation.go`` is K8SM-CRD-004, listing every one; the document
  is left untouched.
- YAML aliases and merge keys in a schema are read as the API server reads them: every place
  an alias stands for is checked and repaired on its own (the engine expands them, see
  ``k8smigrate/sharing.py``). When the places sharing a node get the same edits (a version's
  ``schema`` aliasing another version's), the alias is kept; when they would differ, the CRD
  is left unchanged with K8SM-GEN-017 (write the alias out).
- Groups ``k8s.io``, ``kubernetes.io`` and their subdomains need the annotation
  ``api-approved.kubernetes.io`` in v1 (K8SM-CRD-020).
- ``CustomResourceDefinitionList`` items migrate one by one.

Settings (``--set NAME=VALUE``):

- ``crdPreserve=all`` (default) or ``root``: ``root`` adds the extension on the schema root
  only, accepting that nested unknown fields are pruned from then on.
- ``crdCopies=copy`` (default) or ``anchors`` (the ``--yaml-anchors`` option of the design):
  ``anchors`` writes each moved block once, in ``versions[0]``, with an anchor (``&schema``,
  ``&subresources``, ``&columns``, ``&selectableFields``; a number is appended when the
  document already uses the name, and an anchor the block already had is reused), and
  aliases (``schema: *schema``) in the other versions instead of copies. The API server
  reads the same object either way; use it only where every tool that reads the file
  accepts YAML aliases.
- ``apiApproved=unapproved``: for protected groups, write ``api-approved.kubernetes.io:
  "unapproved, migrated from apiextensions.k8s.io/v1beta1 without API review"`` (the bypass
  value the API server accepts); otherwise add the annotation with the URL of the API-review
  pull request yourself.
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS, NEW_DEFAULT, Code
from k8smigrate.context import Context
from k8smigrate.decisions import Decision
from k8smigrate.kube.crd_schema import (
    PRESERVE,
    SchemaResult,
    Visit,
    check,
    data_of,
    preserve_everywhere,
    preserve_root,
    repair,
    structural_nodes,
)
from k8smigrate.model import Step
from k8smigrate.regexcode import regex
from k8smigrate.tree import Alias, Entry, Mapping, Node, Scalar, Sequence, from_data, nodes, unique_anchor

APPROVAL = "api-approved.kubernetes.io"
UNAPPROVED = "unapproved, migrated from apiextensions.k8s.io/v1beta1 without API review"
PRESERVE_MODES = ("all", "root")
COPY_MODES = ("copy", "anchors")
# Top-level fields that v1 only has per version, in the name they have there.
PER_VERSION = {
    "validation": "schema",
    "subresources": "subresources",
    "additionalPrinterColumns": "additionalPrinterColumns",
    "selectableFields": "selectableFields",
}
# With crdCopies=anchors: the anchor each shared block gets (made unique in the document).
ANCHORS = {
    "schema": "schema",
    "subresources": "subresources",
    "additionalPrinterColumns": "columns",
    "selectableFields": "selectableFields",
}
LISTED = 10  # paths listed in one finding before "and N more"


def body(crd: Mapping, ctx: Context) -> None:
    spec = crd.mapping("spec")
    if spec is None:
        ctx.error("K8SM-CRD-009", "the CustomResourceDefinition has no spec", crd)
        return
    mode = ctx.decision("crdPreserve") or "all"  # both have defaults: never None
    copies = ctx.decision("crdCopies") or "copy"
    check_approval(crd, spec, ctx)
    versions = None if ctx.failed else version_list(spec, ctx)
    if versions is None or not check_conflicts(spec, versions, ctx):
        return
    if not convert_schemas(spec, versions, mode, ctx):
        return
    rename_json_paths(spec, versions, ctx)
    if ctx.failed:
        return
    convert_conversion(spec, ctx)
    if ctx.failed:
        return
    taken = {node.anchor for node in nodes(ctx.root) if node.anchor} if copies == "anchors" else None
    for key in [k for k in spec if k in PER_VERSION]:  # in the order the spec has them
        copy_into_versions(spec, key, PER_VERSION[key], versions, ctx, taken)
    if "scope" not in spec:
        spec.set("scope", "Namespaced", after="names")
        ctx.info("K8SM-CRD-016", "pinned scope: Namespaced (the v1beta1 default; required in v1)", spec.get("scope"))


# ------------------------------------------------------------------ versions


def version_list(spec: Mapping, ctx: Context) -> list[Mapping] | None:
    """``spec.versions`` as mappings, built from ``spec.version`` where v1beta1 defaulted it."""
    entry = spec.entry("version")
    versions = spec.sequence("versions")
    if versions is not None and len(versions):
        items = [v for v in versions if isinstance(v, Mapping)]
        if len(items) != len(versions):
            ctx.error("K8SM-CRD-009", "spec.versions has an item that is not a mapping", versions)
            return None
        if entry is not None and not drop_version(spec, entry, items, ctx):
            return None
        return items
    if entry is None or not isinstance(entry.value, Scalar) or not entry.value.data:
        ctx.error("K8SM-CRD-009", "neither spec.version nor spec.versions names a version", spec)
        return None
    first = Mapping()
    first.set("name", entry.value)
    first.set("served", True)
    first.set("storage", True)
    at = spec.index("version")
    spec.pop("version")
    if versions is not None:
        spec.set("versions", Sequence.of([first]))
    else:
        spec.insert(
            Entry(
                Scalar("versions"),
                Sequence.of([first]),
                head_comments=entry.head_comments,
                eol_comment=entry.eol_comment,
            ),
            at=at,
        )
    ctx.note("spec.version → spec.versions[0]")
    return [first]


def drop_version(spec: Mapping, entry: Entry, versions: list[Mapping], ctx: Context) -> bool:
    names = [v.data("name") for v in versions]
    value = entry.value.to_data()
    if value != names[0]:
        if value not in names:
            ctx.error(
                "K8SM-CRD-010",
                f"spec.version {value!r} is not one of spec.versions {names}; say which version is meant",
                entry.value,
            )
            return False
        ctx.warn(
            "K8SM-CRD-013",
            f"spec.version {value!r} is not versions[0] ({names[0]!r}), which v1beta1 validation required; "
            "dropped, spec.versions decides (served/storage are unchanged)",
            entry.value,
        )
    spec.pop("version")
    ctx.note("spec.version dropped (spec.versions kept)")
    return True


def check_conflicts(spec: Mapping, versions: list[Mapping], ctx: Context) -> bool:
    """A top-level field and its per-version form together: v1beta1 rejected it, and so do we."""
    for key, new_key in PER_VERSION.items():
        if key in spec and any(new_key in v for v in versions):
            ctx.error("K8SM-GEN-003", f"spec.{key} and spec.versions[*].{new_key} are both set", spec.get(key))
            return False
    return True


# ------------------------------------------------------------------ schemas


def convert_schemas(spec: Mapping, versions: list[Mapping], mode: str, ctx: Context) -> bool:
    """Repair, check and preserve every schema; synthesise a permissive one where none exists."""
    entry = spec.entry("preserveUnknownFields")
    preserve = entry is None or (isinstance(entry.value, Scalar) and entry.value.data is True)
    if entry is not None and not preserve and not (isinstance(entry.value, Scalar) and entry.value.data is False):
        ctx.error("K8SM-CRD-009", f"preserveUnknownFields {entry.value.to_data()!r} is not a boolean", entry.value)
        return False
    schemas: list[tuple[str, Node]] = []
    top = schema_holder(spec, "validation")
    if top is not None:
        schemas.append(("spec.validation.openAPIV3Schema", schema_root(top)))
    for i, v in enumerate(versions):
        holder = schema_holder(v, "schema")
        if holder is not None:
            schemas.append((f"spec.versions[{i}].schema.openAPIV3Schema", schema_root(holder)))
    walks = [structural_nodes(schema, path) for path, schema in schemas]  # one walk each, for every pass
    total = SchemaResult()
    for visits in walks:
        total.extend(repair(visits))
        total.extend(check(visits))
    if total.violations:
        ctx.error(
            "K8SM-CRD-004",
            "the schema is not structural, which apiextensions.k8s.io/v1 requires; fix by hand: "
            + "; ".join(total.violations),
            spec,
        )
        return False
    if total.repairs:
        ctx.warn("K8SM-CRD-003", "structural schema repaired: " + "; ".join(total.repairs), spec)
    if preserve:
        inject(schemas, walks, mode, ctx, spec)
        if entry is not None:
            spec.pop("preserveUnknownFields")
            carry_comments(entry, schemas[0][1] if schemas else None)
    if top is None:
        synthesise(versions, ctx)
    return True


def schema_holder(parent: Mapping, key: str) -> Mapping | None:
    """``validation`` (or a version's ``schema``) as a mapping; written as ``null`` it becomes ``{}``."""
    node = parent.get(key)
    if isinstance(node, Scalar) and node.data is None:
        node = parent.set(key, Mapping(flow=True))
    return node if isinstance(node, Mapping) else None


def schema_root(holder: Mapping) -> Node:
    """The ``openAPIV3Schema`` of a holder, written into it when it is missing or ``null``.

    ``validation: {}`` and ``openAPIV3Schema: {}`` meant "no validation" in v1beta1; v1 needs
    a schema object, so the repairs and the extension go into a real (empty) one that the
    document keeps: ``{type: object, x-kubernetes-preserve-unknown-fields: true}``.
    """
    node = holder.get("openAPIV3Schema")
    if node is None or (isinstance(node, Scalar) and node.data is None):
        node = holder.set("openAPIV3Schema", Mapping(flow=holder.flow))
    return node


def inject(schemas: list[tuple[str, Node]], walks: list[list[Visit]], mode: str, ctx: Context, spec: Mapping) -> None:
    if ctx.adopt_new_defaults:
        ctx.info(
            "K8SM-GEN-002",
            f"{PRESERVE} not added: v1 prunes fields the schema does not declare (v1beta1 kept them)",
            spec,
        )
        return
    done = SchemaResult()
    for (path, schema), visits in zip(schemas, walks, strict=True):
        done.extend(preserve_everywhere(visits) if mode == "all" else preserve_root(schema, path))
    if not done.preserved and not done.dropped_true:
        return
    shown = ", ".join(done.preserved[:LISTED]) + (
        f" and {len(done.preserved) - LISTED} more" if len(done.preserved) > LISTED else ""
    )
    message = (
        f"preserveUnknownFields was true (unset defaults to true): {PRESERVE}: true added "
        f"(crdPreserve={mode}) at {len(done.preserved)} schema node(s): {shown}"
    )
    if done.dropped_true:
        message += "; additionalProperties: true removed beside properties at " + ", ".join(done.dropped_true)
    if mode == "root":
        message += "; nested unknown fields will be pruned"
    ctx.warn("K8SM-CRD-002", message, spec)
    ctx.note(f"preserveUnknownFields → {PRESERVE} ({mode})")


def carry_comments(entry: Entry, root: Node | None) -> None:
    """The comments of a removed ``preserveUnknownFields: true`` go to the extension that replaces it."""
    if not isinstance(root, Mapping):
        return
    added = root.entry(PRESERVE)
    if added is not None and added.src is None:
        added.head_comments = list(entry.head_comments)
        added.eol_comment = entry.eol_comment


def synthesise(versions: list[Mapping], ctx: Context) -> None:
    for v in versions:
        if "schema" not in v:
            block_style(v)
            v.set("schema", {"openAPIV3Schema": {"type": "object", PRESERVE: True}})
            ctx.warn(
                "K8SM-CRD-001",
                f"version {v.data('name')!r} had no schema; wrote {{type: object, {PRESERVE}: true}} "
                "(no validation, no pruning, as before)",
                v,
            )


# ------------------------------------------------------------------ printer columns, copies


def rename_json_paths(spec: Mapping, versions: list[Mapping], ctx: Context) -> None:
    holders = [spec, *versions]
    for holder in holders:
        columns = holder.sequence("additionalPrinterColumns")
        if columns is None:
            continue
        for _i, column in columns.mappings():
            if "JSONPath" not in column:
                continue
            if "jsonPath" in column:
                ctx.error("K8SM-GEN-003", "a printer column has both JSONPath and jsonPath", column)
                return
            column.rename("JSONPath", "jsonPath")
            ctx.note("additionalPrinterColumns[].JSONPath → jsonPath")


def copy_into_versions(
    spec: Mapping, key: str, new_key: str, versions: list[Mapping], ctx: Context, anchors: set[str] | None
) -> None:
    """The original block (with comments) into versions[0]; into the others comment-free copies
    or, with ``anchors`` (the names taken in the document), aliases of the first one."""
    if key not in spec:
        return
    for v in versions:
        block_style(v)
    entry = spec.move_to(key, versions[0], new_key)
    if anchors is not None and len(versions) > 1:
        shared = entry.value
        if not shared.anchor:  # an anchor the document already gave it is reused
            shared.anchor = unique_anchor(ANCHORS[new_key], anchors)
        for v in versions[1:]:
            v.set(new_key, Alias(shared.anchor, shared))
        ctx.note(f"spec.{key} → spec.versions[0].{new_key} (&{shared.anchor}), aliased in the other versions")
        return
    if len(versions) > 1:  # the block's data is read (a schema: thousands of nodes) only for copies
        data = data_of(entry.value)  # aliases inside are written out in the copies
        for v in versions[1:]:
            v.set(new_key, from_data(data))
    ctx.note(f"spec.{key} → spec.versions[*].{new_key}")


def block_style(version: Mapping) -> None:
    """A flow-style version (``- {name: v1, …}``) that receives a block is written as a block."""
    version.to_block()


# ------------------------------------------------------------------ conversion, approval


def convert_conversion(spec: Mapping, ctx: Context) -> None:
    conversion = spec.mapping("conversion")
    if conversion is None:
        return
    old = [k for k in ("webhookClientConfig", "conversionReviewVersions") if k in conversion]
    if not old:
        return
    if "webhook" in conversion:
        ctx.error("K8SM-GEN-003", f"spec.conversion has webhook and {', '.join(old)}", conversion)
        return
    strategy = conversion.data("strategy") or "None"
    if strategy != "Webhook":
        for key in old:
            conversion.pop(key)
        ctx.warn(
            "K8SM-CRD-011",
            f"spec.conversion.{' and '.join(old)} dropped: strategy is {strategy}, and v1 accepts webhook "
            "settings only with strategy Webhook",
            conversion,
        )
        return
    client = conversion.entry("webhookClientConfig")
    if client is None:
        ctx.error("K8SM-CRD-014", "strategy Webhook without webhookClientConfig", conversion)
        return
    at = min(i for k in old if (i := conversion.index(k)) is not None)
    review = conversion.pop("conversionReviewVersions")
    conversion.pop("webhookClientConfig")
    webhook = Mapping()
    if review is not None:
        webhook.insert(review)
    else:
        webhook.set("conversionReviewVersions", Sequence.of(["v1beta1"], flow=True))
        ctx.info(
            "K8SM-CRD-012",
            "pinned conversionReviewVersions: [v1beta1] (the v1beta1 default): the webhook keeps receiving "
            "v1beta1 ConversionReviews; add v1 once it understands them",
            conversion,
        )
    webhook.insert(Entry(Scalar("clientConfig"), client.value))
    conversion.insert(
        Entry(Scalar("webhook"), webhook, head_comments=client.head_comments, eol_comment=client.eol_comment), at=at
    )
    ctx.note("spec.conversion.webhookClientConfig → spec.conversion.webhook.clientConfig")


PROTECTED_GROUP_TEXT = regex(r"""group["']?[ \t]*:[ \t]*["']?(?:[\w.-]*\.)?(?:k8s|kubernetes)\.io\b""")
"""A ``group:`` of a protected group in a document's text (block, flow or JSON spelling; it starts
with a literal so that the search skips ahead at C speed through a CRD's schema)."""


def protected_group(group: str) -> bool:
    return group in ("k8s.io", "kubernetes.io") or group.endswith((".k8s.io", ".kubernetes.io"))


def check_approval(crd: Mapping, spec: Mapping, ctx: Context) -> None:
    group = spec.data("group")
    if not isinstance(group, str) or not protected_group(group):
        return
    metadata = crd.mapping("metadata")
    annotations = metadata.mapping("annotations") if metadata is not None else None
    if annotations is not None and APPROVAL in annotations:
        return
    if ctx.decided("apiApproved") is None:
        ctx.error(
            "K8SM-CRD-020",
            f"group {group} is protected: v1 needs the annotation {APPROVAL}; add it with the URL of the "
            "API-review pull request, or --set apiApproved=unapproved to write the bypass value",
            spec.get("group"),
        )
        return
    value = UNAPPROVED
    if metadata is None:
        crd.set("metadata", {"annotations": {APPROVAL: value}}, after="kind")
    elif annotations is None:
        metadata.set("annotations", {APPROVAL: value})
    else:
        annotations.set(APPROVAL, value)
    ctx.info("K8SM-CRD-021", f"{APPROVAL}: {value!r} written (--set apiApproved=unapproved)", crd)


MIGRATION = Step(
    kinds=("CustomResourceDefinition",),
    from_api="apiextensions.k8s.io/v1beta1",
    to_api="apiextensions.k8s.io/v1",
    available_in="1.16",
    body=body,
    summary="CRD apiextensions.k8s.io/v1beta1 → v1: per-version schemas, pruning preserved, webhook moved",
    codes=(
        Code("K8SM-CRD-001", "warning", "a version had no schema; a permissive one was written"),
        Code(
            "K8SM-CRD-002", "warning", ("x-kubernetes-preserve-unknown-fields added (preserveUnknownFields was true)")
        ),
        Code("K8SM-CRD-003", "warning", "structural-schema repairs (missing type), with their paths"),
        Code(
            "K8SM-CRD-004",
            "error",
            "the schema is not structural (every violation listed)",
        ),
        Code("K8SM-CRD-009", "error", "the CRD has no spec, no version, or a field of the wrong type"),
        Code("K8SM-CRD-010", "error", "spec.version names no version of spec.versions"),
        Code("K8SM-CRD-011", "warning", "webhook settings dropped because the strategy is not Webhook"),
        Code("K8SM-CRD-012", "info", "conversionReviewVersions pinned to [v1beta1]"),
        Code("K8SM-CRD-013", "warning", "spec.version was not versions[0]; dropped, spec.versions decides"),
        Code("K8SM-CRD-014", "error", "conversion strategy Webhook without webhookClientConfig"),
        Code("K8SM-CRD-016", "info", "scope: Namespaced pinned"),
        Code("K8SM-CRD-020", "error", "a protected group needs the api-approved.kubernetes.io annotation"),
        Code("K8SM-CRD-021", "info", "api-approved.kubernetes.io written from --set apiApproved"),
        NEW_DEFAULT.with_summary("--adopt-new-defaults: x-kubernetes-preserve-unknown-fields not added"),
        BOTH_FORMS.with_summary("an old field and its new form are both set"),
    ),
    decisions=(
        Decision(
            "crdPreserve",
            PRESERVE_MODES,
            "add x-kubernetes-preserve-unknown-fields on every object node (exact v1beta1 behaviour) or on the "
            "schema root only",
            default="all",
        ),
        Decision(
            "crdCopies",
            COPY_MODES,
            "write the top-level schema, subresources and printer columns into every version, or once in "
            "versions[0] with a YAML anchor and as aliases elsewhere",
            default="copy",
        ),
        Decision(
            "apiApproved",
            ("unapproved",),
            "for *.k8s.io/*.kubernetes.io groups without api-approved.kubernetes.io: write the "
            "'unapproved, ...' bypass value (or add the annotation with your API-review PR URL)",
            asked_if=PROTECTED_GROUP_TEXT,
        ),
    ),
)
