"""Spec: the recipe of docs/writing-a-migration.md works: a toy step shows up everywhere it should.

The toy module is written to a temporary folder as a newcomer would write it (declaration,
body, docstring), its lifecycle row is added to a copy of the table, and the registry built
from both must put it in ``list``, ``explain``, ``scan``, ``diff`` and the generated docs.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import k8smigrate
from k8smigrate import registry as registry_module
from k8smigrate.cli import app
from k8smigrate.docgen import render
from k8smigrate.lifecycles import builtin, parse_table
from k8smigrate.registry import Registry, default_registry

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "writing-a-migration.md").read_text(encoding="utf-8")

TOY = '''"""Gizmo ``gizmos.example.com/v1beta1`` → ``gizmos.example.com/v1``: ``spec.size`` → ``spec.replicas``.

A toy step written by following docs/writing-a-migration.md, for its test only.
"""

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Mapping


def body(obj: Mapping, ctx: Context) -> None:
    spec = obj.mapping("spec")
    if spec is not None and "size" in spec:
        spec.rename("size", "replicas")
        ctx.info("K8SM-GIZ-001", "spec.size renamed spec.replicas", spec.get("replicas"))
        ctx.note("spec.size → spec.replicas")


MIGRATION = Step(
    kinds=("Gizmo",),
    from_api="gizmos.example.com/v1beta1",
    to_api="gizmos.example.com/v1",
    available_in="1.20",
    body=body,
    summary="Gizmo v1beta1 → v1: spec.size → spec.replicas",
    codes=(Code("K8SM-GIZ-001", "info", "spec.size renamed spec.replicas"),),
)
'''
ROW = "gizmos.example.com\tv1beta1\tGizmo\t1.25\t1.28\tgizmos.example.com/v1\tfields\tkubernetes\n"
HEADER = "group\told_version\tkind\tdeprecated_in\tremoved_in\tnew_apiVersion\ttransform\tcomponent\n"
GIZMO = "apiVersion: gizmos.example.com/v1beta1\nkind: Gizmo\nmetadata:\n  name: g\nspec:\n  size: 3\n"


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The installed registry plus the toy step and its row in the lifecycle table."""
    (tmp_path / "toy_gizmo_v1beta1.py").write_text(TOY, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("toy_gizmo_v1beta1")
    monkeypatch.delitem(sys.modules, "toy_gizmo_v1beta1")
    table = {**builtin(), **parse_table(HEADER + ROW)}
    registry = Registry([*default_registry().migrations, *registry_module.named_migrations(module)], table)
    monkeypatch.setattr(registry_module, "_REGISTRY", registry)
    return registry


def test_the_guide_names_every_file_a_migration_touches() -> None:
    for place in (
        "migrations/steps/",
        "migrations/checks/",
        "tests/test_<name>.py",
        "k8smigrate/data/removals.tsv",
        "k8smigrate/hints.py",
        "k8smigrate/kube/",
        "python -m k8smigrate.docgen > docs/migrations.md",
        "CHANGELOG.md",
    ):
        assert place in GUIDE, place


def test_the_toy_step_is_listed_and_explained(toy: Registry) -> None:
    runner = CliRunner()
    listed = runner.invoke(app, ["list"]).stdout
    line = next(x for x in listed.splitlines() if x.startswith("toy_gizmo_v1beta1 "))
    assert line.split() == ["toy_gizmo_v1beta1", "1.25", "1.28", "gizmos.example.com/v1beta1", "→", "v1", "Gizmo"]
    explained = runner.invoke(app, ["explain", "toy_gizmo_v1beta1"]).stdout
    assert explained.startswith("toy_gizmo_v1beta1: Gizmo gizmos.example.com/v1beta1 → gizmos.example.com/v1\n")
    assert "A toy step written by following docs/writing-a-migration.md" in explained
    assert "  K8SM-GIZ-001  info: spec.size renamed spec.replicas" in explained


def test_the_toy_step_is_scanned_and_applied(toy: Registry) -> None:
    (row,) = k8smigrate.scan_text(GIZMO, target_version="1.28", registry=toy)
    assert (row.status, row.removed_in, row.replacement, row.migration) == (
        "removed",
        "1.28",
        "gizmos.example.com/v1",
        "toy_gizmo_v1beta1",
    )
    result = k8smigrate.migrate_text(GIZMO, target_version="1.28", registry=toy)
    assert result.text == GIZMO.replace("v1beta1", "v1").replace("size", "replicas")
    assert [f.code for f in result.findings] == ["K8SM-GIZ-001"]


def test_the_toy_step_has_its_generated_docs(toy: Registry) -> None:
    page = render(toy)
    section = page[page.index("## `toy_gizmo_v1beta1`") :]
    assert "| Gizmo | `gizmos.example.com/v1beta1` | `gizmos.example.com/v1` | 1.20 | 1.25 | 1.28 |" in section
    assert "| `K8SM-GIZ-001` | info | spec.size renamed spec.replicas |" in section


def test_without_its_row_the_toy_step_would_go_unreported(toy: Registry) -> None:
    bare = Registry(toy.migrations)  # the same migrations, the shipped table: no row for Gizmo
    assert bare.lifecycle("gizmos.example.com/v1beta1", "Gizmo") is None
    assert (
        k8smigrate.scan_text(GIZMO, target_version="1.28", registry=bare) == []
    )  # what tests/test_lifecycles.py prevents
