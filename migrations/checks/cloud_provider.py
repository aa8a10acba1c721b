"""In-tree cloud providers in kubeadm configs: ``cloud-provider`` flags that stop working.

The in-tree cloud providers left Kubernetes one by one (KEP-2395): OpenStack in 1.26
(kubernetes PR #67782, 1.26 urgent upgrade notes), AWS in 1.27 (PR #115838); the gate
``DisableCloudProviders`` (with ``DisableKubeletCloudCredentialProviders``) is on by default
from 1.29 and locked from 1.31, so from then on the kubelet accepts only ``external`` or
``""`` (PR #121367) and kube-controller-manager validates the same (PR #128197). Looked at:
the ``cloud-provider`` flag in kubeadm ``ClusterConfiguration`` ``apiServer.extraArgs`` and
``controllerManager.extraArgs`` and in ``{Init,Join}Configuration``
``nodeRegistration.kubeletExtraArgs`` (map form up to v1beta3, ``{name, value}`` list form
in v1beta4), for the providers ``aws``, ``azure``, ``gce``, ``openstack`` and ``vsphere``:

- at a target where the provider is gone (OpenStack from 1.26, AWS from 1.27, every one
  from 1.31): K8SM-CRI-009, an error;
- at 1.29 and 1.30 for the others: K8SM-CRI-010, a warning (it only works with the feature
  gate ``DisableCloudProviders=false``, which 1.31 locks).

Never rewritten: ``cloud-provider: external`` alone would leave the nodes without
addresses, load balancers and volumes. The cluster first needs the provider's external
cloud-controller-manager and its CSI drivers; then set ``external`` everywhere and drop
``cloud-config`` from the kubelet and the API server (the message says so when it is set).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4, flags
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Sequence
from k8smigrate.versions import KubeVersion

FLAG = "cloud-provider"
LOCKED = KubeVersion(1, 31)  # DisableCloudProviders locked: no in-tree provider left
DEFAULT_OFF = KubeVersion(1, 29)  # DisableCloudProviders beta, on by default
# the release that removed each provider's in-tree code before the gate locked them all
REMOVED = {
    "openstack": KubeVersion(1, 26),
    "aws": KubeVersion(1, 27),
    "azure": LOCKED,
    "gce": LOCKED,
    "vsphere": LOCKED,
}
# (path to the holder of the flags, flags key, component)
PLACES = {
    "ClusterConfiguration": (
        (("apiServer",), "extraArgs", "kube-apiserver"),
        (("controllerManager",), "extraArgs", "kube-controller-manager"),
    ),
    "InitConfiguration": ((("nodeRegistration",), "kubeletExtraArgs", "kubelet"),),
    "JoinConfiguration": ((("nodeRegistration",), "kubeletExtraArgs", "kubelet"),),
}


def body(obj: Mapping, ctx: Context) -> None:
    for path, key, component in PLACES[str(obj.data("kind"))]:
        holder: Mapping | None = obj
        for step in path:
            holder = holder.mapping(step) if holder is not None else None
        args = holder.get(key) if holder is not None else None
        if not isinstance(args, (Mapping, Sequence)):
            continue
        named = {name: node for name, node, _item in flags(args)}
        node = named.get(FLAG)
        provider = str(node.data).strip().lower() if node is not None and node.data is not None else ""
        if node is None or provider not in REMOVED or not ctx.target_from(min(REMOVED[provider], DEFAULT_OFF)):
            continue
        where = f"{'.'.join(path)}.{key}.{FLAG}"
        config = " and drop cloud-config" if "cloud-config" in named and component != "kube-controller-manager" else ""
        todo = (
            f"deploy the external cloud-controller-manager and CSI drivers for {provider}, then set "
            f"{FLAG}: external on every component{config}"
        )
        if ctx.target_from(REMOVED[provider]):
            ctx.error(
                "K8SM-CRI-009",
                f"{where}: the in-tree {provider} cloud provider is gone from {component} at "
                f"{REMOVED[provider]}; {todo}",
                node,
            )
        else:
            ctx.warn(
                "K8SM-CRI-010",
                f"{where}: in-tree cloud providers are off by default from 1.29 (DisableCloudProviders) and gone "
                f"at 1.31; {provider} only works with DisableCloudProviders=false until then; {todo}",
                node,
            )


MIGRATION = Check(
    applies_to=dict.fromkeys((V1BETA1, V1BETA2, V1BETA3, V1BETA4), tuple(PLACES)),
    body=body,
    component="kubeadm",
    matters_from="1.26",
    trigger=FLAG,
    category="cloud-provider",
    summary="in-tree cloud providers (cloud-provider flags): errors once the provider is gone, never rewritten",
    codes=(
        Code("K8SM-CRI-009", "error", "an in-tree cloud provider that is gone at the target"),
        Code(
            "K8SM-CRI-010",
            "warning",
            "an in-tree cloud provider that only the DisableCloudProviders=false gate keeps (1.29–1.30)",
        ),
    ),
)
