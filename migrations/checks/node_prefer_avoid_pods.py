"""Node annotation ``scheduler.alpha.kubernetes.io/preferAvoidPods`` (deprecated in 1.22): report only.

The annotation fed the scheduler's ``NodePreferAvoidPods`` plugin, deprecated in 1.22; the API
server warns that the key is "deprecated since v1.22; use Taints and Tolerations instead"
(``deprecatedNodeLabels`` in ``pkg/api/node/util.go``). Which release dropped the plugin from
the default scheduler configuration is not verified here, so the finding is info. There is no
field to move it to (a taint is a different mechanism, set on the Node by whoever manages it):
for targets from 1.22 on, a Node that carries the annotation gets K8SM-FLD-028, and nothing
is rewritten.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

KEY = "scheduler.alpha.kubernetes.io/preferAvoidPods"


def body(node: Mapping, ctx: Context) -> None:
    metadata = node.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    if notes is None or KEY not in notes:
        return
    ctx.info(
        "K8SM-FLD-028",
        f"annotation {KEY} is deprecated since 1.22 and may be ignored by the scheduler; "
        "use taints and tolerations instead",
        notes.get(KEY),
    )


MIGRATION = Check(
    applies_to={"v1": ("Node",)},
    body=body,
    matters_from="1.22",
    trigger=KEY,
    category="annotation",
    summary="Node preferAvoidPods annotation (deprecated in 1.22): reported",
    codes=(Code("K8SM-FLD-028", "info", "the preferAvoidPods Node annotation is deprecated (1.22); use taints"),),
)
