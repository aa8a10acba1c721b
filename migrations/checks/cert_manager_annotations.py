"""cert-manager annotations and solver labels of the ``certmanager.k8s.io`` group → their 0.11 names.

cert-manager 0.11 moved its annotations to ``cert-manager.io`` and ``acme.cert-manager.io`` and stopped
reading the old ones, on every kind: the ingress-shim annotations of Ingresses, the cainjector ones of
webhook configurations, APIServices and CRDs, the CertificateRequest private key one. The table is
upstream's migration tool (``hack/api-migration/main.go`` · ``migrations`` and ``deprecations`` at v0.11.0)
completed with the constants of ``pkg/apis/certmanager/v1alpha1/types.go`` (v0.10.0) and
``pkg/apis/certmanager/v1alpha2/types.go`` (v0.11.0) that the tool did not cover:

- ``certmanager.k8s.io/issuer``, ``cluster-issuer``, ``alt-names``, ``ip-sans``, ``common-name``,
  ``issuer-name``, ``issuer-kind``, ``certificate-name`` → ``cert-manager.io/…`` (same suffix);
- ``certmanager.k8s.io/acme-http01-edit-in-place``, ``acme-http01-ingress-class`` →
  ``acme.cert-manager.io/http01-edit-in-place``, ``http01-ingress-class``;
- ``certmanager.k8s.io/inject-ca-from``, ``inject-apiserver-ca``, ``inject-ca-from-secret``,
  ``allow-direct-injection``, ``private-key-secret-name`` → ``cert-manager.io/…`` (same suffix);
- ``certmanager.k8s.io/acme-challenge-type``, ``acme-dns01-provider``: removed, only the solver format
  before 0.8 read them (K8SM-CM-011).

Renamed annotations keep their values and comments (K8SM-CM-010); where the new one is already set with the
same value the old one goes, with a different value both stay (K8SM-CM-013); another key of the old group is
reported (K8SM-CM-012). The labels the HTTP01 solver pods carry (``certmanager.k8s.io/acme-http-domain``,
``acme-http-token``, ``acme-http01-solver`` → ``acme.cert-manager.io/http-domain``, ``http-token``,
``http01-solver``; ``pkg/issuer/acme/http/http.go``) are renamed where a label set or a selector names them,
such as a NetworkPolicy that lets the solver pods in (K8SM-CM-014).
"""

from __future__ import annotations

from k8smigrate.addons import certmanager
from k8smigrate.model import ANY, Check

MIGRATION = Check(
    applies_to={ANY: (ANY,)},
    body=certmanager.old_group_keys,
    matters_from="0.11",
    component="cert-manager",
    trigger=certmanager.OLD_GROUP,
    category="annotation",
    edits=True,
    summary="certmanager.k8s.io annotations and solver labels → cert-manager.io / acme.cert-manager.io",
    codes=(
        certmanager.ANNOTATION_RENAMED,
        certmanager.ANNOTATION_DELETED,
        certmanager.ANNOTATION_UNKNOWN,
        certmanager.ANNOTATION_CONFLICT,
        certmanager.LABEL_RENAMED,
    ),
)
