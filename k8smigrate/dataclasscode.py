"""Dataclasses whose generated methods are compiled once per install, not at every start.

Why: ``dataclasses.dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__``… as source text and compiles it (Python 3.11: one ``exec`` per
method, in ``dataclasses._create_fn``). A one-file run creates ~45 of the library's dataclasses
while it imports: ~210 compilations, about a fifth of all its instructions (issue 19). The text
depends only on the class and on the Python version: it is the same at every start.

How: the library's modules take ``dataclass`` from here. It is the standard decorator, run with
``dataclasses._create_fn`` replaced, for that one class, by a copy that looks the text up in
``dataclasses_index.CODE`` (the code of every text the library's classes produce, compiled once,
when the index is generated, and kept as ``marshal`` bytes: only the code a class needs is
loaded) and compiles only a text it does not find. A code object found is the one ``exec``
compiles from the same text (file ``<string>``, ``exec``'s line numbers), so the class is the
same; ``tests/test_dataclasscode.py`` compares every entry with a fresh compilation.

Faster still, a class of the library is rebuilt from its recipe (``dataclassrecipe``: what the
decorator did to it, recorded when the index is generated, with the code of each method) when
it is declared as it was then; the decorator, and this index of texts, are only for a class
without one.

``made`` and ``made_rows`` build instances of the generated tables (the migrations' index, the
lifecycle table) without a frozen dataclass's field-by-field ``__init__``.

The copy stands in only for the very ``_create_fn`` it copies (the index records a fingerprint
of its code: Python 3.11 today), and the recipes only for the ``dataclasses`` they were recorded
from; on another Python the standard decorator runs unchanged. The index and the recipes
(``dataclass_recipes.py``) are generated with the others: ``python -m k8smigrate.indexgen --write``.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import MISSING, fields
from marshal import loads
from types import CodeType, FunctionType

from .dataclassrecipe import declared, recipe_of, replay, standard_fingerprint
from .runtime_typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:

    def dataclass(cls: Any = None, /, **options: Any) -> Any:
        """``dataclasses.dataclass``, its methods' code taken from the index (see the module)."""

        def wrap(cls: Any) -> Any:
            return decorate(dataclasses.dataclass(**options), cls, options)

        return wrap if cls is None else wrap(cls)


RECORDED: list[str] | None = None
"""When a list, every text the stand-in sees is appended to it (the generator sets it)."""

RECORDED_RECIPES: list[tuple[str, Any]] | None = None
"""When a list, each class decorated is appended with its recipe, or None (the generator sets it)."""

REPLAY = True
"""Whether a class with a recipe is built from it (a test builds every class both ways)."""

_CODE: dict[str, bytes] | None = None
_STANDARD: object = None
"""The ``dataclasses._create_fn`` the index was made for (None: the index does not apply here)."""

_RECIPES: dict[str, bytes] | None = None
"""Each class's recipe (``dataclassrecipe``), by ``module:qualname``; empty when they do not apply here."""

_CREATED: list[tuple[str, dict[str, Any], Any]] | None = None
"""While a class is recorded: each function ``_create_fn`` made, with its text and its arguments."""


def decorate(decorator: Any, cls: Any, options: dict[str, Any] | None = None) -> Any:
    """``decorator(cls)``, ``decorator`` being ``dataclasses.dataclass(**options)``: the class
    rebuilt from its recipe when the index has one for it as it is declared, else made by the
    decorator with the stand-in for ``dataclasses._create_fn`` while it runs."""
    if _RECIPES is None:
        _load_recipes()
    if _RECIPES and options is not None and REPLAY and RECORDED_RECIPES is None:
        blob = _RECIPES.get(f"{cls.__module__}:{cls.__qualname__}")
        if blob is not None:
            replayed = replay(cls, options, loads(blob))
            if replayed is not None:
                return replayed
    if _CODE is None:
        _load()
    standard = getattr(dataclasses, "_create_fn", None)  # Python 3.13 has none: it builds all methods at once
    if standard is None or (standard is not _STANDARD and RECORDED is None):
        return decorator(cls)
    if RECORDED_RECIPES is None:
        return _with_stand_in(decorator, cls, standard)
    return _recorded(decorator, cls, standard, options)


def _with_stand_in(decorator: Any, cls: Any, standard: Any) -> Any:
    dataclasses._create_fn = _create_fn  # type: ignore[attr-defined]
    try:
        return decorator(cls)
    finally:
        dataclasses._create_fn = standard  # type: ignore[attr-defined]


def _recorded(decorator: Any, cls: Any, standard: Any, options: dict[str, Any] | None) -> Any:
    """The class made by the decorator, its recipe noted in ``RECORDED_RECIPES``."""
    global _CREATED
    before = dict(cls.__dict__)
    declared_as = declared(cls, options) if options is not None else None
    _CREATED = []
    try:
        made = _with_stand_in(decorator, cls, standard)
        created = _CREATED
    finally:
        _CREATED = None
    recipe = None if declared_as is None else recipe_of(made, cls, before, declared_as, created)
    if RECORDED_RECIPES is not None:
        RECORDED_RECIPES.append((f"{cls.__module__}:{cls.__qualname__}", recipe))
    return made


INDEX_PYTHON = (3, 11)
"""The Python ``dataclasses_index`` was generated on (a test keeps the two equal): on another one
the index (≈ 0.5 MB of bytecode) is not even loaded."""


def _load() -> None:
    global _CODE, _STANDARD
    _CODE = {}
    if sys.version_info[:2] != INDEX_PYTHON:
        return
    try:
        from .dataclasses_index import CODE, CREATE_FN
    except ImportError:
        return
    standard = getattr(dataclasses, "_create_fn", None)
    if standard is not None and fingerprint(standard.__code__) == CREATE_FN:
        _CODE = CODE
        _STANDARD = standard


def _load_recipes() -> None:
    """The recipes, when they were recorded from this Python's ``dataclasses`` (its texts' index,
    ``_load``, is then only loaded for a class without one)."""
    global _RECIPES
    _RECIPES = {}
    if sys.version_info[:2] != INDEX_PYTHON:
        return
    try:
        from .dataclass_recipes import RECIPES, STANDARD
    except ImportError:
        return
    if standard_fingerprint() == STANDARD:
        _RECIPES = RECIPES


def fingerprint(code: CodeType) -> tuple[Any, ...]:
    """What identifies a function's code across installs (not its file name or line numbers)."""
    consts = tuple(fingerprint(c) if isinstance(c, CodeType) else c for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames)


def exec_code(text: str) -> CodeType:
    """The code of the ``__create_fn__`` that ``text`` defines, as ``dataclasses._create_fn``'s
    ``exec`` compiles it (what the index keeps)."""
    compiled = compile(text, "<string>", "exec", dont_inherit=True)
    return next(c for c in compiled.co_consts if isinstance(c, CodeType))


def _create_fn(
    name: str,
    args: list[str],
    body: list[str],
    *,
    globals: dict[str, Any] | None = None,
    locals: dict[str, Any] | None = None,
    return_type: Any = dataclasses.MISSING,
) -> Any:
    # CPython 3.11 Lib/dataclasses.py _create_fn, word for word, but for the look-up of the text
    if locals is None:
        locals = {}
    return_annotation = ""
    if return_type is not dataclasses.MISSING:
        locals["_return_type"] = return_type
        return_annotation = "->_return_type"
    joined = ",".join(args)
    lines = "\n".join(f"  {b}" for b in body)
    txt = f" def {name}({joined}){return_annotation}:\n{lines}"
    local_vars = ", ".join(locals.keys())
    txt = f"def __create_fn__({local_vars}):\n{txt}\n return {name}"
    if RECORDED is not None:
        RECORDED.append(txt)
    code = _CODE.get(txt) if _CODE is not None and globals is not None else None
    if code is None:
        ns: dict[str, Any] = {}
        # dont_inherit: not this module's ``from __future__ import annotations`` (dataclasses has none)
        exec(compile(txt, "<string>", "exec", dont_inherit=True), globals, ns)
        made = ns["__create_fn__"](**locals)
    else:
        made = FunctionType(loads(code), globals)(**locals)  # type: ignore[arg-type]
    if _CREATED is not None:
        _CREATED.append((txt, dict(locals), made))
    return made


# ------------------------------------------------------------------ instances of generated tables

T = TypeVar("T")

_REQUIRED = object()
"""Stands for a field without a default (or with a default factory) in ``_TEMPLATES``: the
index always writes those."""

_TEMPLATES: dict[type[Any], dict[str, Any]] = {}
"""Per dataclass: every field, in declaration order, with its default (``_REQUIRED`` without one)."""


def made(cls: type[T], /, **values: Any) -> T:
    """``cls(**values)`` for a frozen dataclass of the index, without its field-by-field ``__init__``.

    The instance's ``__dict__`` holds the same keys in the same order as ``__init__`` would
    leave (every field, defaults filled in), then ``__post_init__`` runs as it would."""
    template = _TEMPLATES.get(cls)
    if template is None:
        template = _TEMPLATES[cls] = {
            f.name: _REQUIRED if f.default is MISSING else f.default
            for f in fields(cls)  # type: ignore[arg-type]
        }
    obj: T = object.__new__(cls)
    obj.__dict__.update(template)
    obj.__dict__.update(values)
    post = getattr(cls, "__post_init__", None)
    if post is not None:
        post(obj)
    return obj


def made_rows(cls: type[T], rows: tuple[tuple[Any, ...], ...]) -> tuple[T, ...]:
    """``made`` for many instances, each row holding every field in declaration order (the
    index's codes: one constant tuple of rows costs nothing to load, a call per code would)."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    post = getattr(cls, "__post_init__", None)
    new = object.__new__
    out: list[T] = []
    for row in rows:
        obj: T = new(cls)
        obj.__dict__.update(zip(names, row, strict=True))
        if post is not None:
            post(obj)
        out.append(obj)
    return tuple(out)
