"""cert-manager field conversions, from its own conversion functions.

Sources (cert-manager/cert-manager):

- v1alpha2/v1alpha3/v1beta1 → v1: the hand-written converters of release 1.15 (the last one that
  still had them, removed in f17b4364): ``internal/apis/certmanager/{v1alpha2,v1alpha3,v1beta1}/
  conversion.go`` · ``Convert_v1alpha2_CertificateSpec_To_certmanager_CertificateSpec``,
  ``Convert_v1alpha2_CertificateRequestSpec_To_certmanager_CertificateRequestSpec`` (and their
  v1alpha3/v1beta1 twins); ``internal/apis/acme/{v1alpha2,v1alpha3}/conversion.go`` ·
  ``Convert_v1alpha2_ChallengeSpec_To_acme_ChallengeSpec``, ``Convert_v1alpha2_OrderSpec_To_acme_OrderSpec``.
  The DNS01 provider keys were renamed by JSON tag only (b57088a3, ``ACMEChallengeSolverDNS01`` in
  ``pkg/apis/acme/{v1alpha2,v1alpha3}/types_issuer.go`` vs ``v1beta1``), which conversion-gen maps
  without code.
- certmanager.k8s.io/v1alpha1 (≤ 0.10) → cert-manager.io/v1alpha2 (0.11): the field diff of
  ``pkg/apis/certmanager/v1alpha1`` at v0.10.0 against ``pkg/apis/{certmanager,acme}/v1alpha2`` at
  v0.11.0, and how 0.10 read the old ("pre-0.8") solver format: ``pkg/issuer/acme/http/http.go`` ·
  ``httpDomainCfgForChallenge`` (ingress name and class from the Certificate, service type from the
  issuer) and ``pkg/issuer/acme/dns/dns.go`` · ``extractChallengeSolverConfigOldOrNew`` (the named
  provider of the issuer, as a solver).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.scalars import Data
from k8smigrate.tree import Entry, Mapping, Node, Scalar, Sequence, resolve

from .edits import is_empty, rename, text
from .sketch import flow

# Codes: what each finding means is declared with the steps (migrations/*certmanager*).
BOTH = Code("K8SM-CM-001", "error", "an old field and its replacement are both set")
KEY_VALUE = Code("K8SM-CM-002", "warning", "a private key algorithm or encoding v1 does not accept")
NOT_A_LIST = Code("K8SM-CM-003", "error", "a field that must be a list (organization) is not one")
OLD_SOLVER_DROPPED = Code(
    "K8SM-CM-004", "warning", "Certificate spec.acme (old solver format) removed; write it on the issuer"
)
OLD_ISSUER_CONVERTED = Code("K8SM-CM-005", "info", "old-format issuer http01/dns01 → solvers")
OLD_ISSUER_AMBIGUOUS = Code(
    "K8SM-CM-006", "error", "old-format issuer with several solvers: which domain used which is unknown"
)
OLD_ISSUER_DROPPED = Code("K8SM-CM-007", "warning", "old-format issuer fields that had no effect since 0.11 removed")
OLD_CONFIG_DROPPED = Code("K8SM-CM-008", "info", "Order/Challenge spec.config removed (controller-written)")
CHALLENGE_TYPE = Code("K8SM-CM-009", "warning", "a Challenge type v1 does not know")
OLD_WINS = Code("K8SM-CM-016", "warning", "an old field replaces the new one already there (the converter lets it win)")

KEY_ALGORITHMS = {"rsa": "RSA", "ecdsa": "ECDSA"}
KEY_ENCODINGS = {"pkcs1": "PKCS1", "pkcs8": "PKCS8"}
V1_ALGORITHMS = frozenset({"RSA", "ECDSA", "Ed25519"})
V1_ENCODINGS = frozenset({"PKCS1", "PKCS8"})
DNS01_KEYS = {"clouddns": "cloudDNS", "azuredns": "azureDNS", "acmedns": "acmeDNS"}
"""``ACMEChallengeSolverDNS01`` JSON keys of v1alpha2/v1alpha3 → v1beta1 and v1."""
CHALLENGE_TYPES = {"http-01": "HTTP-01", "dns-01": "DNS-01"}
DNS01_PROVIDERS = (
    "akamai",
    "clouddns",
    "cloudflare",
    "route53",
    "azuredns",
    "digitalocean",
    "acmedns",
    "rfc2136",
    "webhook",
)
"""The providers of the old issuer format (``ACMEIssuerDNS01Provider`` at v0.10.0)."""

# ------------------------------------------------------------------ Certificate


def certificate_to_v1(cert: Mapping, ctx: Context, *, key_fields: bool, organization: bool) -> None:
    """``Convert_v1alpha2_CertificateSpec_To_certmanager_CertificateSpec`` and its v1alpha3/v1beta1 twins.

    ``key_fields``: v1alpha2/v1alpha3 ``keyAlgorithm``/``keyEncoding``/``keySize`` → ``privateKey``;
    ``organization``: v1alpha2's top-level ``organization`` → ``subject.organizations``.
    """
    spec = cert.mapping("spec")
    if spec is None:
        return
    if key_fields:
        _private_key(spec, ctx)
    if organization:
        _organization(spec, ctx)
    rename(spec, "emailSANs", "emailAddresses", ctx, BOTH.code, "spec.")
    rename(spec, "uriSANs", "uris", ctx, BOTH.code, "spec.")
    drop_old_certificate_acme(spec, ctx, since="0.11")


_KEY_FIELDS = (
    ("keyAlgorithm", "algorithm", KEY_ALGORITHMS, V1_ALGORITHMS),
    ("keyEncoding", "encoding", KEY_ENCODINGS, V1_ENCODINGS),
    ("keySize", "size", None, None),
)


def _private_key(spec: Mapping, ctx: Context) -> None:
    """keyAlgorithm/keyEncoding/keySize → privateKey.algorithm/encoding/size, values upper-cased.

    Upstream sets the three only when one of them is non-empty, and Go's zero values are left
    out of the JSON: empty ones are dropped.
    """
    present = [name for name, *_ in _KEY_FIELDS if name in spec]
    if not present:
        return
    at = min(i for name in present if (i := spec.index(name)) is not None)
    if all(is_empty(spec.get(name)) for name in present):
        for name in present:
            spec.pop(name)
            ctx.note(f"spec.{name} (empty) removed")
        return
    private_key = spec.get("privateKey")
    if private_key is not None and not isinstance(resolve(private_key), Mapping):
        ctx.error("K8SM-CM-001", "spec.privateKey is not a mapping; cannot move the key settings into it", private_key)
        return
    target = resolve(private_key) if private_key is not None else Mapping()
    assert isinstance(target, Mapping)
    fields = {f[0]: f for f in _KEY_FIELDS}
    for old in sorted(present, key=lambda name: spec.index(name) or 0):  # in the order they were written
        _old, new, values, accepted = fields[old]
        node = spec.get(old)
        if node is None:
            continue
        if is_empty(node):
            spec.pop(old)
            ctx.note(f"spec.{old} (empty) removed")
            continue
        if new in target:
            ctx.warn("K8SM-CM-016", f"spec.{old} replaces spec.privateKey.{new} (the converter lets it win)", node)
        value = text(node)
        if values is not None and value is not None:
            mapped = values.get(value, value)
            if mapped != value:
                resolved = resolve(node)
                assert isinstance(resolved, Scalar)
                resolved.set(mapped)
            if accepted is not None and mapped not in accepted:
                ctx.warn(
                    "K8SM-CM-002", f"spec.{old}: {value!r} is not one of {', '.join(sorted(accepted))} in v1", node
                )
        target.pop(new)
        spec.move_to(old, target, new)
        ctx.note(f"spec.{old} → spec.privateKey.{new}")
    if private_key is None:
        spec.insert(Entry(Scalar("privateKey"), target), at=at)


def _organization(spec: Mapping, ctx: Context) -> None:
    """v1alpha2 ``organization`` → ``subject.organizations`` (only a non-empty list is copied)."""
    node = spec.get("organization")
    if node is None:
        return
    values = resolve(node)
    if is_empty(values):
        spec.pop("organization")
        ctx.note("spec.organization (empty) removed")
        return
    if not isinstance(values, Sequence):
        ctx.error("K8SM-CM-003", "spec.organization is not a list", node)
        return
    subject = spec.get("subject")
    if subject is not None and not isinstance(resolve(subject), Mapping):
        ctx.error("K8SM-CM-001", "spec.subject is not a mapping; cannot move spec.organization into it", subject)
        return
    if subject is None:
        at = spec.index("organization")
        new = Mapping()
        spec.move("organization", new, "organizations")
        spec.insert(Entry(Scalar("subject"), new), at=at)
    else:
        target = resolve(subject)
        assert isinstance(target, Mapping)
        if "organizations" in target:
            ctx.warn(
                "K8SM-CM-016", "spec.organization replaces spec.subject.organizations (the converter lets it win)", node
            )
            target.pop("organizations")
        spec.move_to("organization", target, "organizations")
    ctx.note("spec.organization → spec.subject.organizations")


def drop_old_certificate_acme(spec: Mapping, ctx: Context, since: str) -> None:
    """Certificate ``spec.acme`` (the solver format before 0.8): gone in 0.11; say what the issuer needs.

    0.10 built each challenge's solver from the Certificate's ``acme.config`` entry for the domain
    and the issuer (``httpDomainCfgForChallenge``, ``extractChallengeSolverConfigOldOrNew``). The
    equivalent is one issuer solver per entry, selected by its domains.
    """
    acme = spec.get("acme")
    if acme is None:
        return
    solvers = [solver_for_domains(c) for c in mappings_at(acme, "config")]
    issuer = spec.mapping("issuerRef")
    name = text(issuer.get("name")) if issuer is not None else None
    kind = (text(issuer.get("kind")) if issuer is not None else None) or "Issuer"
    on = f"{kind} {name}" if name else "the issuer"
    spec.pop("acme")
    ctx.note("spec.acme removed")
    what = "; ".join(flow(s) for s in solvers) if solvers else "(spec.acme had no config)"
    ctx.warn(
        "K8SM-CM-004",
        f"spec.acme removed: cert-manager {since} and later read solvers from the issuer only; "
        f"add to {on} spec.acme.solvers: {what}",
        spec,
    )


def solver_for_domains(config: Mapping) -> dict[str, Data]:
    """The issuer solver equivalent to one old ``acme.config`` entry (``DomainSolverConfig``)."""
    solver: dict[str, Data] = {}
    domains = config.data("domains")
    if domains:
        solver["selector"] = {"dnsNames": domains}
    http01 = config.mapping("http01")
    if http01 is not None:
        ingress: dict[str, Data] = {}
        if http01.data("ingress"):
            ingress["name"] = http01.data("ingress")
        if http01.data("ingressClass"):
            ingress["class"] = http01.data("ingressClass")
        solver["http01"] = {"ingress": ingress}
    dns01 = config.mapping("dns01")
    if dns01 is not None:
        solver["dns01"] = f"<provider {dns01.data('provider')} of the issuer>"
    return solver


# ------------------------------------------------------------------ CertificateRequest, Order, Challenge


def csr_to_request(obj: Mapping, ctx: Context) -> None:
    """``spec.csr`` → ``spec.request`` (``out.Request = in.CSRPEM`` / ``in.CSR``)."""
    spec = obj.mapping("spec")
    if spec is not None:
        rename(spec, "csr", "request", ctx, BOTH.code, "spec.")


def drop_old_config(obj: Mapping, ctx: Context) -> None:
    """Order/Challenge ``spec.config`` (old solver format, written by the 0.10 controller): gone in 0.11."""
    spec = obj.mapping("spec")
    if spec is not None and "config" in spec:
        spec.pop("config")
        ctx.note("spec.config removed")
        ctx.info("K8SM-CM-008", "spec.config removed: the old solver format ended with cert-manager 0.11", spec)


def challenge_to_v1(obj: Mapping, ctx: Context, *, dns01_keys: bool) -> None:
    """``Convert_v1alpha2_ChallengeSpec_To_acme_ChallengeSpec``: authzURL, type values, solver keys."""
    spec = obj.mapping("spec")
    if spec is None:
        return
    rename(spec, "authzURL", "authorizationURL", ctx, BOTH.code, "spec.")
    kind = spec.get("type")
    value = text(kind)
    if value is not None and kind is not None:
        if value in CHALLENGE_TYPES:
            resolved = resolve(kind)
            assert isinstance(resolved, Scalar)
            resolved.set(CHALLENGE_TYPES[value])
            ctx.note(f"spec.type {value} → {CHALLENGE_TYPES[value]}")
        elif value not in CHALLENGE_TYPES.values():
            ctx.warn("K8SM-CM-009", f"spec.type {value!r} is neither HTTP-01 nor DNS-01; copied as it is", kind)
    if dns01_keys:
        for dns01 in mappings_at(spec, "solver", "dns01"):
            _dns01_keys(dns01, ctx, "spec.solver.dns01.")


# ------------------------------------------------------------------ Issuer, ClusterIssuer


def issuer_to_v1(issuer: Mapping, ctx: Context, *, dns01_keys: bool) -> None:
    """The issuer conversions to v1: DNS01 provider keys, and old-format fields dropped."""
    acme = _acme(issuer)
    if acme is None:
        return
    if dns01_keys:
        for dns01 in mappings_at(acme, "solvers", "dns01"):
            _dns01_keys(dns01, ctx, "spec.acme.solvers[].dns01.")
    drop_old_issuer_format(acme, ctx)


def _dns01_keys(dns01: Mapping, ctx: Context, where: str) -> None:
    for old, new in DNS01_KEYS.items():
        rename(dns01, old, new, ctx, BOTH.code, where)


def _acme(issuer: Mapping) -> Mapping | None:
    spec = issuer.mapping("spec")
    return spec.mapping("acme") if spec is not None else None


def drop_old_issuer_format(acme: Mapping, ctx: Context) -> None:
    """``acme.http01``/``acme.dns01`` of a v1alpha2+ issuer: ignored since 0.11, not in v1; removed.

    The warning gives the solvers they meant, to be written by hand if they are still wanted
    (converting them would switch on solvers the issuer has not had since 0.11).
    """
    old = [k for k in ("http01", "dns01") if k in acme]
    if not old:
        return
    meant = old_format_solvers(acme)
    for key in old:
        acme.pop(key)
        ctx.note(f"spec.acme.{key} removed")
    has = "this issuer has solvers" if "solvers" in acme else "this issuer has no solvers and cannot issue"
    ctx.warn(
        "K8SM-CM-007",
        f"spec.acme.{' and '.join(old)} (the solver format before 0.8) removed: cert-manager ignores them since 0.11 "
        f"and v1 rejects them; {has}. They meant spec.acme.solvers: {flow([s for _n, s in meant])}",
        acme,
    )


def old_format_solvers(acme: Mapping) -> list[tuple[str, dict[str, Data]]]:
    """``(what, solver)`` for each solver of the old issuer format, as 0.10 built them."""
    out: list[tuple[str, dict[str, Data]]] = []
    http01 = acme.get("http01")
    if http01 is not None:
        service_type = resolve(http01).to_data()
        ingress = (
            {"serviceType": service_type["serviceType"]}
            if isinstance(service_type, dict) and service_type.get("serviceType")
            else {}
        )
        out.append(("http01", {"http01": {"ingress": ingress}}))
    for provider in mappings_at(acme, "dns01", "providers"):
        data = provider.to_data()
        assert isinstance(data, dict)
        name = data.pop("name", None)
        out.append((f"dns01 provider {name}", {"dns01": data}))
    return out


def convert_old_issuer_format(issuer: Mapping, ctx: Context) -> None:
    """The 0.10 issuer's ``acme.http01``/``acme.dns01.providers`` → ``acme.solvers`` (0.11).

    In 0.10 each Certificate picked, per domain, HTTP01 or a named DNS01 provider. With one
    old-format solver only, a solver without selector is the same; with several, only the
    Certificates know which domain used which (K8SM-CM-006: the document is left as it is).
    Existing ``solvers`` were used by the Certificates without ``spec.acme``; the old fields
    are then dropped (K8SM-CM-007): after 0.11 every Certificate goes through ``solvers``.
    """
    acme = _acme(issuer)
    if acme is None or not ("http01" in acme or "dns01" in acme):
        return
    if "solvers" in acme:
        drop_old_issuer_format(acme, ctx)
        return
    meant = old_format_solvers(acme)
    if len(meant) > 1:
        ctx.error(
            "K8SM-CM-006",
            "the old solver format with several solvers ("
            + ", ".join(n for n, _s in meant)
            + "): each Certificate chose per domain; write spec.acme.solvers with a selector each, from: "
            + flow([s for _n, s in meant]),
            acme,
        )
        return
    at = min(i for k in ("http01", "dns01") if (i := acme.index(k)) is not None)
    solvers = Sequence()
    if "http01" in acme:
        entry = acme.pop("http01")
        assert entry is not None
        ingress = resolve(entry.value)
        if not isinstance(ingress, Mapping):
            ingress = Mapping()
        solvers.append(Mapping.of({"http01": Mapping.of({"ingress": ingress})}))
        ctx.note("spec.acme.http01 → spec.acme.solvers[0].http01.ingress")
    else:
        entry = acme.pop("dns01")
        assert entry is not None
        provider = mappings_at(entry.value, "providers")
        if provider:
            provider[0].pop("name")
            solvers.append(Mapping.of({"dns01": provider[0]}))
        ctx.note("spec.acme.dns01.providers[0] → spec.acme.solvers[0].dns01")
    acme.insert(Entry(Scalar("solvers"), solvers), at=at)
    ctx.info(
        "K8SM-CM-005",
        f"spec.acme.{meant[0][0].split()[0]} (the solver format before 0.8) → spec.acme.solvers; "
        "the Ingress name or class the Certificates' spec.acme.config named now belong on this solver",
        acme,
    )


# ------------------------------------------------------------------ annotations and labels of the old group

OLD_GROUP = "certmanager.k8s.io/"
ANNOTATIONS = {
    # hack/api-migration/main.go · migrations (v0.11.0)
    "certmanager.k8s.io/acme-http01-edit-in-place": "acme.cert-manager.io/http01-edit-in-place",
    "certmanager.k8s.io/acme-http01-ingress-class": "acme.cert-manager.io/http01-ingress-class",
    "certmanager.k8s.io/issuer": "cert-manager.io/issuer",
    "certmanager.k8s.io/cluster-issuer": "cert-manager.io/cluster-issuer",
    "certmanager.k8s.io/alt-names": "cert-manager.io/alt-names",
    "certmanager.k8s.io/ip-sans": "cert-manager.io/ip-sans",
    "certmanager.k8s.io/common-name": "cert-manager.io/common-name",
    "certmanager.k8s.io/issuer-name": "cert-manager.io/issuer-name",
    "certmanager.k8s.io/issuer-kind": "cert-manager.io/issuer-kind",
    "certmanager.k8s.io/certificate-name": "cert-manager.io/certificate-name",
    # cainjector and CertificateRequest constants: pkg/apis/certmanager/v1alpha1/types.go (v0.10.0)
    # → pkg/apis/certmanager/v1alpha2/types.go (v0.11.0)
    "certmanager.k8s.io/inject-ca-from": "cert-manager.io/inject-ca-from",
    "certmanager.k8s.io/inject-apiserver-ca": "cert-manager.io/inject-apiserver-ca",
    "certmanager.k8s.io/inject-ca-from-secret": "cert-manager.io/inject-ca-from-secret",
    "certmanager.k8s.io/allow-direct-injection": "cert-manager.io/allow-direct-injection",
    "certmanager.k8s.io/private-key-secret-name": "cert-manager.io/private-key-secret-name",
}
"""Annotations of the old group → the ones cert-manager 0.11 reads."""
DELETED_ANNOTATIONS = frozenset({"certmanager.k8s.io/acme-challenge-type", "certmanager.k8s.io/acme-dns01-provider"})
"""Read by the old solver format only (hack/api-migration/main.go · deprecations: the tool deletes them)."""
LABELS = {
    # pkg/issuer/acme/http/http.go (v0.10.0 → v0.11.0): labels of the HTTP01 solver pods and services
    "certmanager.k8s.io/acme-http-domain": "acme.cert-manager.io/http-domain",
    "certmanager.k8s.io/acme-http-token": "acme.cert-manager.io/http-token",
    "certmanager.k8s.io/acme-http01-solver": "acme.cert-manager.io/http01-solver",
}
"""Labels the 0.11 controller puts on its solver pods: selectors (NetworkPolicy…) must use these."""

ANNOTATION_RENAMED = Code("K8SM-CM-010", "info", "an annotation of the old group renamed")
ANNOTATION_DELETED = Code("K8SM-CM-011", "info", "an annotation only the old solver format read, removed")
ANNOTATION_UNKNOWN = Code("K8SM-CM-012", "warning", "another key of the old group, left as it is")
ANNOTATION_CONFLICT = Code("K8SM-CM-013", "warning", "old and new annotation with different values")
LABEL_RENAMED = Code("K8SM-CM-014", "info", "a solver label key renamed in a selector or label set")


def old_group_keys(obj: Mapping, ctx: Context) -> None:
    """Annotations and solver labels of ``certmanager.k8s.io`` → their 0.11 names, in any object."""
    for found in mappings_at(obj, "metadata", "annotations"):
        for key in [k for k in found if k.startswith(OLD_GROUP)]:
            _annotation(found, key, ctx)
    _labels(obj, ctx)


def _annotation(annotations: Mapping, key: str, ctx: Context) -> None:
    node = annotations.get(key)
    if key in DELETED_ANNOTATIONS:
        annotations.pop(key)
        ctx.note(f"annotation {key} removed")
        ctx.info("K8SM-CM-011", f"annotation {key} removed: only the solver format before 0.8 read it", annotations)
        return
    new = ANNOTATIONS.get(key)
    if new is None:
        ctx.warn("K8SM-CM-012", f"annotation {key}: cert-manager 0.11 and later do not read it; left as it is", node)
        return
    if new in annotations:
        same = resolve(annotations.get(new) or Mapping()).to_data() == resolve(node or Mapping()).to_data()
        if not same:
            ctx.warn("K8SM-CM-013", f"annotations {key} and {new} differ; cert-manager reads only {new}", node)
            return
        annotations.pop(key)
        ctx.note(f"annotation {key} removed ({new} is set)")
        return
    annotations.rename(key, new)
    ctx.note(f"annotation {key} → {new}")
    ctx.info("K8SM-CM-010", f"annotation {key} → {new}", node)


def _labels(obj: Mapping, ctx: Context) -> None:
    """Solver label keys wherever a label set or a selector names them."""
    stack: list[Node] = [obj]
    while stack:
        node = resolve(stack.pop())
        if isinstance(node, Sequence):
            stack.extend(node)
            continue
        if not isinstance(node, Mapping):
            continue
        for key in [k for k in node if k in LABELS]:
            if LABELS[key] in node:
                continue
            node.rename(key, LABELS[key])
            ctx.note(f"label {key} → {LABELS[key]}")
            ctx.info("K8SM-CM-014", f"label {key} → {LABELS[key]} (the label the 0.11 solver pods carry)", node)
        if text(node.get("key")) in LABELS and "operator" in node:
            key_node = resolve(node.get("key") or Mapping())
            assert isinstance(key_node, Scalar)
            old = str(key_node.data)
            key_node.set(LABELS[old])
            ctx.note(f"label {old} → {LABELS[old]}")
            ctx.info("K8SM-CM-014", f"label {old} → {LABELS[old]} (the label the 0.11 solver pods carry)", key_node)
        stack.extend(e.value for e in node.entries if e.name != "annotations")


# ------------------------------------------------------------------ fields no version had

SPEC_FIELDS = {
    "Certificate": frozenset(
        [
            "additionalOutputFormats",
            "commonName",
            "dnsNames",
            "duration",
            "emailAddresses",
            "encodeUsagesInRequest",
            "ipAddresses",
            "isCA",
            "issuerRef",
            "keystores",
            "literalSubject",
            "nameConstraints",
            "otherNames",
            "privateKey",
            "renewBefore",
            "renewBeforePercentage",
            "renewal",
            "revisionHistoryLimit",
            "secretName",
            "secretTemplate",
            "signatureAlgorithm",
            "subject",
            "uris",
            "usages",
        ]
    ),
    "CertificateRequest": frozenset(
        ["duration", "extra", "groups", "isCA", "issuerRef", "request", "uid", "usages", "username"]
    ),
    "Issuer": frozenset(["acme", "ca", "selfSigned", "vault", "venafi"]),
    "ClusterIssuer": frozenset(["acme", "ca", "selfSigned", "vault", "venafi"]),
    "Order": frozenset(
        ["commonName", "dnsNames", "duration", "ipAddresses", "issuerRef", "profile", "replaces", "request"]
    ),
    "Challenge": frozenset(
        ["authorizationURL", "dnsName", "issuerRef", "key", "solver", "token", "type", "url", "wildcard"]
    ),
}
"""The ``spec`` fields of the v1 kinds (``pkg/apis/certmanager/v1`` and ``pkg/apis/acme/v1`` at 2d0d7f7f:
``CertificateSpec``, ``CertificateRequestSpec``, ``IssuerConfig``, ``OrderSpec``, ``ChallengeSpec``)."""
UNKNOWN_FIELD = Code(
    "K8SM-CM-015", "warning", "a spec field no cert-manager version has, removed (the API server prunes it)"
)


def drop_unknown_spec_fields(obj: Mapping, ctx: Context) -> None:
    """Remove what v1's structural schema prunes anyway, so that the object validates strictly.

    Runs after the renames: anything left that v1 does not know was never read by cert-manager
    (a typo, or a field of another tool); the CRDs of the old versions did not prune it.
    """
    kind = text(obj.get("kind"))
    spec = obj.mapping("spec")
    known = SPEC_FIELDS.get(kind or "")
    if spec is None or known is None:
        return
    for key in [k for k in spec if k not in known]:
        node = spec.get(key)
        spec.pop(key)
        ctx.note(f"spec.{key} removed")
        ctx.warn(
            "K8SM-CM-015",
            f"spec.{key} is not a field of {kind} in any cert-manager version: cert-manager never read it and "
            "the v1 API prunes it; removed",
            node if node is not None and node.line else spec,
        )


# ------------------------------------------------------------------ the rotation policy default of 1.18

ROTATION_POLICY = Code("K8SM-CM-017", "info", "privateKey.rotationPolicy: Never pinned (the default before 1.18)")


def pin_rotation_policy(cert: Mapping, ctx: Context) -> None:
    """Write ``privateKey.rotationPolicy: Never`` where it is absent: 1.18 made ``Always`` the default.

    ``internal/apis/certmanager/v1/defaults.go`` · ``SetRuntimeDefaults_Certificate`` (1.18): an empty
    policy becomes ``Always`` unless the controller runs with the feature gate
    ``DefaultPrivateKeyRotationPolicyAlways=false``; before 1.18 it was ``Never``.
    """
    spec = cert.mapping("spec")
    if spec is None:
        return
    private_key = spec.get("privateKey")
    if private_key is not None and not isinstance(resolve(private_key), Mapping):
        return
    target = resolve(private_key) if private_key is not None else None
    if isinstance(target, Mapping) and "rotationPolicy" in target:
        return
    why = "cert-manager 1.18 made Always the default: a new private key at every renewal"
    if ctx.adopt_new_defaults:
        ctx.info("K8SM-GEN-002", f"spec.privateKey.rotationPolicy left unset: {why}", spec)
        return
    if not isinstance(target, Mapping):
        target = Mapping()
        spec.set("privateKey", target, after="secretName" if "secretName" in spec else None)
    target.set("rotationPolicy", "Never")
    ctx.note("spec.privateKey.rotationPolicy: Never pinned")
    ctx.info("K8SM-CM-017", f"spec.privateKey.rotationPolicy: Never pinned (the default before 1.18; {why})", target)
