"""IPAddress and ServiceCIDR ``networking.k8s.io/v1beta1`` → ``networking.k8s.io/v1``.

Only ``apiVersion`` changes: the two kinds have the same fields in v1beta1 and v1 and no
defaults (see ``servicecidr_v1alpha1``). v1beta1 (1.31) is deprecated in 1.34 and no longer
served from 1.37 (its ``prerelease-lifecycle-gen`` tags); v1 is served from 1.33.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("IPAddress", "ServiceCIDR"),
    from_api="networking.k8s.io/v1beta1",
    to_api="networking.k8s.io/v1",
    available_in="1.33",
    summary="IPAddress, ServiceCIDR networking.k8s.io/v1beta1 → v1: apiVersion only",
)
