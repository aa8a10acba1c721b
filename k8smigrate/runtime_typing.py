"""The names of ``typing`` the library writes, without importing ``typing`` when it runs.

Why: importing ``typing`` costs a short run about 2 ms of its start (issue 19; a one-file run
takes some 40 ms in all), and the library needs none of it at run time. Its annotations are
text (``from __future__ import annotations``) that mypy reads, never evaluated. What is
evaluated is a base class (``Generic[T]``, ``Protocol``), a ``TypeVar``, or an alias that other
annotations name (``Level = Literal[...]``): for those this module gives stand-ins that do
nothing, and mypy, which takes ``TYPE_CHECKING`` as true, sees the real names.

How to use it: import these names from here, not from ``typing``. A module that needs
``typing`` itself at run time (typer reads the CLI's annotations; a ``NamedTuple`` is a class
``typing`` builds) imports it: only those runs pay for it. ``tests/test_startup.py`` checks that
a run over plain manifests, and every module such a run may import, leave ``typing`` unloaded.
"""

from __future__ import annotations

TYPE_CHECKING = False
"""True for mypy (and for ``if TYPE_CHECKING:`` imports, as ``typing.TYPE_CHECKING`` is)."""

if TYPE_CHECKING:
    from typing import IO, Any, BinaryIO, Generic, Literal, NoReturn, Protocol, TypeVar
else:

    class _Form:
        """A stand-in for a special form (``Any``, ``Literal[...]``): a class, so that ``X | None``
        works, whose subscriptions give itself."""

        __slots__ = ()

        def __class_getitem__(cls, params):
            return cls

    Any = IO = BinaryIO = Literal = NoReturn = _Form

    class Generic:
        """``typing.Generic`` as a base: ``Generic[T]`` is this class, and so are its
        subclasses' subscriptions (``Collector[Any]``)."""

        __slots__ = ()

        def __class_getitem__(cls, params):
            return cls

    class Protocol(Generic):
        """``typing.Protocol`` as a base: a class that only says what it needs (never used with
        ``isinstance``)."""

        __slots__ = ()

    def TypeVar(name, *constraints, **options):
        """``typing.TypeVar``: only its name is kept, for ``Generic[T]``."""
        return name


__all__ = ["IO", "TYPE_CHECKING", "Any", "BinaryIO", "Generic", "Literal", "NoReturn", "Protocol", "TypeVar"]
