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
value wins would have to be guessed), except a flag repeated in a map-form ``extraArgs`` or
``kubeletExtraArgs`` (v1beta1–v1beta3): there what kubeadm does is known. Its decoder
(sigs.k8s.io/yaml) keeps the last value and ``strict.VerifyUnmarshalStrict`` prints the
duplicate as a warning (``kubeadm config validate`` refuses it), so this check reports each
repeat as K8SM-KADM-022, a warning naming the value kubeadm uses (an error, K8SM-KADM-023,
with ``--strict``), and every k8smigrate reader of those maps keeps the last value too. The
v1beta4 list form allows a name more than once by design and is not reported.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.kubeadm import FIELDS, FLAG_MAPS, KINDS, repeated, unknown_fields
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar


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
    for path in FLAG_MAPS:
        args: Mapping | None = obj
        for part in path.split("."):
            args = args.mapping(part) if args is not None else None
        for name, entries in (repeated(args) if args is not None else {}).items():
            used = entries[-1].value
            shown = used.value if isinstance(used, Scalar) else "…"
            for earlier in entries[:-1]:
                message = (
                    f"{path}.{name} is repeated (lines {', '.join(str(e.key.line) for e in entries)}): kubeadm "
                    f"warns and uses the last value, {shown!r}; kubeadm config validate refuses it"
                )
                if ctx.settings.strict:
                    ctx.error("K8SM-KADM-023", message, earlier.key)
                else:
                    ctx.warn("K8SM-KADM-022", message, earlier.key)


MIGRATION = Check(
    applies_to=KINDS,
    body=check,
    component="kubeadm",
    category="kubeadm",
    summary="kubeadm configs: unknown fields and repeated flags (warnings; errors with --strict)",
    codes=(
        Code("K8SM-KADM-020", "warning", "an unknown field in a kubeadm document"),
        Code("K8SM-KADM-021", "error", "an unknown field in a kubeadm document, with --strict"),
        Code("K8SM-KADM-022", "warning", "a flag repeated in a map-form extraArgs: kubeadm uses the last"),
        Code("K8SM-KADM-023", "error", "a flag repeated in a map-form extraArgs, with --strict"),
    ),
    last_wins=FLAG_MAPS,
)
