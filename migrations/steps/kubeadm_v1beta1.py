"""kubeadm configuration ``kubeadm.k8s.io/v1beta1`` → ``kubeadm.k8s.io/v1beta2``.

A pure ``apiVersion`` change for InitConfiguration, ClusterConfiguration, JoinConfiguration
and ClusterStatus: v1beta2 only adds optional fields (``InitConfiguration.certificateKey``,
``JoinConfiguration.controlPlane.certificateKey``, ``nodeRegistration.ignorePreflightErrors``)
and ``omitempty`` tags (upstream ``v1beta2/doc.go``, ``v1beta2/types.go``; the conversion
goes through the internal type field by field).

``nodeRegistration.taints`` keeps its exact form: absent or ``null`` means "apply the
default control-plane taint", ``taints: []`` means "no taints". v1beta1 dropped an empty
list when kubeadm wrote the config back (``omitempty``); v1beta2 keeps it. k8smigrate never
removes or adds ``taints``.

kubeadm 1.15 is the first release that reads v1beta2 and 1.21 the last that reads v1beta1;
``--target-version`` is the kubeadm release that will read the file.
"""

from __future__ import annotations

from k8smigrate.kube.kubeadm import CONFIG_KINDS, V1BETA1, V1BETA2
from k8smigrate.model import Step

MIGRATION = Step(
    kinds=(*CONFIG_KINDS, "ClusterStatus"),
    from_api=V1BETA1,
    to_api=V1BETA2,
    available_in="1.15",
    component="kubeadm",
    summary="kubeadm v1beta1 → v1beta2: apiVersion only (taints nil and [] kept apart)",
)
