"""Facts about a whole run, gathered before any document is checked, for checks that join files.

Some readiness checks relate objects that live in different files of a repository: an
Ingress and the ingress controller's Deployment, a CoreDNS Deployment and its ClusterRole, the
API server's NodePort range and a DaemonSet that tunes the nodes' ephemeral ports. A check
declares **collectors**; each reads one object's plain data and returns small values (frozen
dataclasses of strings and numbers). Before the documents are migrated, the run reads every
file once, cheaply: a file is parsed only when its text holds a collector's ``trigger``, and
only the documents holding one are read. The values, each with the file, document and line it
came from, are merged in input order, so a run over processes sees exactly what a serial run
sees. A check asks ``ctx.facts(COLLECTOR)`` and names the files it joined in its messages.

Without a run (one string, one stream), the facts are those of the stream itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import field

from .dataclasscode import dataclass
from .runtime_typing import Any, Generic, Protocol, TypeVar
from .scalars import Data
from .tree import Mapping, Scalar, Sequence, TreeError
from .triggers import Trigger, Triggers
from .yamlio import read_stream
from .yamlio.fastbuild import holds_which, needle_set

T = TypeVar("T")


@dataclass(frozen=True)
class Object:
    """One object as a collector sees it: its identity and its data, as read from the input."""

    api_version: str | None
    kind: str | None
    name: str | None
    namespace: str | None
    data: dict[str, Data]


@dataclass(frozen=True)
class Collector(Generic[T]):
    """A named way to read values of type ``T`` from objects whose text holds ``trigger``.

    With ``kinds``, only documents whose text also holds one of those names are read (a test
    as cheap as the trigger's, and never wrong: the kind is written in the document).
    """

    name: str
    trigger: tuple[Trigger, ...]
    collect: Callable[[Object], Iterable[T]]
    kinds: frozenset[str] = frozenset()
    _found: Triggers = field(default=Triggers(()), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_found", Triggers(self.trigger))  # frozen: split once, asked per file

    def triggered_by(self, text: str) -> bool:
        return self._found.found_in(text)

    def wants(self, piece: str) -> bool:
        """Whether a document's (or a stream's) text may hold values: the trigger, and one of the kinds."""
        return self.triggered_by(piece) and (not self.kinds or any(kind in piece for kind in self.kinds))

    def wants_among(self, piece: str, present: AbstractSet[str]) -> bool:
        """``wants``, told which of the run's trigger words and kinds ``piece`` holds (``present``)."""
        return self._found.found_among(piece, present) and (not self.kinds or not self.kinds.isdisjoint(present))


@dataclass(frozen=True)
class Located(Generic[T]):
    """A collected value and where it was read."""

    value: T
    filename: str
    document: int
    line: int

    @property
    def where(self) -> str:
        """``file:line``, to name the joined file in a message."""
        return f"{self.filename}:{self.line}"


@dataclass(frozen=True)
class Facts:
    """The values of some collectors over a run (or a stream), in input order."""

    gathered: frozenset[str] = frozenset()
    """The names of the collectors these facts cover (an empty list there means: none found)."""
    values: tuple[tuple[str, Located[Any]], ...] = ()

    def covers(self, collector: Collector[Any]) -> bool:
        return collector.name in self.gathered

    def of(self, collector: Collector[T]) -> list[Located[T]]:
        """Every value ``collector`` found, in input order."""
        return [v for name, v in self.values if name == collector.name]

    @property
    def files(self) -> list[str]:
        return list(dict.fromkeys(v.filename for _name, v in self.values))


def merge(parts: Iterable[Facts]) -> Facts:
    """The facts of several files, in the order given (the run's input order)."""
    gathered: set[str] = set()
    values: list[tuple[str, Located[Any]]] = []
    for part in parts:
        gathered |= part.gathered
        values += part.values
    return Facts(frozenset(gathered), tuple(values))


def gather(text: str, filename: str, collectors: Iterable[Collector[Any]]) -> Facts:
    """The facts of one stream; cheap when its text holds no collector's trigger."""
    return gather_each([(filename, text)], collectors)


def gather_each(named_texts: Iterable[tuple[str, str]], collectors: Iterable[Collector[Any]]) -> Facts:
    """``merge`` of ``gather`` over (filename, text) pairs, in their order.

    A run's first pass asks this of every file: what is the same for each (the collectors'
    names, their triggers as one set) is found once, and a text that holds no trigger costs one
    look at it (one pass, not one per collector), not a ``Facts`` of its own.
    """
    collectors = tuple(collectors)
    names, any_trigger, words = _union(collectors)
    values: list[tuple[str, Located[Any]]] = []
    seen = False
    for filename, text in named_texts:
        seen = True
        if any_trigger.found_in(text):
            values += _values(text, filename, collectors, words)
    return Facts(names if seen else frozenset(), tuple(values))


def _values(
    text: str, filename: str, collectors: tuple[Collector[Any], ...], words: object
) -> list[tuple[str, Located[Any]]]:
    """What the collectors that want this text (it holds one of their triggers) find in it.

    Which collectors want it is found with one look at the text for every trigger word and kind
    of the run (``words``, made ready by ``_union`` for ``holds_which``), not a look per collector
    and kind: a CRD that names ``dns`` in its schema was read a dozen times, and slowly when a
    character of it is past U+00FF.
    """
    present = frozenset(holds_which(text, words))
    wanted = [c for c in collectors if c.wants_among(text, present)]
    if not wanted:
        return []
    values: list[tuple[str, Located[Any]]] = []
    stream = read_stream(text, wanted=lambda piece: any(c.wants(piece) for c in wanted))
    for doc in stream.documents:
        if doc.root is None or doc.templated or doc.problem is not None or not isinstance(doc.root, Mapping):
            continue
        piece = stream.text[doc.start : doc.end]
        mine = [c for c in wanted if c.wants(piece)]
        if not mine:
            continue
        for obj, line in _objects(doc.root, doc.line):
            for collector in mine:
                for value in collector.collect(obj):
                    values.append((collector.name, Located(value, filename, doc.index, line)))
    return values


_UNIONS: list[tuple[tuple[Collector[Any], ...], frozenset[str], Triggers, object]] = []
"""The last collectors ``gather`` was given (a run gives the same ones for every file), with
their names, all their triggers as one set, and every trigger word and kind made ready for
``holds_which``."""


def _union(collectors: tuple[Collector[Any], ...]) -> tuple[frozenset[str], Triggers, object]:
    if not _UNIONS or _UNIONS[0][0] != collectors:
        names = frozenset(c.name for c in collectors)
        words = {t for c in collectors for t in c.trigger if isinstance(t, str)} | {
            k for c in collectors for k in c.kinds
        }
        _UNIONS[:] = [
            (collectors, names, Triggers(t for c in collectors for t in c.trigger), needle_set(tuple(sorted(words))))
        ]
    return _UNIONS[0][1], _UNIONS[0][2], _UNIONS[0][3]


def _objects(root: Mapping, line: int) -> Iterator[tuple[Object, int]]:
    """The root object, or each item of a List, with the line it starts on."""
    items = root.get("items")
    kind = root.get("kind")
    is_list = isinstance(kind, Scalar) and isinstance(kind.data, str) and kind.data.endswith("List")
    nodes = (
        [(i, i.line or line) for i in items if isinstance(i, Mapping)]
        if is_list and isinstance(items, Sequence)
        else []
    )
    for node, at in nodes or [(root, line)]:
        try:
            data = node.to_data()
        except (TreeError, RecursionError):
            continue
        if isinstance(data, dict):
            yield _object(data), at


def _object(data: dict[str, Data]) -> Object:
    meta = data.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    return Object(
        _text(data.get("apiVersion")),
        _text(data.get("kind")),
        _text(meta.get("name")),
        _text(meta.get("namespace")),
        data,
    )


def _text(value: Data) -> str | None:
    return value if isinstance(value, str) else None


class FactSource(Protocol):
    """What ``Context.facts`` asks: the located values of one collector."""

    def __call__(self, collector: Collector[T]) -> list[Located[T]]: ...


@dataclass
class StreamFacts:
    """Facts of one stream, gathered on first use (a run's facts, when given, win)."""

    text: str
    filename: str
    run: Facts | None = None
    _local: dict[str, Facts] = field(default_factory=dict)

    def __call__(self, collector: Collector[T]) -> list[Located[T]]:
        if self.run is not None and self.run.covers(collector):
            return self.run.of(collector)
        if collector.name not in self._local:
            self._local[collector.name] = gather(self.text, self.filename, [collector])
        return self._local[collector.name].of(collector)
