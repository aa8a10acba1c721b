"""cert-manager 1.18: ``privateKey.rotationPolicy: Never`` written where a Certificate has none.

cert-manager 1.18 changed the default of ``spec.privateKey.rotationPolicy`` from ``Never`` to
``Always`` (``pkg/apis/certmanager/v1/types_certificate.go`` · ``CertificatePrivateKey.RotationPolicy``,
a5a3c7a1; ``internal/apis/certmanager/v1/defaults.go`` · ``SetRuntimeDefaults_Certificate``): a
Certificate without a policy gets a new private key at every renewal instead of keeping the one in
its Secret. The controller-wide feature gate ``DefaultPrivateKeyRotationPolicyAlways=false`` keeps the
old default for a whole cluster; per object, the old behaviour is written explicitly
(K8SM-CM-017), as k8smigrate does wherever a default changed. ``--adopt-new-defaults`` leaves the
policy unset (K8SM-GEN-002), which is what cert-manager recommends. Looks at Certificates of every
version, so that one run migrates and pins.
"""

from __future__ import annotations

from k8smigrate.addons import certmanager
from k8smigrate.codes import NEW_DEFAULT
from k8smigrate.model import Check

CERTIFICATE = ("Certificate",)

MIGRATION = Check(
    applies_to={
        "cert-manager.io/v1": CERTIFICATE,
        "cert-manager.io/v1beta1": CERTIFICATE,
        "cert-manager.io/v1alpha3": CERTIFICATE,
        "cert-manager.io/v1alpha2": CERTIFICATE,
        "certmanager.k8s.io/v1alpha1": CERTIFICATE,
    },
    body=certmanager.pin_rotation_policy,
    matters_from="1.18",
    component="cert-manager",
    category="default",
    edits=True,
    summary="Certificate privateKey.rotationPolicy: Never pinned (1.18 made Always the default)",
    codes=(
        certmanager.ROTATION_POLICY,
        NEW_DEFAULT.with_summary("--adopt-new-defaults: rotationPolicy left unset, Always applies"),
    ),
)
