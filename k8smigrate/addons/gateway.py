"""Gateway API field checks and conversions, from the CRDs of each release.

Within a release every served version of a kind has the same schema (the Go types are aliases:
``apis/v1beta1/httproute_types.go`` · ``type HTTPRoute v1.HTTPRoute``), so most steps change the
apiVersion only. What the v1 schemas of the routes that graduated later tightened, and the one
breaking rename (BackendTLSPolicy v1alpha3), are here; the sources are the CRDs of
kubernetes-sigs/gateway-api (``config/crd/{standard,experimental}/gateway.networking.k8s.io_*.yaml``
at the tags named) and ``CHANGELOG/1.1-CHANGELOG.md`` · "BackendTLSPolicy".
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.tree import Entry, Mapping, Scalar, Sequence, resolve

from .edits import rename, text

ONE_RULE = Code("K8SM-GW-001", "error", "v1 TLSRoute/TCPRoute/UDPRoute allow one rule")
NO_HOSTNAME = Code("K8SM-GW-002", "error", "v1 TLSRoute requires spec.hostnames")
POLICY_NAMESPACE = Code("K8SM-GW-003", "error", "a BackendTLSPolicy targetRef in another namespace")
BOTH = Code("K8SM-GW-004", "error", "an old field beside its replacement")
EXPERIMENTAL = Code("K8SM-GW-005", "info", "a route of the experimental channel")


def one_rule(route: Mapping, ctx: Context) -> None:
    """TLSRoute, TCPRoute, UDPRoute v1: ``spec.rules`` has ``maxItems: 1`` (v1alpha2 allowed 16).

    TLSRoute v1 (1.5, ``b6b242839`` set it in v1alpha3 first), TCPRoute and UDPRoute v1 (1.6). A
    route with several rules must become several routes: that is a human's call (names, owners).
    """
    spec = route.mapping("spec")
    rules = spec.get("rules") if spec is not None else None
    rules = resolve(rules) if rules is not None else None
    if isinstance(rules, Sequence) and len(rules) > 1:
        kind = text(route.get("kind")) or "route"
        ctx.error(
            "K8SM-GW-001",
            f"{kind} v1 allows one rule and this one has {len(rules)}: split it into one {kind} per rule "
            "(each with its parentRefs and hostnames)",
            rules,
        )


def tls_hostnames(route: Mapping, ctx: Context) -> None:
    """TLSRoute v1 requires ``spec.hostnames`` with at least one entry (v1alpha2 did not)."""
    spec = route.mapping("spec")
    hostnames = spec.get("hostnames") if spec is not None else None
    hostnames = resolve(hostnames) if hostnames is not None else None
    if not isinstance(hostnames, Sequence) or len(hostnames) == 0:
        ctx.error(
            "K8SM-GW-002",
            "TLSRoute v1 requires spec.hostnames (the SNI names it routes); v1alpha2 matched every name "
            "of the listener: write the names it serves",
            spec if spec is not None else route,
        )


def tls_route_to_v1(route: Mapping, ctx: Context) -> None:
    one_rule(route, ctx)
    tls_hostnames(route, ctx)


def backend_tls_policy_v1alpha3(policy: Mapping, ctx: Context) -> None:
    """BackendTLSPolicy v1alpha2 → v1alpha3 (1.1): ``targetRef`` → ``targetRefs: [..]`` without
    ``namespace``, ``tls`` → ``validation``, ``caCertRefs`` → ``caCertificateRefs``,
    ``wellKnownCACerts`` → ``wellKnownCACertificates``."""
    spec = policy.mapping("spec")
    if spec is None:
        return
    ref = spec.get("targetRef")
    if ref is not None:
        if "targetRefs" in spec:
            ctx.error("K8SM-GW-004", "spec.targetRef and spec.targetRefs are both set; keep one of them", ref)
            return
        target = resolve(ref)
        if isinstance(target, Mapping) and "namespace" in target:
            own = policy.mapping("metadata")
            mine = text(own.get("namespace")) if own is not None else None
            theirs = text(target.get("namespace"))
            if theirs is not None and mine is not None and theirs != mine:
                ctx.error(
                    "K8SM-GW-003",
                    f"spec.targetRef names namespace {theirs}: v1alpha3 targets only the policy's own namespace "
                    f"({mine}); create the policy in {theirs}",
                    target.get("namespace"),
                )
                return
            if theirs is not None and mine is None:
                ctx.error(
                    "K8SM-GW-003",
                    f"spec.targetRef names namespace {theirs}: v1alpha3 targets only the policy's own namespace; "
                    f"set metadata.namespace: {theirs}",
                    target.get("namespace"),
                )
                return
            target.pop("namespace")
            ctx.note("spec.targetRef.namespace removed (the policy's own namespace)")
        at = spec.index("targetRef")
        entry = spec.pop("targetRef")
        assert entry is not None
        new = Entry(
            Scalar("targetRefs"),
            Sequence.of([entry.value]),
            head_comments=entry.head_comments,
            eol_comment=entry.eol_comment,
        )
        spec.insert(new, at=at)
        ctx.note("spec.targetRef → spec.targetRefs[0]")
    if rename(spec, "tls", "validation", ctx, BOTH.code, "spec."):
        validation = spec.mapping("validation")
        if validation is not None:
            rename(validation, "caCertRefs", "caCertificateRefs", ctx, BOTH.code, "spec.validation.")
            rename(validation, "wellKnownCACerts", "wellKnownCACertificates", ctx, BOTH.code, "spec.validation.")


GRADUATED = {"TLSRoute": "1.5", "TCPRoute": "1.6", "UDPRoute": "1.6", "BackendTLSPolicy": "1.4"}
"""The release whose standard channel serves the kind as v1 (CRDs at the tags)."""


def experimental(route: Mapping, ctx: Context) -> None:
    """Say that a route of the experimental channel needs the experimental CRDs (until it graduated)."""
    kind = text(route.get("kind")) or ""
    api = text(route.get("apiVersion")) or ""
    since = GRADUATED.get(kind)
    if since is None:
        return
    ctx.info(
        "K8SM-GW-005",
        f"{kind} {api} is served by the experimental channel's CRDs only; the standard channel serves "
        f"{kind} v1 from Gateway API {since} (k8smigrate moves it there with --component gateway-api={since} or later)",
        route,
    )
