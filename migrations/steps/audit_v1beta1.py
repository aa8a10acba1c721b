"""Audit Policy ``audit.k8s.io/v1beta1`` → ``audit.k8s.io/v1``.

The audit policy file that kube-apiserver reads (``--audit-policy-file``). Only
``apiVersion`` changes: ``Policy`` (``rules``, ``omitStages``, ``omitManagedFields``,
each rule's ``level``, ``users``, ``userGroups``, ``verbs``, ``resources``, ``namespaces``,
``nonResourceURLs``, ``omitStages``, ``omitManagedFields``) has the same fields in
v1alpha1, v1beta1 and v1 and converts field by field (apiserver
``pkg/apis/audit/{v1alpha1,v1beta1,v1}/types.go`` and the generated conversions; v1alpha1's
hand-written conversions touch only Event's object references and timestamps). Both old
versions are deprecated in 1.21 (``+k8s:prerelease-lifecycle-gen:deprecated=1.21``) and were
removed in 1.24, after which kube-apiserver fails to start on such a policy file; v1 is read
since 1.12.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Policy",),
    from_api="audit.k8s.io/v1beta1",
    to_api="audit.k8s.io/v1",
    available_in="1.12",
    summary="audit Policy audit.k8s.io/v1beta1 → v1: apiVersion only",
)
