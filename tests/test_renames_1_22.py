"""Spec: the pure apiVersion renames of the 1.22/1.23/1.24 removals.

apiregistration_v1beta1, authentication_v1beta1, coordination_v1beta1, scheduling_v1beta1,
scheduling_v1alpha1, storage_v1beta1 (four kinds, four gates), storage_v1alpha1: only
``apiVersion`` changes, every other byte stays, the output is valid v1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from k8smigrate import migrate_text
from tests.helpers import check_noop, check_transformed, codes, dedent, validate

# (old apiVersion, body after the apiVersion line, release just before the new API is served)
CASES = {
    "APIService": (
        "apiregistration.k8s.io/v1beta1",
        """
        kind: APIService
        metadata:
          name: v1beta1.metrics.k8s.io
        spec:
          service:
            name: metrics-server  # in kube-system
            namespace: kube-system
          group: metrics.k8s.io
          version: v1beta1
          insecureSkipTLSVerify: true
          groupPriorityMinimum: 100
          versionPriority: 100
        """,
        "1.9",
    ),
    "TokenReview": (
        "authentication.k8s.io/v1beta1",
        """
        kind: TokenReview
        spec:
          token: abc.def
          audiences: [api]
        """,
        "1.5",
    ),
    "Lease": (
        "coordination.k8s.io/v1beta1",
        """
        kind: Lease
        metadata:
          name: leader
          namespace: default
        spec:
          holderIdentity: "12"
          leaseDurationSeconds: 60
        """,
        "1.13",
    ),
    "PriorityClass": (
        "scheduling.k8s.io/v1beta1",
        """
        kind: PriorityClass
        metadata:
          name: high
        value: 1000000  # above the default
        globalDefault: false
        description: "Critical workloads"
        """,
        "1.13",
    ),
    "PriorityClass-v1alpha1": (
        "scheduling.k8s.io/v1alpha1",
        """
        kind: PriorityClass
        metadata:
          name: low
        value: -10
        preemptionPolicy: Never
        """,
        "1.13",
    ),
    "StorageClass": (
        "storage.k8s.io/v1beta1",
        """
        kind: StorageClass
        metadata:
          name: ssd
        provisioner: kubernetes.io/gce-pd
        parameters:
          type: pd-ssd
        """,
        "1.5",
    ),
    "VolumeAttachment": (
        "storage.k8s.io/v1beta1",
        """
        kind: VolumeAttachment
        metadata:
          name: va
        spec:
          attacher: csi.example.com
          nodeName: node-1
          source:
            persistentVolumeName: pv-1
        """,
        "1.12",
    ),
    "VolumeAttachment-v1alpha1": (
        "storage.k8s.io/v1alpha1",
        """
        kind: VolumeAttachment
        metadata:
          name: va
        spec:
          attacher: csi.example.com
          nodeName: node-1
          source:
            persistentVolumeName: pv-1
        """,
        "1.12",
    ),
    "CSINode": (
        "storage.k8s.io/v1beta1",
        """
        kind: CSINode
        metadata:
          name: my-node
        spec:
          drivers:
          - name: csi.example.com
            nodeID: node-1
            topologyKeys: ['topology.example.com/zone']
        """,
        "1.16",
    ),
    "CSIDriver": (
        "storage.k8s.io/v1beta1",
        """
        kind: CSIDriver
        metadata:
          name: csi.example.com
        spec:
          attachRequired: true
          podInfoOnMount: false
          volumeLifecycleModes: [Persistent, Ephemeral]
        """,
        "1.18",
    ),
}


def new_api(old: str) -> str:
    return old.rsplit("/", 1)[0] + "/v1"


@pytest.mark.parametrize("case", sorted(CASES))
def test_only_api_version_changes(case: str) -> None:
    old, rest, _below = CASES[case]
    # in_tree_volumes (issue 10) rightly warns on the StorageClass's in-tree provisioner
    result = check_transformed(
        f"apiVersion: {old}\n" + dedent(rest), f"apiVersion: {new_api(old)}\n" + dedent(rest), skip=["in_tree_volumes"]
    )
    validate(result.text)
    assert codes(result) == []


@pytest.mark.parametrize("case", sorted(CASES))
def test_noop_below_gate(case: str) -> None:
    old, rest, below = CASES[case]
    check_noop(f"apiVersion: {old}\n" + dedent(rest), target_version=below)


@pytest.mark.parametrize(
    ("api", "kind"),
    [
        ("storage.k8s.io/v1beta1", "VolumeAttributesClass"),
        ("coordination.k8s.io/v1beta1", "LeaseCandidate"),
        ("scheduling.k8s.io/v1beta1", "Workload"),
    ],
)
def test_noop_other_kinds_of_the_same_group_version(api: str, kind: str) -> None:
    result = check_noop(f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\n")
    assert not any(d.applied for d in result.documents)


def test_templated_document_is_migrated_with_its_actions() -> None:
    check_transformed(
        """
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PriorityClass
        metadata:
          name: {{ .Values.name }}
        value: 1000
        """,
        """
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata:
          name: {{ .Values.name }}
        value: 1000
        """,
    )


def test_min_version_keeps_csidriver_where_v1_is_not_served_yet() -> None:
    result = check_noop(
        "apiVersion: storage.k8s.io/v1beta1\nkind: CSIDriver\nmetadata:\n  name: d\nspec: {}\n",
        target_version="1.21",
        min_version="1.18",
    )
    assert codes(result, "error") == []


# ------------------------------------------------------------------ corpus regression

RENAMES = {
    "apiregistration_v1beta1",
    "authentication_v1beta1",
    "coordination_v1beta1",
    "node_v1beta1",
    "scheduling_v1alpha1",
    "scheduling_v1beta1",
    "storage_v1alpha1",
    "storage_v1beta1",
}
CORPUS_GLOBS = (
    "*apiservice*",
    "*lease*",
    "*Lease*",
    "*priorityclass*",
    "*-pc.yml",
    "*runtimeclass*",
    "*storage*",
    "*csi*",
    "*CSIDriver*",
    "*VolumeAttachment*",
)


def test_corpus_renames(corpus: Path) -> None:
    paths = sorted({p for glob in CORPUS_GLOBS for p in corpus.glob(glob)})
    assert paths
    for path in paths:
        text = path.read_text(encoding="utf-8")
        result = migrate_text(text, target_version="1.29", filename=path.name)
        assert "K8SM-GEN-004" not in codes(result), path.name
        assert migrate_text(result.text, target_version="1.29").text == result.text, path.name
        renamed = [d for d in result.documents if d.applied and set(d.applied) <= RENAMES]
        for doc in renamed:  # a rename changes nothing but apiVersion
            assert [op["path"] for op in doc.patch] == ["/apiVersion"], path.name
