"""Kustomize trees: bases, overlays, components and patches migrated together.

A plain manifest can be migrated on its own; a kustomize tree cannot. A patch is a partial
object or a list of JSON operations that must keep matching the object it targets (same
group, version and kind, same field paths), and ``vars``, ``replacements`` and transformer
configurations name objects and fields too. This package reads a tree as a graph
(``graph``), migrates each patch through its targets (``partial``, with ``smp`` and
``pointer``), makes references follow (``references``, ``fieldpaths``, ``selectors``),
and holds back together whatever must move together (``run``). See docs/kustomize.md.
"""

from __future__ import annotations

CODES = {
    "K8SM-KUS-001": "warning: a kustomization file not read as one (not one YAML mapping, or templated)",
    "K8SM-KUS-002": "error/warning: left as it is with the patches, references or objects that must move with it",
    "K8SM-KUS-003": "error: an inline patch that could not be rewritten in its block scalar",
    "K8SM-KUS-004": "warning: a remote reference, or one outside the folders given: not migrated with the tree",
    "K8SM-KUS-005": "info: a JSON patch operation's path moved with its field",
    "K8SM-KUS-006": "info: a target, objref, field path or field spec rewritten for the migrated objects",
    "K8SM-KUS-007": "info: an inline or JSON patch migrated with its objects",
    "K8SM-KUS-008": "info: an object migrated as its kustomization builds it (only its patch completes it)",
}
"""Finding codes of the kustomize part (``kustomize_edit_fix`` declares K8SM-KUS-010/011; the
migrations' own codes appear in patches too). docs/kustomize.md lists them."""
