"""Fields removed from every object: ``metadata.clusterName`` (gone in 1.25).

``ObjectMeta.clusterName`` was never used by Kubernetes and was removed from the API in 1.25
(kubernetes PR #108717). Since then the API server rejects it under strict field validation
(the default of ``kubectl apply`` since 1.27), so a manifest that still carries it fails to
apply. For targets from 1.25 on, it is removed wherever an object's metadata stands: the
object itself, pod and job templates, volume claim templates, and the items of a List.
The removal changes no behaviour (K8SM-OBJ-001 says where).
"""

from __future__ import annotations

from k8smigrate.context import Context
from k8smigrate.registry import ANY, Migration
from k8smigrate.tree import Mapping, Scalar, format_path, walk


def body(obj: Mapping, ctx: Context) -> None:
    # Object metadata stands at many depths (pod templates, job templates, ephemeral volume
    # claim templates, List items): every ``metadata`` mapping with a scalar clusterName is one.
    for path, node in list(walk(obj)):
        if not (path and path[-1] == "metadata" and isinstance(node, Mapping)):
            continue
        if isinstance(node.get("clusterName"), Scalar):
            where = format_path(path)
            ctx.warn(
                "K8SM-OBJ-001",
                "metadata.clusterName was removed in 1.25 and strict field validation rejects it; removed",
                node,
            )
            node.pop("clusterName")
            ctx.note(f"{where}.clusterName removed")


MIGRATION = Migration(
    kinds=(ANY,),
    from_api=ANY,
    to_api=ANY,
    available_in="1.0",
    removed_in="1.25",
    body=body,
    fixer=True,
    trigger="clusterName",
    summary="metadata.clusterName removed for targets from 1.25",
    codes={"K8SM-OBJ-001": "warning: metadata.clusterName removed (gone from the API in 1.25)"},
)
