"""Golden chain: KubeSchedulerConfiguration v1beta1 → v1beta2 (kube-scheduler 1.22) and → v1 (1.29)."""

from __future__ import annotations

from pathlib import Path

import pytest

import k8smigrate
from tests.helpers import codes
from tests.kubescheduler_helpers import validate_scheduler

GOLDEN = Path(__file__).parent / "golden" / "kubescheduler"
G = "kubescheduler.config.k8s.io/"
CASES = [
    (p, suffix, target, api)
    for p in sorted(GOLDEN.glob("*.before.yaml"))
    for suffix, target, api in ((".after.yaml", "1.29", G + "v1"), (".v1beta2.after.yaml", "1.22", G + "v1beta2"))
]


@pytest.mark.parametrize(("before", "suffix", "target", "api"), CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_golden(before: Path, suffix: str, target: str, api: str) -> None:
    after = before.with_name(before.name.replace(".before.yaml", suffix))
    result = k8smigrate.migrate_text(before.read_text(), target_version=target)
    assert result.text == after.read_text()
    assert codes(result, "error") == [] and "K8SM-GEN-004" not in codes(result)
    again = k8smigrate.migrate_text(result.text, target_version=target)
    assert again.text == result.text
    validate_scheduler(result.text, api)


def test_chain_findings_name_every_step() -> None:
    text = (GOLDEN / "scheduler-config.before.yaml").read_text()
    result = k8smigrate.migrate_text(text, target_version="1.29")
    assert codes(result) == ["K8SM-SCHED-012", "K8SM-SCHED-002", "K8SM-SCHED-002", "K8SM-SCHED-001", "K8SM-SCHED-001"]
    assert [f.migration for f in result.findings][:2] == ["kubescheduler_v1beta1", "kubescheduler_v1beta2"]


def test_min_version_keeps_a_version_every_release_reads() -> None:
    # 1.22 through 1.25 all read v1beta2 (removed in 1.28), none of them reads v1beta1 → v1 alone
    text = (GOLDEN / "scheduler-config.before.yaml").read_text()
    result = k8smigrate.migrate_text(text, target_version="1.25", min_version="1.22")
    assert result.text == (GOLDEN / "scheduler-config.v1beta2.after.yaml").read_text()
