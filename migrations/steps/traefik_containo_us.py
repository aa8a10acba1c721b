"""Traefik ``traefik.containo.us/v1alpha1`` → ``traefik.io/v1alpha1`` (IngressRoute, IngressRouteTCP,
IngressRouteUDP, Middleware, MiddlewareTCP, ServersTransport, TLSOption, TLSStore, TraefikService).

Traefik 2.10 introduced the ``traefik.io`` group beside ``traefik.containo.us`` (7af9d162 "Introduce
traefik.io API Group CRDs"; ``docs/content/migration/v2.md`` "v2.10 / Kubernetes CRDs") and Traefik 3.0
removed the old one (8b47c5ad "Remove deprecated code"; ``docs/content/migration/v2-to-v3.md`` "Kubernetes
CRDs API Group traefik.containo.us"). The CRDs of both groups are the same at 2.10
(``docs/content/reference/dynamic-configuration/kubernetes-crd-definition-v1.yml``); from 2.10 to 2.11
Traefik reads both and, for the same kind, namespace and name, ignores the ``traefik.containo.us`` one
(``pkg/provider/kubernetes/crd/client-containous.go`` at v2.11.0). The step changes the group; what Traefik
3 changed inside the objects is the checks ``traefik_v3_options`` and ``traefik_v3_rule_syntax``.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=(
        "IngressRoute",
        "IngressRouteTCP",
        "IngressRouteUDP",
        "Middleware",
        "MiddlewareTCP",
        "ServersTransport",
        "TLSOption",
        "TLSStore",
        "TraefikService",
    ),
    from_api="traefik.containo.us/v1alpha1",
    to_api="traefik.io/v1alpha1",
    available_in="2.10",
    component="traefik",
    summary="traefik.containo.us → traefik.io: group only",
)
