"""Gateway API ReferenceGrant ``gateway.networking.k8s.io/v1beta1`` → ``v1``.

ReferenceGrant v1 is served from 1.5.0 (8a4bbf6a, #4458; CHANGELOG/1.5 "ReferenceGrant resource is moving to
v1"); v1beta1 stays the storage version and is not deprecated. ``apis/v1beta1/ referencegrant_types.go`` ·
``type ReferenceGrant v1.ReferenceGrant``: apiVersion only.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("ReferenceGrant",),
    from_api="gateway.networking.k8s.io/v1beta1",
    to_api="gateway.networking.k8s.io/v1",
    available_in="1.5",
    component="gateway-api",
    summary="ReferenceGrant v1beta1 → v1: apiVersion only",
)
