"""Opt-in check ``kubelet_conf_rotation``: point a kubelet kubeconfig at the rotated client certificate.

Older ``kubeadm init`` wrote ``/etc/kubernetes/kubelet.conf`` on the first control-plane
node with the client certificate **embedded**, so the kubelet never picks up its rotated
certificate and stops authenticating a year later. kubeadm's troubleshooting guide ("Kubelet
client certificate rotation fails") ends with pointing both ``client-certificate`` and
``client-key`` at ``/var/lib/kubelet/pki/kubelet-client-current.pem``, the symlink the
kubelet keeps current; ``kubeadm init phase kubelet-finalize`` does the same on new nodes.

Runs only with ``--only kubelet_conf_rotation``, on ``apiVersion: v1``, ``kind: Config``
documents whose current context's user is a node (``system:node:*``, as kubeadm names it):
``client-certificate-data`` → ``client-certificate`` and ``client-key-data`` →
``client-key``, both set to that path. K8SM-NODE-001: restart the kubelet, after checking
that the PEM exists on the node (k8smigrate does not look at the node's files: it may run
on a copy). A user already on file paths is left alone; other kubeconfigs are reported
(K8SM-NODE-003) and left alone. Its old name ``kubelet-conf-rotation`` still selects it
(deprecated: every other migration name is a module name, with underscores).
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS, Code
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar

PEM = "/var/lib/kubelet/pki/kubelet-client-current.pem"
FIELDS = (("client-certificate-data", "client-certificate"), ("client-key-data", "client-key"))


def named(config: Mapping, section: str, name: object) -> Mapping | None:
    """The ``section[]`` entry called ``name``, or None unless there is exactly one."""
    seq = config.sequence(section)
    found = [m for _i, m in seq.mappings() if m.data("name") == name] if seq is not None else []
    return found[0] if len(found) == 1 else None


def body(config: Mapping, ctx: Context) -> None:
    current = config.data("current-context")
    context = named(config, "contexts", current)
    inner = context.mapping("context") if context is not None else None
    user_name = inner.data("user") if inner is not None else None
    if not isinstance(user_name, str) or not user_name.startswith("system:node:"):
        ctx.info(
            "K8SM-NODE-003",
            f"not a kubelet kubeconfig (current context {current!r}, user {user_name!r}): left as it is",
            config.get("current-context") or config,
        )
        return
    entry = named(config, "users", user_name)
    user = entry.mapping("user") if entry is not None else None
    if user is None:
        ctx.info("K8SM-NODE-003", f"user {user_name!r} is not defined once in users[]: left as it is", config)
        return
    for data_key, path_key in FIELDS:
        if data_key not in user:
            continue
        if path_key in user:
            ctx.error("K8SM-GEN-003", f"user {user_name!r} has both {data_key} and {path_key}", user)
            return
        user.rename(data_key, path_key)
        value = user.get(path_key)
        assert isinstance(value, Scalar)
        value.set(PEM)
        ctx.note(f"users[{user_name}].{data_key} → {path_key}: {PEM}")
    if ctx.notes:
        ctx.warn(
            "K8SM-NODE-001",
            f"kubelet client certificate now read from {PEM}: check that the file exists and is not empty "
            "on the node, then restart the kubelet",
            user,
        )


MIGRATION = Check(
    applies_to={"v1": ("Config",)},
    body=body,
    formerly=("kubelet-conf-rotation",),
    component="kubeadm",
    opt_in=True,
    category="kubeadm",
    edits=True,
    summary="kubelet.conf embedded client certificate → the rotated kubelet-client-current.pem",
    codes=(
        Code("K8SM-NODE-001", "warning", "kubelet.conf rewritten to the rotated certificate; restart the kubelet"),
        Code("K8SM-NODE-003", "info", "not a kubelet kubeconfig (or its user is ambiguous); left as it is"),
        BOTH_FORMS.with_summary("the user has both the embedded and the file form of a credential"),
    ),
)
