"""Istio ``networking.istio.io/v1alpha3`` → ``networking.istio.io/v1`` (DestinationRule, Gateway, ServiceEntry,
Sidecar, VirtualService, WorkloadEntry, WorkloadGroup).

Istio 1.22 serves ``networking.istio.io/v1`` (istio/api 2b0bfde4 "Networking APIs graduation to v1", #3111)
and makes it the storage version in 1.27 (6944c75e). The schemas are the same for every served version of a
kind (one proto message per kind; ``networking/v1/*_alias.gen.go`` and ``security/v1/*_alias.gen.go`` in
istio/api are Go aliases since b9c26acf; the CRD ``openAPIV3Schema`` of the versions compare equal at 1.22.0
and 1.30.0), so the step changes the apiVersion only. No Istio release marks the old versions deprecated;
they stay served. EnvoyFilter has no v1 and is left on v1alpha3; ProxyConfig stays v1beta1.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("DestinationRule", "Gateway", "ServiceEntry", "Sidecar", "VirtualService", "WorkloadEntry", "WorkloadGroup"),
    from_api="networking.istio.io/v1alpha3",
    to_api="networking.istio.io/v1",
    available_in="1.22",
    component="istio",
    summary="Istio networking v1alpha3 → v1: apiVersion only",
)
