"""Golden chains v1beta1 → v1beta3 (kubeadm 1.22) and → v1beta4 (kubeadm 1.31); the corpus kubeadm files."""

from __future__ import annotations

from pathlib import Path

import pytest

import k8smigrate
from tests.helpers import codes
from tests.kubeadm_helpers import validate_kubeadm

GOLDEN = Path(__file__).parent / "golden" / "kubeadm"
CASES = [
    (p, suffix, target)
    for p in sorted(GOLDEN.glob("*.before.yaml"))
    for suffix, target in ((".after.yaml", "1.31"), (".v1beta3.after.yaml", "1.22"))
]


@pytest.mark.parametrize(("before", "suffix", "target"), CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_golden(before: Path, suffix: str, target: str) -> None:
    after = before.with_name(before.name.replace(".before.yaml", suffix))
    # The fixtures still name dockershim's socket, which the dockershim pass rightly refuses from 1.24,
    # and the scheduler's insecure --address, which kubeadm_insecure_flags rightly deletes from 1.23.
    result = k8smigrate.migrate_text(
        before.read_text(), target_version=target, skip=["dockershim", "kubeadm_insecure_flags"]
    )
    assert result.text == after.read_text()
    assert codes(result, "error") == [] and "K8SM-GEN-004" not in codes(result)
    again = k8smigrate.migrate_text(
        result.text,
        target_version=target,
        skip=["feature_gates", "dockershim", "kube_proxy_config", "kubeadm_insecure_flags"],
    )
    assert again.text == result.text
    validate_kubeadm(result.text, target)


CORPUS_FILES = [
    "kubernetes-2821f16__cmd_kubeadm_app_util_config_testdata_defaulting_controlplane_incomplete.yaml",
    "kubernetes-2d58ef7__cmd_kubeadm_app_util_config_strict_testdata_valid_initcfg.yaml",
    "kubernetes-3ba0724__cmd_kubeadm_app_util_config_testdata_conversion_master_v1beta1.yaml",
]


@pytest.mark.parametrize("name", CORPUS_FILES)
@pytest.mark.parametrize("target", ["1.17", "1.22", "1.31"])
def test_corpus_kubeadm_files(corpus: Path, name: str, target: str) -> None:
    text = (corpus / name).read_text()
    # feature_gates and kube_proxy_config (issue 10) rightly edit the KubeProxyConfiguration here;
    # this test is about kubeadm
    result = k8smigrate.migrate_text(
        text, target_version=target, skip=["feature_gates", "dockershim", "kube_proxy_config"]
    )
    assert result.changed or target == "1.17"
    assert codes(result, "error") == [] and "K8SM-GEN-004" not in codes(result)
    assert (
        k8smigrate.migrate_text(
            result.text, target_version=target, skip=["feature_gates", "dockershim", "kube_proxy_config"]
        ).text
        == result.text
    )
    validate_kubeadm(result.text, target)
    # the KubeletConfiguration and KubeProxyConfiguration documents stay byte-identical
    for old, new in zip(text.split("\n---\n"), result.text.split("\n---\n"), strict=True):
        if "kubeadm.k8s.io" not in old:
            assert old == new
