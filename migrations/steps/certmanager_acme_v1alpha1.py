"""cert-manager ``certmanager.k8s.io/v1alpha1`` → ``acme.cert-manager.io/v1alpha2`` (Order, Challenge).

cert-manager 0.11 moved the ACME kinds to their own group (``pkg/apis/acme/doc.go`` · ``GroupName`` at
v0.11.0). ``spec.config`` of both (the solver format before 0.8, written by the 0.10 controller) is removed
(K8SM-CM-008); ``Challenge.spec.solver`` already existed in v1alpha1. Orders and Challenges are written by
the controller: migrating them matters for backups, not for manifests.
"""

from __future__ import annotations

from k8smigrate.addons import certmanager
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Order", "Challenge"),
    from_api="certmanager.k8s.io/v1alpha1",
    to_api="acme.cert-manager.io/v1alpha2",
    available_in="0.11",
    component="cert-manager",
    body=certmanager.drop_old_config,
    codes=(certmanager.OLD_CONFIG_DROPPED,),
    summary="certmanager.k8s.io → acme.cert-manager.io: Order and Challenge, spec.config removed",
)
