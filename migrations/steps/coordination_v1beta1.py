"""Lease ``coordination.k8s.io/v1beta1`` → ``coordination.k8s.io/v1``.

Only ``apiVersion`` changes: ``holderIdentity``, ``leaseDurationSeconds``, ``acquireTime``,
``renewTime`` and ``leaseTransitions`` are the same and neither version defaults them
(``k8s.io/api: coordination/{v1beta1,v1}/types.go``). Other kinds of this group version
(LeaseCandidate) are not touched.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Lease",),
    from_api="coordination.k8s.io/v1beta1",
    to_api="coordination.k8s.io/v1",
    available_in="1.14",
    summary="Lease coordination.k8s.io/v1beta1 → v1: apiVersion only",
)
