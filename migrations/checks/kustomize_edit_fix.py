"""Deprecated kustomization fields → their replacements (opt-in: ``--only kustomize_edit_fix``).

What ``kustomize edit fix`` does (``api/types/kustomization.go``: ``FixKustomization``,
``FixKustomizationPreMarshalling``): ``bases`` → ``resources``, ``imageTags`` → ``images``,
``patchesJson6902`` and ``patchesStrategicMerge`` → ``patches`` (``- path:`` or inline
``- patch:``), ``commonLabels`` → ``labels`` with ``includeSelectors: true``, generators'
``env`` → ``envs`` (K8SM-KUS-010), in place, comments kept. ``vars`` are left with a warning
(K8SM-KUS-011): their conversion to ``replacements`` is not mechanical. A label set in both
``commonLabels`` and ``labels`` is an error, as upstream (K8SM-KUS-012).

Give the folder that holds the kustomization: kustomize reads its keys without regard to
case, and many kustomizations have no ``apiVersion``/``kind``; the tree run fixes every one
of them (a kustomization file given alone is fixed only when it has both). Moved patches
run in the ``patches`` transformer from then on, as after ``kustomize edit fix``: a JSON 6902
patch used to run after the name prefix and the labels were applied.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kustomize.fix import FIX_CLASH, FIX_LEFT, FIXED, fix
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Node

_BY_CODE = {c.code: c for c in (FIXED, FIX_LEFT, FIX_CLASH)}


def body(kustomization: Mapping, ctx: Context) -> None:
    def report(code: Code, message: str, node: Node | None) -> None:
        ctx.report(code.level, code.code, message, node)
        if code is FIXED:
            ctx.note(message)

    fix(kustomization, report)


MIGRATION = Check(
    applies_to={
        "kustomize.config.k8s.io/v1beta1": ("Kustomization",),
        "kustomize.config.k8s.io/v1alpha1": ("Component",),
    },
    body=body,
    opt_in=True,
    edits=True,
    cleanup=True,
    category="kustomize",
    summary="deprecated kustomization fields (bases, patchesStrategicMerge, patchesJson6902, commonLabels…) "
    "moved as `kustomize edit fix` does",
    codes=(FIXED, FIX_LEFT, FIX_CLASH),
)
