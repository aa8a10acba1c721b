"""Flux ImageUpdateAutomation ``image.toolkit.fluxcd.io/v1beta1`` → ``v1beta2``.

v1beta2 is served from Flux 2.3 (image-automation-controller 0.38.0), where v1beta1 is deprecated; Flux 2.7
removes it. v1beta2 adds ``spec.policySelector`` and changes nothing else (CRDs at v0.38.0): apiVersion
only. Flux releases here are those of the Flux distribution (fluxcd/flux2), which pins each controller
(``manifests/bases/<controller>/kustomization.yaml`` at each tag).
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("ImageUpdateAutomation",),
    from_api="image.toolkit.fluxcd.io/v1beta1",
    to_api="image.toolkit.fluxcd.io/v1beta2",
    available_in="2.3",
    component="flux",
    summary="ImageUpdateAutomation v1beta1 → v1beta2: apiVersion only",
)
