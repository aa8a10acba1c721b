"""CertificateSigningRequest ``certificates.k8s.io/v1beta1`` → ``certificates.k8s.io/v1``.

v1 requires two fields that v1beta1 defaulted (``SetDefaults_CertificateSigningRequestSpec`` in
``pkg/apis/certificates/v1beta1/defaults.go``):

- ``spec.usages`` absent: v1beta1 used ``[digital signature, key encipherment]``; that list is written
  (K8SM-CSR-003). An empty list was kept empty by v1beta1 and v1 rejects it, as it rejects unknown or
  repeated usages (K8SM-CSR-004).
- ``spec.signerName`` absent: computed from ``spec.request`` exactly as ``DefaultSignerNameFromSpec`` does,
  after the usages default. The request is base64 of a PEM ``CERTIFICATE REQUEST``. With Organization
  exactly ``[system:nodes]`` and a CN starting with ``system:node:``, it is
  ``kubernetes.io/kube-apiserver-client-kubelet`` when it has no DNS, email, IP or URI SANs and usages
  ``{digital signature, (key encipherment,) client auth}``, and ``kubernetes.io/kubelet-serving`` when it
  has a DNS or IP SAN, no email or URI SAN, and usages ``{digital signature, (key encipherment,) server
  auth}`` (``IsKubeletClientCSR`` / ``IsKubeletServingCSR`` in ``pkg/apis/certificates/helpers.go``). The
  result is written (K8SM-CSR-006).
- Anything else is ``kubernetes.io/legacy-unknown``, which v1 forbids on create: a decision, ``--set
  signerName=kubernetes.io/kube-apiserver-client`` (usages must then include ``client auth``),
  ``…-client-kubelet`` or ``kubernetes.io/kubelet-serving``; written with K8SM-CSR-001. Note the trap: a CSR
  without usages gets ``[digital signature, key encipherment]``, which matches neither kubelet signer. For a
  custom signer, write ``spec.signerName`` in the manifest: an explicit signerName is kept.

The chosen signer must accept the request, or kube-controller-manager marks the approved CSR
``Failed`` (``SignerValidationFailure``) and never signs it (``signer.handle`` and
``getCSRVerificationFuncForSignerName`` in ``pkg/controller/certificates/signer/signer.go``):
``kube-apiserver-client`` takes only ``digital signature``, ``key encipherment`` and
``client auth``, and needs ``client auth`` (``validAPIServerClientUsages``); the kubelet
signers need Organization exactly ``[system:nodes]``, a CN starting with ``system:node:``,
their SAN rules and exactly their usage sets (``ValidateKubeletClientCSR`` /
``ValidateKubeletServingCSR`` in ``pkg/apis/certificates/helpers.go``, the same rules that
``DefaultSignerNameFromSpec`` applies, so a CSR that defaulted to legacy-unknown never fits
a kubelet signer unless its signerName was written by hand). A ``--set signerName`` that its
signer would refuse is an error naming the rule (K8SM-CSR-008); the document is left
unchanged. Approval is a separate step: the ``csrapproving`` controller auto-approves only
kubelet client CSRs; a ``kube-apiserver-client`` CSR waits for ``kubectl certificate approve``.

A request that is not base64 of a parsable, correctly signed PEM ``CERTIFICATE REQUEST`` is
rejected by every API version (K8SM-CSR-002). Parsing needs the optional dependency
``cryptography`` (``pip install 'k8smigrate[crypto]'``); without it a CSR whose signerName must
be computed is left unchanged with K8SM-CSR-005. ``status.conditions[].status`` defaulted to
``True`` and is required in v1 (K8SM-CSR-007). Approved and issued CSRs are cluster state:
regenerating them is usually better than migrating them.
"""

from __future__ import annotations

import base64
import binascii
import re

from k8smigrate.codes import DECISION_NEEDED, Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.dataclasscode import dataclass
from k8smigrate.decisions import Decision
from k8smigrate.model import Step
from k8smigrate.regexcode import regex
from k8smigrate.tree import Mapping, Node, Scalar, Sequence

LEGACY_UNKNOWN = "kubernetes.io/legacy-unknown"
KUBELET_CLIENT = "kubernetes.io/kube-apiserver-client-kubelet"
KUBELET_SERVING = "kubernetes.io/kubelet-serving"
API_CLIENT = "kubernetes.io/kube-apiserver-client"
DEFAULT_USAGES = ["digital signature", "key encipherment"]
CLIENT_USAGES = [
    {"digital signature", "key encipherment", "client auth"},
    {"digital signature", "client auth"},
]
SERVING_USAGES = [
    {"digital signature", "key encipherment", "server auth"},
    {"digital signature", "server auth"},
]
# allValidUsages in pkg/apis/certificates/validation/validation.go
KNOWN_USAGES = frozenset(
    {
        "signing", "digital signature", "content commitment", "key encipherment", "key agreement",
        "data encipherment", "cert sign", "crl sign", "encipher only", "decipher only", "any",
        "server auth", "client auth", "code signing", "email protection", "s/mime",
        "ipsec end system", "ipsec tunnel", "ipsec user", "timestamping", "ocsp signing",
        "microsoft sgc", "netscape sgc",
    }
)  # fmt: skip
# Go's encoding/pem: a BEGIN line, optional "Key: value" headers, base64 lines, the END line.
_PEM_BLOCK = regex(r"(?:^|\n)-----BEGIN ([^\n-][^\n]*?)-----[ \t\r]*\n(.*?)(?:^|\n)-----END \1-----", re.S)


class RequestError(ValueError):
    """spec.request is not a CSR that any API version accepts."""


class MissingCryptography(RuntimeError):
    """The optional dependency that parses CSRs is not installed."""


@dataclass(frozen=True)
class Request:
    """What DefaultSignerNameFromSpec looks at in the parsed CSR."""

    organizations: tuple[str, ...]
    common_name: str
    dns: int
    emails: int
    ips: int
    uris: int


def pem_csr_der(data: bytes) -> bytes:
    """The DER bytes of the first PEM block, which must be a ``CERTIFICATE REQUEST`` (ParseCSR)."""
    text = data.decode("latin-1")
    for match in _PEM_BLOCK.finditer(text):
        lines = [ln.strip() for ln in match.group(2).splitlines()]
        if lines and ":" in lines[0]:  # RFC 1421 headers up to the first blank line
            lines = lines[lines.index("") + 1 :] if "" in lines else []
        try:
            der = base64.b64decode("".join(lines), validate=True)
        except (binascii.Error, ValueError):
            continue  # pem.Decode skips a malformed block and looks further
        if match.group(1) != "CERTIFICATE REQUEST":
            raise RequestError(f"PEM block type must be CERTIFICATE REQUEST, not {match.group(1)!r}")
        return der
    raise RequestError("no PEM block")


def parse_request(encoded: str) -> Request:
    try:
        raw = base64.b64decode(re.sub(r"\s+", "", encoded), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise RequestError("not base64") from exc
    der = pem_csr_der(raw)
    try:
        from cryptography import x509
        from cryptography.x509.oid import NameOID
    except ImportError as exc:
        raise MissingCryptography(str(exc)) from exc
    try:
        csr = x509.load_der_x509_csr(der)
        if not csr.is_signature_valid:
            raise RequestError("the request's signature does not verify")
        try:
            sans = csr.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        except x509.ExtensionNotFound:
            sans = x509.SubjectAlternativeName([])
        orgs = tuple(str(a.value) for a in csr.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME))
        cns = [str(a.value) for a in csr.subject.get_attributes_for_oid(NameOID.COMMON_NAME)]
    except (ValueError, TypeError) as exc:  # cryptography's parse errors
        raise RequestError(f"the request does not parse: {exc}") from exc
    return Request(
        organizations=orgs,
        common_name=cns[-1] if cns else "",  # Go's pkix.Name keeps the last CN
        dns=len(sans.get_values_for_type(x509.DNSName)),
        emails=len(sans.get_values_for_type(x509.RFC822Name)),
        ips=len(sans.get_values_for_type(x509.IPAddress)),
        uris=len(sans.get_values_for_type(x509.UniformResourceIdentifier)),
    )


def default_signer_name(req: Request, usages: set[str]) -> str:
    """DefaultSignerNameFromSpec: the kubelet client and serving patterns, else legacy-unknown."""
    if kubelet_client_refusal(req, usages) is None:
        return KUBELET_CLIENT
    if kubelet_serving_refusal(req, usages) is None:
        return KUBELET_SERVING
    return LEGACY_UNKNOWN


def kubelet_client_refusal(req: Request, usages: set[str]) -> str | None:
    """Why ``ValidateKubeletClientCSR`` refuses the request, or None (upstream's order and words)."""
    if req.organizations != ("system:nodes",):
        return "subject organization is not system:nodes"
    for count, what in ((req.dns, "DNS"), (req.emails, "Email"), (req.ips, "IP"), (req.uris, "URI")):
        if count:
            return f"{what} subjectAltNames are not allowed"
    if not req.common_name.startswith("system:node:"):
        return "subject common name does not begin with system:node:"
    if usages not in CLIENT_USAGES:
        return "usages did not match [client auth digital signature key encipherment]"
    return None


def kubelet_serving_refusal(req: Request, usages: set[str]) -> str | None:
    """Why ``ValidateKubeletServingCSR`` refuses the request, or None (upstream's order and words)."""
    if req.organizations != ("system:nodes",):
        return "subject organization is not system:nodes"
    if not req.dns and not req.ips:
        return "DNS or IP subjectAltName is required"
    if req.emails:
        return "Email subjectAltNames are not allowed"
    if req.uris:
        return "URI subjectAltNames are not allowed"
    if usages not in SERVING_USAGES:
        return "usages did not match [digital signature key encipherment server auth]"
    if not req.common_name.startswith("system:node:"):
        return "subject common name does not begin with system:node:"
    return None


def api_client_refusal(usages: list[str]) -> str | None:
    """Why ``validAPIServerClientUsages`` (the kube-apiserver-client signer) refuses the usages, or None."""
    for usage in usages:
        if usage not in ("digital signature", "key encipherment", "client auth"):
            return f"invalid usage for client certificate: {usage}"
    if "client auth" not in usages:
        return "missing required usage for client certificate: client auth"
    return None


def is_unset(node: Node | None) -> bool:
    return node is None or (isinstance(node, Scalar) and node.style is None and node.data is None)


def check_usages(spec: Mapping, ctx: Context) -> list[str] | None:
    """The usages after v1beta1 defaulting, or None after an error finding."""
    node = spec.get("usages")
    if is_unset(node):
        return list(DEFAULT_USAGES)
    data = node.to_data() if node is not None else None
    if not isinstance(data, list) or not data:
        ctx.error("K8SM-CSR-004", "spec.usages is empty; v1 requires at least one usage", node)
        return None
    usages = [str(u) for u in data]
    unknown = [u for u in usages if u not in KNOWN_USAGES]
    repeated = sorted({u for u in usages if usages.count(u) > 1})
    if unknown or repeated:
        what = f"unknown {unknown}" if unknown else f"repeated {repeated}"
        ctx.error("K8SM-CSR-004", f"spec.usages has {what} values; v1 rejects them on create", node)
        return None
    return usages


def computed_signer(spec: Mapping, usages: list[str], ctx: Context) -> str | None:
    req = parsed_request(spec, ctx)
    return default_signer_name(req, set(usages)) if req is not None else None


def parsed_request(spec: Mapping, ctx: Context) -> Request | None:
    """The parsed ``spec.request``, or None after an error finding."""
    request = spec.get("request")
    if not isinstance(request, Scalar) or not isinstance(request.data, str):
        ctx.error("K8SM-CSR-002", "spec.request is missing; every API version requires it", request or spec)
        return None
    try:
        return parse_request(request.data)
    except RequestError as exc:
        ctx.error("K8SM-CSR-002", f"spec.request is not a valid CSR ({exc}); any API version rejects it", request)
    except MissingCryptography:
        ctx.error(
            "K8SM-CSR-005",
            "computing spec.signerName needs the optional dependency cryptography: "
            "pip install 'k8smigrate[crypto]' (or write spec.signerName by hand)",
            request,
        )
    return None


def refused(signer: str, spec: Mapping, usages: list[str], node: Node, ctx: Context) -> bool:
    """Whether the chosen signer would refuse the request (an error finding says why)."""
    if signer == API_CLIENT:
        why = api_client_refusal(usages)
    else:
        req = parsed_request(spec, ctx)
        if req is None:
            return True
        check = kubelet_client_refusal if signer == KUBELET_CLIENT else kubelet_serving_refusal
        why = check(req, set(usages))
    if why is None:
        return False
    fix = "add client auth to spec.usages" if signer == API_CLIENT and "missing" in why else "choose another signer"
    ctx.error(
        "K8SM-CSR-008",
        f"--set signerName={signer}: that signer refuses this request ({why}); kube-controller-manager "
        f"would mark it Failed and never sign it. {fix[0].upper()}{fix[1:]}, or write spec.signerName "
        "of a custom signer by hand",
        node,
    )
    return True


def pin_condition_status(obj: Mapping, ctx: Context) -> None:
    for condition in mappings_at(obj, "status", "conditions"):
        if is_unset(condition.get("status")):
            condition.set("status", "True", after="type")
            ctx.info("K8SM-CSR-007", 'status: "True" written (the v1beta1 default, required in v1)', condition)


def body(csr: Mapping, ctx: Context) -> None:
    spec = csr.mapping("spec")
    if spec is None:
        ctx.error("K8SM-CSR-002", "no spec.request; every API version requires it")
        return
    usages = check_usages(spec, ctx)
    if usages is None:
        return
    signer_node = spec.get("signerName")
    signer = None if is_unset(signer_node) or signer_node is None else str(signer_node.to_data())
    if signer is None:
        signer = computed_signer(spec, usages, ctx)
        if signer is None:
            return
    if signer == LEGACY_UNKNOWN:
        where = signer_node or spec.get("request") or spec
        chosen = ctx.decision("signerName", where)
        if chosen is None or refused(chosen, spec, usages, where, ctx):
            return
        spec.set("signerName", chosen, after="request")
        ctx.warn("K8SM-CSR-001", f"signerName {chosen} written (--set signerName); v1 forbids legacy-unknown")
    elif is_unset(signer_node):
        spec.set("signerName", signer, after="request")
        ctx.info("K8SM-CSR-006", f"signerName {signer} written, computed from the request as v1beta1 did")
    if is_unset(spec.get("usages")):
        spec.set("usages", Sequence.of(list(usages)), after="signerName")
        ctx.info("K8SM-CSR-003", "usages [digital signature, key encipherment] written (the v1beta1 default)")
    pin_condition_status(csr, ctx)


MIGRATION = Step(
    kinds=("CertificateSigningRequest",),
    from_api="certificates.k8s.io/v1beta1",
    to_api="certificates.k8s.io/v1",
    available_in="1.19",
    body=body,
    summary="CertificateSigningRequest v1beta1 → v1: usages and signerName written as v1beta1 defaulted them",
    codes=(
        Code("K8SM-CSR-001", "warning", "signerName written from --set signerName (v1beta1 gave legacy-unknown)"),
        Code("K8SM-CSR-002", "error", "spec.request is missing or not a valid PEM CERTIFICATE REQUEST"),
        Code("K8SM-CSR-003", "info", "usages [digital signature, key encipherment] written (the v1beta1 default)"),
        Code("K8SM-CSR-004", "error", "spec.usages empty, unknown or repeated; v1 rejects it"),
        Code("K8SM-CSR-005", "error", "the optional dependency cryptography is needed to compute signerName"),
        Code("K8SM-CSR-006", "info", "signerName computed from the request and written"),
        Code("K8SM-CSR-007", "info", 'status.conditions[].status: "True" written (the v1beta1 default)'),
        Code("K8SM-CSR-008", "error", "the signer given with --set signerName would refuse this request"),
        DECISION_NEEDED.with_summary("signerName would be legacy-unknown; needs --set signerName=…"),
    ),
    decisions=(
        Decision(
            "signerName",
            (API_CLIENT, KUBELET_CLIENT, KUBELET_SERVING),
            "v1beta1 gave this CSR kubernetes.io/legacy-unknown, which v1 forbids. "
            f"{API_CLIENT}: a client certificate for the API server (usages must include client auth); "
            f"{KUBELET_CLIENT} / {KUBELET_SERVING}: kubelet certificates. "
            "For a custom signer, write spec.signerName in the manifest instead.",
        ),
    ),
)
