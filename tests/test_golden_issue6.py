"""Golden before/after files for the workload, PDB, HPA and CronJob migrations (issue 6).

Each ``tests/golden/workloads/NAME.before.yaml`` must migrate (target 1.29) to exactly
``NAME.after.yaml``, validate strictly, and stay unchanged on a second run. Set
``K8SMIGRATE_REGEN_GOLDEN=1`` to rewrite the after files, then review their diffs like code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from k8smigrate import migrate_text
from tests.helpers import validate

CASES = sorted((Path(__file__).parent / "golden" / "workloads").glob("*.before.yaml"))


@pytest.mark.parametrize("before", CASES, ids=lambda p: p.name.split(".")[0])
def test_golden(before: Path) -> None:
    after = before.with_name(before.name.replace(".before.", ".after."))
    text = before.read_text(encoding="utf-8")
    result = migrate_text(text, target_version="1.29", filename=str(before))
    assert not [f for f in result.findings if f.level in ("error", "warning")]
    if os.environ.get("K8SMIGRATE_REGEN_GOLDEN"):
        after.write_text(result.text, encoding="utf-8")
    assert result.text == after.read_text(encoding="utf-8")
    assert migrate_text(result.text, target_version="1.29").text == result.text
    validate(result.text, "1.29.0")


def test_cases_exist() -> None:
    assert CASES
