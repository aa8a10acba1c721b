"""``scheduler.alpha.kubernetes.io/critical-pod`` deleted (non-functional since 1.16).

The annotation worked only with the ``ExperimentalCriticalPodAnnotation`` gate, deprecated in
1.13 and gone before 1.17; the API server warns that it is non-functional from 1.16
(``pkg/api/pod/warnings.go``, ``deprecatedAnnotations``). For targets from 1.16 on it is
deleted from every pod template (K8SM-FLD-010). No ``priorityClassName`` is written: the
annotation has done nothing for years, and ``system-cluster-critical`` or
``system-node-critical`` would change preemption and quota behaviour; the finding suggests
it for pods that really are critical. A chart's values.yaml default (``podAnnotations``, at any
depth) is deleted the same way (``templating.values_annotations``).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import POD_APIS, drop_annotation, pod_specs, string_annotations
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

KEY = "scheduler.alpha.kubernetes.io/critical-pod"


def body(obj: Mapping, ctx: Context) -> None:
    for metadata, spec in pod_specs(obj):
        found = dict(string_annotations(metadata)).get(KEY)
        if found is None or metadata is None:
            continue
        hint = (
            ""
            if "priorityClassName" in spec
            else (
                "; for a pod that must not be evicted, set priorityClassName: system-cluster-critical "
                "(or system-node-critical) by hand"
            )
        )
        ctx.info("K8SM-FLD-010", f"annotation {KEY} deleted: non-functional since 1.16{hint}", found)
        drop_annotation(metadata, KEY)
        ctx.note(f"{KEY} removed")


MIGRATION = Check(
    applies_to=POD_APIS,
    body=body,
    matters_from="1.16",
    trigger="scheduler.alpha.kubernetes.io/critical-pod",
    category="annotation",
    edits=True,
    cleanup=True,
    summary="scheduler.alpha.kubernetes.io/critical-pod annotation (non-functional since 1.16) deleted",
    codes=(Code("K8SM-FLD-010", "info", "the critical-pod annotation deleted (non-functional since 1.16)"),),
)
