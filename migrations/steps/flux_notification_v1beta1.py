"""Flux Alert and Provider ``notification.toolkit.fluxcd.io/v1beta1`` → ``v1beta3``.

v1beta3 is served from Flux 2.2 (notification-controller 1.2.0), where v1beta1 is deprecated; Flux 2.7
removes it. v1beta3 objects are static (CHANGELOG 1.2.0): Provider ``spec.interval`` is not used and is
removed (K8SM-FLX-004); an Alert's ``spec.eventSources[]`` needs a ``kind`` (K8SM-FLX-006). ``spec.summary``
of an Alert still works in v1beta3 (deprecated in favour of ``spec.eventMetadata.summary``). Flux releases
here are those of the Flux distribution (fluxcd/flux2), which pins each controller
(``manifests/bases/<controller>/kustomization.yaml`` at each tag).
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Alert", "Provider"),
    from_api="notification.toolkit.fluxcd.io/v1beta1",
    to_api="notification.toolkit.fluxcd.io/v1beta3",
    available_in="2.2",
    component="flux",
    body=flux.notification_v1beta3,
    codes=(flux.REMOVED_FIELD, flux.REQUIRED),
    summary="Alert, Provider v1beta1 → v1beta3: Provider interval removed",
)
