"""Spec: the library's dataclasses are the standard ones, their methods' code compiled once per
install (``k8smigrate.dataclasscode``; issue 19: compiling them was a fifth of a one-file run).
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import marshal
import re
import subprocess
import sys
from collections.abc import Callable
from types import CodeType
from typing import Any

import pytest

from k8smigrate import dataclasscode, dataclasses_index, dataclassrecipe
from k8smigrate.dataclasscode import fingerprint
from k8smigrate.indexgen import DATACLASSES_FILE, RECIPES_FILE, generate_dataclasses
from tests.library_sources import module_names, modules_matching

SAME_PYTHON = tuple(sys.version_info[:2]) == dataclasses_index.PYTHON
needs_same_python = pytest.mark.skipif(
    not SAME_PYTHON,
    reason=f"the index was generated on Python {dataclasses_index.PYTHON}: its texts are that version's",
)


def methods(cls: type) -> dict[str, CodeType]:
    """The code of the methods ``dataclass`` wrote into a class."""
    names = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__lt__", "__le__")
    found = {n: getattr(cls.__dict__.get(n), "__code__", None) for n in names}
    return {n: code for n, code in found.items() if code is not None}


def made(decorator: object) -> type:
    """The same class definition as the library's ``KubeVersion``, under ``decorator``."""

    @decorator(frozen=True)  # type: ignore[operator, misc]
    class KubeVersion:
        major: int
        minor: int

    return KubeVersion  # type: ignore[no-any-return]


def counting(compiled: list[str]):  # type: ignore[no-untyped-def]
    """``compile``, noting each text it compiles."""
    return lambda text, *args, **kwargs: compiled.append(text) or compile(text, *args, **kwargs)


# -- no-op: the index is current and every entry is what exec compiles


@needs_same_python
def test_the_checked_in_index_is_generated_from_the_library() -> None:
    code, recipes = generate_dataclasses()
    assert DATACLASSES_FILE.read_text(encoding="utf-8") == code, (
        "k8smigrate/dataclasses_index.py is stale: run python -m k8smigrate.indexgen --write"
    )
    assert RECIPES_FILE.read_text(encoding="utf-8") == recipes, (
        "k8smigrate/dataclass_recipes.py is stale: run python -m k8smigrate.indexgen --write"
    )


def test_the_decorator_knows_which_python_the_index_was_generated_on() -> None:
    assert dataclasscode.INDEX_PYTHON == dataclasses_index.PYTHON  # set it when the index is regenerated


@needs_same_python
def test_the_index_applies_to_this_python() -> None:
    assert fingerprint(dataclasses._create_fn.__code__) == dataclasses_index.CREATE_FN  # type: ignore[attr-defined]
    assert len(dataclasses_index.CODE) > 100


@needs_same_python
def test_every_entry_is_the_code_exec_compiles_from_its_text() -> None:
    for text, blob in dataclasses_index.CODE.items():
        compiled = compile(text, "<string>", "exec", dont_inherit=True)  # as dataclasses' exec compiles it
        fresh = next(c for c in compiled.co_consts if isinstance(c, CodeType))
        ours = marshal.loads(blob)
        assert ours == fresh, text
        inner = [(c.co_filename, c.co_firstlineno) for c in ours.co_consts if isinstance(c, CodeType)]
        assert inner == [(c.co_filename, c.co_firstlineno) for c in fresh.co_consts if isinstance(c, CodeType)]
        assert (ours.co_filename, ours.co_qualname) == (fresh.co_filename, fresh.co_qualname)


def test_every_module_of_the_library_takes_dataclass_from_dataclasscode() -> None:
    direct = re.compile(r"^from dataclasses import [^\n]*\bdataclass\b|@dataclasses\.dataclass", re.M)
    assert modules_matching(direct, exempt=("dataclasscode.py", "indexgen.py")) == []


# -- the classes are the standard decorator's


@needs_same_python
def test_a_class_of_the_index_is_built_without_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    monkeypatch.setattr(dataclasscode, "compile", counting(compiled), raising=False)
    ours, standard = made(dataclasscode.dataclass), made(dataclasses.dataclass)
    assert compiled == []  # every method of KubeVersion's text came from the index
    assert methods(ours) == methods(standard) and len(methods(ours)) == 6
    for name, code in methods(ours).items():  # where tracebacks say they are, too
        theirs = methods(standard)[name]
        assert (code.co_filename, code.co_firstlineno) == (theirs.co_filename, theirs.co_firstlineno), name
    assert methods(ours)["__init__"].co_filename == "<string>"
    assert (ours(1, 22), repr(ours(1, 22)), hash(ours(1, 22))) == (ours(1, 22), repr(standard(1, 22)), hash((1, 22)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        ours(1, 22).major = 2  # type: ignore[misc]


@needs_same_python
def test_a_class_the_index_does_not_know_is_compiled_as_usual(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    monkeypatch.setattr(dataclasscode, "compile", counting(compiled), raising=False)

    def define(decorator: object) -> type:
        @decorator(order=True)  # type: ignore[operator, misc]
        class Unheard:
            name_nobody_uses: str
            items: list[int] = dataclasses.field(default_factory=list)
            count: int = 3

        return Unheard  # type: ignore[no-any-return]

    ours, standard = define(dataclasscode.dataclass), define(dataclasses.dataclass)
    assert compiled  # not in the index: compiled, as the standard decorator does
    assert methods(ours) == methods(standard)
    assert inspect.signature(ours) == inspect.signature(standard)
    assert [f.name for f in dataclasses.fields(ours)] == ["name_nobody_uses", "items", "count"]
    assert ours("a") < ours("b") and repr(ours("a")) == repr(standard("a")).replace(
        standard.__qualname__, ours.__qualname__
    )


@needs_same_python
def test_the_standard_function_is_put_back_even_when_the_class_is_refused() -> None:
    standard = dataclasses._create_fn  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="non-default argument"):

        @dataclasscode.dataclass
        class Refused:
            first: int = 0
            second: int  # type: ignore[misc]

    assert dataclasses._create_fn is standard  # type: ignore[attr-defined]
    made(dataclasscode.dataclass)
    assert dataclasses._create_fn is standard  # type: ignore[attr-defined]


@pytest.mark.skipif(
    not hasattr(dataclasses, "_create_fn"), reason="this Python's dataclasses builds methods without _create_fn"
)
def test_another_pythons_create_fn_is_left_to_the_standard_decorator(monkeypatch: pytest.MonkeyPatch) -> None:
    other = lambda *a, **k: pytest.fail("a _create_fn the index was not made for was replaced")  # noqa: E731
    monkeypatch.setattr(dataclasses, "_create_fn", other)
    with pytest.raises(pytest.fail.Exception):
        made(dataclasscode.dataclass)  # the decorator called it: it was not replaced by the copy
    assert dataclasses._create_fn is other  # type: ignore[attr-defined]


def test_on_another_python_the_index_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataclasscode, "_CODE", None)
    monkeypatch.setattr(dataclasscode, "_STANDARD", None)
    monkeypatch.setattr(sys, "version_info", (3, 12, 0, "final", 0))
    dataclasscode._load()
    assert dataclasscode._CODE == {}
    assert dataclasscode._STANDARD is None


# -- recipes: a class the index has a recipe for is rebuilt from it (k8smigrate.dataclassrecipe)

DESCRIBE = """
import dataclasses, json, re, sys, types
import k8smigrate.dataclasscode as code
code.REPLAY = sys.argv[1] == "replay"
replayed = []
replay = code.replay
code.replay = lambda *args: replayed.append(args[0].__qualname__) or replay(*args)
for name in sys.argv[2:]:
    __import__(name)
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
def text(value):
    return ADDRESS.sub("", repr(value))
def describe(value, cls):
    if value is cls:
        return "the class"
    if isinstance(value, types.FunctionType):
        c = value.__code__
        cells = [describe(cell.cell_contents, cls) for cell in value.__closure__ or ()]
        wrapped = getattr(value, "__wrapped__", None)
        return [value.__name__, value.__qualname__, value.__module__, text(code.fingerprint(c)), c.co_filename,
                c.co_firstlineno, text(value.__defaults__), text(value.__kwdefaults__), text(value.__annotations__),
                cells, value.__globals__ is sys.modules[cls.__module__].__dict__,
                None if wrapped is None else describe(wrapped, cls), sorted(value.__dict__)]
    if isinstance(value, dataclasses.Field):
        return ["field", value.name, value.type, text(value.default), text(value.default_factory), value.init,
                value.repr, value.hash, value.compare, text(value.metadata), text(value.kw_only),
                value._field_type.name]
    if isinstance(value, dict):
        return {k: describe(v, cls) for k, v in value.items()}
    return text(value)
out = {}
for module in list(sys.modules.values()):
    for value in list(vars(module).values()) if module.__name__.startswith("k8smigrate") else ():
        if isinstance(value, type) and "__dataclass_fields__" in vars(value) and value.__module__ == module.__name__:
            out[f"{value.__module__}:{value.__qualname__}"] = [list(value.__dict__), describe(dict(value.__dict__), value)]
print(json.dumps({"classes": out, "replayed": len(replayed)}))
"""
"""Imports the modules named (every module of the library), then describes each of its dataclasses: the names of its
dictionary in order, and each value (a method by its code, where it is, its defaults, annotations,
closure and wrapped function; a field by every attribute)."""


def described(how: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", DESCRIBE, how, *module_names()], capture_output=True, text=True, check=True
    )
    found: dict[str, Any] = json.loads(proc.stdout)
    return found


@needs_same_python
def test_every_class_of_the_library_built_from_its_recipe_is_the_one_the_decorator_makes() -> None:
    standard, rebuilt = described("standard"), described("replay")
    assert standard["replayed"] == 0 and rebuilt["replayed"] == len(rebuilt["classes"]) > 100
    assert rebuilt["classes"].keys() == standard["classes"].keys()
    for key, (names, values) in standard["classes"].items():
        assert rebuilt["classes"][key] == [names, values], key


def record(define: Callable[[Any], type], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """The recipe of the class ``define(decorator)`` makes, recorded and compiled as the index does."""
    recorded: list[tuple[str, Any]] = []
    monkeypatch.setattr(dataclasscode, "RECORDED_RECIPES", recorded)
    define(dataclasscode.dataclass)
    monkeypatch.setattr(dataclasscode, "RECORDED_RECIPES", None)
    ((_key, recipe),) = recorded
    assert recipe is not None
    return dataclassrecipe.compiled(recipe, dataclasscode.exec_code)  # type: ignore[no-any-return]


def field_kinds(decorator: Any, extra: bool = False) -> type:
    @decorator(frozen=True, order=True, slots=True, kw_only=False)  # type: ignore[misc]
    class Kinds:
        """Every kind of field a recipe says how to make."""

        name: str
        start: dataclasses.InitVar[int]
        labels: tuple[str, ...] = ()
        items: list[int] = dataclasses.field(default_factory=list, compare=False)
        note: str | None = dataclasses.field(default=None, repr=False, kw_only=True)
        if extra:
            more: int = 0

        def __post_init__(self, start: int) -> None:
            object.__setattr__(self, "labels", (*self.labels, str(start)))

    return Kinds  # type: ignore[no-any-return]


@needs_same_python
def test_a_recipe_rebuilds_the_class_it_was_recorded_from(monkeypatch: pytest.MonkeyPatch) -> None:
    recipe = record(field_kinds, monkeypatch)
    standard = field_kinds(dataclasses.dataclass)
    rebuilt = dataclassrecipe.replay(field_kinds(lambda **o: lambda c: c), {}, recipe)  # type: ignore[arg-type]
    assert rebuilt is None  # recorded with options: the same class without them is declared otherwise
    options = {"frozen": True, "order": True, "slots": True, "kw_only": False}
    rebuilt = dataclassrecipe.replay(field_kinds(lambda **o: lambda c: c), options, recipe)
    assert rebuilt is not None
    assert list(rebuilt.__dict__) == list(standard.__dict__)
    assert methods(rebuilt) == methods(standard)
    a, b = rebuilt("a", 1, note="x"), rebuilt("b", 2)
    assert (a.labels, a.items, a.note) == (("1",), [], "x") and repr(b) == repr(standard("b", 2))
    assert repr(b) == "field_kinds.<locals>.Kinds(name='b', labels=('2',), items=[])"
    assert a < b and hash(a) == hash(rebuilt("a", 1, note="x")) and rebuilt.__match_args__ == standard.__match_args__
    assert [(f.name, f.kw_only, f.compare) for f in dataclasses.fields(rebuilt)] == [
        (f.name, f.kw_only, f.compare) for f in dataclasses.fields(standard)
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "c"  # type: ignore[misc]


@needs_same_python
def test_a_class_declared_otherwise_than_recorded_is_left_to_the_decorator(monkeypatch: pytest.MonkeyPatch) -> None:
    recipe = record(field_kinds, monkeypatch)
    options = {"frozen": True, "order": True, "slots": True, "kw_only": False}
    undecorated = field_kinds(lambda **o: lambda c: c, extra=True)
    assert dataclassrecipe.replay(undecorated, options, recipe) is None
    assert "__dataclass_fields__" not in undecorated.__dict__  # untouched: the decorator still makes it


def test_recipes_are_used_only_with_the_dataclasses_they_were_recorded_from(monkeypatch: pytest.MonkeyPatch) -> None:
    from k8smigrate import dataclass_recipes

    monkeypatch.setattr(dataclasscode, "_RECIPES", None)
    dataclasscode._load_recipes()
    assert (dataclass_recipes.RECIPES if SAME_PYTHON else {}) == dataclasscode._RECIPES
    changed = lambda fields, globals: None  # noqa: E731 (another Python's _repr_fn)
    monkeypatch.setattr(dataclasses, "_repr_fn", changed)
    dataclasscode._load_recipes()
    assert dataclasscode._RECIPES == {}
