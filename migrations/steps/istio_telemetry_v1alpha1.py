"""Istio Telemetry ``telemetry.istio.io/v1alpha1`` → ``telemetry.istio.io/v1``.

Telemetry v1 is served from Istio 1.22 (istio/api d7ab31ab, #3133); v1alpha1 stays the storage version
(still at 1.30). The schema is the same (``telemetry/v1/telemetry_alias.gen.go`` is an alias), but three
fields carry ``+cue-gen:Telemetry:releaseChannel:extended`` in istio/api ``telemetry/v1alpha1/
telemetry.proto`` and were not promoted with v1 (istio.io blog "Introducing Istio v1 APIs"):
``metrics[].reportingInterval``, ``accessLogging[].filter``, ``tracing[].useRequestIdForTraceSampling``. The
v1 CRD still accepts them; K8SM-IST-003 says they may change outside the v1 promise.
"""

from __future__ import annotations

from k8smigrate.addons import istio
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Telemetry",),
    from_api="telemetry.istio.io/v1alpha1",
    to_api="telemetry.istio.io/v1",
    available_in="1.22",
    component="istio",
    body=istio.telemetry_extended_fields,
    codes=(istio.TELEMETRY_EXTENDED,),
    summary="Istio Telemetry v1alpha1 → v1: apiVersion, extended fields reported",
)
