"""A library dataclass rebuilt from what the standard decorator did to it, not by running it again.

Why: with its methods' code from the index (``dataclasscode``), ``dataclasses.dataclass`` still
spends about 100 µs a class working out what to write: each field from its annotation (two
regular-expression looks at its text, for ``InitVar`` and ``KW_ONLY``), each method's text put
together, looked up, loaded, then defined. A short run creates some fifty of the library's
classes before it reads a file: 5 ms, an eighth of its start-up (issue 19).

How: when the index is generated, each class the library decorates is recorded (``recipe_of``):
how it was declared (``declared``: its options, each annotation with the kind of its default,
its bases' fields, the special methods it defines itself), its fields (name, kind, keyword-only),
and each method the decorator set (its name, the code of the ``__create_fn__`` that made it and
what each of that function's arguments was: a field's type or default, the class, or one of
``dataclasses``' constants). ``replay`` does what ``dataclasses._process_class`` does with
those: the same ``Field`` objects, attributes set in the same order, each method made by the
same code from the same arguments. A class declared otherwise than recorded, or a recipe
``replay`` cannot follow, is left to the standard decorator.

The recipes follow ``dataclasses``' own code (Python 3.11); the index records a fingerprint of
every function of it they stand for (``standard_fingerprint``), and on another Python, or another
build of it whose code differs, no recipe is used. ``tests/test_dataclasscode.py`` builds every
class of the library both ways and compares them attribute by attribute.
"""

from __future__ import annotations

import abc
import dataclasses
import sys
import types
import zlib
from dataclasses import MISSING, Field

from .runtime_typing import Any

_KINDS = (dataclasses._FIELD, dataclasses._FIELD_INITVAR, dataclasses._FIELD_CLASSVAR)  # type: ignore[attr-defined]
"""A field's ``_field_type``, by its number in a recipe."""

_METHODS = ("__init__", "__repr__", "__eq__", "__lt__", "__le__", "__gt__", "__ge__", "__setattr__", "__delattr__")
"""What the decorator may set with ``_set_new_attribute`` from a function it made, in its order."""

_OWN = (*_METHODS, "__hash__", "__match_args__", "__post_init__", "__slots__", "__weakref__", "__dataclass_fields__")
"""Names whose presence in the class's own dictionary changes what the decorator does."""

_CONSTANTS: dict[str, object] = {
    "MISSING": MISSING,
    "HAS_DEFAULT_FACTORY": dataclasses._HAS_DEFAULT_FACTORY,  # type: ignore[attr-defined]
    "object": object,
    "FrozenInstanceError": dataclasses.FrozenInstanceError,
    "None": None,
}
"""The values ``dataclasses`` passes its generated functions, by the name a recipe gives them."""

_STANDARD_PARTS = (
    "_process_class",
    "_get_field",
    "_init_fn",
    "_field_init",
    "_field_assign",
    "_init_param",
    "_fields_in_init_order",
    "_repr_fn",
    "_recursive_repr",
    "_frozen_get_del_attr",
    "_cmp_fn",
    "_hash_fn",
    "_hash_add",
    "_hash_set_none",
    "_tuple_str",
    "_set_new_attribute",
    "_set_qualname",
    "_create_fn",
    "_add_slots",
    "field",
    "_is_kw_only",
    "_is_initvar",
    "_is_type",
)
"""The functions of ``dataclasses`` whose work a recipe stands for."""


def standard_fingerprint() -> int:
    """A checksum of the code of ``_STANDARD_PARTS`` (and ``Field.__init__``), and of which
    function each case of ``_hash_action`` calls: what the recipes were recorded with must be
    what this Python's ``dataclasses`` runs."""
    parts = [getattr(dataclasses, name, None) for name in _STANDARD_PARTS] + [Field.__init__]
    total = 0
    for part in parts:
        total = _code_sum(part.__code__, total) if isinstance(part, types.FunctionType) else zlib.crc32(b"-", total)
    actions = sorted((k, getattr(v, "__name__", None)) for k, v in dataclasses._hash_action.items())  # type: ignore[attr-defined]
    return zlib.crc32(repr(actions).encode(), total)


def _code_sum(code: types.CodeType, total: int) -> int:
    """``total`` carried over a function's bytecode, names and constants (its nested functions' too)."""
    total = zlib.crc32(code.co_code, total)
    total = zlib.crc32(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)).encode(), total)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            total = _code_sum(const, total)
        elif isinstance(const, frozenset):  # its order changes from one process to the next
            total = zlib.crc32(repr(sorted(map(repr, const))).encode(), total)
        else:
            total = zlib.crc32(repr(const).encode(), total)
    return total


def _default_kind(value: object) -> tuple[Any, ...] | None:
    """What of a field's class attribute (its default, or a ``Field``) decides how it is made."""
    if value is MISSING:
        return None
    if isinstance(value, Field):
        kw_only = "MISSING" if value.kw_only is MISSING else bool(value.kw_only)
        mutable = value.default is not MISSING and value.default.__class__.__hash__ is None
        return (
            "field",
            value.default is MISSING,
            value.default_factory is MISSING,
            value.init,
            value.repr,
            value.hash,
            value.compare,
            kw_only,
            mutable,
        )
    if isinstance(value, types.MemberDescriptorType):
        return ("member",)
    return ("value", value.__class__.__hash__ is None)


def _kind(f: Field[Any]) -> int:
    """A field's ``_field_type`` as its number in a recipe."""
    return _KINDS.index(f._field_type)  # type: ignore[attr-defined]


def _base_fields(cls: type) -> dict[str, Field[Any]]:
    """The fields of the class's dataclass bases, as ``_process_class`` gathers them."""
    fields: dict[str, Field[Any]] = {}
    for base in cls.__mro__[-1:0:-1]:
        found = getattr(base, "__dataclass_fields__", None)
        if found is not None:
            for f in found.values():
                fields[f.name] = f
    return fields


def declared(cls: type, options: dict[str, Any]) -> tuple[Any, ...] | None:
    """How ``cls`` is declared, in what decides what the decorator makes of it; None when its
    annotations are not text (a module without ``from __future__ import annotations``)."""
    annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (as dataclasses reads them)
    if not all(isinstance(a, str) for a in annotations.values()):
        return None
    bases = tuple(
        (
            f"{b.__module__}:{b.__qualname__}",
            bool(getattr(getattr(b, "__dataclass_params__", None), "frozen", False)),
        )
        for b in cls.__mro__[1:]
        if getattr(b, "__dataclass_fields__", None) is not None
    )
    inherited = tuple(
        (f.name, f.type if isinstance(f.type, str) else repr(f.type), _kind(f), f.kw_only is True, _default_kind(f))
        for f in _base_fields(cls).values()
    )
    own = cls.__dict__
    return (
        tuple(sorted(options.items())),
        tuple((name, a, _default_kind(getattr(cls, name, MISSING))) for name, a in annotations.items()),
        bases,
        inherited,
        tuple(name for name in _OWN if name in own),
        own.get("__hash__", MISSING) is None,
        bool(cls.__doc__),
        hasattr(cls, "__post_init__"),
        cls.__module__ in sys.modules,
    )


# ------------------------------------------------------------------ recording (when the index is generated)


def recipe_of(
    cls: type,
    original: type,
    before: dict[str, Any],
    declared_as: tuple[Any, ...],
    created: list[tuple[str, dict[str, Any], Any]],
) -> tuple[Any, ...] | None:
    """What the standard decorator did to ``original`` (its dictionary was ``before``), making
    ``cls`` (itself, or a new class with ``__slots__``; ``created``: each function it made, with
    its text and arguments), as ``replay`` does it again; None when it did something a recipe
    does not say."""
    options = dict(declared_as[0])
    if not declared_as[6]:
        return None  # a docstring written with inspect: left to the decorator
    annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (as dataclasses reads them)
    fields: dict[str, Field[Any]] = cls.__dict__["__dataclass_fields__"]
    if any(name not in fields for name in annotations):
        return None  # a KW_ONLY marker
    own_fields = tuple((name, _kind(fields[name]), fields[name].kw_only) for name in annotations)
    after = cls.__dict__
    changed = {k for k in after if k not in before or after[k] is not before[k]} | (set(before) - set(after))
    expected = {"__dataclass_params__", "__dataclass_fields__", "__hash__", "__match_args__", *_METHODS}
    if options.get("slots"):  # a new class (_add_slots): without the defaults, with __slots__
        expected |= {"__slots__", "__dict__", "__weakref__", "__getstate__", "__setstate__"}
    if changed - expected - set(annotations):
        return None
    methods: list[tuple[str, str, str | None, tuple[tuple[str, Any], ...]]] = []
    for text, arguments, made in created:
        for name in (*_METHODS, "__hash__"):
            value = after.get(name)
            if name not in changed or value is None:
                continue
            if value is made or getattr(value, "__wrapped__", None) is made:
                spec = _arguments(arguments, fields, original)
                if spec is None:
                    return None
                kind = "repr" if name == "__repr__" else "hash" if name == "__hash__" else "set"
                methods.append((name, kind, text, spec))
    if "__hash__" in changed and after.get("__hash__") is None:
        methods.append(("__hash__", "hash_none", None, ()))
    if {m[0] for m in methods} != changed & {*_METHODS, "__hash__"}:
        return None
    match_args = after["__match_args__"] if "__match_args__" in changed else None
    return (declared_as, own_fields, tuple(methods), match_args)


def _arguments(
    arguments: dict[str, Any], fields: dict[str, Field[Any]], cls: type
) -> tuple[tuple[str, Any], ...] | None:
    """Each argument of a ``__create_fn__`` by where it comes from (``cls``: the class as the
    decorator was given it); None when one is none of those."""
    out: list[tuple[str, Any]] = []
    for name, value in arguments.items():
        constant = next((k for k, v in _CONSTANTS.items() if v is value), None)
        f = fields.get(name[6:]) if name.startswith(("_type_", "_dflt_")) else None
        default = name.startswith("_dflt_") and f is not None
        if name == "cls" and value is cls:
            out.append((name, "cls"))
        elif name.startswith("_type_") and f is not None and value is f.type:
            out.append((name, ("type", f.name)))
        elif default and f.default_factory is not MISSING and value is f.default_factory:  # type: ignore[union-attr]
            out.append((name, ("factory", name[6:])))
        elif default and f.default is not MISSING and value is f.default:  # type: ignore[union-attr]
            out.append((name, ("default", name[6:])))
        elif constant is not None and (constant != "None" or name == "_return_type"):
            out.append((name, constant))
        else:
            return None
    return tuple(out)


# ------------------------------------------------------------------ replaying (every start)

_set_new_attribute = dataclasses._set_new_attribute  # type: ignore[attr-defined]
_recursive_repr = dataclasses._recursive_repr  # type: ignore[attr-defined]
_set_qualname = dataclasses._set_qualname  # type: ignore[attr-defined]
_DataclassParams = dataclasses._DataclassParams  # type: ignore[attr-defined]
_add_slots = dataclasses._add_slots  # type: ignore[attr-defined]
_DEFAULTS = {
    "init": True,
    "repr": True,
    "eq": True,
    "order": False,
    "unsafe_hash": False,
    "frozen": False,
    "match_args": True,
    "kw_only": False,
    "slots": False,
    "weakref_slot": False,
}


def replay(cls: type, options: dict[str, Any], recipe: tuple[Any, ...]) -> type | None:
    """``dataclasses.dataclass(**options)(cls)`` done from ``recipe``; None (``cls`` untouched)
    when the class is not declared as the recipe was recorded."""
    declared_as, own_fields, methods, match_args = recipe
    if declared(cls, options) != declared_as:
        return None
    given = {**_DEFAULTS, **options}
    globals = sys.modules[cls.__module__].__dict__
    cls.__dataclass_params__ = _DataclassParams(  # type: ignore[attr-defined]
        given["init"], given["repr"], given["eq"], given["order"], given["unsafe_hash"], given["frozen"]
    )
    fields = _base_fields(cls)
    annotations = cls.__dict__["__annotations__"] if own_fields else {}  # noqa: RUF063 (as above)
    made: list[Field[Any]] = []
    for name, kind, kw_only in own_fields:  # _get_field
        default = getattr(cls, name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            if isinstance(default, types.MemberDescriptorType):
                default = MISSING
            f = dataclasses.field(default=default)  # type: ignore[arg-type]
        f.name = name
        f.type = annotations[name]
        f._field_type = _KINDS[kind]  # type: ignore[attr-defined]
        if kind != 2 and f.kw_only is MISSING:
            f.kw_only = kw_only
        made.append(f)
    for f in made:
        fields[f.name] = f
        if isinstance(getattr(cls, f.name, None), Field):
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
    for name, kind, code, spec in methods:
        if kind == "hash_none":
            cls.__hash__ = None  # type: ignore[assignment]
            continue
        arguments = {arg: _value(source, fields, cls) for arg, source in spec}
        method = types.FunctionType(code, globals)(**arguments)
        if kind == "hash":
            cls.__hash__ = _set_qualname(cls, method)  # type: ignore[method-assign]
        else:
            _set_new_attribute(cls, name, _recursive_repr(method) if kind == "repr" else method)
    if match_args is not None:
        _set_new_attribute(cls, "__match_args__", match_args)
    if given["slots"]:
        cls = _add_slots(cls, given["frozen"], given["weakref_slot"])
    abc.update_abstractmethods(cls)
    return cls


def _value(source: Any, fields: dict[str, Field[Any]], cls: type) -> object:
    if source == "cls":
        return cls
    if isinstance(source, str):
        return _CONSTANTS[source]
    what, name = source
    f = fields[name]
    return f.type if what == "type" else f.default_factory if what == "factory" else f.default


def compiled(recipe: tuple[Any, ...], code_of: Any) -> tuple[Any, ...]:
    """``recipe`` with each method's text replaced by its code (``code_of(text)``), for the index."""
    declared_as, own_fields, methods, match_args = recipe
    methods = tuple((n, k, None if t is None else code_of(t), s) for n, k, t, s in methods)
    return (declared_as, own_fields, methods, match_args)
