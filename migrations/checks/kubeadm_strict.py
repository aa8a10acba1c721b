"""kubeadm strict decoding: unknown fields in kubeadm configuration documents.

kubeadm decodes its config strictly since 1.13 (kubernetes PR #70901) but only prints a
warning for an unknown or duplicate field, and then ignores the field; ``kubeadm config
validate`` (PR #118013) and ``kubeadm config migrate`` refuse them. A case-mismatched name
(``ControlPlaneEndpoint``) is unknown too (PR #107725).

This check runs on every ``kubeadm.k8s.io`` v1beta1–v1beta4 document, whether it needs a
migration or not, against the field table of the document's own API version (see
``_kubeadm.FIELDS``, taken from upstream ``types.go``): K8SM-KADM-020 names each unknown
field with its line, as a warning, or as an error with ``--strict`` (the document is then
left as it is). A field unknown to the old version is reported even where a newer version
knows it: kubeadm ignored it until now, and the migration would switch it on.

Duplicate keys are reported for every document by the core (K8SM-GEN-006, an error: which
value wins would have to be guessed).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.kubeadm import FIELDS, KINDS, unknown_fields
from k8smigrate.model import Check
from k8smigrate.tree import Mapping


def check(obj: Mapping, ctx: Context) -> None:
    api, kind = obj.data("apiVersion"), obj.data("kind")
    if not isinstance(api, str) or not isinstance(kind, str) or kind not in FIELDS.get(api, {}):
        return
    for path, key, suggestion in unknown_fields(obj, api, kind):
        hint = f"; did you mean {suggestion}?" if suggestion else ""
        message = f"unknown field {path} in {api} {kind}: kubeadm ignores it{hint}"
        if ctx.settings.strict:
            ctx.error("K8SM-KADM-021", message, key)
        else:
            ctx.warn("K8SM-KADM-020", message, key)


MIGRATION = Check(
    applies_to=KINDS,
    body=check,
    component="kubeadm",
    category="kubeadm",
    summary="kubeadm configs: unknown fields (warnings; errors with --strict)",
    codes=(
        Code("K8SM-KADM-020", "warning", "an unknown field in a kubeadm document"),
        Code("K8SM-KADM-021", "error", "an unknown field in a kubeadm document, with --strict"),
    ),
)
