"""Unknown fields in KubeletConfiguration and KubeProxyConfiguration (the components only warn on them).

The kubelet (``kubelet.config.k8s.io/v1beta1``, PR #83204) and kube-proxy
(``kubeproxy.config.k8s.io/v1alpha1``, PRs #82927 and #84143) decode their ``--config``
strictly first and, when that fails, fall back to a lenient decode and only log ``using
lenient decoding as strict decoding failed``: unlike kube-scheduler (the
``scheduler_config`` check, an error), they keep running, but whatever a misspelt or
removed field set is silently lost. So an unknown top-level field is a warning with its
line (K8SM-CC-005 for the kubelet, K8SM-CC-014 for kube-proxy), never deleted: the user
decides whether it was a typo or a leftover.

The field tables are the top-level ``json`` names of ``KubeletConfiguration`` in
``staging/src/k8s.io/kubelet/config/v1beta1/types.go`` and of ``KubeProxyConfiguration`` in
``staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go``, as the union of the releases
that read each version (no field a supported component accepts is reported): no field was
removed from ``KubeletConfiguration`` from 1.17 to 1.36; kube-proxy lost ``udpIdleTimeout``
in 1.26 (deleted by the ``kube_proxy_config`` check at targets from 1.26; kept in the table so
as not to report it twice).

Nested structs are checked too, with the dotted path in the finding
(``conntrack.max: unknown field``): the kubelet's ``authentication``, ``authorization``,
``memorySwap``, ``crashLoopBackOff``, ``userNamespaces`` and ``tracing``, and kube-proxy's
``clientConnection``, ``iptables``, ``ipvs``, ``nftables``, ``winkernel``, ``conntrack`` and
``detectLocal``; both components' ``logging`` (component-base ``LoggingConfiguration``,
with ``options.json``/``options.text``). Items of lists (``vmodule``,
``shutdownGracePeriodByPodPriority``, ``reservedMemory``…) and maps of free keys
(``evictionHard``…) are not checked. Not every release's kube-proxy ``types.go`` could be
read: its nested tables are the union of the oldest copy found (about 1.15, vendored, with
``resourceContainer``), an intermediate one (about 1.29, vendored, with ``nftables``) and the
newest upstream (1.36, with ``iptables.snatNodeInternalIP`` and ``conntrack.udpTimeout``); no
nested field disappeared between them, and ``conntrack.max`` was already gone in the oldest
(so it is reported). ``linux`` and ``windows`` exist only in kube-proxy's internal config and
v1alpha2, not in v1alpha1. ``featureGates`` is the ``feature_gates`` check; duplicate keys are
reported by the core for every document (K8SM-GEN-006).
"""

from __future__ import annotations

from collections.abc import Collection

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

KUBELET = "kubelet.config.k8s.io/v1beta1"
KUBE_PROXY = "kubeproxy.config.k8s.io/v1alpha1"
_TYPE_META = ("apiVersion", "kind")

KUBELET_FIELDS = frozenset(
    (
        *_TYPE_META,
        "enableServer",
        "staticPodPath",
        "podLogsDir",
        "syncFrequency",
        "fileCheckFrequency",
        "httpCheckFrequency",
        "staticPodURL",
        "staticPodURLHeader",
        "address",
        "port",
        "readOnlyPort",
        "tlsCertFile",
        "tlsPrivateKeyFile",
        "tlsCipherSuites",
        "tlsCurvePreferences",
        "tlsMinVersion",
        "rotateCertificates",
        "serverTLSBootstrap",
        "authentication",
        "authorization",
        "registryPullQPS",
        "registryBurst",
        "imagePullCredentialsVerificationPolicy",
        "preloadedImagesVerificationAllowlist",
        "eventRecordQPS",
        "eventBurst",
        "enableDebuggingHandlers",
        "enableContentionProfiling",
        "healthzPort",
        "healthzBindAddress",
        "oomScoreAdj",
        "clusterDomain",
        "clusterDNS",
        "streamingConnectionIdleTimeout",
        "nodeStatusUpdateFrequency",
        "nodeStatusReportFrequency",
        "nodeLeaseDurationSeconds",
        "imageMinimumGCAge",
        "imageMaximumGCAge",
        "imageGCHighThresholdPercent",
        "imageGCLowThresholdPercent",
        "volumeStatsAggPeriod",
        "kubeletCgroups",
        "systemCgroups",
        "cgroupRoot",
        "cgroupsPerQOS",
        "cgroupDriver",
        "cpuManagerPolicy",
        "singleProcessOOMKill",
        "cpuManagerPolicyOptions",
        "cpuManagerReconcilePeriod",
        "draManagerReconcilePeriod",
        "memoryManagerPolicy",
        "topologyManagerPolicy",
        "topologyManagerScope",
        "topologyManagerPolicyOptions",
        "qosReserved",
        "runtimeRequestTimeout",
        "hairpinMode",
        "maxPods",
        "podCIDR",
        "podPidsLimit",
        "resolvConf",
        "runOnce",
        "cpuCFSQuota",
        "cpuCFSQuotaPeriod",
        "nodeStatusMaxImages",
        "maxOpenFiles",
        "contentType",
        "kubeAPIQPS",
        "kubeAPIBurst",
        "serializeImagePulls",
        "maxParallelImagePulls",
        "evictionHard",
        "evictionSoft",
        "evictionSoftGracePeriod",
        "evictionPressureTransitionPeriod",
        "evictionMaxPodGracePeriod",
        "evictionMinimumReclaim",
        "mergeDefaultEvictionSettings",
        "podsPerCore",
        "enableControllerAttachDetach",
        "protectKernelDefaults",
        "makeIPTablesUtilChains",
        "iptablesMasqueradeBit",
        "iptablesDropBit",
        "featureGates",
        "failSwapOn",
        "memorySwap",
        "containerLogMaxSize",
        "containerLogMaxFiles",
        "containerLogMaxWorkers",
        "containerLogMonitorInterval",
        "configMapAndSecretChangeDetectionStrategy",
        "systemReserved",
        "kubeReserved",
        "reservedSystemCPUs",
        "showHiddenMetricsForVersion",
        "systemReservedCgroup",
        "kubeReservedCgroup",
        "enforceNodeAllocatable",
        "allowedUnsafeSysctls",
        "volumePluginDir",
        "providerID",
        "kernelMemcgNotification",
        "logging",
        "enableSystemLogHandler",
        "enableSystemLogQuery",
        "shutdownGracePeriod",
        "shutdownGracePeriodCriticalPods",
        "shutdownGracePeriodByPodPriority",
        "crashLoopBackOff",
        "reservedMemory",
        "enableProfilingHandler",
        "enableDebugFlagsHandler",
        "seccompDefault",
        "memoryThrottlingFactor",
        "memoryReservationPolicy",
        "registerWithTaints",
        "registerNode",
        "tracing",
        "localStorageCapacityIsolation",
        "containerRuntimeEndpoint",
        "imageServiceEndpoint",
        "failCgroupV1",
        "userNamespaces",
    )
)

KUBE_PROXY_FIELDS = frozenset(
    (
        *_TYPE_META,
        "featureGates",
        "clientConnection",
        "logging",
        "hostnameOverride",
        "bindAddress",
        "healthzBindAddress",
        "metricsBindAddress",
        "bindAddressHardFail",
        "enableProfiling",
        "showHiddenMetricsForVersion",
        "mode",
        "iptables",
        "ipvs",
        "nftables",
        "winkernel",
        "detectLocalMode",
        "detectLocal",
        "clusterCIDR",
        "nodePortAddresses",
        "oomScoreAdj",
        "conntrack",
        "configSyncPeriod",
        "portRange",
        "windowsRunAsService",
        "udpIdleTimeout",  # gone in 1.26 (the kube_proxy_config check deletes it)
    )
)

Struct = dict[str, "Struct | None"]
"""A nested struct: its json names, each with its own struct, or None when it is not checked
further (a scalar, a map of free keys, or a list: list items are not checked)."""


def fields(*names: str) -> Struct:
    return dict.fromkeys(names)


# component-base LoggingConfiguration (logs/api/v1 from 1.26, config/v1alpha1 before it, which
# also had ``sanitization``); options.json/options.text are OutputRoutingOptions
_ROUTING = fields("splitStream", "infoBufferSize")
LOGGING: Struct = {
    **fields("format", "sanitization", "flushFrequency", "verbosity", "vmodule"),
    "options": {"json": _ROUTING, "text": _ROUTING},
}

# the kubelet's nested structs (KubeletAuthentication and KubeletAuthorization unchanged since
# 1.17; MemorySwapConfiguration, CrashLoopBackOffConfig, UserNamespaces and component-base
# TracingConfiguration as in the newest types.go, no field of theirs was ever removed)
KUBELET_NESTED: Struct = {
    "authentication": {
        "x509": fields("clientCAFile"),
        "webhook": fields("enabled", "cacheTTL"),
        "anonymous": fields("enabled"),
    },
    "authorization": {"mode": None, "webhook": fields("cacheAuthorizedTTL", "cacheUnauthorizedTTL")},
    "logging": LOGGING,
    "memorySwap": fields("swapBehavior"),
    "crashLoopBackOff": fields("maxContainerRestartPeriod"),
    "userNamespaces": fields("idsPerPod"),
    "tracing": fields("endpoint", "samplingRatePerMillion"),
}

# kube-proxy's nested structs: the union of the json names of the oldest v1alpha1 types.go
# found (about 1.15, with resourceContainer), an intermediate one (about 1.29) and the newest
# (1.36); no nested field was removed in between. ``linux``/``windows`` exist only in the internal config
# and in v1alpha2, never in v1alpha1.
KUBE_PROXY_NESTED: Struct = {
    "clientConnection": fields("kubeconfig", "acceptContentTypes", "contentType", "qps", "burst"),
    "logging": LOGGING,
    "iptables": fields(
        "masqueradeBit", "masqueradeAll", "localhostNodePorts", "snatNodeInternalIP", "syncPeriod", "minSyncPeriod"
    ),
    "ipvs": fields(
        "syncPeriod",
        "minSyncPeriod",
        "scheduler",
        "excludeCIDRs",
        "strictARP",
        "tcpTimeout",
        "tcpFinTimeout",
        "udpTimeout",
    ),
    "nftables": fields("masqueradeBit", "masqueradeAll", "syncPeriod", "minSyncPeriod"),
    "winkernel": fields("networkName", "sourceVip", "enableDSR", "rootHnsEndpointName", "forwardHealthCheckVip"),
    "conntrack": fields(
        "maxPerCore",
        "min",
        "tcpEstablishedTimeout",
        "tcpCloseWaitTimeout",
        "tcpBeLiberal",
        "udpTimeout",
        "udpStreamTimeout",
    ),
    "detectLocal": fields("bridgeInterface", "interfaceNamePrefix"),
}

# apiVersion → (field table, nested struct tables, component, code)
TABLES = {
    KUBELET: (KUBELET_FIELDS, KUBELET_NESTED, "the kubelet", "K8SM-CC-005"),
    KUBE_PROXY: (KUBE_PROXY_FIELDS, KUBE_PROXY_NESTED, "kube-proxy", "K8SM-CC-014"),
}


def body(config: Mapping, ctx: Context) -> None:
    known, nested, component, code = TABLES[str(config.data("apiVersion"))]

    def check(node: Mapping, names: Collection[str], struct: Struct, where: str) -> None:
        """Every field of ``node`` in document order, depth first into the known structs."""
        for entry in node.entries:
            if entry.name not in names:
                ctx.warn(
                    code,
                    f"{where}{entry.name}: unknown field; {component} decodes its config leniently and only logs a "
                    "warning (unlike kube-scheduler, it starts), so this setting is silently ignored: fix its name "
                    "or delete it",
                    entry.key,
                )
            elif (inner := struct.get(entry.name)) is not None and isinstance(entry.value, Mapping):
                check(entry.value, inner, inner, f"{where}{entry.name}.")

    check(config, known, nested, "")


MIGRATIONS = [
    Check(
        applies_to={api: (kind,)},
        body=body,
        component=component,
        category="component-config",
        summary=f"{kind}: unknown top-level fields (warnings; {component} ignores them)",
        codes=(Code(code, "warning", f"an unknown field in a {kind}; {component} only warns and ignores it"),),
    )
    for api, kind, component, code in (
        (KUBELET, "KubeletConfiguration", "kubelet", "K8SM-CC-005"),
        (KUBE_PROXY, "KubeProxyConfiguration", "kube-proxy", "K8SM-CC-014"),
    )
]
