"""Regression: the runtime, port, volume and component-config passes over the corpus files they look at.

Passes: dockershim, docker_socket, insecure_ports, in_tree_volumes, kube_proxy_config,
scheduler_config. No crash, no comment lost, idempotent; what they report stays reported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import k8smigrate

MARKERS = (
    "docker.sock",
    "10251",
    "10252",
    "dockershim",
    "awsElasticBlockStore",
    "gcePersistentDisk",
    "glusterfs",
    "cephfs",
    "kubernetes.io/aws-ebs",
    "userspace",
    "KubeSchedulerConfiguration",
)
PREFIXES = ("K8SM-CRI-", "K8SM-ADM-", "K8SM-VOL-", "K8SM-CC-")


def test_runtime_passes_on_the_corpus(corpus: Path) -> None:
    reported = 0
    for path in sorted(corpus.iterdir()):
        text = path.read_text(encoding="utf-8")
        if not any(m in text for m in MARKERS):
            continue
        for target in ("1.25", "1.31"):
            result = k8smigrate.migrate_text(text, target_version=target, filename=path.name)
            assert not [f for f in result.findings if f.code in ("K8SM-GEN-012", "K8SM-GEN-004")], path.name
            again = k8smigrate.migrate_text(result.text, target_version=target)
            assert again.text == result.text, path.name
            reported += sum(f.code.startswith(PREFIXES) for f in result.findings)
    if reported == 0:
        pytest.skip("no corpus file has a runtime, port, volume or component-config finding")
