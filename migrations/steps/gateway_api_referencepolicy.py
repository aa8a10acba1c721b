"""Gateway API ``ReferencePolicy`` → ``ReferenceGrant`` (``gateway.networking.k8s.io/v1alpha2``).

Gateway API 0.5.0 renamed the kind: ``ReferencePolicy`` stayed as a deprecated copy in the experimental
channel (``apis/v1alpha2/referencepolicy_types.go`` at v0.5.0: its spec *is* ``ReferenceGrantSpec``)
and 0.6.0 removed it (CHANGELOG/0.x v0.6.0 "ReferencePolicy has been removed"). The spec is the same
(``from[]{group,kind,namespace}``, ``to[]{group,kind,name}``): the step renames the kind; the
ReferenceGrant steps take it on to v1beta1 and v1.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("ReferencePolicy",),
    from_api="gateway.networking.k8s.io/v1alpha2",
    to_api="gateway.networking.k8s.io/v1alpha2",
    available_in="0.5",
    component="gateway-api",
    to_kind="ReferenceGrant",
    summary="ReferencePolicy → ReferenceGrant: kind renamed",
)
