"""Hypothesis strategies for realistic manifest streams in random formatting.

Objects are drawn from the kinds in the migration table (and current ones that must stay
untouched); each is written by a small emitter with random indentation, sequence offset,
quoting, flow/block choices and comments everywhere, so that properties exercise the
splicing code on layouts nobody wrote by hand.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from k8smigrate.scalars import is_ambiguous

NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12).filter(
    lambda s: s[0].isalpha() and not s.endswith("-")
)
# Strings that YAML 1.1 readers misread when written plain.
TRICKY = st.sampled_from(
    ["yes", "no", "on", "off", "y", "n", "true", "null", "~", "1.10", "010", "0x1f", "12:30", "1e3"]
)
VALUES = st.one_of(NAMES, TRICKY, st.integers(0, 70000), st.booleans())
COMMENTS = st.text(alphabet="abcdefghij klmnop", min_size=1, max_size=15).map(lambda s: "# " + s.strip())


@st.composite
def ingress(draw: st.DrawFn, api: str | None = None) -> dict[str, Any]:
    def backend() -> dict[str, Any]:
        port = draw(st.one_of(st.integers(1, 65535), st.sampled_from(["http", "https", "web-port"])))
        return {"serviceName": draw(NAMES), "servicePort": port}

    paths = [
        {"path": draw(st.sampled_from(["/", "/api", "/v1/.*"])), "backend": backend()}
        for _ in range(draw(st.integers(1, 3)))
    ]
    spec: dict[str, Any] = {"rules": [{"host": draw(NAMES) + ".example.com", "http": {"paths": paths}}]}
    if draw(st.booleans()):
        spec["backend"] = backend()
    return {
        "apiVersion": api or draw(st.sampled_from(["extensions/v1beta1", "networking.k8s.io/v1beta1"])),
        "kind": "Ingress",
        "metadata": {"name": draw(NAMES), "labels": {"app": draw(st.one_of(NAMES, TRICKY))}},
        "spec": spec,
    }


@st.composite
def rbac(draw: st.DrawFn) -> dict[str, Any]:
    api = draw(st.sampled_from(["rbac.authorization.k8s.io/v1beta1", "rbac.authorization.k8s.io/v1alpha1"]))
    kind = draw(st.sampled_from(["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"]))
    obj: dict[str, Any] = {"apiVersion": api, "kind": kind, "metadata": {"name": draw(NAMES)}}
    if kind.endswith("Binding"):
        subject_kind = draw(st.sampled_from(["User", "Group", "ServiceAccount"]))
        subject: dict[str, Any] = {"kind": subject_kind, "name": draw(st.one_of(NAMES, st.just("*")))}
        if subject_kind == "ServiceAccount":
            subject["namespace"] = "default"
        if api.endswith("v1alpha1") and draw(st.booleans()):
            subject["apiVersion"] = "v1" if subject_kind == "ServiceAccount" else "rbac.authorization.k8s.io/v1alpha1"
        obj["subjects"] = [subject]
        obj["roleRef"] = {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": draw(NAMES)}
    else:
        obj["rules"] = [
            {
                "apiGroups": [""],
                "resources": ["pods"],
                "verbs": draw(st.lists(st.sampled_from(["get", "list"]), min_size=1, max_size=2, unique=True)),
            }
        ]
    return obj


@st.composite
def current(draw: st.DrawFn) -> dict[str, Any]:
    """Objects no migration touches."""
    return draw(
        st.sampled_from(
            [
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k": draw(VALUES)}},
                {
                    "apiVersion": "v1",
                    "kind": "Service",
                    "metadata": {"name": draw(NAMES)},
                    "spec": {"ports": [{"port": 80, "targetPort": draw(VALUES)}], "selector": {"app": "x"}},
                },
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "metadata": {"name": "d"},
                    "spec": {
                        "selector": {"matchLabels": {"app": "d"}},
                        "template": {
                            "metadata": {"labels": {"app": "d"}},
                            "spec": {"containers": [{"name": "c", "image": "nginx"}]},
                        },
                    },
                },
                ingress_v1(draw(NAMES)),
                {
                    "apiVersion": "admissionregistration.k8s.io/v1beta1",
                    "kind": "ValidatingAdmissionPolicy",
                    "metadata": {"name": "p"},
                    "spec": {"validations": [{"expression": "true"}]},
                },
            ]
        )
    )


def ingress_v1(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "Ingress",
        "metadata": {"name": name},
        "spec": {"defaultBackend": {"service": {"name": name, "port": {"number": 80}}}},
    }


class Layout:
    """One random way of writing YAML."""

    def __init__(self, indent: int, seq_offset: int, quote: str, flow_small: bool, comments: list[str], crlf: bool):
        self.indent = indent
        self.seq_offset = seq_offset
        self.quote = quote
        self.flow_small = flow_small
        self.comments = comments
        self.crlf = crlf
        self.n = 0

    def comment(self) -> str:
        self.n += 1
        if self.comments and self.n % 3 == 0:
            return "  " + self.comments[self.n % len(self.comments)]
        return ""

    def scalar(self, value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        text = str(value)
        plain_ok = (
            text.replace("-", "").replace(".", "").replace("/", "").replace("*", "x").isalnum()
            and not text[0].isdigit()
        )
        if self.quote == "plain" and plain_ok and not is_ambiguous(text) and text != "*":
            return text
        if self.quote == "'":
            return "'" + text.replace("'", "''") + "'"
        return json.dumps(text)

    def emit(self, obj: dict[str, Any]) -> str:
        lines: list[str] = []
        self._map(obj, 0, lines)
        nl = "\r\n" if self.crlf else "\n"
        return nl.join(lines) + nl

    def _inline(self, value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k}: {self._inline(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self._inline(v) for v in value) + "]"
        return self.scalar(value)

    def _small(self, value: Any) -> bool:
        return (
            self.flow_small
            and isinstance(value, (dict, list))
            and len(value) <= 2
            and all(not isinstance(v, (dict, list)) for v in (value.values() if isinstance(value, dict) else value))
        )

    def _map(self, obj: dict[str, Any], col: int, lines: list[str], first_prefix: str | None = None) -> None:
        for i, (key, value) in enumerate(obj.items()):
            lead = first_prefix if (i == 0 and first_prefix is not None) else " " * col
            if self.comments and self.n % 5 == 4 and i > 0:
                lines.append(" " * col + self.comments[0])
            if isinstance(value, (dict, list)) and value and not self._small(value):
                lines.append(f"{lead}{key}:{self.comment()}")
                if isinstance(value, dict):
                    self._map(value, col + self.indent, lines)
                else:
                    self._seq(value, col + self.seq_offset, lines)
            else:
                lines.append(f"{lead}{key}: {self._inline(value)}{self.comment()}")

    def _seq(self, items: list[Any], col: int, lines: list[str]) -> None:
        for item in items:
            if isinstance(item, dict) and item:
                self._map(item, col + 2, lines, first_prefix=" " * col + "- ")
            else:
                lines.append(" " * col + "- " + self._inline(item) + self.comment())


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    indent = draw(st.sampled_from([2, 4]))
    return Layout(
        indent,
        draw(st.sampled_from([0, indent])),
        draw(st.sampled_from(["plain", "'", '"'])),
        draw(st.booleans()),
        draw(st.lists(COMMENTS, max_size=3)),
        draw(st.booleans()),
    )


@st.composite
def streams(draw: st.DrawFn, objects: st.SearchStrategy[dict[str, Any]] | None = None) -> list[str]:
    """A list of documents' texts (join with '---' lines to make a stream)."""
    layout = draw(layouts())
    pool = objects if objects is not None else st.one_of(ingress(), rbac(), current())
    objs = draw(st.lists(pool, min_size=1, max_size=4))
    return [layout.emit(o) for o in objs]


def join(docs: list[str]) -> str:
    nl = "\r\n" if any("\r\n" in d for d in docs) else "\n"
    return ("---" + nl).join(docs)


# ---------------------------------------------------------------------------------------------
# The whole migration table (issue 7): one small, valid object per (apiVersion, kind), written
# with anchors, flow/block mixes, JSON documents and comments in every place a comment can go.


class Anchor:
    """A value written with ``&name`` where it first appears."""

    def __init__(self, name: str, value: Any) -> None:
        self.name = name
        self.value = value


class Ref:
    """An alias ``*name`` of an earlier ``Anchor`` (PyYAML resolves it when validating)."""

    def __init__(self, anchor: Anchor) -> None:
        self.anchor = anchor


def _plain(value: Any) -> Any:
    """The data of a value with anchors resolved (what a YAML reader sees)."""
    if isinstance(value, Anchor):
        return _plain(value.value)
    if isinstance(value, Ref):
        return _plain(value.anchor.value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


LABEL_VALUES = st.one_of(NAMES, TRICKY)


@st.composite
def _labels(draw: st.DrawFn, anchored: bool) -> Any:
    labels = {"app": draw(NAMES)}
    if draw(st.booleans()):
        labels["tier"] = draw(LABEL_VALUES)
    return Anchor("labels", labels) if anchored else labels


def _pod(name: str, labels: Any, restart: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": name, "image": "nginx:1.25", "ports": [{"containerPort": 80}]}]}
    if restart:
        spec["restartPolicy"] = restart
    return {"metadata": {"labels": labels}, "spec": spec}


@st.composite
def workload(draw: st.DrawFn) -> dict[str, Any]:
    api, kind = draw(
        st.sampled_from(
            [
                ("extensions/v1beta1", "Deployment"),
                ("extensions/v1beta1", "DaemonSet"),
                ("extensions/v1beta1", "ReplicaSet"),
                ("apps/v1beta1", "Deployment"),
                ("apps/v1beta1", "StatefulSet"),
                ("apps/v1beta2", "Deployment"),
                ("apps/v1beta2", "DaemonSet"),
                ("apps/v1beta2", "ReplicaSet"),
                ("apps/v1beta2", "StatefulSet"),
            ]
        )
    )
    name = draw(NAMES)
    anchored = draw(st.booleans())
    labels = draw(_labels(anchored))
    template_labels: Any = labels
    spec: dict[str, Any] = {}
    if kind != "DaemonSet" and draw(st.booleans()):
        spec["replicas"] = draw(st.integers(0, 5))
    if api == "apps/v1beta2" or draw(st.booleans()):
        # the anchor where the labels are first written (the selector), the alias below it
        spec["selector"] = {"matchLabels": labels}
        template_labels = Ref(labels) if anchored else dict(_plain(labels))
    if kind == "StatefulSet":
        spec["serviceName"] = name
    spec["template"] = _pod(name, template_labels)
    return {"apiVersion": api, "kind": kind, "metadata": {"name": name}, "spec": spec}


@st.composite
def batch_and_autoscaling(draw: st.DrawFn) -> dict[str, Any]:
    name = draw(NAMES)
    which = draw(st.sampled_from(["cronjob", "hpa1", "hpa2", "pdb"]))
    if which == "cronjob":
        job = {"template": _pod(name, {"app": name}, restart="OnFailure")}
        return {
            "apiVersion": "batch/v1beta1",
            "kind": "CronJob",
            "metadata": {"name": name},
            "spec": {"schedule": draw(st.sampled_from(["*/5 * * * *", "0 0 * * *"])), "jobTemplate": {"spec": job}},
        }
    if which == "pdb":
        budget = draw(st.one_of(st.integers(0, 3), st.just("50%")))
        return {
            "apiVersion": "policy/v1beta1",
            "kind": "PodDisruptionBudget",
            "metadata": {"name": name},
            "spec": {"minAvailable": budget, "selector": {"matchLabels": {"app": name}}},
        }
    target = {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}
    spec: dict[str, Any] = {"scaleTargetRef": target, "maxReplicas": draw(st.integers(2, 10))}
    if draw(st.booleans()):
        spec["minReplicas"] = 1
    utilization = draw(st.integers(10, 90))
    if which == "hpa1":
        metric = {"type": "Resource", "resource": {"name": "cpu", "targetAverageUtilization": utilization}}
        api = "autoscaling/v2beta1"
    else:
        metric = {
            "type": "Resource",
            "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": utilization}},
        }
        api = "autoscaling/v2beta2"
    spec["metrics"] = [metric]
    return {"apiVersion": api, "kind": "HorizontalPodAutoscaler", "metadata": {"name": name}, "spec": spec}


@st.composite
def cluster_objects(draw: st.DrawFn) -> dict[str, Any]:
    """Small objects of the 1.16–1.29 removals whose conversion is (nearly) a rename."""
    name = draw(NAMES)
    meta = {"name": name}
    choices: list[dict[str, Any]] = [
        {
            "apiVersion": "scheduling.k8s.io/v1beta1",
            "kind": "PriorityClass",
            "metadata": meta,
            "value": draw(st.integers(0, 1000000)),
            "description": draw(NAMES),
        },
        {
            "apiVersion": "storage.k8s.io/v1beta1",
            "kind": "StorageClass",
            "metadata": meta,
            "provisioner": "kubernetes.io/no-provisioner",
            "volumeBindingMode": "WaitForFirstConsumer",
        },
        {
            "apiVersion": "storage.k8s.io/v1beta1",
            "kind": "CSIDriver",
            "metadata": meta,
            "spec": {"attachRequired": draw(st.booleans())},
        },
        {
            "apiVersion": "coordination.k8s.io/v1beta1",
            "kind": "Lease",
            "metadata": meta,
            "spec": {"holderIdentity": draw(NAMES), "leaseDurationSeconds": 15},
        },
        {"apiVersion": "node.k8s.io/v1beta1", "kind": "RuntimeClass", "metadata": meta, "handler": draw(NAMES)},
        {
            "apiVersion": "networking.k8s.io/v1beta1",
            "kind": "IngressClass",
            "metadata": meta,
            "spec": {"controller": "example.com/ingress-controller"},
        },
        {
            "apiVersion": "extensions/v1beta1",
            "kind": "NetworkPolicy",
            "metadata": meta,
            "spec": {
                "podSelector": {"matchLabels": {"app": name}},
                "ingress": [{"from": [{"podSelector": {}}], "ports": [{"port": 80}]}],
            },
        },
        {
            "apiVersion": "apiregistration.k8s.io/v1beta1",
            "kind": "APIService",
            "metadata": {"name": "v1." + name + ".example.com"},
            "spec": {
                "group": name + ".example.com",
                "version": "v1",
                "groupPriorityMinimum": 1000,
                "versionPriority": 15,
                "service": {"name": name, "namespace": "default"},
            },
        },
        {
            "apiVersion": "authorization.k8s.io/v1beta1",
            "kind": "SelfSubjectAccessReview",
            "spec": {"resourceAttributes": {"verb": "get", "resource": "pods", "namespace": "default"}},
        },
        {
            "apiVersion": "discovery.k8s.io/v1beta1",
            "kind": "EndpointSlice",
            "metadata": meta,
            "addressType": "IPv4",
            "endpoints": [{"addresses": ["10.0.0.1"], "conditions": {"ready": True}}],
            "ports": [{"name": "http", "port": 80, "protocol": "TCP"}],
        },
        {
            "apiVersion": "flowcontrol.apiserver.k8s.io/" + draw(st.sampled_from(["v1beta1", "v1beta2"])),
            "kind": "PriorityLevelConfiguration",
            "metadata": meta,
            "spec": {
                "type": "Limited",
                "limited": {"assuredConcurrencyShares": draw(st.integers(1, 50)), "limitResponse": {"type": "Reject"}},
            },
        },
        {
            "apiVersion": "admissionregistration.k8s.io/v1beta1",
            "kind": "ValidatingWebhookConfiguration",
            "metadata": meta,
            "webhooks": [
                {
                    "name": name + ".example.com",
                    "clientConfig": {"service": {"name": name, "namespace": "default"}},
                    "rules": [
                        {"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}
                    ],
                    "sideEffects": "None",
                    "admissionReviewVersions": ["v1"],
                }
            ],
        },
        {
            "apiVersion": "extensions/v1beta1",
            "kind": "PodSecurityPolicy",
            "metadata": meta,
            "spec": {
                "privileged": False,
                "seLinux": {"rule": "RunAsAny"},
                "runAsUser": {"rule": "RunAsAny"},
                "supplementalGroups": {"rule": "RunAsAny"},
                "fsGroup": {"rule": "RunAsAny"},
                "volumes": ["*"],
            },
        },
    ]
    return draw(st.sampled_from(choices))


GATES = st.sampled_from(
    ["CSIMigration", "ServerSideApply", "IndexedJob", "RotateKubeletServerCertificate", "NoSuchGate", "NodeSwap"]
)
POD_ANNOTATIONS = st.sampled_from(
    [
        ("seccomp.security.alpha.kubernetes.io/pod", "runtime/default"),
        ("seccomp.security.alpha.kubernetes.io/pod", "localhost/profiles/audit.json"),
        ("container.seccomp.security.alpha.kubernetes.io/{c}", "unconfined"),
        ("container.apparmor.security.beta.kubernetes.io/{c}", "runtime/default"),
        ("scheduler.alpha.kubernetes.io/critical-pod", ""),
        ("kubectl.kubernetes.io/default-logs-container", "{c}"),
    ]
)


@st.composite
def _readiness_pod(draw: st.DrawFn, name: str) -> dict[str, Any]:
    pod = _pod(name, {"app": name})
    spec, meta = pod["spec"], pod["metadata"]
    annotations = dict(draw(st.lists(POD_ANNOTATIONS, max_size=3)))
    if annotations:
        meta["annotations"] = {k.format(c=name): v.format(c=name) for k, v in annotations.items()}
    if draw(st.booleans()):
        spec["tolerations"] = [{"key": "node-role.kubernetes.io/master", "effect": "NoSchedule"}]
    if draw(st.booleans()):
        spec["nodeSelector"] = {"node-role.kubernetes.io/master": ""}
    if draw(st.booleans()):
        spec["serviceAccount"] = draw(NAMES)
    volume = draw(
        st.sampled_from(
            [
                None,
                {"hostPath": {"path": "/var/run/docker.sock"}},
                {"glusterfs": {"endpoints": "e", "path": "x"}},
                {"awsElasticBlockStore": {"volumeID": "v"}},
            ]
        )
    )
    if volume is not None:
        spec["volumes"] = [{"name": "d", **volume}]
    if draw(st.booleans()):
        spec["containers"][0]["command"] = [
            "kube-proxy",
            f"--feature-gates={draw(GATES)}={draw(st.booleans())}".lower(),
        ]
    return pod


@st.composite
def readiness(draw: st.DrawFn) -> dict[str, Any]:
    """Objects on served APIs with what breaks an upgrade inside them (issue 10)."""
    name = draw(NAMES)
    which = draw(st.sampled_from(["workload", "service", "kubelet", "proxy", "kubeadm"]))
    meta: dict[str, Any] = {"name": name}
    if draw(st.integers(0, 4)) == 0:
        meta[draw(st.sampled_from(["clusterName", "selfLink"]))] = f"/api/v1/{name}"
    if which == "workload":
        kind = draw(st.sampled_from(["Deployment", "DaemonSet", "StatefulSet"]))
        spec: dict[str, Any] = {"selector": {"matchLabels": {"app": name}}, "template": draw(_readiness_pod(name))}
        if kind == "StatefulSet":
            spec["serviceName"] = name
        return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta, "spec": spec}
    if which == "service":
        spec = {"selector": {"app": name}, "ports": [{"port": draw(st.sampled_from([80, 10251, 10252]))}]}
        # (trafficDistribution is 1.30+, above the properties' target: not drawn)
        extra = draw(st.sampled_from(["topologyKeys", "ipFamily", "unready", "hints", None]))
        if extra == "topologyKeys":
            spec["topologyKeys"] = ["kubernetes.io/hostname", "*"]
        elif extra == "ipFamily":
            spec["ipFamily"] = draw(st.sampled_from(["IPv4", "IPv6"]))
        elif extra is not None:
            key = (
                "service.alpha.kubernetes.io/tolerate-unready-endpoints"
                if extra == "unready"
                else ("service.kubernetes.io/topology-aware-hints")
            )
            meta["annotations"] = {key: draw(st.sampled_from(["true", "false", "Auto"]))}
        return {"apiVersion": "v1", "kind": "Service", "metadata": meta, "spec": spec}
    gates = {draw(GATES): draw(st.booleans()) for _ in range(draw(st.integers(0, 3)))}
    if which == "kubelet":
        obj: dict[str, Any] = {"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration"}
        if gates:
            obj["featureGates"] = gates
        if draw(st.booleans()):
            obj["memorySwap"] = {"swapBehavior": draw(st.sampled_from(["LimitedSwap", "NoSwap"]))}
        if draw(st.booleans()):
            obj["iptablesDropBit"] = 15
        return obj
    if which == "proxy":
        obj = {"apiVersion": "kubeproxy.config.k8s.io/v1alpha1", "kind": "KubeProxyConfiguration"}
        obj["mode"] = draw(st.sampled_from(["userspace", "ipvs", "iptables"]))
        if draw(st.booleans()):
            obj["udpIdleTimeout"] = "250ms"
        if gates:
            obj["featureGates"] = gates
        return obj
    args = {"feature-gates": ",".join(f"{g}={str(v).lower()}" for g, v in gates.items())} if gates else {}
    registration: dict[str, Any] = {
        "criSocket": draw(st.sampled_from(["/run/containerd/containerd.sock", "unix:///var/run/crio/crio.sock"]))
    }
    if draw(st.booleans()):
        registration["kubeletExtraArgs"] = {"cgroup-driver": "systemd", "network-plugin": "cni"}
    kind = draw(st.sampled_from(["ClusterConfiguration", "InitConfiguration", "JoinConfiguration"]))
    if kind == "ClusterConfiguration":
        body: dict[str, Any] = {"apiServer": {"extraArgs": args}} if args else {}
        return {"apiVersion": "kubeadm.k8s.io/v1beta3", "kind": kind, **body}
    return {"apiVersion": "kubeadm.k8s.io/v1beta3", "kind": kind, "nodeRegistration": registration}


def table() -> st.SearchStrategy[dict[str, Any]]:
    """Any object of the migration table, one with readiness findings, or one that must stay untouched."""
    return st.one_of(ingress(), rbac(), workload(), batch_and_autoscaling(), cluster_objects(), readiness(), current())


class RichLayout(Layout):
    """A layout that also mixes flow and block per collection, writes anchors, JSON documents,
    and puts comments above documents, after markers, between items and at the end."""

    def __init__(self, base: Layout, flow_bits: list[bool], json_doc: bool, doc_comments: bool) -> None:
        super().__init__(base.indent, base.seq_offset, base.quote, base.flow_small, base.comments, base.crlf)
        self.flow_bits = flow_bits or [False]
        self.json_doc = json_doc
        self.doc_comments = doc_comments
        self.k = 0

    def _flow_here(self) -> bool:
        self.k += 1
        return self.flow_bits[self.k % len(self.flow_bits)]

    def emit(self, obj: dict[str, Any]) -> str:
        nl = "\r\n" if self.crlf else "\n"
        if self.json_doc:
            data = _plain(obj)
            return (json.dumps(data, indent=self.indent) if self.indent == 2 else json.dumps(data)) + nl
        body = super().emit(obj)
        if self.doc_comments and self.comments:
            body = self.comments[0] + nl + body + self.comments[-1] + nl
        return body

    def _inline(self, value: Any) -> str:
        if isinstance(value, Anchor):
            return f"&{value.name} " + self._inline(value.value)
        if isinstance(value, Ref):
            return f"*{value.anchor.name}"
        return super()._inline(value)

    def _small(self, value: Any) -> bool:
        if isinstance(value, (Anchor, Ref)):
            return True if isinstance(value, Ref) else self._small(value.value)
        if isinstance(value, (dict, list)) and value and self._flow_here():
            return True
        return super()._small(value)

    def _map(self, obj: dict[str, Any], col: int, lines: list[str], first_prefix: str | None = None) -> None:
        for i, (key, value) in enumerate(obj.items()):
            lead = first_prefix if (i == 0 and first_prefix is not None) else " " * col
            if self.comments and self.n % 5 == 4 and i > 0:
                lines.append(" " * col + self.comments[0])
            anchor = ""
            if isinstance(value, Anchor):
                anchor, value = f"&{value.name}", value.value
            if isinstance(value, (dict, list)) and value and not self._small(value):
                lines.append(f"{lead}{key}:{' ' + anchor if anchor else ''}{self.comment()}")
                if isinstance(value, dict):
                    self._map(value, col + self.indent, lines)
                else:
                    self._seq(value, col + self.seq_offset, lines)
            else:
                lines.append(f"{lead}{key}: {anchor + ' ' if anchor else ''}{self._inline(value)}{self.comment()}")

    def _seq(self, items: list[Any], col: int, lines: list[str]) -> None:
        for i, item in enumerate(items):
            if i and self.comments and self.n % 2:
                lines.append(" " * col + self.comments[-1])
            if isinstance(item, dict) and item:
                self._map(item, col + 2, lines, first_prefix=" " * col + "- ")
            else:
                lines.append(" " * col + "- " + self._inline(item) + self.comment())


@st.composite
def rich_layouts(draw: st.DrawFn) -> RichLayout:
    return RichLayout(
        draw(layouts()),
        draw(st.lists(st.booleans(), max_size=5)),
        draw(st.integers(0, 9)) == 0,
        draw(st.booleans()),
    )


@st.composite
def rich_streams(draw: st.DrawFn, objects: st.SearchStrategy[dict[str, Any]] | None = None) -> list[str]:
    """Like ``streams``, over the whole table and in a ``RichLayout``."""
    layout = draw(rich_layouts())
    objs = draw(st.lists(objects if objects is not None else table(), min_size=1, max_size=4))
    out = []
    for obj in objs:
        layout.k = layout.n = 0  # each document laid out on its own (independence of documents)
        out.append(layout.emit(obj))
    return out


MUTATIONS = st.sampled_from([*":-{}[]#&*!|>'\"%@`\t\n?,\\ \r\ufeff\x00", "---\n", "...\n", "? ", "<<: ", "{{ x }}"])


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A realistic stream with a few random edits: what a half-edited working tree holds."""
    text = join(draw(rich_streams()))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "dup-line"]))
        if op == "insert":
            text = text[:at] + draw(MUTATIONS) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        else:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end < 0 else end + 1
            text = text[:end] + text[start:end] + text[end:]
    return text


# ---------------------------------------------------------------------------------------------
# Spellings of apiVersion and kind that YAML allows and a look at the raw text may not read
# (issue 14 item 3): what the pre-filter must never skip.

SPELLINGS = (
    "as-is",
    "next-line",
    "comment-next-line",
    "anchor",
    "tag",
    "literal",
    "folded",
    "escaped-value",
    "escaped-key",
    "explicit-key",
    "alias",
    "single-quoted",
)


def respell(text: str, key: str, spelling: str) -> str:
    """The document with its top-level ``key`` written in another valid spelling (same data, or an alias of it)."""
    nl = "\r\n" if "\r\n" in text else "\n"
    if text.lstrip().startswith("{"):
        return _respell_json(text, key, spelling, nl)
    lines = text.split(nl)
    for i, line in enumerate(lines):
        if line.startswith(f"{key}: "):
            raw = _unquote(line[len(key) + 2 :].split("  #", 1)[0].strip())
            lines[i] = _spelled(key, raw, spelling, nl)
            return nl.join(lines)
    return text


def _unquote(value: str) -> str:
    if value[:1] == "'" and value[-1:] == "'":
        return value[1:-1].replace("''", "'")
    if value[:1] == '"' and value[-1:] == '"':
        return str(json.loads(value))
    return value


def _escaped(raw: str) -> str:
    """``raw`` in double quotes with a JSON-style ``\\/`` and a ``\\uXXXX`` escape (same string)."""
    return '"' + f"\\u{ord(raw[0]):04x}" + raw[1:].replace("/", "\\/") + '"'


def _spelled(key: str, raw: str, spelling: str, nl: str) -> str:
    value = json.dumps(raw)
    if spelling == "next-line":
        return f"{key}:{nl}  {value}"
    if spelling == "comment-next-line":
        return f"{key}:  # {key} below{nl}  {raw}"
    if spelling == "anchor":
        return f"{key}: &sp-{key} {raw}"
    if spelling == "tag":
        return f"{key}: !!str {raw}"
    if spelling == "literal":
        return f"{key}: |-{nl}  {raw}"
    if spelling == "folded":
        return f"{key}: >-{nl}  {raw}"
    if spelling == "escaped-value":
        return f"{key}: {_escaped(raw)}"
    if spelling == "escaped-key":
        return (
            f'"{key[:3]}\\u{ord(key[3]):04x}{key[4:]}": {raw}'
            if len(key) > 4
            else f'"\\u{ord(key[0]):04x}{key[1:]}": {raw}'
        )
    if spelling == "explicit-key":
        return f"? {key}{nl}: {raw}"
    if spelling == "alias":
        return f"x-{key.lower()}: &sp-{key} {raw}{nl}{key}: *sp-{key}"
    if spelling == "single-quoted":
        return f"{key}: '{raw}'"
    return f"{key}: {raw}"


def _respell_json(text: str, key: str, spelling: str, nl: str) -> str:
    marker = f'"{key}": '
    at = text.find(marker)
    if at < 0:
        return text
    end = text.index('"', at + len(marker) + 1) + 1
    raw = str(json.loads(text[at + len(marker) : end]))
    if spelling in ("escaped-value", "literal", "folded", "anchor", "tag", "alias"):
        new = f'"{key}": {_escaped(raw)}'
    elif spelling in ("escaped-key", "explicit-key"):
        new = f'"\\u{ord(key[0]):04x}{key[1:]}": {json.dumps(raw)}'
    elif spelling in ("next-line", "comment-next-line"):
        new = f'"{key}":{nl}  {json.dumps(raw)}'
    else:
        return text
    return text[:at] + new + text[end:]


@st.composite
def spelled_streams(draw: st.DrawFn) -> list[str]:
    """Streams of the whole table whose apiVersion and kind lines are written in any valid spelling."""
    out = []
    for doc in draw(rich_streams()):
        for key in ("apiVersion", "kind"):
            doc = respell(doc, key, draw(st.sampled_from(SPELLINGS)))
        out.append(doc)
    return out


# ---------------------------------------------------------------------------------------------
# Aliases and merge keys in the parts migrations restructure (issue 14 item 2).


def _holders(value: Any, depth: int = 0) -> list[tuple[Any, Any]]:
    """(container, key) of every non-empty mapping below the top level, in document order."""
    out: list[tuple[Any, Any]] = []
    items = (
        list(value.items()) if isinstance(value, dict) else list(enumerate(value)) if isinstance(value, list) else []
    )
    for key, child in items:
        if isinstance(child, (Anchor, Ref)) or _has_refs(child):
            continue
        if isinstance(child, dict) and child and depth >= 1 and "<<" not in child:
            out.append((value, key))
        out += _holders(child, depth + 1)
    return out


def _has_refs(value: Any) -> bool:
    if isinstance(value, (Anchor, Ref)):
        return True
    if isinstance(value, dict):
        return any(_has_refs(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_refs(v) for v in value)
    return False


@st.composite
def shared_object(draw: st.DrawFn) -> dict[str, Any]:
    """An object of the table where a mapping it holds is an alias, a merge, or shared with a List
    item: anchored in an ``x-shared`` key written first, or in the first of two List items."""
    obj = draw(st.one_of(ingress(), workload(), batch_and_autoscaling(), cluster_objects(), readiness()))
    holders = _holders(obj)
    if not holders:
        return obj
    container, key = draw(st.sampled_from(holders))
    value = container[key]
    how = draw(st.sampled_from(["anchor", "alias", "merge", "merge-override", "list"]))
    if how == "anchor":
        container[key] = Anchor("kept", value)
        return obj
    if how == "list":
        twin = json.loads(json.dumps(_plain(obj)))
        container[key] = anchor = Anchor("twin", value)
        _replace(twin, anchor)
        return {"apiVersion": "v1", "kind": "List", "items": [obj, twin]}
    anchor = Anchor("shared", json.loads(json.dumps(_plain(value))))
    if how == "alias":
        container[key] = Ref(anchor)
    else:
        merged: dict[str, Any] = {"<<": Ref(anchor)}
        if how == "merge-override":
            first = next(iter(value))
            merged[first] = value[first]
        container[key] = merged
    return {"x-shared": anchor, **obj}


def _replace(twin: Any, anchor: Anchor) -> None:
    """Put an alias of ``anchor`` where the twin holds the anchored mapping (the same path)."""
    target = _plain(anchor.value)
    stack = [twin]
    while stack:
        node = stack.pop()
        items = (
            list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        )
        for key, child in items:
            if child == target:
                node[key] = Ref(anchor)
                return
            stack.append(child)


@st.composite
def shared_streams(draw: st.DrawFn) -> list[str]:
    """Streams of objects with aliases and merge keys in the parts that migrations edit."""
    layout = draw(rich_layouts())
    layout.json_doc = False  # JSON has no aliases
    out = []
    for obj in draw(st.lists(shared_object(), min_size=1, max_size=3)):
        layout.k = layout.n = 0
        out.append(layout.emit(obj))
    return out


# ---------------------------------------------------------------------------------------------
# Hostile nesting (issue 14 item 16): refused early, at about the cost of a valid document.

HOSTILE_DEPTH = 501  # one more than the tree holds (``yamlio.documents.MAX_DEPTH``)


@st.composite
def hostile_streams(draw: st.DrawFn) -> tuple[list[str], int]:
    """Realistic documents with one hostile document among them, and its index."""
    docs = draw(rich_streams())
    depth = draw(st.integers(HOSTILE_DEPTH, 3000))
    shape = draw(st.sampled_from(["open-seq", "open-map", "closed-seq", "block", "mixed"]))
    if shape == "open-seq":
        hostile = "x: " + "[" * depth + "\n"
    elif shape == "open-map":
        hostile = "x: " + "{a: " * depth + "\n"
    elif shape == "closed-seq":
        hostile = "x: " + "[" * depth + "]" * depth + "\n"
    elif shape == "block":
        hostile = "".join(" " * i + "a:\n" for i in range(depth)) + " " * depth + "a: 1\n"
    else:  # two levels a "[{": depth 501 needs 251 of them (250 make 500 levels, which the tree holds)
        hostile = "x: " + "[{a: " * ((depth + 1) // 2) + "\n"
    at = draw(st.integers(0, len(docs)))
    docs.insert(at, hostile)
    return docs, at
