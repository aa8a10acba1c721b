"""Golden before/after files for the readiness fixers (issue 10), and their corner cases.

``tests/golden/readiness/NAME.before.yaml`` migrates (target 1.29, with the decisions of
``DECISIONS``) to exactly ``NAME.after.yaml``, with no error, no comment lost, unchanged on
a second run; built-in kinds validate strictly against 1.29, kubeadm documents against the
kubeadm field tables. Set ``K8SMIGRATE_REGEN_GOLDEN=1`` to rewrite the after files, then
review their diffs like code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import k8smigrate
from tests.helpers import check_transformed, codes, validate
from tests.kubeadm_helpers import validate_kubeadm

GOLDEN = Path(__file__).parent / "golden" / "readiness"
CASES = sorted(GOLDEN.glob("*.before.yaml"))
DECISIONS = {"kubeadm-dockershim": {"runtime": "containerd"}}


def name(path: Path) -> str:
    return path.name.split(".")[0]


@pytest.mark.parametrize("before", CASES, ids=name)
def test_golden(before: Path) -> None:
    after = before.with_name(before.name.replace(".before.", ".after."))
    decisions = DECISIONS.get(name(before), {})
    result = k8smigrate.migrate_text(before.read_text(encoding="utf-8"), target_version="1.29", decisions=decisions)
    assert codes(result, "error") == [], [f.format() for f in result.findings]
    assert "K8SM-GEN-004" not in codes(result)  # no comment lost
    if os.environ.get("K8SMIGRATE_REGEN_GOLDEN"):
        after.write_text(result.text, encoding="utf-8")
    assert result.text == after.read_text(encoding="utf-8")
    assert k8smigrate.migrate_text(result.text, target_version="1.29", decisions=decisions).text == result.text
    if name(before).startswith("kubeadm"):
        validate_kubeadm(result.text, "1.29")
    else:
        validate(result.text, "1.29.0")


def test_every_golden_case_has_an_after_file_and_changes_something() -> None:
    assert len(CASES) >= 2
    for before in CASES:
        after = before.with_name(before.name.replace(".before.", ".after."))
        assert after.read_text(encoding="utf-8") != before.read_text(encoding="utf-8"), before


def test_golden_findings_name_every_readiness_fix() -> None:
    deployment = k8smigrate.migrate_text((GOLDEN / "deployment.before.yaml").read_text(), target_version="1.29")
    assert {"K8SM-FLD-007", "K8SM-FLD-008", "K8SM-FLD-010", "K8SM-FLD-017", "K8SM-FLD-018"} <= set(codes(deployment))
    kubeadm = k8smigrate.migrate_text(
        (GOLDEN / "kubeadm-dockershim.before.yaml").read_text(),
        target_version="1.29",
        decisions=DECISIONS["kubeadm-dockershim"],
    )
    assert {"K8SM-CRI-012", "K8SM-CRI-003", "K8SM-CRI-004", "K8SM-KADM-007"} <= set(codes(kubeadm))


ARGS = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n"


def test_container_runtime_docker_goes_once_the_runtime_is_declared() -> None:
    # dockershim: without --set runtime= it is K8SM-CRI-001 (tests/test_dockershim.py)
    result = check_transformed(
        ARGS + "    container-runtime: docker\n    node-ip: 10.0.0.1\n",
        ARGS + "    node-ip: 10.0.0.1\n",
        decisions={"runtime": "containerd"},
    )
    assert codes(result) == ["K8SM-CRI-006", "K8SM-CRI-004"]  # 006: kubelet 1.26+ speaks CRI v1 only
