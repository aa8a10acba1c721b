from __future__ import annotations

import os
from pathlib import Path

import pytest

# Every finding a migration reports must be declared at that level: a mismatch raises (codes.checking)
os.environ["K8SMIGRATE_CHECK_CODES"] = "1"

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "files"
CHARTS = ROOT.parent / "shared" / "corpus" / "charts"


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not beside the project (only CI and sessions have it)")
    return CORPUS


@pytest.fixture(scope="session")
def chart_corpus() -> Path:
    if not CHARTS.is_dir():
        pytest.skip("../shared/corpus/charts is not beside the project (only CI and sessions have it)")
    return CHARTS


@pytest.fixture(scope="session")
def helm() -> str:
    """The real helm: skipped outside CI when it is missing, a failure in CI (``CI`` set by .ci/run)."""
    import shutil

    found = shutil.which("helm")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("helm is not on PATH in CI: .ci/run puts .ci/get-tools' folder on PATH")
        pytest.skip("helm is not on PATH (CI installs it; locally: PATH=$(.ci/get-tools):$PATH)")
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (a 20 MB file…) run only with K8SMIGRATE_SLOW=1: the default suite stays fast."""
    if os.environ.get("K8SMIGRATE_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow; set K8SMIGRATE_SLOW=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
