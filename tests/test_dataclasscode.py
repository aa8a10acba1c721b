"""Spec: the library's dataclasses are the standard ones, their methods' code compiled once per
install (``k8smigrate.dataclasscode``; issue 19: compiling them was a fifth of a one-file run).
"""

from __future__ import annotations

import dataclasses
import inspect
import marshal
import re
import sys
from types import CodeType

import pytest

from k8smigrate import dataclasscode, dataclasses_index
from k8smigrate.dataclasscode import fingerprint
from k8smigrate.indexgen import DATACLASSES_FILE, generate_dataclasses
from tests.library_sources import modules_matching

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
    assert DATACLASSES_FILE.read_text(encoding="utf-8") == generate_dataclasses(), (
        "k8smigrate/dataclasses_index.py is stale: run python -m k8smigrate.indexgen --write"
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
