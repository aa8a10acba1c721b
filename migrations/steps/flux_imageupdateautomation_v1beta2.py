"""Flux ImageUpdateAutomation ``image.toolkit.fluxcd.io/v1beta2`` → ``v1``.

v1 is served from Flux 2.7 (image-automation-controller 1.0.0), where v1beta2 is deprecated; Flux 2.9
removes it. "Backwards compatible" (CHANGELOG 1.0.0; ``spec.update.strategy`` becomes optional): apiVersion
only. Flux releases here are those of the Flux distribution (fluxcd/flux2), which pins each controller
(``manifests/bases/<controller>/kustomization.yaml`` at each tag).
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("ImageUpdateAutomation",),
    from_api="image.toolkit.fluxcd.io/v1beta2",
    to_api="image.toolkit.fluxcd.io/v1",
    available_in="2.7",
    component="flux",
    summary="ImageUpdateAutomation v1beta2 → v1: apiVersion only",
)
