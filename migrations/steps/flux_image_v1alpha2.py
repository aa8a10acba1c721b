"""Flux image automation ``image.toolkit.fluxcd.io/v1alpha2`` → ``v1beta1`` (ImageRepository, ImagePolicy,
ImageUpdateAutomation).

v1beta1 is served from Flux 0.16 (image-reflector-controller 0.11.0, image-automation-controller 0.14.0);
the alphas are gone from Flux 0.37. v1beta1 has the v1alpha2 schema (CRDs at those tags): apiVersion only.
(v1alpha1 ImageUpdateAutomation had another shape — ``checkout``/``push`` before ``git`` and ``sourceRef`` —
and is only reported.) Flux releases here are those of the Flux distribution (fluxcd/flux2), which pins each
controller (``manifests/bases/<controller>/kustomization.yaml`` at each tag).
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("ImageRepository", "ImagePolicy", "ImageUpdateAutomation"),
    from_api="image.toolkit.fluxcd.io/v1alpha2",
    to_api="image.toolkit.fluxcd.io/v1beta1",
    available_in="0.16",
    component="flux",
    summary="image.toolkit.fluxcd.io v1alpha2 → v1beta1: apiVersion only",
)
