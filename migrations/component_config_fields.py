"""Unknown fields in KubeletConfiguration and KubeProxyConfiguration (the components only warn on them).

The kubelet (``kubelet.config.k8s.io/v1beta1``, PR #83204) and kube-proxy
(``kubeproxy.config.k8s.io/v1alpha1``, PRs #82927 and #84143) decode their ``--config``
strictly first and, when that fails, fall back to a lenient decode and only log ``using
lenient decoding as strict decoding failed``: unlike kube-scheduler (the
``scheduler_config`` pass, an error), they keep running, but whatever a misspelt or
removed field set is silently lost. So an unknown top-level field is a warning with its
line (K8SM-CC-005 for the kubelet, K8SM-CC-014 for kube-proxy), never deleted: the user
decides whether it was a typo or a leftover.

The field tables are the top-level ``json`` names of ``KubeletConfiguration`` in
``staging/src/k8s.io/kubelet/config/v1beta1/types.go`` and of ``KubeProxyConfiguration`` in
``staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go``, as the union of the releases
that read each version (no field a supported component accepts is reported): no field was
removed from ``KubeletConfiguration`` from 1.17 to 1.36; kube-proxy lost ``udpIdleTimeout``
in 1.26 (deleted by the ``kube_proxy_config`` pass at targets from 1.26; kept in the table so
as not to report it twice). Of the nested structs, only the kubelet's ``authentication`` and
``authorization`` (unchanged since 1.17) are checked. ``featureGates`` is the
``feature_gates`` pass; duplicate keys are reported by the core for every document
(K8SM-GEN-006).
"""

from __future__ import annotations

from collections.abc import Iterable

from k8smigrate.context import Context
from k8smigrate.registry import Migration
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
        "udpIdleTimeout",  # gone in 1.26 (the kube_proxy_config pass deletes it)
    )
)

# the kubelet's server authentication and authorization, the nested structs most often
# written by hand (KubeletAuthentication, KubeletAuthorization; unchanged since 1.17)
_WEBHOOK_AUTHN = frozenset(("enabled", "cacheTTL"))
KUBELET_NESTED: dict[str, dict[str, frozenset[str] | None]] = {
    "authentication": {
        "x509": frozenset(("clientCAFile",)),
        "webhook": _WEBHOOK_AUTHN,
        "anonymous": frozenset(("enabled",)),
    },
    "authorization": {"mode": None, "webhook": frozenset(("cacheAuthorizedTTL", "cacheUnauthorizedTTL"))},
}

# apiVersion → (field table, nested struct tables, component, code)
TABLES = {
    KUBELET: (KUBELET_FIELDS, KUBELET_NESTED, "the kubelet", "K8SM-CC-005"),
    KUBE_PROXY: (KUBE_PROXY_FIELDS, {}, "kube-proxy", "K8SM-CC-014"),
}


def body(config: Mapping, ctx: Context) -> None:
    fields, nested, component, code = TABLES[str(config.data("apiVersion"))]

    def unknown(node: Mapping, known: Iterable[str], where: str) -> None:
        for entry in node.entries:
            if entry.name not in known:
                ctx.warn(
                    code,
                    f"{where}{entry.name}: unknown field; {component} decodes its config leniently and only logs a "
                    "warning (unlike kube-scheduler, it starts), so this setting is silently ignored: fix its name "
                    "or delete it",
                    entry.key,
                )

    unknown(config, fields, "")
    for name, struct in nested.items():
        outer = config.mapping(name)
        if outer is None:
            continue
        unknown(outer, struct, f"{name}.")
        for inner_name, inner_fields in struct.items():
            inner = outer.mapping(inner_name)
            if inner is not None and inner_fields is not None:
                unknown(inner, inner_fields, f"{name}.{inner_name}.")


MIGRATIONS = [
    Migration(
        kinds=(kind,),
        from_api=api,
        to_api=api,
        available_in=since,
        body=body,
        component=component,
        fixer=True,
        summary=f"{kind}: unknown top-level fields (warnings; {component} ignores them)",
        codes={
            code: f"warning: an unknown field in a {kind}; {component} only warns and ignores it",
            "K8SM-GEN-006": "error: a duplicate key (reported by the core for every document)",
        },
    )
    for api, kind, component, code, since in (
        (KUBELET, "KubeletConfiguration", "kubelet", "K8SM-CC-005", "1.10"),
        (KUBE_PROXY, "KubeProxyConfiguration", "kube-proxy", "K8SM-CC-014", "1.10"),
    )
]
