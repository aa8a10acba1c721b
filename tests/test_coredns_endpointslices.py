"""Spec: a CoreDNS that watches EndpointSlices gets list/watch on them in its ClusterRole (coredns_endpointslices)."""

from __future__ import annotations

from k8smigrate.migrations.checks.coredns_endpointslices import granted
from tests.helpers import check_noop, check_transformed, codes, dedent, run, validate

# kubeadm 1.21's role (cmd/kubeadm/app/phases/addons/dns/manifests.go before PR #102466), with comments
ROLE_1_21 = """\
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: system:coredns
rules:
# what the kubernetes plugin reads
- apiGroups:
  - ""
  resources:
  - endpoints
  - services
  - pods
  - namespaces
  verbs:
  - list
  - watch  # informers
"""

ROLE_1_22 = (
    ROLE_1_21
    + """\
- apiGroups:
  - discovery.k8s.io
  resources:
  - endpointslices
  verbs:
  - list
  - watch
"""
)

COREDNS = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: coredns
  namespace: kube-system
spec:
  selector:
    matchLabels:
      k8s-app: kube-dns
  template:
    metadata:
      labels:
        k8s-app: kube-dns
    spec:
      serviceAccountName: coredns
      containers:
      - name: coredns
        image: {image}
        args: [-conf, /etc/coredns/Corefile]
"""


def coredns(image: str = "registry.k8s.io/coredns/coredns:v1.8.4") -> str:
    return COREDNS.format(image=image)


def stream(*docs: str) -> str:
    return "---\n".join(dedent(d) for d in docs)


# ------------------------------------------------------------------ no-ops


def test_noop_for_a_coredns_that_reads_endpoints() -> None:
    for image in ("k8s.gcr.io/coredns:1.7.0", "coredns/coredns:1.8.0", "k8s.gcr.io/coredns/coredns:v1.8.0"):
        assert codes(check_noop(stream(ROLE_1_21, coredns(image)))) == []


def test_noop_for_a_role_that_allows_it() -> None:
    assert codes(check_noop(stream(ROLE_1_22, coredns()))) == []
    wildcard = ROLE_1_21.replace('  - ""\n', '  - "*"\n').replace("  - endpoints\n", "  - '*'\n")
    assert codes(check_noop(stream(wildcard, coredns()))) == []
    split = ROLE_1_21 + "- apiGroups: [discovery.k8s.io]\n  resources: [endpointslices]\n  verbs: ['*']\n"
    assert codes(check_noop(stream(split, coredns()))) == []


def test_noop_below_1_19_and_without_coredns_in_the_run() -> None:
    check_noop(stream(ROLE_1_21, coredns()), target_version="1.18")
    assert codes(check_noop(ROLE_1_21)) == []


def test_noop_for_roles_coredns_does_not_use() -> None:
    other = ROLE_1_21.replace("name: system:coredns", "name: dns-viewer")
    assert codes(check_noop(stream(other, coredns()))) == ["K8SM-DNS-003"]  # the info: no role of the run serves it


# ------------------------------------------------------------------ fixes


def test_the_kubeadm_1_21_role_gets_the_rule_kubeadm_1_22_ships() -> None:
    result = check_transformed(stream(ROLE_1_21, coredns()), stream(ROLE_1_22, coredns()), filename="dns.yaml")
    assert codes(result) == ["K8SM-DNS-001"]
    (finding,) = result.findings
    assert finding.level == "warning" and finding.line == 7
    assert "CoreDNS 1.8.4 (Deployment kube-system/coredns in dns.yaml:18)" in finding.message
    assert result.documents[0].applied == ["coredns_endpointslices"]
    validate(result.text)


def test_a_flow_style_role_gets_a_flow_rule() -> None:
    role = "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: ClusterRole\nmetadata: {name: system:coredns}\n"
    before = role + "rules: [{apiGroups: [''], resources: [endpoints], verbs: [list, watch]}]\n"
    after = role + (
        "rules: [{apiGroups: [''], resources: [endpoints], verbs: [list, watch]}, "
        "{apiGroups: [discovery.k8s.io], resources: [endpointslices], verbs: [list, watch]}]\n"
    )
    # rbac v1beta1 → v1 runs too at 1.29
    result = check_transformed(stream(before, coredns()), stream(after.replace("v1beta1", "v1"), coredns()))
    assert "K8SM-DNS-001" in codes(result)


def test_a_partial_rule_gets_the_missing_verb() -> None:
    partial = ROLE_1_21 + "- apiGroups:\n  - discovery.k8s.io\n  resources:\n  - endpointslices\n  verbs:\n  - list\n"
    result = check_transformed(stream(partial, coredns()), stream(partial + "  - watch\n", coredns()))
    assert "does not allow watch" in result.findings[0].message


def test_a_helm_style_role_bound_to_the_pods_account() -> None:
    role = ROLE_1_21.replace("name: system:coredns", "name: rel-coredns")
    binding = """\
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRoleBinding
    metadata:
      name: rel-coredns
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
      name: rel-coredns
    subjects:
    - kind: ServiceAccount
      name: coredns
      namespace: kube-system
    """
    fixed = ROLE_1_22.replace("name: system:coredns", "name: rel-coredns")
    result = check_transformed(stream(role, binding, coredns()), stream(fixed, binding, coredns()))
    assert codes(result) == ["K8SM-DNS-001"]


def test_a_system_coredns_role_bound_elsewhere_is_left_alone() -> None:
    binding = """\
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRoleBinding
    metadata: {name: b}
    roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: custom-dns}
    subjects:
    - {kind: ServiceAccount, name: coredns, namespace: kube-system}
    """
    assert "K8SM-DNS-001" not in codes(check_noop(stream(ROLE_1_21, binding, coredns())))


# ------------------------------------------------------------------ findings


def test_an_aggregated_role_is_an_error() -> None:
    aggregated = ROLE_1_21 + "aggregationRule:\n  clusterRoleSelectors:\n  - matchLabels: {dns: 'true'}\n"
    result = check_noop(stream(aggregated, coredns()))
    assert codes(result, "error") == ["K8SM-DNS-002"]
    assert "aggregated" in result.findings[0].message


def test_a_coredns_without_a_role_in_the_run_is_an_info() -> None:
    for image in (
        "coredns/coredns:1.8.1",
        "602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/coredns:v1.8.4-eksbuild.1",
    ):
        result = check_noop(coredns(image))
        assert codes(result, "info") == ["K8SM-DNS-003"]
        assert "service account coredns" in result.findings[0].message


def test_the_verbs_granted_over_several_rules() -> None:
    rules = [
        {"apiGroups": ["discovery.k8s.io"], "resources": ["endpointslices"], "verbs": ["list"]},
        {"apiGroups": ["*"], "resources": ["*"], "verbs": ["watch", "get"]},
    ]
    assert granted(rules) == {"list", "watch"}
    assert granted([{"apiGroups": [""], "resources": ["endpointslices"], "verbs": ["*"]}]) == set()


def test_the_role_fix_joins_the_deployment_of_another_stream_by_file_facts() -> None:
    result = run(ROLE_1_21, filename="role.yaml")
    assert codes(result) == []  # alone, nothing says CoreDNS watches slices
