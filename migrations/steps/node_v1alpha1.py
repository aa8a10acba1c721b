"""RuntimeClass ``node.k8s.io/v1alpha1`` → ``node.k8s.io/v1``.

v1alpha1 nested the fields under ``spec``; v1 has them at the top level. As upstream's
``Convert_v1alpha1_RuntimeClass_To_node_RuntimeClass`` (``pkg/apis/node/v1alpha1/conversion.go``)
does:

- ``spec.runtimeHandler`` → ``handler`` (required in both versions: K8SM-RC-001 when missing);
- ``spec.overhead`` → ``overhead`` and ``spec.scheduling`` → ``scheduling``, unchanged inside;
- the ``spec`` wrapper goes; the moved keys take its place, with their comments, and the
  comments of ``spec:`` itself move to ``handler``.

Any other key under ``spec`` has no place in v1 (K8SM-RC-002), and a top-level key that already
exists conflicts (K8SM-GEN-003); both leave the document unchanged. v1alpha1 stopped being
served in 1.22 (kubernetes PR #103061) without a deprecation release.
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS, Code
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Entry, Mapping

MOVES = (("runtimeHandler", "handler"), ("overhead", "overhead"), ("scheduling", "scheduling"))


def keep_spec_comments(spec: Entry, handler: Entry) -> None:
    """The comments of the removed ``spec:`` line go above (or beside) ``handler``."""
    head = list(spec.head_comments)
    if spec.eol_comment is not None:
        if handler.eol_comment is None:
            handler.eol_comment = spec.eol_comment
        else:
            head.append(spec.eol_comment.strip())
    handler.head_comments = head + handler.head_comments


def body(runtime_class: Mapping, ctx: Context) -> None:
    spec = runtime_class.mapping("spec")
    if spec is None:
        ctx.error("K8SM-RC-001", "v1alpha1 RuntimeClass has no spec.runtimeHandler; v1 requires handler")
        return
    if "runtimeHandler" not in spec:
        ctx.error("K8SM-RC-001", "spec.runtimeHandler is missing; v1 requires handler", spec)
        return
    known = {old for old, _new in MOVES}
    for key in spec:
        if key not in known:
            ctx.error("K8SM-RC-002", f"spec.{key} has no place in node.k8s.io/v1", spec.get(key))
        elif dict(MOVES)[key] in runtime_class:
            ctx.error("K8SM-GEN-003", f"both spec.{key} and {dict(MOVES)[key]} are set", spec.get(key))
    if ctx.failed:
        return
    spec_entry = runtime_class.entry("spec")
    assert spec_entry is not None
    for old, new in MOVES:
        if old in spec:
            moved = spec.move_to(old, runtime_class, new, before="spec")
            if new == "handler":
                keep_spec_comments(spec_entry, moved)
            ctx.note(f"spec.{old} → {new}")
    runtime_class.pop("spec")


MIGRATION = Step(
    kinds=("RuntimeClass",),
    from_api="node.k8s.io/v1alpha1",
    to_api="node.k8s.io/v1",
    available_in="1.20",
    body=body,
    summary="RuntimeClass node.k8s.io/v1alpha1 → v1: spec.runtimeHandler → handler, spec unnested",
    codes=(
        Code("K8SM-RC-001", "error", "no spec.runtimeHandler (v1 requires handler)"),
        Code("K8SM-RC-002", "error", "a spec field with no place in v1"),
        BOTH_FORMS.with_summary("a spec field and its v1 top-level key are both set"),
    ),
)
