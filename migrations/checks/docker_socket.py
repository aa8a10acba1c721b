"""hostPath volumes that mount the Docker socket: a warning from 1.24 (dockershim removal).

Once nodes move from dockershim to containerd or CRI-O (the kubelet lost dockershim in
1.24), Docker Engine is usually no longer installed, and when it is, the containers the
kubelet creates are not Docker's: ``docker ps`` does not list them and images built with
``docker build`` are invisible to the runtime (website "Check whether dockershim removal
affects you"). Every ``<podspec>.volumes[].hostPath`` whose path is the Docker socket
(``/var/run/docker.sock``, ``/run/docker.sock``) is reported (K8SM-CRI-008, a warning); with
``type: Socket`` the Pod does not even start when the socket is missing, so that is an error
(K8SM-CRI-011).
Nothing is rewritten: the containerd socket speaks another API, a replacement only for tools
that support containerd or CRI (crictl, nerdctl, cAdvisor).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import POD_APIS, pod_specs
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

SOCKETS = ("/var/run/docker.sock", "/run/docker.sock")


def body(obj: Mapping, ctx: Context) -> None:
    for _metadata, spec in pod_specs(obj):
        volumes = spec.sequence("volumes")
        for _i, volume in volumes.mappings() if volumes is not None else ():
            host = volume.mapping("hostPath")
            path = host.data("path") if host is not None else None
            if host is None or not isinstance(path, str) or path.rstrip("/") not in SOCKETS:
                continue
            name = volume.data("name")
            what = (
                f"volume {name!r} mounts the Docker socket {path}: after the move off dockershim (1.24) nodes "
                "usually run containerd or CRI-O without Docker Engine, and Docker does not see the kubelet's "
                "containers or images. Use a CRI tool (crictl, nerdctl) or drop the mount"
            )
            if host.data("type") == "Socket":
                ctx.error("K8SM-CRI-011", what + "; with type: Socket the Pod fails to start where it is missing", host)
            else:
                ctx.warn("K8SM-CRI-008", what, host)


MIGRATION = Check(
    applies_to=POD_APIS,
    body=body,
    matters_from="1.24",
    trigger="docker.sock",
    category="runtime",
    summary="hostPath mounts of the Docker socket (a warning from 1.24; an error with type: Socket)",
    codes=(
        Code("K8SM-CRI-008", "warning", "a hostPath volume mounts the Docker socket"),
        Code(
            "K8SM-CRI-011", "error", "a hostPath volume of type Socket mounts the Docker socket: the Pod fails to start"
        ),
    ),
)
