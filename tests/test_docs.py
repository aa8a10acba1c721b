"""Every migration is documented, and the docs are generated from the code."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

from k8smigrate.codes import GENERAL
from k8smigrate.docgen import render
from k8smigrate.indexed import PACKAGE, module_files, package_dir
from k8smigrate.model import Migration
from k8smigrate.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"K8SM-[A-Z]+-\d{3}")
MIGRATIONS = default_registry().migrations


def test_migrations_page_is_generated_from_the_registry() -> None:
    page = (ROOT / "docs" / "migrations.md").read_text(encoding="utf-8")
    assert page == render(default_registry()), "run: python -m k8smigrate.docgen > docs/migrations.md"


def test_every_declared_code_is_on_the_migrations_page_with_its_level() -> None:
    page = (ROOT / "docs" / "migrations.md").read_text(encoding="utf-8")
    codes = {c for m in MIGRATIONS for c in m.codes} | set(GENERAL.values())
    missing = sorted(c.code for c in codes if f"| `{c.code}` | {c.level} | {c.summary} |" not in page)
    assert not missing


@pytest.mark.parametrize("migration", MIGRATIONS, ids=lambda m: f"{m.name}:{type(m).__name__}")
def test_every_migration_has_docs_and_declares_the_codes_its_module_names(migration: Migration) -> None:
    assert len(migration.doc) > 80, f"{migration.name} needs a module docstring (its user documentation)"
    source = Path(sys.modules[_module_name(migration)].__file__ or "").read_text(encoding="utf-8")
    named = set(CODE.findall(source))
    declared = {c.code for m in MIGRATIONS if m.name == migration.name for c in m.codes} | set(GENERAL)
    assert named <= declared, f"{migration.name}: codes named but not declared: {sorted(named - declared)}"


def _module_name(migration: Migration) -> str:
    for sub, module_name, _ in module_files(package_dir() or ROOT / "migrations"):
        importlib.import_module(f"{PACKAGE}.{sub}.{module_name}")  # a run imports only the bodies it runs
    for name, module in sorted(sys.modules.items()):
        if name.startswith("k8smigrate.migrations.") and module is not None:
            declared = getattr(module, "MIGRATIONS", None) or [getattr(module, "MIGRATION", None)]
            if any(m is not None and (m.name or name.rsplit(".", 1)[-1]) == migration.name for m in declared):
                return name
    raise LookupError(migration.name)


def test_every_migration_has_a_test_module() -> None:
    tests = " ".join(p.name + p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("test_*.py"))
    untested = sorted({m.name for m in MIGRATIONS if m.name not in tests and m.name.split("_v")[0] not in tests})
    assert not untested
