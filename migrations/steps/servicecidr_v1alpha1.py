"""IPAddress and ServiceCIDR ``networking.k8s.io/v1alpha1`` → ``networking.k8s.io/v1``.

The objects of the MultiCIDRServiceAllocator feature. Only ``apiVersion`` changes:
IPAddress (``spec.parentRef``: ``group``, ``resource``, ``namespace``, ``name``) and
ServiceCIDR (``spec.cidrs``, ``status.conditions``) have the same fields in v1alpha1,
v1beta1 and v1 (k8s.io/api ``networking/{v1alpha1,v1beta1,v1}/types.go``), and none of them
is defaulted (``pkg/apis/networking/*/defaults.go`` default only Ingress and NetworkPolicy
fields). ``networking.k8s.io/v1`` serves them from 1.33, the release that stopped serving
v1alpha1.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("IPAddress", "ServiceCIDR"),
    from_api="networking.k8s.io/v1alpha1",
    to_api="networking.k8s.io/v1",
    available_in="1.33",
    summary="IPAddress, ServiceCIDR networking.k8s.io/v1alpha1 → v1: apiVersion only",
)
