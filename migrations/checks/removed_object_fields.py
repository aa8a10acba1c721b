"""Fields removed from every object: ``metadata.clusterName`` (1.25), ``metadata.selfLink`` (1.24).

``ObjectMeta.clusterName`` was never used by Kubernetes and was removed from the API in 1.25
(kubernetes PR #108717). Since then the API server rejects it under strict field validation
(the default of ``kubectl apply`` since 1.27), so a manifest that still carries it fails to
apply. For targets from 1.25 on, it is removed wherever an object's metadata stands: the
object itself, pod and job templates, volume claim templates, and the items of a List.
The removal changes no behaviour (K8SM-OBJ-001 says where).

``ObjectMeta.selfLink`` is read-only and was only ever set by the server; exported manifests
still carry it. The ``RemoveSelfLink`` gate went GA and locked in 1.24 (removed in 1.30):
the server no longer sets it. For targets from 1.24 on it is deleted wherever object metadata
stands, with no behaviour change (K8SM-FLD-024).
"""

from __future__ import annotations

import re
from dataclasses import replace

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.dataclasscode import dataclass
from k8smigrate.model import ANY, Check
from k8smigrate.regexcode import regex
from k8smigrate.results import Level
from k8smigrate.tree import Mapping, Scalar, format_path, mappings_at_key


@dataclass(frozen=True)
class Removal:
    """One ``metadata`` field to delete, and the finding that says so."""

    field: str
    level: Level
    code: str
    why: str

    def __call__(self, obj: Mapping, ctx: Context) -> None:
        # Object metadata stands at many depths (pod templates, job templates, ephemeral volume
        # claim templates, List items): every ``metadata`` mapping with a scalar field is one.
        for path, node in mappings_at_key(obj, "metadata"):
            if isinstance(node.get(self.field), Scalar):
                ctx.report(self.level, self.code, f"metadata.{self.field} {self.why}; removed", node)
                node.pop(self.field)
                ctx.note(f"{format_path(path)}.{self.field} removed")


CLUSTER_NAME = Removal(
    "clusterName", "warning", "K8SM-OBJ-001", "was removed in 1.25 and strict field validation rejects it"
)
SELF_LINK = Removal("selfLink", "info", "K8SM-FLD-024", "is no longer set by the server from 1.24 (RemoveSelfLink)")


def valued(field: str) -> re.Pattern[str]:
    """``field:`` followed by a value on its line: a CRD schema that describes the field (a mapping
    under it) does not wake the check, so large CRDs are not parsed for nothing."""
    return regex(rf"""{field}["']?[ \t]*:[ \t]*[^\s{{\[#]""")


_BASE = Check(
    applies_to={ANY: (ANY,)},
    body=CLUSTER_NAME,
    category="removed-field",
    edits=True,
    summary="metadata.clusterName (targets from 1.25) and metadata.selfLink (from 1.24) removed",
    codes=(
        Code("K8SM-OBJ-001", "warning", "metadata.clusterName removed (gone from the API in 1.25)"),
        Code("K8SM-FLD-024", "info", "metadata.selfLink removed (no longer set by the server from 1.24)"),
    ),
)

# One entry per field, as each matters from its own release.
MIGRATIONS = [
    replace(_BASE, matters_from="1.25", body=CLUSTER_NAME, trigger=valued("clusterName")),
    replace(
        _BASE,
        matters_from="1.24",
        cleanup=True,  # still in ObjectMeta (read-only): accepted and ignored
        body=SELF_LINK,
        trigger=valued("selfLink"),
    ),
]
