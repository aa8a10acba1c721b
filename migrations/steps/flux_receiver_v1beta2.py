"""Flux Receiver ``notification.toolkit.fluxcd.io/v1beta2`` → ``v1``.

Receiver v1 is served from Flux 2.0 (notification-controller 1.0.0), where v1beta2 is deprecated; Flux 2.9
removes it. v1 is backwards compatible, but requires ``spec.secretRef`` (the token Secret) and a ``kind`` in
each ``spec.resources[]`` (CRDs at v1.0.0; K8SM-FLX-006). Flux releases here are those of the Flux
distribution (fluxcd/flux2), which pins each controller (``manifests/bases/<controller>/kustomization.yaml``
at each tag).
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Receiver",),
    from_api="notification.toolkit.fluxcd.io/v1beta2",
    to_api="notification.toolkit.fluxcd.io/v1",
    available_in="2.0",
    component="flux",
    body=flux.receiver_v1,
    codes=(flux.REQUIRED,),
    summary="Receiver v1beta2 → v1: secretRef required",
)
