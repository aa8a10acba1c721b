"""Control-plane flags that stop a component from starting: the PodSecurityPolicy admission plugin and insecure serving.

**The PodSecurityPolicy admission plugin.** Kubernetes 1.25 removed PodSecurityPolicy, its
API and its admission plugin (the plugin is no longer registered in
``pkg/kubeapiserver/options/plugins.go``). kube-apiserver validates every name in
``--enable-admission-plugins`` and ``--disable-admission-plugins`` against the registered
plugins and exits when one is unknown: ``enable-admission-plugins plugin "PodSecurityPolicy"
is unknown`` (``AdmissionOptions.Validate`` in apiserver ``pkg/server/options/admission.go``;
the deprecated ``--admission-control`` list the same way, ``admission-control plugin … is
unknown``, in ``pkg/kubeapiserver/options/admission.go``). For targets from 1.25 on:

- ``PodSecurityPolicy`` in ``--enable-admission-plugins`` or ``--admission-control``: an
  error (K8SM-CP-001), the document is left as it is. Removing it is the upgrade's own
  decision: the pods it checked are unchecked afterwards, so enforce Pod Security Admission
  (namespace labels ``pod-security.kubernetes.io/enforce``) or a policy webhook first, then
  take it out of the list.
- ``PodSecurityPolicy`` in ``--disable-admission-plugins``: it was never on by default, so
  disabling it did nothing at any release; it is removed from the list, and the flag with
  it when nothing is left (K8SM-CP-002, an info).

**Insecure serving** (``k8smigrate.kube.insecure_serving``): kube-apiserver serves no
insecure port from 1.20 and lost the flags in 1.24 (then even ``--insecure-port=0`` is an
``unknown flag``), kube-controller-manager from 1.22 and kube-scheduler from 1.23. From
those releases a zero ``--insecure-port``/``--port`` or a loopback
``--insecure-bind-address``/``--address`` is deleted (K8SM-CP-004, an info), another
address too (K8SM-CP-005, a warning: to reach the component from off the node use
``--bind-address``, which serves HTTPS on the secure port), and a non-zero port is an error
(K8SM-CP-006: the component refuses it; serve on the secure port instead).

Looked at: the ``command`` and ``args`` of every container that runs kube-apiserver,
kube-controller-manager or kube-scheduler (the base name of ``command[0]``, or the image
name, or ``hyperkube``'s sub-command) in every pod spec, which is how kubeadm writes the
static pods in ``/etc/kubernetes/manifests``; flags in both forms, ``--name=value`` and
``--name value``. For kubeadm's ``ClusterConfiguration`` the admission plugins in
``apiServer.extraArgs`` (map form up to v1beta3, ``{name, value}`` list form in v1beta4) get
the same findings; its insecure-serving flags are the ``kubeadm_insecure_flags`` check's.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.command_line import Flag, component, flags
from k8smigrate.kube.insecure_serving import COMPONENTS, InsecureServing, verdict
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4
from k8smigrate.kube.kubeadm import flags as kubeadm_flags
from k8smigrate.kube.podspec import POD_APIS, containers, pod_specs
from k8smigrate.model import Check
from k8smigrate.regexcode import regex
from k8smigrate.tree import Mapping, Scalar, Sequence
from k8smigrate.versions import KubeVersion

PLUGIN = "PodSecurityPolicy"
PSP_GONE = KubeVersion(1, 25)
ENABLING = ("enable-admission-plugins", "admission-control")
DISABLING = ("disable-admission-plugins",)
SERVING = {s.program: s for s in COMPONENTS}


def plugins(value: str) -> list[str]:
    """A comma list of plugin names as pflag's string slice reads it (items trimmed)."""
    return [p.strip() for p in value.split(",")]


def enabling_error(where: str, ctx: Context, node: Scalar | None) -> None:
    ctx.error(
        "K8SM-CP-001",
        f"{where} names {PLUGIN}: the plugin is gone from {PSP_GONE} and kube-apiserver refuses to start with an "
        f'unknown one ("plugin \\"{PLUGIN}\\" is unknown"); enforce Pod Security Admission (or a policy webhook) '
        "first, then take it out of the list",
        node,
    )


def disabling_note(where: str, ctx: Context, node: Scalar | None, emptied: bool) -> None:
    gone = "the flag is deleted" if emptied else f"{PLUGIN} is taken out of the list"
    ctx.info(
        "K8SM-CP-002",
        f"{where} names {PLUGIN}, which kube-apiserver {PSP_GONE}+ refuses as unknown; it was never on by "
        f"default, so disabling it did nothing: {gone}",
        node,
    )


# ------------------------------------------------------------------ command lines


def pod_body(obj: Mapping, ctx: Context) -> None:
    for _metadata, spec in pod_specs(obj):
        for container in containers(spec):
            name = component(container)
            serving = SERVING.get(name or "")
            if serving is None:
                continue
            if name == "kube-apiserver" and ctx.target_from(PSP_GONE):
                admission_flags(container, ctx)
            if ctx.target_from(serving.gone):
                insecure_flags(container, serving, ctx)


def admission_flags(container: Mapping, ctx: Context) -> None:
    for flag in list(flags(container, ENABLING + DISABLING)):
        names = plugins(flag.value)
        if PLUGIN not in names:
            continue
        if flag.name in ENABLING:
            enabling_error(f"--{flag.name}", ctx, flag.node)
            continue
        kept = [n for n in names if n != PLUGIN]
        disabling_note(f"--{flag.name}", ctx, flag.node, not any(kept))
        if any(kept):
            flag.set(",".join(kept))
        else:
            flag.remove()
        ctx.note(f"--{flag.name}: {PLUGIN} removed")


def insecure_flags(container: Mapping, serving: InsecureServing, ctx: Context) -> None:
    for flag in list(flags(container, serving.ports + serving.addresses)):
        found = verdict(serving, flag.name, flag.value)
        where = f"--{flag.name}={flag.value}"
        if found == "port":
            ctx.error(
                "K8SM-CP-006",
                f"{where}: {serving.program} has no insecure port from {serving.gone} and refuses any value but 0 "
                "(and from 1.24 kube-apiserver has no such flag); delete it and use the secure port (HTTPS, "
                "with authentication)",
                flag.node,
            )
            continue
        if found == "no-op":
            why = f"insecure serving is gone from {serving.gone}"
            if serving.flags_gone is not None and ctx.target_from(serving.flags_gone):
                why += f", and {serving.program} {serving.flags_gone}+ refuses to start with this unknown flag"
            ctx.info("K8SM-CP-004", f"{where}: {why}; deleted", flag.node)
        else:
            ctx.warn(
                "K8SM-CP-005",
                f"{where} bound the insecure port, gone from {serving.gone}; deleted. To reach {serving.program} "
                "from off the node, set --bind-address (the secure port) instead",
                flag.node,
            )
        remove(flag, ctx)


def remove(flag: Flag, ctx: Context) -> None:
    flag.remove()
    ctx.note(f"--{flag.name} removed")


# ------------------------------------------------------------------ kubeadm


def kubeadm_body(config: Mapping, ctx: Context) -> None:
    server = config.mapping("apiServer")
    args = server.get("extraArgs") if server is not None else None
    if not isinstance(args, (Mapping, Sequence)):
        return
    for name, node, item in list(kubeadm_flags(args)):
        if name not in ENABLING + DISABLING or node is None or not isinstance(node.data, str):
            continue
        names = plugins(node.data)
        if PLUGIN not in names:
            continue
        where = f"apiServer.extraArgs.{name}"
        if name in ENABLING:
            enabling_error(where, ctx, node)
            continue
        kept = [n for n in names if n != PLUGIN]
        disabling_note(where, ctx, node, not any(kept))
        if any(kept):
            node.set(",".join(kept))
        elif isinstance(args, Mapping):
            while args.pop(name) is not None:
                pass
        elif item is not None:
            args.remove(item)
        ctx.note(f"{where}: {PLUGIN} removed")


TRIGGER = (regex(r"--(?:insecure-port|insecure-bind-address|port|address)\b"), PLUGIN)
"""Two triggers, not one pattern with a top-level ``|``: each is then found by a fast literal
search, where the alternation tried every position of every pod spec (5x slower)."""
CODES = (
    Code("K8SM-CP-001", "error", "PodSecurityPolicy enabled as an admission plugin: kube-apiserver 1.25+ refuses it"),
    Code("K8SM-CP-002", "info", "PodSecurityPolicy taken out of --disable-admission-plugins (unknown from 1.25)"),
)

MIGRATIONS = [
    Check(
        applies_to=POD_APIS,
        body=pod_body,
        matters_from="1.20",
        trigger=TRIGGER,
        category="component-flag",
        edits=True,
        summary="kube-apiserver/controller-manager/scheduler command lines: PodSecurityPolicy plugin, insecure serving",
        codes=(
            *CODES,
            Code("K8SM-CP-004", "info", "an insecure-serving flag that does nothing any more deleted"),
            Code("K8SM-CP-005", "warning", "an insecure bind address that was not a loopback one deleted"),
            Code("K8SM-CP-006", "error", "a non-zero insecure port, which the component refuses"),
        ),
    ),
    Check(
        applies_to=dict.fromkeys((V1BETA1, V1BETA2, V1BETA3, V1BETA4), ("ClusterConfiguration",)),
        body=kubeadm_body,
        component="kubeadm",
        matters_from="1.25",
        trigger=PLUGIN,
        category="component-flag",
        edits=True,
        summary="the PodSecurityPolicy admission plugin in kubeadm apiServer.extraArgs (1.25+)",
        codes=CODES,
    ),
]
