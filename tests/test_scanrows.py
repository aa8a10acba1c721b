"""Spec: ``scan --format text`` writes each file's rows as it arrives and keeps only counts.

The rows and the summary must be exactly what collecting every row would print; what is
kept of a file is its outcome only when it has findings (unreadable input), so memory does
not grow with the number of files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from k8smigrate import scanrows
from k8smigrate.api import FileOutcome, scanned
from k8smigrate.report import scan_summary_line
from k8smigrate.scan import FAIL_ON, ScanEntry, failing
from k8smigrate.settings import Settings

CURRENT = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
REMOVED = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n"
DEPRECATED = "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\n"
BROKEN = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\n"

SETTINGS = Settings(target_version="1.22")


def outcome(name: str, text: str) -> FileOutcome:
    return scanned(Path(name), text, name, SETTINGS)


def rows_of(texts: list[str]) -> tuple[scanrows.ScanRows, list[str], list[FileOutcome], list[ScanEntry]]:
    written: list[str] = []
    rows = scanrows.ScanRows(ScanEntry.format, written.append)
    kept: list[FileOutcome] = []
    entries: list[ScanEntry] = []
    for i, text in enumerate(texts):
        o = outcome(f"f{i}.yaml", text)
        entries += o.scan
        if rows.take(o):
            kept.append(o)
    rows.flush()
    return rows, written, kept, entries


def test_a_file_with_nothing_to_report_is_counted_and_not_kept() -> None:
    rows, written, kept, _ = rows_of([CURRENT])
    assert (rows.files, written, kept) == (1, [], [])
    assert rows.summary([]) == scan_summary_line(1, [], [])


def test_rows_are_written_in_file_order_and_the_summary_matches_collecting_them() -> None:
    texts = [CURRENT, REMOVED, DEPRECATED, REMOVED, CURRENT]
    rows, written, kept, entries = rows_of(texts)
    assert "".join(written) == "".join(e.format() + "\n" for e in entries)
    assert len(entries) >= 2 and kept == []
    assert rows.summary([]) == scan_summary_line(len(texts), entries, [])
    for fail_on in FAIL_ON:
        assert rows.failing(fail_on) == failing(entries, fail_on)


def test_rows_are_written_in_chunks_not_held_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scanrows, "CHUNK", 1)
    _, written, _, entries = rows_of([REMOVED, REMOVED, REMOVED])
    assert len(written) == 3 == len(entries)  # one write per file here, before the run ends


def test_an_unreadable_file_is_kept_for_its_findings() -> None:
    rows, _, kept, _ = rows_of([CURRENT, BROKEN])
    assert [o.path.name for o in kept] == ["f1.yaml"]
    assert rows.files == 2
