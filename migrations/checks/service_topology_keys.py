"""Service ``spec.topologyKeys`` removed in 1.22: deleted, replaced where a replacement exists.

``topologyKeys`` (alpha, gate ``ServiceTopology``) was tombstoned in ``core/v1/types.go`` in
1.22 and the gate removed. Under strict field validation (the ``kubectl apply`` default from
1.25) the field makes the request fail, so for targets from 1.22 on it is deleted. The
replacement is chosen for the whole window (``--min-version``), as the semantics are close
but not identical (K8SM-FLD-001: topologyKeys was a strict ordered filter; hints and
``trafficDistribution`` are best-effort preferences):

- ``["*"]`` alone, or an empty list: no topology; deleted only (K8SM-FLD-066, an info);
- ``["kubernetes.io/hostname"]`` (no fallback) → ``spec.internalTrafficPolicy: Local``
  (beta and on from 1.22);
- a list starting with the zone key (``topology.kubernetes.io/zone`` or
  ``failure-domain.beta.kubernetes.io/zone``, possibly after the hostname key) →
  annotation ``service.kubernetes.io/topology-aware-hints: Auto`` (window from 1.23),
  ``service.kubernetes.io/topology-mode: Auto`` (from 1.27), ``spec.trafficDistribution:
  PreferClose`` (from 1.33, GA) or ``PreferSameZone`` (from 1.35);
- ``["kubernetes.io/hostname", "*"]`` → ``spec.trafficDistribution: PreferSameNode`` (from 1.35);
- where the window starts too early for the replacement, the field is deleted only
  (K8SM-FLD-036, the preference is lost); any other key (region, custom labels) has no
  replacement: an error, to be decided by hand (K8SM-FLD-037).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import child
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar, Sequence
from k8smigrate.versions import KubeVersion

HOST = "kubernetes.io/hostname"
ZONES = ("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone")


def v(text: str) -> KubeVersion:
    return KubeVersion.parse(text)


def replacement(keys: list[str], fallback: bool, since: KubeVersion) -> tuple[str, str, str] | str | None:
    """``(where, key, value)`` to write, ``""`` when only deleting is right, or None for no rule."""
    if not keys:
        return ""
    if keys == [HOST] and not fallback:
        return ("spec", "internalTrafficPolicy", "Local") if since >= v("1.22") else "late"
    if keys == [HOST] and fallback:
        return ("spec", "trafficDistribution", "PreferSameNode") if since >= v("1.35") else "late"
    rest = keys[1:] if keys[0] == HOST else keys
    if len(rest) == 1 and rest[0] in ZONES:
        if since >= v("1.35"):
            return "spec", "trafficDistribution", "PreferSameZone"
        if since >= v("1.33"):
            return "spec", "trafficDistribution", "PreferClose"
        if since >= v("1.27"):
            return "annotations", "service.kubernetes.io/topology-mode", "Auto"
        if since >= v("1.23"):
            return "annotations", "service.kubernetes.io/topology-aware-hints", "Auto"
        return "late"
    return None


def body(service: Mapping, ctx: Context) -> None:
    spec = service.mapping("spec")
    node = spec.get("topologyKeys") if spec is not None else None
    if spec is None or node is None:
        return
    values = node.to_data() if isinstance(node, (Sequence, Scalar)) else None
    if values is None:
        spec.pop("topologyKeys")
        ctx.info("K8SM-FLD-066", "empty spec.topologyKeys (removed in 1.22) deleted", spec)
        return
    if not isinstance(values, list) or not all(isinstance(k, str) for k in values):
        ctx.error("K8SM-FLD-037", "spec.topologyKeys is not a list of label keys", node)
        return
    fallback = bool(values) and values[-1] == "*"
    keys = [str(k) for k in values if k != "*"]
    plan = replacement(keys, fallback, ctx.oldest)
    if plan is None:
        ctx.error(
            "K8SM-FLD-037",
            f"spec.topologyKeys {values} (removed in 1.22) has no replacement: only the hostname and zone "
            "keys have one; delete the field by hand and accept cluster-wide routing",
            node,
        )
        return
    if isinstance(plan, tuple):
        where, key, value = plan
        metadata = child(service, "metadata") if where == "annotations" else None
        target = spec if where == "spec" else (child(metadata, "annotations") if metadata is not None else None)
        if target is None or (key in target and target.data(key) != value):
            ctx.error("K8SM-FLD-037", f"spec.topologyKeys: {key} is already set to something else", node)
            return
        why = (
            "node-local endpoints only, as strict as topologyKeys, for traffic from inside the cluster "
            "(externalTrafficPolicy governs the rest)"
            if key == "internalTrafficPolicy"
            else "a best-effort preference, not the strict ordered filter topologyKeys was"
        )
        ctx.warn("K8SM-FLD-001", f"spec.topologyKeys {values} (removed in 1.22) → {key}: {value}; {why}", node)
        spec.pop("topologyKeys")
        if key not in target:
            target.set(key, value)
        ctx.note(f"spec.topologyKeys → {key}: {value}")
        return
    if plan == "late":
        ctx.warn(
            "K8SM-FLD-036",
            f"spec.topologyKeys {values} (removed in 1.22) deleted; its replacement is not available at "
            f"--min-version {ctx.oldest}: routing becomes cluster-wide",
            node,
        )
    else:
        ctx.info("K8SM-FLD-066", 'spec.topologyKeys ["*"] (removed in 1.22) deleted: it meant no preference', node)
    spec.pop("topologyKeys")
    ctx.note("spec.topologyKeys removed")


MIGRATION = Check(
    applies_to={"v1": ("Service",)},
    body=body,
    matters_from="1.22",
    trigger="topologyKeys",
    category="removed-field",
    edits=True,
    summary="Service spec.topologyKeys (gone in 1.22) → trafficDistribution, topology-mode or Local policy",
    codes=(
        Code("K8SM-FLD-001", "warning", "spec.topologyKeys replaced by an approximation"),
        Code("K8SM-FLD-036", "warning", "spec.topologyKeys deleted; the window starts before its replacement exists"),
        Code("K8SM-FLD-037", "error", "spec.topologyKeys with keys that have no replacement, or a conflicting field"),
        Code("K8SM-FLD-066", "info", 'spec.topologyKeys deleted: empty, or ["*"] (no preference)'),
    ),
)
