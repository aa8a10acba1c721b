"""dockershim removal (kubelet 1.24) and CRI endpoint changes in kubeadm configs.

The kubelet lost dockershim in 1.24 (kubernetes PR #106907): from then on kubeadm treats
every ``criSocket`` as a remote CRI endpoint (PR #106973), so a node whose socket is the
dockershim one only works if something else (cri-dockerd) listens there. Looked at, for
targets from 1.24 on: ``{Init,Join}Configuration.nodeRegistration`` (``criSocket`` and
``kubeletExtraArgs``, map form up to v1beta3, ``{name, value}`` list form in v1beta4) and
v1beta4 ``ResetConfiguration.criSocket``.

- ``criSocket`` (or ``kubeletExtraArgs`` ``container-runtime-endpoint``) on dockershim
  (``/var/run/dockershim.sock``, ``npipe:////./pipe/dockershim``), or ``container-runtime:
  docker``: K8SM-CRI-001, an error. This is a node runtime migration (containerd or
  CRI-O; cri-dockerd to keep Docker Engine), not a text edit. With ``--set
  runtime=containerd|crio|cri-dockerd`` the socket is set to that runtime's
  (``unix:///run/containerd/containerd.sock``, ``unix:///var/run/crio/crio.sock``,
  ``unix:///var/run/cri-dockerd.sock``), still with a warning (K8SM-CRI-012): kubeadm also keeps the socket
  per node in the Node annotation ``kubeadm.alpha.kubernetes.io/cri-socket``, which must be
  edited too.
- An endpoint without URL scheme gets ``unix://`` (absolute path) or ``npipe://`` (Windows
  pipe ``//./pipe/…``, giving ``npipe:////./pipe/…``): kubeadm 1.24 warns "Usage of CRI endpoints without URL scheme is
  deprecated" (PR #107295) (K8SM-CRI-002).
- kubelet flags removed with dockershim in 1.24 (``network-plugin``, ``cni-conf-dir``,
  ``cni-bin-dir``, ``cni-cache-dir``, ``network-plugin-mtu``, ``docker-endpoint``,
  ``image-pull-progress-deadline``, ``experimental-dockershim-root-directory``): the
  kubelet fails with ``unknown flag``, so they are deleted (K8SM-CRI-003). A warning when
  the value mattered (K8SM-CRI-013): non-default CNI directories now belong in the runtime's own config
  (containerd's CRI plugin ``cni`` section), and ``network-plugin`` other than ``cni``
  (kubenet) has no equivalent.
- ``container-runtime``: only ``remote`` is valid from 1.24 and the flag is gone in 1.27:
  deleted (K8SM-CRI-004); ``docker`` is K8SM-CRI-001, unless ``--set runtime=`` declares
  the node's new runtime: then it is deleted too.
- ``pod-infra-container-image``: deprecated ("will be removed in 1.27", the sandbox image
  comes from the runtime); kept, with a warning from 1.27 (K8SM-CRI-005).
- CRI v1alpha2 was dropped from the kubelet in 1.26 (PR #110618): the runtime must serve CRI
  v1 (containerd 1.5 serves only v1alpha2, so containerd >= 1.6; a cri-dockerd release with
  CRI v1), or the kubelet fails with ``CRI v1 runtime API is not implemented for endpoint``.
  Nothing in the file says which runtime version a node runs, so for targets from 1.26 every
  ``InitConfiguration``/``JoinConfiguration`` gets one warning to check it, at its
  ``nodeRegistration.criSocket`` when set (K8SM-CRI-006).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.decisions import Decision
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4, drop, flags
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar, Sequence
from k8smigrate.versions import KubeVersion

V1_24, V1_26, V1_27 = KubeVersion(1, 24), KubeVersion(1, 26), KubeVersion(1, 27)

SOCKETS = {
    "containerd": "unix:///run/containerd/containerd.sock",
    "crio": "unix:///var/run/crio/crio.sock",
    "cri-dockerd": "unix:///var/run/cri-dockerd.sock",
}
REMOVED_FLAGS = (
    "experimental-dockershim-root-directory",
    "docker-endpoint",
    "image-pull-progress-deadline",
    "network-plugin",
    "cni-conf-dir",
    "cni-bin-dir",
    "cni-cache-dir",
    "network-plugin-mtu",
)
# network settings that now belong to the runtime, with the values that set nothing (the
# kubelet defaults); the other flags only configured dockershim itself, gone anyway
NETWORK = {
    "network-plugin": ("cni",),
    "cni-bin-dir": ("/opt/cni/bin",),
    "cni-conf-dir": ("/etc/cni/net.d",),
    "cni-cache-dir": ("/var/lib/cni/cache",),
    "network-plugin-mtu": (),
}
ENDPOINT = "container-runtime-endpoint"


def is_dockershim(text: str) -> bool:
    return "dockershim" in text


def with_scheme(text: str) -> str | None:
    """The endpoint with its URL scheme, or None when it already has one (or is not a path)."""
    if text.startswith("//./pipe/"):
        return "npipe://" + text
    if text.startswith("/"):
        return "unix://" + text
    return None


def body(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "ResetConfiguration":
        fix_socket(obj, ctx, "criSocket")
        return
    registration = obj.mapping("nodeRegistration")
    if ctx.target_from(V1_26):
        cri_v1(obj, registration, ctx)
    if registration is None:
        return
    fix_socket(registration, ctx, "nodeRegistration.criSocket")
    fix_flags(registration, ctx)


def cri_v1(obj: Mapping, registration: Mapping | None, ctx: Context) -> None:
    """One reminder per node configuration: kubelet 1.26 needs a runtime that serves CRI v1."""
    socket = registration.get("criSocket") if registration is not None else None
    ctx.warn(
        "K8SM-CRI-006",
        "kubelet 1.26 speaks only CRI v1 (v1alpha2 was dropped): containerd >= 1.6 or a current cri-dockerd "
        "(CRI-O: the release matching the kubelet) is required; check the runtime version on every node",
        socket if socket is not None else obj,
    )


def fix_socket(holder: Mapping, ctx: Context, where: str, key: str = "criSocket") -> None:
    node = holder.scalar(key)
    text = node.data if node is not None else None
    if node is None or not isinstance(text, str) or not text:
        return
    if is_dockershim(text):
        dockershim(node, ctx, where)
        return
    fixed = with_scheme(text)
    if fixed is not None:
        node.set(fixed)
        ctx.info("K8SM-CRI-002", f"{where}: {text!r} has no URL scheme (deprecated since 1.24); now {fixed!r}", node)
        ctx.note(f"{where}: {fixed}")


def dockershim(node: Scalar, ctx: Context, where: str) -> None:
    runtime = ctx.decided("runtime")
    if runtime is None:
        ctx.error(
            "K8SM-CRI-001",
            f"{where}: {node.data!r} is dockershim, removed from the kubelet in 1.24. Migrate the node's runtime "
            "to containerd or CRI-O (or install cri-dockerd to keep Docker Engine), then say which with "
            "--set runtime=containerd|crio|cri-dockerd",
            node,
        )
        return
    socket = SOCKETS[runtime]
    node.set(socket)
    ctx.warn(
        "K8SM-CRI-012",
        f"{where}: dockershim → {socket} ({runtime}); install the runtime on the node first, and edit the "
        "Node annotation kubeadm.alpha.kubernetes.io/cri-socket of every existing node too",
        node,
    )
    ctx.note(f"{where}: {socket}")


def fix_flags(registration: Mapping, ctx: Context) -> None:
    args = registration.get("kubeletExtraArgs")
    if not isinstance(args, (Mapping, Sequence)):
        return
    where = "nodeRegistration.kubeletExtraArgs"
    for name, node, item in list(flags(args)):
        value = "" if node is None or node.data is None else str(node.data)
        if name == ENDPOINT and node is not None and isinstance(node.data, str):
            if is_dockershim(value):
                dockershim(node, ctx, f"{where}.{name}")
            elif (fixed := with_scheme(value)) is not None:
                node.set(fixed)
                ctx.info("K8SM-CRI-002", f"{where}.{name}: {value!r} has no URL scheme; now {fixed!r}", node)
            continue
        if name == "container-runtime":
            # with --set runtime= the node migration is declared: docker goes like remote
            if value == "docker" and ctx.decided("runtime") is None:
                ctx.error(
                    "K8SM-CRI-001",
                    f"{where}.{name}: docker is dockershim, removed from the kubelet in 1.24; migrate the node's "
                    "runtime to containerd or CRI-O, then delete the flag",
                    node,
                )
                continue
            why = "gone in 1.27" if ctx.target_from(V1_27) else "only remote is valid from 1.24, gone in 1.27"
            ctx.info("K8SM-CRI-004", f"{where}.{name}: {value} ({why}); deleted", node)
            drop(args, name, item, ctx, where)
        elif name in REMOVED_FLAGS:
            if value in NETWORK.get(name, (value,)):
                ctx.info(
                    "K8SM-CRI-003", f"{where}.{name}: removed from the kubelet in 1.24 with dockershim; deleted", node
                )
            else:
                ctx.warn(
                    "K8SM-CRI-013",
                    f"{where}.{name}: {value!r} removed from the kubelet in 1.24 with dockershim; deleted. "
                    "Set it in the container runtime's config instead (containerd: the CRI plugin's cni section)"
                    if name != "network-plugin"
                    else f"{where}.{name}: {value!r} removed from the kubelet in 1.24 with dockershim; deleted. "
                    "Only CNI plugins remain (kubenet is gone): configure the pod network through a CNI plugin",
                    node,
                )
            drop(args, name, item, ctx, where)
        elif name == "pod-infra-container-image" and ctx.target_from(V1_27):
            ctx.warn(
                "K8SM-CRI-005",
                f"{where}.{name}: deprecated (announced for removal in 1.27); the sandbox image comes from the "
                "runtime: set it there (containerd: sandbox_image)",
                node,
            )
    registration.drop_emptied("kubeletExtraArgs")


_KINDS = ("InitConfiguration", "JoinConfiguration")

MIGRATION = Check(
    applies_to={**dict.fromkeys((V1BETA1, V1BETA2, V1BETA3), _KINDS), V1BETA4: (*_KINDS, "ResetConfiguration")},
    body=body,
    component="kubeadm",
    matters_from="1.24",
    category="runtime",
    edits=True,
    summary="dockershim criSocket (error), CRI endpoints without scheme, kubelet flags removed with dockershim",
    codes=(
        Code("K8SM-CRI-001", "error", "the CRI socket is dockershim"),
        Code("K8SM-CRI-002", "info", "a CRI endpoint without URL scheme got unix:// or npipe://"),
        Code("K8SM-CRI-003", "info", "a kubelet flag removed with dockershim deleted"),
        Code("K8SM-CRI-004", "info", "the kubelet --container-runtime flag deleted"),
        Code(
            "K8SM-CRI-005", "warning", "--pod-infra-container-image is deprecated; set the sandbox image in the runtime"
        ),
        Code("K8SM-CRI-006", "warning", "kubelet 1.26 needs a CRI v1 runtime (containerd >= 1.6): check its version"),
        Code("K8SM-CRI-012", "warning", "the dockershim socket replaced by the --set runtime= one; edit the nodes too"),
        Code(
            "K8SM-CRI-013",
            "warning",
            "a kubelet flag removed with dockershim deleted; its value must move to the runtime's config",
        ),
    ),
    decisions=(
        Decision(
            "runtime",
            tuple(SOCKETS),
            "the container runtime the nodes run after the dockershim migration; its socket replaces dockershim",
        ),
    ),
)
