"""Traefik 3: the middleware, TLS and TCP service options it renamed, ignores or deprecated.

Looks at ``traefik.io`` and ``traefik.containo.us`` objects for a Traefik 3 target (the
``traefik_containo_us`` step moves the group). From ``docs/content/migration/v2-to-v3.md`` at v3.0.0 and
what the code does with each option (traefik/traefik at v3.0.0 and fd5a576d):

- Middleware and MiddlewareTCP ``spec.ipWhiteList`` → ``spec.ipAllowList``: renamed "without changing
  anything to the configuration" (K8SM-TRF-001; v3 still reads the old name, deprecated).
- Headers ``sslRedirect``, ``sslTemporaryRedirect``, ``sslHost``, ``sslForceHost``: v2 redirected with them
  (``pkg/middlewares/headers/secure.go`` at v2.11.0); v3 accepts and ignores them
  (``Headers.HasSecureHeadersDefined`` is all that reads them), so the redirect silently stops: K8SM-TRF-002
  says what to use (a RedirectScheme or RedirectRegex middleware, or the entry point's redirection), which
  is another object. ``featurePolicy`` is ignored too; ``permissionsPolicy`` has another header syntax.
- Still honoured and deprecated (K8SM-TRF-003): StripPrefix ``forceSlash``, ContentType ``autoDetect``
  (``autoDetect: false`` keeps meaning "do nothing"; v3 detects Content-Type only where a ContentType
  middleware is attached), ForwardAuth ``tls.caOptional``, TLSOption ``preferServerCipherSuites`` (no
  effect), IngressRouteTCP ``services[].terminationDelay`` (now on a ServersTransportTCP).

Only the rename edits the document; the rest are findings.
"""

from __future__ import annotations

from k8smigrate.addons import traefik
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

KINDS = ("Middleware", "MiddlewareTCP", "TLSOption", "IngressRouteTCP")


def body(obj: Mapping, ctx: Context) -> None:
    kind = obj.data("kind")
    if kind in ("Middleware", "MiddlewareTCP"):
        traefik.middleware_v3(obj, ctx)
    elif kind == "TLSOption":
        traefik.tls_option_v3(obj, ctx)
    elif kind == "IngressRouteTCP":
        traefik.ingress_route_tcp_v3(obj, ctx)


MIGRATION = Check(
    applies_to={"traefik.io/v1alpha1": KINDS, "traefik.containo.us/v1alpha1": KINDS},
    body=body,
    matters_from="3.0",
    component="traefik",
    trigger=(
        "ipWhiteList",
        "headers",
        "stripPrefix",
        "contentType",
        "forwardAuth",
        "preferServerCipherSuites",
        "terminationDelay",
    ),
    category="removed-field",
    edits=True,
    cleanup=True,
    summary="Traefik 3 options: ipWhiteList renamed, ssl* headers ignored, deprecated options reported",
    codes=(traefik.IP_ALLOW_LIST, traefik.IGNORED_OPTION, traefik.DEPRECATED_OPTION, traefik.BOTH),
)
