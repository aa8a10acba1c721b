"""kube-dns in kubeadm ``ClusterConfiguration``: CoreDNS only from kubeadm 1.21.

kubeadm deprecated kube-dns in 1.18 and removed it in 1.21 (kubeadm-init reference: "kube-dns
usage with kubeadm is deprecated as of v1.18 and is removed in v1.21"). A v1beta1 or v1beta2
``ClusterConfiguration`` with ``dns.type: kube-dns`` that stays in its version (targets from
1.21 on where the window does not convert it) gets ``dns.type`` deleted: kubeadm deploys
CoreDNS, its only DNS add-on (K8SM-KADM-012, a warning: stub domains and upstream servers set
in the ``kube-dns`` ConfigMap must be carried into the CoreDNS Corefile, and a
``dns.imageRepository``/``imageTag`` chosen for kube-dns would now name a CoreDNS image).

A document that the window converts to v1beta3 (which has no ``dns.type``) is left to the
``kubeadm_v1beta2`` step, which refuses kube-dns with an error: not reported twice.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2
from k8smigrate.model import Check
from k8smigrate.tree import Mapping


def body(config: Mapping, ctx: Context) -> None:
    dns = config.mapping("dns")
    kind = dns.scalar("type") if dns is not None else None
    if dns is None or kind is None or str(kind.data).lower() != "kube-dns":
        return
    if ctx.final_api not in (V1BETA1, V1BETA2):
        return  # converted to v1beta3: the kubeadm_v1beta2 step refuses it (an error)
    images = (
        "; dns.imageRepository/imageTag chosen for kube-dns now name the CoreDNS image: fix or delete them"
        if "imageTag" in dns or "imageRepository" in dns
        else ""
    )
    ctx.warn(
        "K8SM-KADM-012",
        "dns.type: kube-dns was removed from kubeadm in 1.21; deleted, kubeadm deploys CoreDNS: carry the kube-dns "
        f"ConfigMap's stub domains and upstream servers into the CoreDNS Corefile{images}",
        kind,
    )
    dns.pop("type")
    ctx.note("dns.type: kube-dns removed (CoreDNS)")
    config.drop_emptied("dns")


MIGRATION = Check(
    applies_to=dict.fromkeys((V1BETA1, V1BETA2), ("ClusterConfiguration",)),
    body=body,
    component="kubeadm",
    matters_from="1.21",
    trigger="kube-dns",
    category="kubeadm",
    edits=True,
    summary="dns.type: kube-dns (gone from kubeadm in 1.21) deleted: CoreDNS",
    codes=(Code("K8SM-KADM-012", "warning", "dns.type: kube-dns deleted; kubeadm 1.21+ deploys CoreDNS only"),),
)
