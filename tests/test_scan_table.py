"""Every row of the removal table is detected by scan, and never passes migrate_text silently."""

from __future__ import annotations

import csv
from importlib import resources
from typing import Any

import pytest

from k8smigrate import migrate_text, scan_text
from k8smigrate.components import is_addon
from k8smigrate.scan import ScanEntry
from k8smigrate.versions import KubeVersion

with resources.files("k8smigrate").joinpath("data/removals.tsv").open(encoding="utf-8") as _fh:
    ROWS = [r for r in csv.DictReader(_fh, delimiter="\t") if r["removed_in"].strip()[:1].isdigit()]


def _api(row: dict[str, str]) -> str:
    group = row["group"].strip()
    return row["old_version"] if group in ("", "core") else f"{group}/{row['old_version']}"


def _api_rows(text: str, **kwargs: Any) -> list[ScanEntry]:
    # kubeadm and scheduler configs have no metadata: the strict field checks add readiness rows
    return [e for e in scan_text(text, **kwargs) if not e.readiness]


def _at(row: dict[str, str], release: str) -> dict[str, Any]:
    """The keywords that put the run at ``release`` of the row's component (an add-on's, or Kubernetes')."""
    component = row.get("component", "").strip() or "kubernetes"
    if is_addon(component):
        return {"components": {component: release}}
    return {"target_version": release}


def _doc(row: dict[str, str]) -> str:
    kind = row["kind"] if row["kind"] != "*" else "rule"  # a row for every kind of its apiVersion
    return f"apiVersion: {_api(row)}\nkind: {kind}\nmetadata:\n  name: t\n  namespace: ns\n"


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{_api(r)}-{r['kind']}")
def test_every_removed_api_is_reported_at_its_removal(row: dict[str, str]) -> None:
    removed = row["removed_in"].strip()
    (entry,) = _api_rows(_doc(row), **_at(row, removed))
    assert (entry.status, entry.removed_in, entry.name, entry.namespace) == ("removed", removed, "t", "ns")
    replacement = row["new_apiVersion"].strip()
    if replacement not in ("", "-"):
        assert entry.replacement == replacement or entry.migration is not None


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{_api(r)}-{r['kind']}")
def test_every_removed_api_is_migrated_or_an_error_never_silent(row: dict[str, str]) -> None:
    text = _doc(row)
    result = migrate_text(text, **_at(row, row["removed_in"].strip()))
    assert result.changed or any(f.level == "error" for f in result.findings)


@pytest.mark.parametrize(
    "row",
    [
        r
        for r in ROWS
        if r["deprecated_in"].strip()[:1].isdigit()
        and KubeVersion.parse(r["deprecated_in"].strip()) < KubeVersion.parse(r["removed_in"].strip())
    ],
    ids=lambda r: f"{_api(r)}-{r['kind']}",
)
def test_deprecated_before_removal_is_reported_as_deprecated(row: dict[str, str]) -> None:
    (entry,) = _api_rows(_doc(row), **_at(row, row["deprecated_in"].strip()))
    assert entry.status == "deprecated"


def test_the_window_says_whether_the_replacement_is_served() -> None:
    ingress = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n"
    (served,) = scan_text(ingress, target_version="1.22", min_version="1.19")
    (unserved,) = scan_text(ingress, target_version="1.22", min_version="1.13")
    assert (served.replacement_served, unserved.replacement_served) == (True, False)
