"""Flux HelmRelease ``helm.toolkit.fluxcd.io/v2beta1`` → ``v2beta2``.

v2beta2 is served from Flux 2.2 (helm-controller 0.37.0), where v2beta1 is deprecated; Flux 2.7 removes
v2beta1 (helm-controller 1.4.0). "The upgrade is backwards compatible" (CHANGELOG 0.37.0), except for a
default: ``spec.maxHistory`` "has been lowered from 10 to 5" (``api/v2beta1/helmrelease_types.go`` ·
``HelmRelease.GetMaxHistory`` returns 10, v2beta2's ``defaultMaxHistory`` 5). ``maxHistory: 10`` is written
where it is absent (K8SM-FLX-005; ``--adopt-new-defaults`` leaves it out). The next step takes the object on
to v2 with ``--component flux=2.3`` or later. Flux releases here are those of the Flux distribution
(fluxcd/flux2), which pins each controller (``manifests/bases/<controller>/kustomization.yaml`` at each
tag).
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("HelmRelease",),
    from_api="helm.toolkit.fluxcd.io/v2beta1",
    to_api="helm.toolkit.fluxcd.io/v2beta2",
    available_in="2.2",
    component="flux",
    body=flux.helmrelease_v2beta2,
    codes=(flux.MAX_HISTORY,),
    summary="HelmRelease v2beta1 → v2beta2: maxHistory 10 pinned",
)
