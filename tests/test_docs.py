"""Every migration is documented, and the docs are generated from the code."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from k8smigrate.docgen import render
from k8smigrate.registry import Migration, default_registry

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"K8SM-[A-Z]+-\d{3}")
MIGRATIONS = default_registry().migrations


def test_migrations_page_is_generated_from_the_registry() -> None:
    page = (ROOT / "docs" / "migrations.md").read_text(encoding="utf-8")
    assert page == render(default_registry()), "run: python -m k8smigrate.docgen > docs/migrations.md"


@pytest.mark.parametrize("migration", MIGRATIONS, ids=lambda m: f"{m.name}:{m.from_api}")
def test_every_migration_has_docs_and_lists_its_finding_codes(migration: Migration) -> None:
    assert len(migration.doc) > 80, f"{migration.name} needs a module docstring (its user documentation)"
    source = Path(_module_of(migration).__file__ or "").read_text(encoding="utf-8")
    emitted = set(CODE.findall(source)) - {"K8SM-GEN-002", "K8SM-GEN-010"}  # raised by ctx.pin / ctx.decision
    declared = {c for m in MIGRATIONS if m.name == migration.name for c in m.codes}
    missing = {code for code in emitted if code not in declared}
    assert not missing, f"{migration.name}: codes emitted but not in codes={{}}: {sorted(missing)}"
    for code, meaning in migration.codes.items():
        assert meaning.split(":")[0] in ("info", "warning", "error"), f"{code}: start with its level"


def _module_of(migration: Migration) -> ModuleType:
    for name, module in sorted(sys.modules.items()):
        if name.startswith("k8smigrate.migrations.") and module is not None:
            declared = getattr(module, "MIGRATIONS", None) or [getattr(module, "MIGRATION", None)]
            if any(
                isinstance(m, Migration)
                and (m.name or name.rsplit(".", 1)[-1]) == migration.name
                and m.from_api == migration.from_api
                for m in declared
            ):
                return module
    raise LookupError(migration.name)


def test_every_migration_has_a_test_module() -> None:
    tests = " ".join(p.name + p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("test_*.py"))
    untested = sorted({m.name for m in MIGRATIONS if m.name not in tests and m.name.split("_v")[0] not in tests})
    assert not untested
