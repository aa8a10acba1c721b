"""Flux GitRepository ``source.toolkit.fluxcd.io/v1beta2`` → ``v1``.

GitRepository v1 is served from Flux 2.0 (source-controller 1.0.0); v1beta2 is deprecated then and removed
in Flux 2.8. The fields follow the diff of source-controller's ``api/v1beta2`` against ``api/v1`` and its
CRDs: ``spec.accessFrom`` is removed (cross-namespace access was never implemented for sources,
K8SM-FLX-004); GitRepository loses ``spec.gitImplementation`` (go-git is the only one since
source-controller 0.36; K8SM-FLX-010 when it said libgit2) and its ``spec.verify`` needs a ``secretRef``;
HelmChart's ``spec.valuesFile`` becomes the first item of ``spec.valuesFiles`` ("merged before the
ValuesFiles items": ``api/v1beta2/helmchart_types.go`` · ``HelmChart.GetValuesFiles``; K8SM-FLX-003);
``interval`` and ``timeout`` must be Go durations (K8SM-FLX-008). Flux releases here are those of the Flux
distribution (fluxcd/flux2), which pins each controller (``manifests/bases/<controller>/kustomization.yaml``
at each tag).
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("GitRepository",),
    from_api="source.toolkit.fluxcd.io/v1beta2",
    to_api="source.toolkit.fluxcd.io/v1",
    available_in="2.0",
    component="flux",
    body=flux.source_v1,
    codes=(flux.REMOVED_FIELD, flux.REMOVED_SETTING, flux.REQUIRED, flux.VALUES_FILE, flux.BOTH, flux.DURATION),
    summary="GitRepository v1beta2 → v1: gitImplementation, accessFrom removed",
)
