"""Flux Kustomization ``kustomize.toolkit.fluxcd.io/v1beta1`` → ``v1``.

v1 is served from Flux 2.0 (kustomize-controller 1.0.0), where v1beta1 and v1beta2 are deprecated; Flux 2.7
removes v1beta1 (kustomize-controller 1.7.0, #1494). The fields follow the "Upgrade procedure" of
kustomize-controller's CHANGELOG (1.0.0-rc.1) and the field diff of ``api/v1beta1`` (v0.35.0) against
``api/v1`` (v1.0.0): ``spec.validation`` is removed (unused since v1beta2, K8SM-FLX-004);
``spec.patchesStrategicMerge`` and ``spec.patchesJson6902`` become ``spec.patches`` (K8SM-FLX-001, see
below); ``spec.kubeConfig.secretRef`` keeps its shape (v1 adds an optional ``key``); ``interval``,
``retryInterval`` and ``timeout`` must match ``^([0-9]+([.][0-9]+)?(ms|s|m|h))+$`` (K8SM-FLX-008).

The old patches were handed to kustomize as they were and kustomize applies strategic merge patches first,
then ``patches``, then JSON 6902 patches after the namespace transformer; the new list keeps that order:
each strategic merge patch as ``{patch: |<its YAML>}`` (a patch without target applies to the object it
names), the existing patches, then each JSON 6902 patch as ``{patch: |<its operations>, target}``
(K8SM-FLX-002 when its target names a namespace and ``spec.targetNamespace`` is set). The patch text is the
original lines, comments included. Flux releases here are those of the Flux distribution (fluxcd/flux2),
which pins each controller (``manifests/bases/<controller>/kustomization.yaml`` at each tag).
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Kustomization",),
    from_api="kustomize.toolkit.fluxcd.io/v1beta1",
    to_api="kustomize.toolkit.fluxcd.io/v1",
    available_in="2.0",
    component="flux",
    body=flux.kustomization_v1,
    codes=(flux.PATCHES, flux.PATCH_NAMESPACE, flux.REMOVED_FIELD, flux.DURATION, flux.NOT_A_LIST),
    summary="Kustomization v1beta1 → v1: patches, validation removed",
)
