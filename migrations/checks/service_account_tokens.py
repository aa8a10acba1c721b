"""Auto-generated service account token Secrets used by name, and the token-expiration flag.

Up to 1.23 the tokens controller created, for every ServiceAccount, a Secret named after it:
``pkg/controller/serviceaccount/tokens_controller.go`` ``ensureReferencedToken`` generates
``<serviceaccount>-token-`` plus five characters of apimachinery ``util/rand``'s alphabet
(``bcdfghjklmnpqrstvwxz2456789``), and lists it in the ServiceAccount's ``secrets``.
``BoundServiceAccountTokenVolume`` is GA in 1.22: pods get a projected, expiring token instead.
From **1.24** no such Secret is generated (``LegacyServiceAccountTokenNoAutoGeneration``, beta
on in 1.24, GA 1.26); from 1.29 (beta) / 1.30 (GA) ``LegacyServiceAccountTokenCleanUp``
labels generated ones unused for a year invalid and deletes them. A manifest that names such a
Secret only works on the cluster whose controller once made it (the suffix is random): on a
new cluster the pod waits for a Secret that never comes.

For targets from 1.24:

- K8SM-SA-001, a warning: a pod spec that references a Secret named like a generated token
  (``volumes[].secret.secretName``, ``volumes[].projected.sources[].secret.name``,
  ``env[].valueFrom.secretKeyRef.name``, ``envFrom[].secretRef.name`` of every container);
- K8SM-SA-002, a warning: a ServiceAccount whose ``secrets`` list such a name.

Both name the replacement: a projected ``serviceAccountToken`` volume (rotated by the
kubelet), or an explicit Secret of type ``kubernetes.io/service-account-token`` annotated
``kubernetes.io/service-account.name: <serviceaccount>`` (the tokens controller still fills
it in: ``syncSecret`` → ``generateTokenIfNeeded``). A Secret of that type and name defined in
the run (any file: ``k8smigrate.facts``) is that explicit Secret, and nothing is reported.

For targets from 1.22, K8SM-SA-003, an info: kube-apiserver's
``--service-account-extend-token-expiration`` (static pods; kubeadm ``apiServer.extraArgs``),
which is on by default (``pkg/kubeapiserver/options/authentication.go`` ``AddFlags``): the
tokens the API server injects into pods are extended to one year, "ignoring value of
service-account-max-token-expiration", to ease the move off legacy tokens; with ``false`` they
expire after an hour, and a client that reads its token file only once fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.dataclasscode import dataclass
from k8smigrate.facts import Collector, Object
from k8smigrate.kube.flags import command_line, find_flag, line_nodes, program, truth
from k8smigrate.kube.kubeadm import V1BETA1, V1BETA2, V1BETA3, V1BETA4, flags
from k8smigrate.kube.podspec import POD_APIS, containers, pod_specs
from k8smigrate.model import Check
from k8smigrate.regexcode import regex
from k8smigrate.tree import Mapping, Node, Scalar, Sequence
from k8smigrate.versions import KubeVersion

NO_GENERATION = KubeVersion(1, 24)
TOKEN_NAME = regex(r"^(?P<account>[a-z0-9]([-a-z0-9.]*[a-z0-9])?)-token-[bcdfghjklmnpqrstvwxz2456789]{5}$")
TOKEN_TYPE = "kubernetes.io/service-account-token"
ACCOUNT_ANNOTATION = "kubernetes.io/service-account.name"
FLAG = "service-account-extend-token-expiration"


@dataclass(frozen=True)
class TokenSecret:
    """An explicit ``kubernetes.io/service-account-token`` Secret of the run."""

    name: str
    namespace: str | None


def _token_secrets(obj: Object) -> Iterator[TokenSecret]:
    if obj.kind == "Secret" and obj.name and obj.data.get("type") == TOKEN_TYPE:
        yield TokenSecret(obj.name, obj.namespace)


TOKEN_SECRETS = Collector("token-secrets", (TOKEN_TYPE,), _token_secrets, frozenset({"Secret"}))


def generated_account(name: object) -> str | None:
    """The ServiceAccount a Secret name says it was generated for, or None."""
    m = TOKEN_NAME.match(name) if isinstance(name, str) else None
    return m.group("account") if m else None


def defined(name: str, namespace: str | None, ctx: Context) -> bool:
    """Whether the run defines this token Secret itself."""
    return any(
        s.value.name == name and (namespace is None or s.value.namespace in (None, namespace))
        for s in ctx.facts(TOKEN_SECRETS)
    )


def secret_references(spec: Mapping) -> Iterator[tuple[Scalar, str]]:
    """``(name node, where)`` of every Secret a pod spec names."""
    places: list[tuple[Mapping, str, str]] = []
    for volume in mappings_at(spec, "volumes"):
        places += [(m, "secretName", "a secret volume") for m in mappings_at(volume, "secret")]
        places += [(m, "name", "a projected volume") for m in mappings_at(volume, "projected", "sources", "secret")]
    for container in containers(spec):
        places += [
            (m, "name", "an environment variable") for m in mappings_at(container, "env", "valueFrom", "secretKeyRef")
        ]
        places += [(m, "name", "envFrom") for m in mappings_at(container, "envFrom", "secretRef")]
    for holder, key, where in places:
        if (node := holder.scalar(key)) is not None:
            yield node, where


def replacement(account: str) -> str:
    return (
        "use a projected serviceAccountToken volume (rotated by the kubelet), or create a Secret of type "
        f"{TOKEN_TYPE} annotated {ACCOUNT_ANNOTATION}: {account} and name that one"
    )


WHY = (
    "from 1.24 no token Secret is generated (and from 1.30 unused generated ones are deleted), so on a new "
    "cluster it does not exist"
)


def pod_body(obj: Mapping, ctx: Context) -> None:
    meta = obj.mapping("metadata")
    namespace = meta.data("namespace") if meta is not None else None
    ns = namespace if isinstance(namespace, str) else None
    if ctx.target_from(NO_GENERATION):
        for _metadata, spec in pod_specs(obj):
            for node, where in secret_references(spec):
                account = generated_account(node.data)
                if account is not None and not defined(str(node.data), ns, ctx):
                    ctx.warn(
                        "K8SM-SA-001",
                        f"{where} uses Secret {node.data}, a token the controller generated for ServiceAccount "
                        f"{account}: {WHY} and the pod cannot start; {replacement(account)}",
                        node,
                    )
    apiserver_flag(obj, ctx)


def apiserver_flag(obj: Mapping, ctx: Context) -> None:
    for _metadata, spec in pod_specs(obj):
        for container in containers(spec):
            data = container.to_data()
            if not isinstance(data, dict) or program(data) not in ("kube-apiserver", "apiserver"):
                continue
            found = find_flag(command_line(data), FLAG, boolean=True)
            if found is not None:
                report_flag(truth(found[1]), line_nodes(container)[found[0]], ctx)


def report_flag(value: bool | None, node: Node, ctx: Context) -> None:
    if value is None:
        return
    what = (
        "on: the tokens injected into pods are extended to one year (the legacy-token transition), whatever "
        "--service-account-max-token-expiration says"
        if value
        else "off: the tokens injected into pods expire after an hour, and a client that reads its token file only "
        "once fails after that"
    )
    ctx.info(
        "K8SM-SA-003",
        f"--{FLAG} is {what}; projected tokens are the only automounted ones from 1.22 "
        "(BoundServiceAccountTokenVolume)",
        node,
    )


def account_body(account: Mapping, ctx: Context) -> None:
    if not ctx.target_from(NO_GENERATION):
        return
    meta = account.mapping("metadata")
    namespace = meta.data("namespace") if meta is not None else None
    for item in mappings_at(account, "secrets"):
        node = item.scalar("name")
        name = node.data if node is not None else None
        owner = generated_account(name)
        if node is None or owner is None or defined(str(name), namespace if isinstance(namespace, str) else None, ctx):
            continue
        ctx.warn(
            "K8SM-SA-002",
            f"secrets lists {name}, a token Secret the controller generated: {WHY}; drop the entry and "
            f"{replacement(owner)}",
            node,
        )


def kubeadm_body(config: Mapping, ctx: Context) -> None:
    api_server = config.mapping("apiServer")
    args = api_server.get("extraArgs") if api_server is not None else None
    for name, node, _item in flags(args) if isinstance(args, (Mapping, Sequence)) else []:
        if name == FLAG and node is not None:
            report_flag(truth(None if node.data is None else str(node.data)), node, ctx)


CODES = (
    Code("K8SM-SA-001", "warning", "a pod uses an auto-generated token Secret by name (none is generated from 1.24)"),
    Code(
        "K8SM-SA-002", "warning", "a ServiceAccount lists an auto-generated token Secret (none is generated from 1.24)"
    ),
    Code("K8SM-SA-003", "info", "--service-account-extend-token-expiration and what it does to injected tokens"),
)


def _pods(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "ServiceAccount":
        account_body(obj, ctx)
    else:
        pod_body(obj, ctx)


_PODS = Check(
    applies_to={**POD_APIS, "v1": (*POD_APIS["v1"], "ServiceAccount")},
    body=_pods,
    trigger=("-token-", FLAG),
    matters_from="1.22",
    category="token",
    summary="token Secrets no longer generated from 1.24, used by name; the token-expiration extension flag",
    codes=CODES,
    facts=(TOKEN_SECRETS,),
)
MIGRATIONS = [
    _PODS,
    replace(
        _PODS,
        applies_to=dict.fromkeys((V1BETA1, V1BETA2, V1BETA3, V1BETA4), ("ClusterConfiguration",)),
        body=kubeadm_body,
        trigger=FLAG,
        component="kubeadm",
    ),
]
