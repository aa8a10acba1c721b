"""Spec: the layout holds: no import circles, migrations stand alone, tree internals and the window stay hidden.

Everything here reads the source (``ast``), so a rule cannot be met by accident at run time:

- the project's import graph (every ``import`` and ``from … import``, at module level, inside
  functions and under ``TYPE_CHECKING`` alike) has no cycle;
- migrations import from ``k8smigrate`` (``kube``, ``model``, ``context``, ``tree``…), never from
  each other, the engine or the registry's instance;
- no migration edits ``.items``/``.entries`` or sets ``.dirty`` by hand, asks ``pristine()``, or
  reads the window (``settings.window``): the tree API and ``ctx`` answer those;
- only ``k8smigrate/yamlio/`` talks to ruamel.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "k8smigrate"
MIGRATIONS = ROOT / "migrations"


def module_name(path: Path) -> str:
    """The import name of a project file (``migrations/`` is installed as ``k8smigrate.migrations``)."""
    if path.is_relative_to(MIGRATIONS):
        parts = ["k8smigrate", "migrations", *path.relative_to(MIGRATIONS).with_suffix("").parts]
    else:
        parts = ["k8smigrate", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


FILES = sorted([*PACKAGE.rglob("*.py"), *MIGRATIONS.rglob("*.py")])
MODULES = {module_name(p): p for p in FILES}


def imports(path: Path) -> set[str]:
    """Every project module ``path`` imports, wherever the import statement stands."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in MODULES}
    return found - {name}


GRAPH = {name: imports(path) for name, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each a cycle's members."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.append(w)
                if w == v:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_has_no_cycle() -> None:
    assert "k8smigrate.engine" in GRAPH["k8smigrate.api"]  # the graph is read at all
    assert cycles(GRAPH) == []


MIGRATION_MODULES = sorted(name for name in MODULES if name.startswith("k8smigrate.migrations."))


@pytest.mark.parametrize("name", MIGRATION_MODULES)
def test_a_migration_imports_no_other_migration_nor_the_engine(name: str) -> None:
    forbidden = {m for m in GRAPH[name] if m.startswith("k8smigrate.migrations.") and m != name}
    forbidden |= GRAPH[name] & {"k8smigrate.engine", "k8smigrate.api", "k8smigrate.cli", "k8smigrate.scan"}
    assert not forbidden


LISTS = ("items", "entries")
MUTATORS = {"append", "insert", "remove", "reverse", "sort", "pop", "extend", "clear"}


def tree_internals(path: Path) -> list[str]:
    """What a module does that only the tree API should: edit item lists, set dirty, ask pristine()."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and t.attr in ("dirty", "items", "entries"):
                    found.append(f"{where}: sets .{t.attr}")
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr in LISTS:
                    found.append(f"{where}: del .{t.value.attr}[…]")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if node.func.attr in MUTATORS and isinstance(owner, ast.Attribute) and owner.attr in LISTS:
                found.append(f"{where}: .{owner.attr}.{node.func.attr}()")
            if node.func.attr == "pristine":
                found.append(f"{where}: pristine()")
    return found


SHAPES = sorted([*MIGRATIONS.rglob("*.py"), *(PACKAGE / "kube").glob("*.py"), *(PACKAGE / "addons").glob("*.py")])


@pytest.mark.parametrize("path", SHAPES, ids=lambda p: str(p.relative_to(ROOT)))
def test_migrations_use_the_tree_api_not_its_internals(path: Path) -> None:
    assert tree_internals(path) == []


def test_the_tree_internals_walk_sees_an_edit() -> None:
    probe = ROOT / "tests" / "fixtures" / "tree_internals_probe.py"
    assert len(tree_internals(probe)) == 5


@pytest.mark.parametrize("path", SHAPES, ids=lambda p: str(p.relative_to(ROOT)))
def test_migrations_ask_ctx_about_versions_instead_of_reading_the_window(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert "settings.window" not in text and "ctx.window" not in text


def test_only_the_yaml_io_package_talks_to_ruamel() -> None:
    talking = sorted(
        name
        for name, deps in ((n, _external(p)) for n, p in MODULES.items())
        if any(d.split(".")[0] in ("ruamel", "_ruamel_yaml") for d in deps)
    )
    assert talking and all(name.startswith("k8smigrate.yamlio.") for name in talking), talking


def _external(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found
