"""Golden changes for real chart templates (Ingress, workloads, CronJob, HPA, PDB, RBAC).

The templates are read from ../shared/corpus/charts (skipped when it is absent) and their
whole chart is migrated at 1.29, so that the chart-level step (computed apiVersions) and the
values (port numbers) take part. The expectation is the change only: a zero-context unified
diff in ``tests/golden/templates/CHART__FILE.diff``. Set ``K8SMIGRATE_REGEN_GOLDEN=1`` to
rewrite them, then review their diffs like code. Every action of the file must come out as
it went in, and a second run must change nothing.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from k8smigrate.api import migrate_paths
from k8smigrate.settings import Settings

GOLDEN = Path(__file__).parent / "golden" / "templates"
CASES = [
    ("grafana", "templates/ingress.yaml"),  # if/else apiVersion (chart-level step), ports from values.yaml
    ("gocd", "templates/ingress.yaml"),  # spec.backend, $dot.Values ports
    ("grafana", "templates/poddisruptionbudget.yaml"),
    ("grafana", "templates/role.yaml"),  # if/else rules branches left out of the skeleton
    ("kube-hunter", "templates/cronjob.yaml"),
    ("ambassador", "templates/hpa.yaml"),
    ("ark", "templates/deployment.yaml"),
    ("couchdb", "templates/statefulset.yaml"),
    ("kiam", "templates/agent-daemonset.yaml"),
    ("rabbitmq", "templates/ingress.yaml"),  # tls if/else of two shapes: the else branch carried as it is
]
ACTION = re.compile(r"\{\{.*?\}\}", re.S)


def migrated(chart_corpus: Path, tmp_path: Path, chart: str) -> Path:
    copy = tmp_path / chart
    shutil.copytree(chart_corpus / chart, copy, copy_function=shutil.copyfile)  # writable: the corpus is read-only
    outcomes = list(migrate_paths([copy], in_place=True, settings=Settings(target_version="1.29")))
    assert not [f.format() for o in outcomes for f in o.findings if f.code == "K8SM-GEN-012"]
    return copy


@pytest.mark.parametrize(("chart", "path"), CASES, ids=[f"{c}/{p.split('/')[-1]}" for c, p in CASES])
def test_golden_change(chart_corpus: Path, tmp_path: Path, chart: str, path: str) -> None:
    copy = migrated(chart_corpus, tmp_path, chart)
    before = (chart_corpus / chart / path).read_text(encoding="utf-8")
    after = (copy / path).read_text(encoding="utf-8")
    change = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0))
    golden = GOLDEN / f"{chart}__{path.replace('/', '_')}.diff"
    if os.environ.get("K8SMIGRATE_REGEN_GOLDEN"):
        golden.write_text(change, encoding="utf-8")
    assert change == golden.read_text(encoding="utf-8")
    assert change, "a golden case must change"


@pytest.mark.parametrize("chart", sorted({c for c, _p in CASES}))
def test_actions_are_carried_and_a_second_run_changes_nothing(chart_corpus: Path, tmp_path: Path, chart: str) -> None:
    copy = migrated(chart_corpus, tmp_path, chart)
    for path in sorted((copy / "templates").rglob("*.yaml")):
        before = (chart_corpus / chart / path.relative_to(copy)).read_text(encoding="utf-8")
        after = path.read_text(encoding="utf-8")
        assert Counter(ACTION.findall(after)) == Counter(ACTION.findall(before)), path.name
    again = list(migrate_paths([copy], in_place=False, settings=Settings(target_version="1.29")))
    assert not [o.path for o in again if o.result is not None and o.result.changed]
