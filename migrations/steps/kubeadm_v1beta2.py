"""kubeadm configuration ``kubeadm.k8s.io/v1beta2`` → ``kubeadm.k8s.io/v1beta3``.

From upstream ``v1beta3/doc.go`` ("A list of changes since v1beta2") and the struct diff of
``v1beta2/types.go`` and ``v1beta3/types.go``:

- ``ClusterConfiguration.useHyperKubeImage`` is gone (kubeadm no longer supports the
  hyperkube image): dropped; when it was ``true``, K8SM-KADM-001 says that separate
  component images will be pulled instead; ``false`` or no value (read as false) is dropped
  with K8SM-KADM-004, which says which of the two it was.
- ``ClusterConfiguration.dns.type`` is gone (CoreDNS is the only DNS add-on): ``CoreDNS``
  or empty is dropped (and ``dns`` with it when nothing else is left); ``kube-dns`` or any
  other value is an error (K8SM-KADM-002): kubeadm removed kube-dns support in 1.21
  (kubernetes PR #99646), so the document needs a human.
- kind ``ClusterStatus`` is gone (kubernetes PR #101915, kubeadm 1.22): a migration cannot
  delete a document, so K8SM-KADM-003 (an error, document left as it is) asks you to delete
  it. kubeadm finds API endpoints in the ``kubeadm.kubernetes.io/etcd.advertise-client-urls``
  and ``kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint`` pod annotations.
- New optional fields only: ``skipPhases``, ``patches.directory``,
  ``nodeRegistration.imagePullPolicy`` (default ``IfNotPresent``, the old behaviour).
  ``bootstrapTokens`` moved to another Go package with the same YAML.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.kubeadm import CONFIG_KINDS, V1BETA2, V1BETA3
from k8smigrate.model import Step
from k8smigrate.tree import Mapping, Node

ENDPOINT_ANNOTATIONS = (
    "kubeadm.kubernetes.io/etcd.advertise-client-urls",
    "kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint",
)


def body(obj: Mapping, ctx: Context) -> None:
    kind = obj.data("kind")
    if kind == "ClusterStatus":
        ctx.error(
            "K8SM-KADM-003",
            "kind ClusterStatus does not exist in kubeadm.k8s.io/v1beta3 (kubeadm 1.22+): delete this "
            "document; kubeadm reads API endpoints from the pod annotations " + " and ".join(ENDPOINT_ANNOTATIONS),
            obj.get("kind"),
        )
        return
    if kind == "ClusterConfiguration":
        drop_hyperkube(obj, ctx)
        drop_dns_type(obj, ctx)


def drop_hyperkube(obj: Mapping, ctx: Context) -> None:
    entry = obj.entry("useHyperKubeImage")
    if entry is None:
        return
    if entry.value.to_data() is True:
        ctx.warn(
            "K8SM-KADM-001",
            "useHyperKubeImage: true dropped: kubeadm no longer supports the hyperkube image and pulls "
            "the separate kube-apiserver, kube-controller-manager, kube-scheduler and kube-proxy images",
            entry.value,
        )
    else:
        ctx.info(
            "K8SM-KADM-004", f"{hyperkube_setting(entry.value)} dropped (the field is gone in v1beta3)", entry.value
        )
    obj.pop("useHyperKubeImage")
    ctx.note("useHyperKubeImage removed")


def hyperkube_setting(value: Node) -> str:
    """What a ``useHyperKubeImage`` that is not ``true`` said, for the finding."""
    data = value.to_data()
    if data is None:
        return "useHyperKubeImage (no value, which kubeadm read as false)"
    if data is False:
        return "useHyperKubeImage: false (the separate component images, what kubeadm pulls anyway)"
    return f"useHyperKubeImage: {value.to_data()!r} (not a boolean: kubeadm refused it)"


def drop_dns_type(obj: Mapping, ctx: Context) -> None:
    dns = obj.mapping("dns")
    if dns is None or "type" not in dns:
        return
    value = dns.data("type")
    if value not in ("CoreDNS", "", None):
        ctx.error(
            "K8SM-KADM-002",
            f"dns.type {value!r}: CoreDNS is the only DNS add-on of kubeadm 1.21+ (kube-dns support was "
            "removed); switch to CoreDNS (and remove dns.type) before migrating",
            dns.get("type"),
        )
        return
    dns.pop("type")
    if not dns.entries:
        obj.pop("dns")
    ctx.note("dns.type removed (CoreDNS is the only DNS add-on)")


MIGRATION = Step(
    kinds=(*CONFIG_KINDS, "ClusterStatus"),
    from_api=V1BETA2,
    to_api=V1BETA3,
    available_in="1.22",
    body=body,
    component="kubeadm",
    summary="kubeadm v1beta2 → v1beta3: useHyperKubeImage and dns.type removed, ClusterStatus gone",
    codes=(
        Code("K8SM-KADM-001", "warning", "useHyperKubeImage: true dropped; separate component images are used"),
        Code("K8SM-KADM-002", "error", "dns.type is kube-dns (or unknown); kubeadm supports only CoreDNS"),
        Code("K8SM-KADM-003", "error", "a ClusterStatus document; v1beta3 has no such kind, delete it"),
        Code("K8SM-KADM-004", "info", "useHyperKubeImage false or without a value dropped"),
    ),
)
