"""Which chart a file belongs to (``chart.chart_root``), through links as ``Path.resolve`` sees them.

A run asks this for every file several times, so the resolution of each folder is remembered;
these specs pin that the answer is still the one of the resolved path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from k8smigrate.templating.chart import chart_root


def chart(folder: Path) -> Path:
    (folder / "templates").mkdir(parents=True)
    (folder / "Chart.yaml").write_text("apiVersion: v2\nname: c\nversion: 0.1.0\n", encoding="utf-8")
    (folder / "values.yaml").write_text("", encoding="utf-8")
    (folder / "templates" / "a.yaml").write_text("kind: ConfigMap\n", encoding="utf-8")
    return folder


def test_a_file_outside_any_chart_belongs_to_none(tmp_path: Path) -> None:
    (tmp_path / "plain.yaml").write_text("kind: ConfigMap\n", encoding="utf-8")
    assert chart_root(tmp_path / "plain.yaml") is None
    assert chart_root(chart(tmp_path / "c") / "Chart.yaml") is None  # not a manifest of it


def test_templates_and_values_belong_to_their_chart(tmp_path: Path) -> None:
    root = chart(tmp_path / "c")
    assert chart_root(root / "templates" / "a.yaml") == root.resolve()
    assert chart_root(root / "values.yaml") == root.resolve()


def test_a_linked_folder_and_a_linked_file_are_read_where_they_lead(tmp_path: Path) -> None:
    root = chart(tmp_path / "c")
    (tmp_path / "folder-link").symlink_to(root / "templates", target_is_directory=True)
    (tmp_path / "file-link.yaml").symlink_to(root / "templates" / "a.yaml")
    assert chart_root(tmp_path / "folder-link" / "a.yaml") == root.resolve()
    assert chart_root(tmp_path / "file-link.yaml") == root.resolve()


def test_a_values_file_of_a_charts_ci_folder_belongs_to_the_chart(tmp_path: Path) -> None:
    root = chart(tmp_path / "c")
    (root / "ci").mkdir()
    (root / "ci" / "test-values.yaml").write_text("a: 1\n", encoding="utf-8")
    assert chart_root(root / "ci" / "test-values.yaml") == root.resolve()


def test_a_relative_path_is_read_from_the_working_folder_of_the_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = chart(tmp_path / "c")
    monkeypatch.chdir(root / "templates")
    assert chart_root(Path("a.yaml")) == root.resolve()
    (tmp_path / "plain.yaml").write_text("kind: ConfigMap\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the same relative folder (".") is now another one
    assert chart_root(Path("plain.yaml")) is None


def test_the_files_of_a_folder_resolve_it_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plain").mkdir()
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (tmp_path / "plain" / name).write_text("kind: ConfigMap\n", encoding="utf-8")
    resolved: list[Path] = []
    resolve = Path.resolve

    def counted(self: Path, strict: bool = False) -> Path:
        resolved.append(self)
        return resolve(self, strict=strict)

    monkeypatch.setattr(Path, "resolve", counted)
    assert [chart_root(tmp_path / "plain" / n) for n in ("a.yaml", "b.yaml", "c.yaml")] == [None, None, None]
    assert resolved == [tmp_path / "plain"]  # the folder, once: not each file
