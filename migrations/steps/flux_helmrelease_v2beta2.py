"""Flux HelmRelease ``helm.toolkit.fluxcd.io/v2beta2`` → ``v2``.

v2 is served from Flux 2.3 (helm-controller 1.0.0), where v2beta2 is deprecated; Flux 2.8 removes it
(helm-controller 1.5.0). The field diff of ``api/v2beta2`` against ``api/v2`` at v1.0.0:
``spec.chart.spec.valuesFile`` is gone; it was "merged before the ValuesFiles items", so it becomes the
first item of ``spec.chart.spec.valuesFiles`` (K8SM-FLX-003); ``spec.postRenderers[].kustomize``
``patchesStrategicMerge``/``patchesJson6902`` become ``patches`` in kustomize's order, as helm-controller
built its post-renderer (``internal/postrender/kustomize.go`` · ``Kustomize.Run`` at v0.37.0; K8SM-FLX-001).
v2 requires ``spec.chart`` or ``spec.chartRef`` (K8SM-FLX-006). Flux releases here are those of the Flux
distribution (fluxcd/flux2), which pins each controller (``manifests/bases/<controller>/kustomization.yaml``
at each tag).
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("HelmRelease",),
    from_api="helm.toolkit.fluxcd.io/v2beta2",
    to_api="helm.toolkit.fluxcd.io/v2",
    available_in="2.3",
    component="flux",
    body=flux.helmrelease_v2,
    codes=(flux.PATCHES, flux.VALUES_FILE, flux.REQUIRED, flux.BOTH, flux.NOT_A_LIST),
    summary="HelmRelease v2beta2 → v2: valuesFile, post-renderer patches",
)
