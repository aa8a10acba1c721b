"""EndpointSlice ``discovery.k8s.io/v1beta1`` → ``discovery.k8s.io/v1``.

Per endpoint, as upstream's ``Convert_v1beta1_Endpoint_To_discovery_Endpoint``
(``pkg/apis/discovery/v1beta1/conversion.go``) does with the ``topology`` map:

- ``topology["topology.kubernetes.io/zone"]`` → ``zone``;
- ``topology["kubernetes.io/hostname"]`` → ``nodeName`` when ``nodeName`` is unset; removed
  when it equals ``nodeName``; kept in the map when it differs;
- what is left becomes ``deprecatedTopology`` (omitted when empty). The API server ignores
  writes to ``deprecatedTopology`` through v1, so those keys are lost on apply
  (K8SM-EPS-001 lists them).

Everything else (``addressType``, ``addresses``, ``conditions``, ``hostname``,
``targetRef``, ``hints``, ``ports``) is unchanged. The map keeps its comments when renamed.
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS, Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.model import Step
from k8smigrate.tree import Entry, Mapping, Scalar

ZONE = "topology.kubernetes.io/zone"
HOSTNAME = "kubernetes.io/hostname"


def body(slice_: Mapping, ctx: Context) -> None:
    for endpoint in mappings_at(slice_, "endpoints"):
        convert_endpoint(endpoint, ctx)


def convert_endpoint(endpoint: Mapping, ctx: Context) -> None:
    topology = endpoint.mapping("topology")
    if topology is None:
        if "topology" in endpoint:  # null or not a map: nothing to carry over
            endpoint.pop("topology")
        return
    if "deprecatedTopology" in endpoint:
        ctx.error("K8SM-GEN-003", "endpoint has both topology and deprecatedTopology", endpoint)
        return
    endpoint.rename("topology", "deprecatedTopology")
    after = "deprecatedTopology"
    moved: list[Entry] = []
    zone = topology.entry(ZONE)
    if zone is not None and "zone" not in endpoint:
        moved.append(topology.move_to(ZONE, endpoint, "zone", before=after))
        ctx.note(f"topology[{ZONE}] → zone")
    node = topology.get(HOSTNAME)
    if isinstance(node, Scalar):
        current = endpoint.get("nodeName")
        if current is None:
            moved.append(topology.move_to(HOSTNAME, endpoint, "nodeName", before=after))
            ctx.note(f"topology[{HOSTNAME}] → nodeName")
        elif isinstance(current, Scalar) and current.data == node.data:
            topology.pop(HOSTNAME)
    if len(topology) == 0:
        gone = endpoint.pop("deprecatedTopology")
        if gone is not None and moved:
            keep_comments(gone, moved[0])
        return
    ctx.note("topology → deprecatedTopology")
    ctx.warn(
        "K8SM-EPS-001",
        "topology keys without a v1 field kept in deprecatedTopology, which the API server ignores on "
        f"write through v1: {', '.join(topology.keys())}",
        topology,
    )


def keep_comments(gone: Entry, heir: Entry) -> None:
    """The comments of the removed ``topology`` key go to the first field taken out of it."""
    heir.head_comments = [*gone.head_comments, *heir.head_comments]
    if gone.eol_comment:
        if heir.eol_comment:
            heir.head_comments.append(gone.eol_comment.strip())
        else:
            heir.eol_comment = gone.eol_comment


MIGRATION = Step(
    kinds=("EndpointSlice",),
    from_api="discovery.k8s.io/v1beta1",
    to_api="discovery.k8s.io/v1",
    available_in="1.21",
    body=body,
    summary="EndpointSlice discovery.k8s.io/v1beta1 → v1: topology → zone/nodeName/deprecatedTopology",
    codes=(
        Code("K8SM-EPS-001", "warning", "topology keys left in deprecatedTopology, which v1 ignores on write"),
        BOTH_FORMS.with_summary("an endpoint has both topology and deprecatedTopology"),
    ),
)
