"""Flux ImageRepository and ImagePolicy ``image.toolkit.fluxcd.io/v1beta1`` → ``v1``.

v1 is served from Flux 2.7 (image-reflector-controller 1.0.0), which removes v1beta1. The v1 spec is
backwards compatible (CHANGELOG 1.0.0); ImageRepository v1 requires ``spec.image`` and ``spec.interval``
(K8SM-FLX-006). Flux releases here are those of the Flux distribution (fluxcd/flux2), which pins each
controller (``manifests/bases/<controller>/kustomization.yaml`` at each tag).
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("ImageRepository", "ImagePolicy"),
    from_api="image.toolkit.fluxcd.io/v1beta1",
    to_api="image.toolkit.fluxcd.io/v1",
    available_in="2.7",
    component="flux",
    body=flux.image_repository_v1,
    codes=(flux.REQUIRED,),
    summary="ImageRepository, ImagePolicy v1beta1 → v1",
)
