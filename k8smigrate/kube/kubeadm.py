"""Shared pieces of the kubeadm migrations: versions, the field tables, extraArgs and durations.

The field tables are the ``json`` names of the Go structs in kubernetes/kubernetes
``cmd/kubeadm/app/apis/kubeadm/v1beta{1,2,3,4}/types.go`` (v1beta3/v1beta4 ``BootstrapToken``
from ``apis/bootstraptoken/v1``), written as data: each struct maps its fields to the struct
of their value (``"S:Name"``), a list of it (``"L:Name"``), a map of it (``"M:Name"``), or
``None`` for a value that is not checked further. For v1beta4 the table is the union of the
releases that read it (1.31–1.35), so that no field a supported kubeadm accepts is reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from k8smigrate.context import Context
from k8smigrate.tree import Alias, Entry, Item, Mapping, Node, Scalar, Sequence

from ..regexcode import regex

GROUP = "kubeadm.k8s.io"
V1BETA1, V1BETA2, V1BETA3, V1BETA4 = (f"{GROUP}/v1beta{n}" for n in range(1, 5))
CONFIG_KINDS = ("InitConfiguration", "ClusterConfiguration", "JoinConfiguration")

Struct = dict[str, str | None]

_COMMON: dict[str, Struct] = {
    "InitConfiguration": {
        "bootstrapTokens": "L:BootstrapToken",
        "nodeRegistration": "S:NodeRegistrationOptions",
        "localAPIEndpoint": "S:APIEndpoint",
    },
    "ClusterConfiguration": {
        "etcd": "S:Etcd",
        "networking": "S:Networking",
        "kubernetesVersion": None,
        "controlPlaneEndpoint": None,
        "apiServer": "S:APIServer",
        "controllerManager": "S:ControlPlaneComponent",
        "scheduler": "S:ControlPlaneComponent",
        "dns": "S:DNS",
        "certificatesDir": None,
        "imageRepository": None,
        "useHyperKubeImage": None,
        "featureGates": None,
        "clusterName": None,
    },
    "JoinConfiguration": {
        "nodeRegistration": "S:NodeRegistrationOptions",
        "caCertPath": None,
        "discovery": "S:Discovery",
        "controlPlane": "S:JoinControlPlane",
    },
    "ClusterStatus": {"apiEndpoints": "M:APIEndpoint"},
    "APIEndpoint": {"advertiseAddress": None, "bindPort": None},
    "BootstrapToken": dict.fromkeys(("token", "description", "ttl", "expires", "usages", "groups")),
    "NodeRegistrationOptions": {
        "name": None,
        "criSocket": None,
        "taints": "L:Taint",
        "kubeletExtraArgs": None,
    },
    "Taint": dict.fromkeys(("key", "value", "effect", "timeAdded")),
    "Etcd": {"local": "S:LocalEtcd", "external": "S:ExternalEtcd"},
    "LocalEtcd": dict.fromkeys(
        ("imageRepository", "imageTag", "dataDir", "extraArgs", "serverCertSANs", "peerCertSANs")
    ),
    "ExternalEtcd": dict.fromkeys(("endpoints", "caFile", "certFile", "keyFile")),
    "Networking": dict.fromkeys(("serviceSubnet", "podSubnet", "dnsDomain")),
    "ControlPlaneComponent": {"extraArgs": None, "extraVolumes": "L:HostPathMount"},
    "APIServer": {
        "extraArgs": None,
        "extraVolumes": "L:HostPathMount",
        "certSANs": None,
        "timeoutForControlPlane": None,
    },
    "HostPathMount": dict.fromkeys(("name", "hostPath", "mountPath", "readOnly", "pathType")),
    "DNS": dict.fromkeys(("type", "imageRepository", "imageTag")),
    "JoinControlPlane": {"localAPIEndpoint": "S:APIEndpoint"},
    "Discovery": {
        "bootstrapToken": "S:BootstrapTokenDiscovery",
        "file": "S:FileDiscovery",
        "tlsBootstrapToken": None,
        "timeout": None,
    },
    "BootstrapTokenDiscovery": dict.fromkeys(
        ("token", "apiServerEndpoint", "caCertHashes", "unsafeSkipCAVerification")
    ),
    "FileDiscovery": {"kubeConfigPath": None},
}


def _derive(base: dict[str, Struct], add: dict[str, Struct], drop: dict[str, tuple[str, ...]]) -> dict[str, Struct]:
    out = {name: dict(fields) for name, fields in base.items()}
    for name, fields in add.items():
        out.setdefault(name, {}).update(fields)
    for name, keys in drop.items():
        if not keys:
            del out[name]
        for key in keys:
            del out[name][key]
    return out


_V1BETA2 = _derive(
    _COMMON,
    {
        "InitConfiguration": {"certificateKey": None},
        "JoinControlPlane": {"certificateKey": None},
        "NodeRegistrationOptions": {"ignorePreflightErrors": None},
    },
    {},
)
_V1BETA3 = _derive(
    _V1BETA2,
    {
        "InitConfiguration": {"skipPhases": None, "patches": "S:Patches"},
        "JoinConfiguration": {"skipPhases": None, "patches": "S:Patches"},
        "NodeRegistrationOptions": {"imagePullPolicy": None},
        "Patches": {"directory": None},
    },
    {"ClusterConfiguration": ("useHyperKubeImage",), "DNS": ("type",), "ClusterStatus": ()},
)
_UPGRADE_COMMON = dict.fromkeys(("dryRun", "ignorePreflightErrors", "imagePullPolicy", "imagePullSerial"))
_V1BETA4 = _derive(
    _V1BETA3,
    {
        "InitConfiguration": {"dryRun": None, "timeouts": "S:Timeouts"},
        "JoinConfiguration": {"dryRun": None, "timeouts": "S:Timeouts"},
        "ClusterConfiguration": {
            "proxy": "S:Proxy",
            "encryptionAlgorithm": None,
            "certificateValidityPeriod": None,
            "caCertificateValidityPeriod": None,
        },
        "ControlPlaneComponent": {"extraArgs": "L:Arg", "extraEnvs": "L:EnvVar"},
        "APIServer": {"extraArgs": "L:Arg", "extraEnvs": "L:EnvVar"},
        "LocalEtcd": {"extraArgs": "L:Arg", "extraEnvs": "L:EnvVar"},
        "ExternalEtcd": {"httpEndpoints": None},
        "NodeRegistrationOptions": {"kubeletExtraArgs": "L:Arg", "imagePullSerial": None},
        "DNS": {"disabled": None},
        "Proxy": {"disabled": None},
        "Arg": {"name": None, "value": None},
        "EnvVar": dict.fromkeys(("name", "value", "valueFrom")),
        "Timeouts": dict.fromkeys(
            (
                "controlPlaneComponentHealthCheck",
                "kubeletHealthCheck",
                "kubernetesAPICall",
                "etcdAPICall",
                "tlsBootstrap",
                "discovery",
                "upgradeManifests",
            )
        ),
        "ResetConfiguration": {
            **dict.fromkeys(
                (
                    "cleanupTmpDir",
                    "certificatesDir",
                    "criSocket",
                    "dryRun",
                    "force",
                    "ignorePreflightErrors",
                    "skipPhases",
                    "unmountFlags",
                )
            ),
            "timeouts": "S:Timeouts",
        },
        "UpgradeConfiguration": {
            "apply": "S:UpgradeApplyConfiguration",
            "diff": "S:UpgradeDiffConfiguration",
            "node": "S:UpgradeNodeConfiguration",
            "plan": "S:UpgradePlanConfiguration",
            "timeouts": "S:Timeouts",
        },
        "UpgradeApplyConfiguration": {
            **_UPGRADE_COMMON,
            **dict.fromkeys(
                (
                    "kubernetesVersion",
                    "allowExperimentalUpgrades",
                    "allowRCUpgrades",
                    "certificateRenewal",
                    "etcdUpgrade",
                    "forceUpgrade",
                    "printConfig",
                    "skipPhases",
                )
            ),
            "patches": "S:Patches",
        },
        "UpgradeDiffConfiguration": dict.fromkeys(("kubernetesVersion", "contextLines")),
        "UpgradeNodeConfiguration": {
            **_UPGRADE_COMMON,
            **dict.fromkeys(("certificateRenewal", "etcdUpgrade", "skipPhases")),
            "patches": "S:Patches",
        },
        "UpgradePlanConfiguration": dict.fromkeys(
            (
                "kubernetesVersion",
                "allowExperimentalUpgrades",
                "allowRCUpgrades",
                "dryRun",
                "etcdUpgrade",
                "ignorePreflightErrors",
                "printConfig",
            )
        ),
    },
    {"APIServer": ("timeoutForControlPlane",), "Discovery": ("timeout",)},
)

FIELDS: dict[str, dict[str, Struct]] = {
    V1BETA1: _COMMON,
    V1BETA2: _V1BETA2,
    V1BETA3: _V1BETA3,
    V1BETA4: _V1BETA4,
}
"""The field table of every kubeadm API version, keyed on apiVersion, then struct name."""

KINDS: dict[str, tuple[str, ...]] = {
    V1BETA1: (*CONFIG_KINDS, "ClusterStatus"),
    V1BETA2: (*CONFIG_KINDS, "ClusterStatus"),
    V1BETA3: CONFIG_KINDS,
    V1BETA4: (*CONFIG_KINDS, "ResetConfiguration", "UpgradeConfiguration"),
}
"""The top-level kinds each kubeadm API version defines."""


def unknown_fields(node: Node, api: str, struct: str) -> Iterator[tuple[str, Scalar, str | None]]:
    """``(path, key node, suggestion)`` for every key that the struct of ``api`` does not define."""
    table = FIELDS[api]
    yield from _walk(node, table, struct, "")


def _walk(node: Node, table: dict[str, Struct], struct: str, path: str) -> Iterator[tuple[str, Scalar, str | None]]:
    if not isinstance(node, Mapping):
        return
    fields = table[struct]
    for e in node.entries:
        name = e.name
        where = f"{path}.{name}" if path else name
        if name not in fields:
            if path == "" and name in ("apiVersion", "kind"):
                continue
            folded = {f.lower(): f for f in fields}
            yield where, e.key, folded.get(name.lower())
            continue
        kind = fields[name]
        if kind is None:
            continue
        shape, inner = kind.split(":")
        if shape == "S":
            yield from _walk(e.value, table, inner, where)
        elif shape == "L" and isinstance(e.value, Sequence):
            for i, item in enumerate(e.value):
                yield from _walk(item, table, inner, f"{where}[{i}]")
        elif shape == "M" and isinstance(e.value, Mapping):
            for sub in e.value.entries:
                yield from _walk(sub.value, table, inner, f"{where}.{sub.name}")


# ------------------------------------------------------------------ extraArgs
#
# A flag repeated in a map-form extraArgs is read as kubeadm reads it: the last one wins.
# kubeadm decodes its config with sigs.k8s.io/yaml, which keeps the last of repeated keys, and
# its strict pass only warns ("strict.VerifyUnmarshalStrict", cmd/kubeadm/app/util/config/
# strict/strict.go; a warning unless the command asks for strict errors, as ``kubeadm config
# validate`` does). The list form of v1beta4 allows a name more than once on purpose: each
# item becomes one ``--name=value`` on the command line (``ArgumentsToCommand`` in
# cmd/kubeadm/app/util/arguments.go), where the component's own flag parser decides.

FLAG_MAPS = (
    "apiServer.extraArgs",
    "controllerManager.extraArgs",
    "scheduler.extraArgs",
    "etcd.local.extraArgs",
    "nodeRegistration.kubeletExtraArgs",
)
"""Where kubeadm documents keep map-form flags, from the document's root (repeated keys: the last wins)."""


def flags(args: Mapping | Sequence) -> Iterator[tuple[str, Scalar | None, Item | None]]:
    """``(flag, value node, list item)`` of map-form or list-form extraArgs or kubeletExtraArgs.

    A repeated key of the map form gives its last value only (the one kubeadm uses).
    """
    if isinstance(args, Mapping):
        last = {e.name: e for e in args.entries}
        for e in args.entries:
            if last[e.name] is e:
                yield e.name, e.value if isinstance(e.value, Scalar) else None, None
        return
    for item in args.items:
        pair = item.value
        if isinstance(pair, Mapping) and isinstance(pair.data("name"), str):
            yield str(pair.data("name")), pair.scalar("value"), item


def flag_value(args: Mapping, name: str) -> Scalar | None:
    """The value kubeadm uses for ``name`` in a map-form flag map (the last of repeated keys)."""
    found = [e.value for e in args.entries if e.name == name]
    return found[-1] if found and isinstance(found[-1], Scalar) else None


def repeated(args: Mapping) -> dict[str, list[Entry]]:
    """Each key a map-form flag map repeats, with all its entries in order (kubeadm uses the last)."""
    by_name: dict[str, list[Entry]] = {}
    for e in args.entries:
        by_name.setdefault(e.name, []).append(e)
    return {name: entries for name, entries in by_name.items() if len(entries) > 1}


def drop(args: Mapping | Sequence, name: str, item: Item | None, ctx: Context, where: str) -> None:
    """Delete one flag (found by ``flags``; every occurrence of a repeated map key) and say so."""
    if isinstance(args, Mapping):
        while args.pop(name) is not None:
            pass
    elif item is not None:
        args.remove(item)
    ctx.note(f"{where}.{name} removed")


def args_to_list(parent: Mapping, key: str, ctx: Context, where: str) -> None:
    """``key: {flag: value}`` → ``key: [{name: flag, value: "value"}]``, sorted as upstream ``convertToArgs``.

    A repeated key keeps its last value only, as kubeadm read it (K8SM-KADM-013 for each
    earlier one: in the list form every occurrence would reach the command line). Values
    become strings: a string keeps its node (and quoting); a number or boolean is written as
    the string that was typed (K8SM-KADM-005 when a YAML 1.1 reader sees
    something else, such as ``yes`` → true); each flag's comments move to its list item.
    """
    node = parent.get(key)
    if node is None or (isinstance(node, Scalar) and node.data is None):
        return
    if not isinstance(node, Mapping):
        ctx.error("K8SM-KADM-006", f"{where}.{key} is not a map of flags; cannot convert it", node)
        return
    earlier = {id(e) for entries in repeated(node).values() for e in entries[:-1]}
    rows: list[tuple[str, str, Node, Item]] = []
    for e in node.entries:
        if id(e) in earlier:
            used = scalar_text(repeated(node)[e.name][-1].value)
            ctx.warn(
                "K8SM-KADM-013",
                f"{where}.{key}.{e.name} is repeated: kubeadm used the last value ({used!r}); this "
                f"earlier one ({scalar_text(e.value)!r}) is dropped, as the list form would pass every one",
                e.key,
            )
            continue
        value = e.value
        if not isinstance(value, Scalar):
            what = "an alias" if isinstance(value, Alias) else "not a scalar"
            ctx.error("K8SM-KADM-006", f"{where}.{key}.{e.name} is {what}; a flag value must be a string", value)
            return
        text, new = arg_value(value, f"{where}.{key}.{e.name}", ctx)
        pair = Mapping.of({"name": e.name}, flow=node.flow)
        # the flag's end-of-line comment goes to its value's line; a flow map has none
        pair.insert(Entry(Scalar("value"), new, eol_comment=None if node.flow else e.eol_comment))
        item = Item(pair, head_comments=list(e.head_comments))
        rows.append((e.name, text, new, item))
    rows.sort(key=lambda r: (r[0], r[1]))
    seq = Sequence(flow=node.flow)
    for row in rows:
        seq.insert(row[3])
    parent.set(key, seq)
    ctx.note(f"{where}.{key}: map → list of {{name, value}}")


def scalar_text(node: Node) -> str:
    return node.value if isinstance(node, Scalar) else "…"


def arg_value(value: Scalar, where: str, ctx: Context) -> tuple[str, Node]:
    """The flag value as a string, and the node to write (the original one when it is a string)."""
    data = value.data
    if isinstance(data, str) and value.style not in ("|", ">"):
        return data, value
    if isinstance(data, str):
        return data, Scalar.of(data)
    text = "" if data is None and value.style is None else value.value
    read = (
        {True: "true", False: "false", None: ""}.get(data, str(data))
        if isinstance(data, (bool, type(None)))
        else str(data)
    )
    if read != text:
        ctx.warn(
            "K8SM-KADM-005",
            f"{where}: {value.value!r} is read as {data!r} by a YAML 1.1 reader; written as the string {text!r}",
            value,
        )
    return text, Scalar.of(text)


# ------------------------------------------------------------------ durations

_DURATION = regex(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)")
_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def seconds(text: object) -> float | None:
    """A Go duration such as ``4m0s`` in seconds, or None when it does not parse."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text) * 1e-9  # a bare number is nanoseconds to metav1.Duration
    if not isinstance(text, str):
        return None
    s = text.strip()
    sign = -1.0 if s.startswith("-") else 1.0
    s = s.lstrip("+-")
    if s == "0":
        return 0.0
    pos, total = 0, 0.0
    for m in _DURATION.finditer(s):
        if m.start() != pos:
            return None
        total += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    return sign * total if pos == len(s) and pos > 0 else None


def is_kubeadm(api: object) -> bool:
    return isinstance(api, str) and api in FIELDS
