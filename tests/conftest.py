from __future__ import annotations

import os
from pathlib import Path

import pytest

# Every finding a migration reports must be declared at that level: a mismatch raises (codes.checking)
os.environ["K8SMIGRATE_CHECK_CODES"] = "1"

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "files"


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not beside the project (only CI and sessions have it)")
    return CORPUS


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (a 20 MB file…) run only with K8SMIGRATE_SLOW=1: the default suite stays fast."""
    if os.environ.get("K8SMIGRATE_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow; set K8SMIGRATE_SLOW=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
