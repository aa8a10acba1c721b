"""Deprecated kustomization fields → their replacements (opt-in: ``--only kustomize_edit_fix``).

What ``kustomize edit fix`` does (``api/types/kustomization.go``: ``FixKustomization``,
``FixKustomizationPreMarshalling``): ``bases`` → ``resources``, ``imageTags`` → ``images``,
``patchesJson6902`` and ``patchesStrategicMerge`` → ``patches`` (``- path:`` or inline
``- patch:``), ``commonLabels`` → ``labels`` with ``includeSelectors: true``, generators'
``env`` → ``envs`` (K8SM-KUS-010), in place, comments kept. ``vars`` are left with a warning
(K8SM-KUS-011): their conversion to ``replacements`` is not mechanical. A label set in both
``commonLabels`` and ``labels`` is an error, as upstream.

Give the folder that holds the kustomization: kustomize reads its keys without regard to
case, and many kustomizations have no ``apiVersion``/``kind``; the tree run fixes every one
of them (a kustomization file given alone is fixed only when it has both). Moved patches
run in the ``patches`` transformer from then on, as after ``kustomize edit fix``: a JSON 6902
patch used to run after the name prefix and the labels were applied.
"""

from __future__ import annotations

from dataclasses import replace

from k8smigrate.context import Context
from k8smigrate.kustomize.fix import fix
from k8smigrate.registry import Migration
from k8smigrate.tree import Mapping, Node


def body(kustomization: Mapping, ctx: Context) -> None:
    def report(level: str, code: str, message: str, node: Node | None) -> None:
        ctx.report(level, code, message, node)  # type: ignore[arg-type]
        if code == "K8SM-KUS-010":
            ctx.note(message)

    fix(kustomization, report)


_BASE = Migration(
    kinds=("Kustomization",),
    from_api="kustomize.config.k8s.io/v1beta1",
    to_api="kustomize.config.k8s.io/v1beta1",
    available_in="1.0",
    body=body,
    fixer=True,
    opt_in=True,
    cleanup=True,
    category="kustomize",
    summary="deprecated kustomization fields (bases, patchesStrategicMerge, patchesJson6902, commonLabels…) "
    "moved as `kustomize edit fix` does",
    codes={
        "K8SM-KUS-010": "info: a deprecated kustomization field moved to its replacement",
        "K8SM-KUS-011": "warning: a deprecated field left (vars; a field of an unexpected shape); error: a label "
        "in both commonLabels and labels",
    },
)

MIGRATIONS = [
    _BASE,
    replace(
        _BASE,
        kinds=("Component",),
        from_api="kustomize.config.k8s.io/v1alpha1",
        to_api="kustomize.config.k8s.io/v1alpha1",
    ),
]
