"""DRA kinds ``resource.k8s.io/v1beta2`` → ``resource.k8s.io/v1``: ResourceClaim(Template), ResourceSlice, DeviceClass.

Only ``apiVersion`` changes: ``v1`` (1.34) was made from ``v1beta2`` (1.33) and these four
kinds have the same fields and defaults in both (k8s.io/api ``resource/{v1beta2,v1}/types.go``
differ only by kinds that are not here, such as DeviceTaintRule). ``v1beta2`` is deprecated
in 1.36 and no longer served from 1.39 (its ``prerelease-lifecycle-gen`` tags).
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"),
    from_api="resource.k8s.io/v1beta2",
    to_api="resource.k8s.io/v1",
    available_in="1.34",
    summary="DRA resource.k8s.io/v1beta2 → v1: apiVersion only",
)
