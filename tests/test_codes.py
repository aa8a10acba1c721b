"""Spec: finding codes are data; every code is declared once, reported at its level, and documented.

Three nets catch a code that says one thing and does another:

1. here, the source: every ``ctx.info/warn/error("K8SM-…")`` (and ``ctx.report("level", "K8SM-…")``)
   of every migration and shared module names a declared code at its declared level;
2. at run time: ``Context.report`` raises ``CodeError`` for a code reported at another level or
   not declared, and the whole test-suite runs in that mode (``K8SMIGRATE_CHECK_CODES=1`` in
   ``tests/conftest.py``), so every finding of every test and corpus run is checked;
3. the generated page lists every declared code with its level (``tests/test_docs.py``).
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from k8smigrate.codes import GENERAL, Code, checking, declared
from k8smigrate.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"^K8SM-[A-Z]+-\d{3}$")
LEVEL_OF = {"info": "info", "warn": "warning", "error": "error"}
SOURCES = sorted(
    [
        *(ROOT / "migrations").rglob("*.py"),
        *(ROOT / "k8smigrate" / "kube").glob("*.py"),
        *(ROOT / "k8smigrate" / "addons").glob("*.py"),
    ]
)


def reported(path: Path) -> list[tuple[int, str, str]]:
    """``(line, level, code)`` of every finding a module reports with a literal code and level."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            continue
        args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else "" for a in node.args]
        if node.func.attr in LEVEL_OF and CODE.match(args[0]):
            found.append((node.lineno, LEVEL_OF[node.func.attr], args[0]))
        elif node.func.attr == "report" and len(args) > 1 and args[0] and CODE.match(args[1]):
            found.append((node.lineno, args[0], args[1]))
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_reported_code_is_declared_at_that_level(path: Path) -> None:
    registry = default_registry()
    wrong = []
    for line, level, code in reported(path):
        want = registry.code(code)
        if want is None or want.level != level:
            wrong.append(
                f"{path.name}:{line}: {code} reported as {level}, declared {want.level if want else 'nowhere'}"
            )
    assert not wrong


def test_the_source_nets_see_the_findings() -> None:
    # a test that cannot fail is a defect: the walk finds the codes it is meant to check
    found = {code for path in SOURCES for _line, _level, code in reported(path)}
    assert {"K8SM-CRI-011", "K8SM-KADM-021", "K8SM-CRI-012", "K8SM-FLD-065"} <= found


def test_one_code_one_level_everywhere() -> None:
    codes: dict[str, set[str]] = {}
    for m in default_registry().migrations:
        for c in m.codes:
            codes.setdefault(c.code, set()).add(c.level)
    assert {code: levels for code, levels in codes.items() if len(levels) > 1} == {}


def test_general_codes_are_declared_in_one_module() -> None:
    # every K8SM-GEN code the package names is one of codes.GENERAL, and only codes.py spells them out
    for path in (ROOT / "k8smigrate").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        named = set(re.findall(r"K8SM-GEN-\d{3}", text))
        assert named <= set(GENERAL), path
        if path.name != "codes.py":
            assert not re.search(r"Code\(\s*\"K8SM-GEN", text), f"{path}: declare general codes in codes.py"


def test_kubeadm_codes_share_one_prefix() -> None:
    kubeadm = [c for m in default_registry().migrations if m.component == "kubeadm" for c in m.codes]
    prefixes = {c.code.split("-")[1] for c in kubeadm if c.code not in GENERAL}
    assert "ADM" not in prefixes and "KADM" in prefixes


def test_the_suite_enforces_levels_at_run_time() -> None:
    assert os.environ.get("K8SMIGRATE_CHECK_CODES") == "1" and checking()


def test_a_migration_may_restate_a_general_code_in_its_own_words_only() -> None:
    mine = GENERAL["K8SM-GEN-003"].with_summary("spec has both group and groups")
    assert declared((mine,), "K8SM-GEN-003") == Code("K8SM-GEN-003", "error", "spec has both group and groups")
    assert declared((), "K8SM-GEN-003") is GENERAL["K8SM-GEN-003"]
    assert declared((), "K8SM-NOPE-001") is None
    with pytest.raises(ValueError, match="level 'fatal'"):
        Code("K8SM-T-001", "fatal", "x")  # type: ignore[arg-type]
