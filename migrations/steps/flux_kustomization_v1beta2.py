"""Flux Kustomization ``kustomize.toolkit.fluxcd.io/v1beta2`` → ``v1``.

v1 is served from Flux 2.0 (kustomize-controller 1.0.0), where v1beta2 is deprecated; Flux 2.8 removes it
(kustomize-controller 1.8.0, #1584). "The Kustomization v1 API is backwards compatible with v1beta2, except
for the following" (CHANGELOG 1.0.0-rc.1): ``spec.validation`` removed (K8SM-FLX-004),
``spec.patchesStrategicMerge`` and ``spec.patchesJson6902`` replaced by ``spec.patches`` (K8SM-FLX-001, in
kustomize's order; see ``flux_kustomization_v1beta1``). Flux releases here are those of the Flux
distribution (fluxcd/flux2), which pins each controller (``manifests/bases/<controller>/kustomization.yaml``
at each tag).
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Kustomization",),
    from_api="kustomize.toolkit.fluxcd.io/v1beta2",
    to_api="kustomize.toolkit.fluxcd.io/v1",
    available_in="2.0",
    component="flux",
    body=flux.kustomization_v1,
    codes=(flux.PATCHES, flux.PATCH_NAMESPACE, flux.REMOVED_FIELD, flux.DURATION, flux.NOT_A_LIST),
    summary="Kustomization v1beta2 → v1: patches, validation removed",
)
