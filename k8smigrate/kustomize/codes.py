"""The finding codes of kustomize trees, as data (each at one level; docs/kustomize.md lists them).

The migrations' own codes appear on patches too (a patch is migrated by its target's
migrations); ``kustomize_edit_fix`` declares K8SM-KUS-010 to 012 itself.
"""

from __future__ import annotations

from ..codes import Code

NOT_READ = Code(
    "K8SM-KUS-001", "warning", "a kustomization file not read as one (not one YAML mapping, templated, a duplicate key)"
)
HELD = Code(
    "K8SM-KUS-002",
    "error",
    "left as it is with the patches, references or objects that must move with it (its API is removed at the "
    "target, or it cannot follow)",
)
INLINE_NOT_REWRITTEN = Code("K8SM-KUS-003", "error", "an inline patch that could not be rewritten in its block scalar")
NOT_FOLLOWED = Code(
    "K8SM-KUS-004", "warning", "a remote reference, or one outside the folders given: not migrated with the tree"
)
PATH_MOVED = Code("K8SM-KUS-005", "info", "a JSON patch operation's path moved with its field")
REFERENCE_MOVED = Code(
    "K8SM-KUS-006", "info", "a target, objref, field path or field spec rewritten for the migrated objects"
)
PATCH_FOLLOWS = Code("K8SM-KUS-007", "info", "an inline or JSON patch migrated with its objects")
COMPLETED_BY_PATCH = Code(
    "K8SM-KUS-008", "info", "an object migrated as its kustomization builds it (only its patch completes it)"
)
HELD_DEPRECATED = Code(
    "K8SM-KUS-009",
    "warning",
    "left as it is with what must move with it; its API is still served at the target (deprecated)",
)

KUSTOMIZE: dict[str, Code] = {
    c.code: c
    for c in (
        NOT_READ,
        HELD,
        INLINE_NOT_REWRITTEN,
        NOT_FOLLOWED,
        PATH_MOVED,
        REFERENCE_MOVED,
        PATCH_FOLLOWS,
        COMPLETED_BY_PATCH,
        HELD_DEPRECATED,
    )
}
"""The codes the kustomize part reports, by code (``Registry.code`` knows them, for SARIF)."""
