"""APIService ``apiregistration.k8s.io/v1beta1`` → ``apiregistration.k8s.io/v1``.

Only ``apiVersion`` changes. The fields (``service{namespace, name, port}``, ``group``,
``version``, ``insecureSkipTLSVerify``, ``caBundle``, ``groupPriorityMinimum``,
``versionPriority``) are the same, and so is the one default: ``service.port: 443``
(``SetDefaults_ServiceReference`` in
``staging/src/k8s.io/kube-aggregator/pkg/apis/apiregistration/{v1beta1,v1}/defaults.go``).
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("APIService",),
    from_api="apiregistration.k8s.io/v1beta1",
    to_api="apiregistration.k8s.io/v1",
    available_in="1.10",
    summary="APIService apiregistration.k8s.io/v1beta1 → v1: apiVersion only",
)
