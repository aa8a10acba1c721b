"""Istio's removed alpha APIs: what to write instead, worked out from the object where it can be.

``authentication.istio.io/v1alpha1`` Policy and MeshPolicy (support removed in Istio 1.6) become
``security.istio.io`` PeerAuthentication, RequestAuthentication and, when a JWT was required, an
AuthorizationPolicy. The mapping is the one of Istio's own converter,
istio-ecosystem/security-policy-migrate · ``converter/convert.go`` · ``Converter.Convert``,
``convertMTLS``, ``convertJWT``, ``extractMTLS`` (commit a3054f2). That tool reads the Services of the
cluster to turn a Policy's ``targets`` (Service names and ports) into workload selectors and
target ports; k8smigrate reads files only, so those places are left as ``<…>`` for a human.

``rbac.istio.io/v1alpha1`` (ServiceRole, ServiceRoleBinding, RbacConfig, ClusterRbacConfig; support
removed in 1.6, CRDs in 1.7) and the Mixer kinds of ``config.istio.io/v1alpha2`` (removed in 1.8) get
a fixed hint (``k8smigrate.hints``): their replacements join several objects and the cluster's Services.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping

from .edits import text
from .sketch import flow

POLICY_REPLACEMENT = Code("K8SM-IST-001", "warning", "the security.istio.io objects that replace an alpha Policy")
POLICY_UNSUPPORTED = Code("K8SM-IST-002", "warning", "parts of an alpha Policy the beta APIs cannot express")
TELEMETRY_EXTENDED = Code("K8SM-IST-003", "warning", "Telemetry fields Istio did not promote to v1")


def _get(data: dict[str, Data], camel: str) -> Data:
    """A field of an alpha proto object, in its JSON (``jwksUri``) or proto (``jwks_uri``) name."""
    if camel in data:
        return data[camel]
    snake = "".join("_" + c.lower() if c.isupper() else c for c in camel)
    return data.get(snake)


def policy_replacement(policy: dict[str, Data]) -> tuple[list[tuple[str, dict[str, Data]]], list[str]]:
    """``[(kind, spec)]`` replacing an alpha Policy or MeshPolicy, and what cannot be carried over."""
    spec = policy.get("spec") if isinstance(policy.get("spec"), dict) else {}
    assert isinstance(spec, dict)
    problems: list[str] = []
    targets = [t for t in (_get(spec, "targets") or []) if isinstance(t, dict)]  # type: ignore[union-attr]
    selectors: list[dict[str, Data]] = []
    for target in targets:
        selector: dict[str, Data] = {"matchLabels": f"<spec.selector of Service {target.get('name')}>"}
        ports = [p for p in (target.get("ports") or []) if isinstance(p, dict)]  # type: ignore[union-attr]
        selector_entry: dict[str, Data] = {"selector": selector}
        if ports:
            selector_entry["ports"] = [
                f"<targetPort of Service port {p.get('number') or p.get('name')}>" for p in ports
            ]
        selectors.append(selector_entry)
    if not selectors:
        selectors = [{}]  # namespace-wide (Policy) or mesh-wide (MeshPolicy, in the root namespace)
    replacement: list[tuple[str, dict[str, Data]]] = []
    mode = _mtls_mode(spec, problems)
    for s in selectors:
        peer: dict[str, Data] = {}
        if "selector" in s:
            peer["selector"] = s["selector"]
        workload_ports = s.get("ports")
        if isinstance(workload_ports, list):
            peer["portLevelMtls"] = {str(p): {"mode": mode} for p in workload_ports}
        else:
            peer["mtls"] = {"mode": mode}
        replacement.append(("PeerAuthentication", peer))
    origins = [o for o in (_get(spec, "origins") or []) if isinstance(o, dict)]  # type: ignore[union-attr]
    jwts = [o["jwt"] for o in origins if isinstance(o.get("jwt"), dict)]
    if jwts:
        rules = [_jwt_rule(j, len(jwts), problems) for j in jwts]  # type: ignore[arg-type]
        optional = bool(_get(spec, "originIsOptional"))
        for s in selectors:
            request: dict[str, Data] = {}
            if "selector" in s:
                request["selector"] = s["selector"]
            request["jwtRules"] = [r for r, _paths in rules]
            replacement.append(("RequestAuthentication", request))
            if not optional:
                replacement.append(("AuthorizationPolicy", _require_jwt(s, rules)))
    return replacement, problems


def _mtls_mode(spec: dict[str, Data], problems: list[str]) -> str:
    """``extractMTLS``: the first peer method's mTLS mode; unset or PERMISSIVE → PERMISSIVE."""
    peers = _get(spec, "peers")
    if not isinstance(peers, list) or not peers:
        return "PERMISSIVE"
    first = peers[0]
    mtls = first.get("mtls") if isinstance(first, dict) else None
    if isinstance(mtls, dict):
        # MutualTls.Mode: STRICT is the proto enum's zero value, so ``mtls: {}`` is STRICT.
        mode = mtls.get("mode")
        if mode in (None, "", "STRICT"):
            return "STRICT"
        if mode == "PERMISSIVE":
            return "PERMISSIVE"
        problems.append(f"mTLS mode {mode} has no equivalent")
        return "PERMISSIVE"
    problems.append("a peer method other than mtls (jwt is not a peer method in the beta APIs)")
    return "PERMISSIVE"


def _jwt_rule(jwt: dict[str, Data], issuers: int, problems: list[str]) -> tuple[dict[str, Data], list[list[str]]]:
    rule: dict[str, Data] = {}
    for key in ("issuer", "audiences", "jwksUri", "jwks"):
        value = _get(jwt, key)
        if value:
            rule[key] = value
    params = _get(jwt, "jwtParams")
    if params:
        rule["fromParams"] = params
    headers = _get(jwt, "jwtHeaders")
    if isinstance(headers, list) and headers:
        rule["fromHeaders"] = [{"name": h} for h in headers]
    rule["forwardOriginalToken"] = True  # the alpha API forwarded the token (a3054f2)
    triggers = [t for t in (_get(jwt, "triggerRules") or []) if isinstance(t, dict)]  # type: ignore[union-attr]
    paths: list[list[str]] = []
    if triggers and issuers > 1:
        problems.append("triggerRules with several JWT issuers")
    for trigger in triggers:
        include = _paths(_get(trigger, "includedPaths"), problems)
        exclude = _paths(_get(trigger, "excludedPaths"), problems)
        paths.append(["include", *include] if include else [])
        paths.append(["exclude", *exclude] if exclude else [])
    return rule, paths


def _paths(matchers: Data, problems: list[str]) -> list[str]:
    out: list[str] = []
    for m in matchers if isinstance(matchers, list) else []:
        if not isinstance(m, dict):
            continue
        if m.get("exact"):
            out.append(str(m["exact"]))
        elif m.get("prefix"):
            out.append(f"{m['prefix']}*")
        elif m.get("suffix"):
            out.append(f"*{m['suffix']}")
        elif m.get("regex"):
            problems.append(f"triggerRules regex {m['regex']!r} (the beta APIs match exact, prefix and suffix paths)")
    return out


def _require_jwt(selector: dict[str, Data], rules: list[tuple[dict[str, Data], list[list[str]]]]) -> dict[str, Data]:
    """``convertJWT``: a DENY policy for requests without a principal (one rule per trigger rule)."""
    policy: dict[str, Data] = {}
    if "selector" in selector:
        policy["selector"] = selector["selector"]
    policy["action"] = "DENY"
    deny: list[Data] = []
    triggers = rules[0][1] if len(rules) == 1 else []
    pairs = list(zip(triggers[0::2], triggers[1::2], strict=False)) or [([], [])]
    for include, exclude in pairs:
        rule: dict[str, Data] = {"from": [{"source": {"notRequestPrincipals": ["*"]}}]}
        operation: dict[str, Data] = {}
        if include:
            operation["paths"] = list[Data](include[1:])
        if exclude:
            operation["notPaths"] = list[Data](exclude[1:])
        ports = selector.get("ports")
        if isinstance(ports, list):
            operation["ports"] = ports
        if operation:
            rule["to"] = [{"operation": operation}]
        deny.append(rule)
    policy["rules"] = deny
    return policy


def report_policy_replacement(obj: Mapping, ctx: Context) -> None:
    """The replacement of an alpha authentication Policy, as a finding a human can act on."""
    data = obj.to_data()
    if not isinstance(data, dict):
        return
    kind = text(obj.get("kind")) or "Policy"
    replacement, problems = policy_replacement(data)
    where = "in the mesh root namespace (istio-system by default)" if kind == "MeshPolicy" else "in its namespace"
    objects = "; ".join(f"{k} {flow(spec)}" for k, spec in replacement)
    ctx.warn(
        "K8SM-IST-001",
        f"{kind} authentication.istio.io/v1alpha1 has no effect since Istio 1.6: write instead, {where}, "
        f"security.istio.io/v1 {objects}",
        obj,
    )
    for problem in problems:
        ctx.warn("K8SM-IST-002", f"{kind}: {problem}; convert that part by hand", obj)


TELEMETRY_NOT_PROMOTED = {
    ("metrics", "reportingInterval"),
    ("accessLogging", "filter"),
    ("tracing", "useRequestIdForTraceSampling"),
}
"""Fields istio/api marks ``releaseChannel:extended`` in ``telemetry/v1alpha1/telemetry.proto``: not
part of the v1 promise (istio.io blog "Introducing Istio v1 APIs", 2024), though the v1 CRD still
accepts them."""


def telemetry_extended_fields(obj: Mapping, ctx: Context) -> None:
    spec = obj.mapping("spec")
    if spec is None:
        return
    for section, field in sorted(TELEMETRY_NOT_PROMOTED):
        items = spec.get(section)
        data = items.to_data() if items is not None else None
        if isinstance(data, list) and any(isinstance(i, dict) and field in i for i in data):
            ctx.warn(
                "K8SM-IST-003",
                f"spec.{section}[].{field} was not promoted to telemetry.istio.io/v1 (an extended-channel field): "
                "it may change or go without the v1 deprecation policy",
                items,
            )
