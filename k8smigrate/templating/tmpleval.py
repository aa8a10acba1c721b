"""Execute chart template logic for one Kubernetes release, remembering where output comes from.

To say which apiVersion a chart gives each release, the template is run as Helm would run
it, with ``.Capabilities`` of that release and the chart's values, but only as far as the
logic that computes the apiVersion: ``if``/``else`` chains, ``define``/``include``/``template``,
variables, and the functions charts use to choose (``semverCompare``, ``and``/``or``/``not``,
``eq``…, ``default``, ``required``, ``print``/``printf``, ``quote``, ``trim`` …). Every piece
of output remembers its origin: the span of template text or of a string literal it was
copied from, or the ``.Values`` key it was read from; that is what lets a rewrite touch the
branch's literal or the values default and nothing else.

What this evaluator cannot know (a function it does not model, ``.Files``, a value that is
not a plain string) is ``UNKNOWN``, never a guess: an apiVersion that depends on it is
reported as not computed. ``fail``, a failing ``required`` and a ``semverCompare`` on a
malformed version raise ``TemplateFailure``, as the render would fail.

Semantics follow Go's ``text/template`` (``exec.go``: ``walkIfOrWith``, ``isTrue``,
``evalField``; ``funcs.go``: ``and``/``or`` short-circuit since Go 1.18, ``eq``, ``print``), sprig
(``default``, ``empty``, ``quote``, ``semverCompare``) and Helm's engine (``include``,
``required``, ``fail``; missing values are empty, and a printed nil is empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from functools import lru_cache, partial

from ..dataclasscode import dataclass
from .gotmpl import (
    SPACE,
    ActionNode,
    Arg,
    Block,
    Cmd,
    Define,
    Dot,
    Field,
    Ident,
    Literal,
    Node,
    Pipe,
    Sub,
    Template,
    Text,
    Var,
)
from .semver import SemverError, semver_compare

__all__ = [
    "UNKNOWN",
    "Capabilities",
    "Evaluator",
    "Output",
    "Piece",
    "TemplateFailure",
    "TemplateOrigin",
    "Traced",
    "ValuesOrigin",
]


class _Unknown:
    """A value the evaluator cannot know."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


class TemplateFailure(Exception):
    """The render would fail here (``fail``, ``required``, a malformed semver)."""


@dataclass(frozen=True)
class TemplateOrigin:
    """Characters ``start:end`` of template ``path`` (text, or the inside of a string literal)."""

    path: str
    start: int
    end: int


@dataclass(frozen=True)
class ValuesOrigin:
    """The value of ``.Values`` at ``key``."""

    key: tuple[str, ...]


Origin = TemplateOrigin | ValuesOrigin


@dataclass(frozen=True)
class Piece:
    """Output text and where it was copied from (None: computed; ``unknown``: not known)."""

    text: str
    origin: Origin | None = None
    unknown: bool = False


@dataclass(frozen=True)
class Traced:
    """A string value made of pieces with their origins."""

    pieces: tuple[Piece, ...]

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.pieces)

    @property
    def unknown(self) -> bool:
        return any(p.unknown for p in self.pieces)

    def slice(self, lo: int, hi: int) -> Traced:
        """The pieces covering characters ``lo:hi`` of ``text``, origins narrowed to match."""
        out: list[Piece] = []
        pos = 0
        for p in self.pieces:
            a, b = max(lo, pos), min(hi, pos + len(p.text))
            if a < b or (p.unknown and lo <= pos <= hi):
                origin = p.origin
                if isinstance(origin, TemplateOrigin):
                    origin = TemplateOrigin(origin.path, origin.start + a - pos, origin.start + b - pos)
                elif isinstance(origin, ValuesOrigin) and (a, b) != (pos, pos + len(p.text)):
                    origin = None  # part of a values string: not something to rewrite alone
                out.append(Piece(p.text[a - pos : b - pos], origin, p.unknown))
            pos += len(p.text)
        return Traced(tuple(out))


Value = object
"""str, Traced, bool, int, float, None, dict, list, ``UNKNOWN`` or a capabilities object."""


@dataclass(frozen=True)
class Capabilities:
    """``.Capabilities`` for one evaluation: the version string and the API set.

    ``has`` answers ``.Capabilities.APIVersions.Has``: True, False or None (not known).
    """

    git_version: str
    has: Callable[[str], bool | None]


@dataclass
class _KubeVersion:
    """``.Capabilities.KubeVersion``: the release a rendering assumes."""

    caps: Capabilities


@dataclass
class _APIVersions:
    """``.Capabilities.APIVersions``: what ``.Has`` answers in a rendering."""

    caps: Capabilities


@dataclass
class Output:
    """What a run printed, with origins."""

    pieces: list[Piece] = field(default_factory=list)

    def traced(self) -> Traced:
        return Traced(tuple(self.pieces))


@dataclass
class _Scope:
    """The template variables in scope (each with whether its value is known), inside out."""

    vars: dict[str, tuple[Value, bool]]
    parent: _Scope | None = None

    def get(self, name: str) -> tuple[Value, bool] | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name]
            scope = scope.parent
        return None

    def set(self, name: str, value: Value, tainted: bool) -> None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.vars:
                scope.vars[name] = (value, tainted)
                return
            scope = scope.parent
        self.vars[name] = (value, tainted)


MAX_DEPTH = 40
"""Nested ``include`` calls before giving up (Helm stops recursion at 1000)."""


VarFallback = Callable[[str], "tuple[Value, bool] | None"]
"""Finds a variable declared outside the evaluated region: (value, read capabilities)."""


@dataclass
class Evaluator:
    """Runs template nodes for one set of capabilities and values.

    ``defines`` maps a define's name to the template path that holds it and its node. After a
    run, ``taken`` holds, per ``(path, block start)``, the arms taken (index, ``-1`` for none,
    ``-2`` when the condition was not known), ``caps_blocks`` the blocks whose conditions read
    ``.Capabilities`` and ``values_blocks`` those whose conditions read ``.Values``.
    """

    sources: Mapping[str, str]
    """Template path → text (string literals and text are traced to spans of these)."""
    defines: Mapping[str, tuple[str, Define]]
    values: Mapping[str, object]
    caps: Capabilities
    release: Mapping[str, object] = field(default_factory=dict)
    chart: Mapping[str, object] | None = None
    var_fallback: VarFallback | None = None
    taken: dict[tuple[str, int], set[int]] = field(default_factory=dict)
    caps_blocks: set[tuple[str, int]] = field(default_factory=set)
    values_blocks: set[tuple[str, int]] = field(default_factory=set)
    _caps_reads: int = 0
    values_reads: int = 0
    """How many times ``.Values`` was read (a run that reads none gives the same for every values set)."""
    _depth: int = 0
    _path: str = ""

    def root(self, path: str) -> dict[str, Value]:
        """The ``.`` of a template file."""
        release = {"Name": "release-name", "Namespace": "default", "Service": "Helm", "IsInstall": True}
        release.update(self.release)
        return {
            "Values": _TracedValues(self.values, ()),
            "Capabilities": {
                "KubeVersion": _KubeVersion(self.caps),
                "APIVersions": _APIVersions(self.caps),
            },
            "Release": release,
            "Chart": dict(self.chart) if self.chart is not None else UNKNOWN,
            "Template": {"Name": path, "BasePath": path.rsplit("/templates/", 1)[0] + "/templates"},
            "Files": UNKNOWN,
        }

    # ------------------------------------------------------------------ nodes

    def run(self, nodes: Iterable[Node], path: str, dot: Value, scope: _Scope | None = None) -> Output:
        """Print ``nodes`` of template ``path`` with ``dot`` as ``.`` (and ``$`` unless ``scope`` has it)."""
        out = Output()
        if scope is None:
            scope = _Scope({"$": (dot, False)})
        saved, self._path = self._path, path
        try:
            self._nodes(nodes, path, dot, scope, out)
        finally:
            self._path = saved
        return out

    def scope(self, dot: Value) -> _Scope:
        """A fresh variable scope where ``$`` is ``dot``."""
        return _Scope({"$": (dot, False)})

    def run_text(self, text: Text, path: str, out: Output, lo: int | None = None, hi: int | None = None) -> None:
        """Print a text node, clipped to ``lo:hi`` when given."""
        a = text.lo if lo is None else max(text.lo, lo)
        b = text.hi if hi is None else min(text.hi, hi)
        if a < b:
            out.pieces.append(Piece(self._source(path)[a:b], TemplateOrigin(path, a, b)))

    def _source(self, path: str) -> str:
        return self.sources[path]

    def _nodes(self, nodes: Iterable[Node], path: str, dot: Value, scope: _Scope, out: Output) -> None:
        for node in nodes:
            self.node(node, path, dot, scope, out)

    def node(self, node: Node, path: str, dot: Value, scope: _Scope, out: Output) -> None:
        if isinstance(node, Text):
            self.run_text(node, path, out)
        elif isinstance(node, ActionNode):
            if node.pipe is None:
                return
            value = self.pipe(node.pipe, dot, scope)
            if not node.pipe.decl:
                self.emit(value, out)
        elif isinstance(node, Template):
            arg = self.pipe(node.pipe, dot, scope) if node.pipe is not None else None
            self.emit(self.include(node.name, arg), out)
        elif isinstance(node, Block):
            self.block(node, path, dot, scope, out)
        elif isinstance(node, Define) and node.pipe is not None:  # {{ block }} runs where it stands
            self.emit(self.include(node.name, self.pipe(node.pipe, dot, scope)), out)

    def block(self, node: Block, path: str, dot: Value, scope: _Scope, out: Output) -> None:
        key = (path, node.start)
        taken = self.taken.setdefault(key, set())
        if node.keyword == "range":
            taken.add(-2)
            out.pieces.append(Piece("", None, True))
            return
        arm, value, inner = self._choose(node, key, dot, scope)
        taken.add(arm)
        if arm == -2:
            out.pieces.append(Piece("", None, True))
        elif arm >= 0:
            self._nodes(node.branches[arm].body, path, value if node.keyword == "with" else dot, inner, out)

    def _choose(self, node: Block, key: tuple[str, int], dot: Value, scope: _Scope) -> tuple[int, Value, _Scope]:
        """The arm a block takes (``-1`` none, ``-2`` not known), recording what its conditions read."""
        caps, values = self._caps_reads, self.values_reads
        try:
            for index, branch in enumerate(node.branches):
                inner = _Scope({}, scope)
                if branch.pipe is None:
                    return index, dot, inner
                value = self.pipe(branch.pipe, dot, inner)
                truth = truthy(value)
                if truth is None:
                    return -2, None, inner
                if truth:
                    return index, value, inner
            return -1, None, scope
        finally:
            if self._caps_reads != caps:
                self.caps_blocks.add(key)
            if self.values_reads != values:
                self.values_blocks.add(key)

    def emit(self, value: Value, out: Output) -> None:
        """Print a value as Go prints it (Helm prints nil as nothing)."""
        if isinstance(value, Traced):
            out.pieces.extend(value.pieces)
        elif value is UNKNOWN or isinstance(value, (dict, list, _KubeVersion, _APIVersions, _TracedValues)):
            out.pieces.append(Piece("", None, True))
        elif value is None:
            return
        else:
            out.pieces.append(Piece(to_text(value)))

    def include(self, name: str, arg: Value) -> Value:
        found = self.defines.get(name)
        if found is None:
            return UNKNOWN
        if self._depth >= MAX_DEPTH:
            return UNKNOWN
        path, define = found
        self._depth += 1
        try:
            out = self.run(define.body, path, arg)
        finally:
            self._depth -= 1
        return out.traced()

    # ------------------------------------------------------------------ pipelines

    def pipe(self, pipe: Pipe, dot: Value, scope: _Scope) -> Value:
        before = self._caps_reads
        value: Value = None
        first = True
        for cmd in pipe.cmds:
            value = self.command(cmd, dot, scope, None if first else value, not first)
            first = False
        tainted = self._caps_reads != before
        for name in pipe.decl:
            if pipe.assign:
                scope.set(name, value, tainted)
            else:
                scope.vars[name] = (value, tainted)
        return value

    def command(self, cmd: Cmd, dot: Value, scope: _Scope, piped: Value, has_piped: bool) -> Value:
        if not cmd.args:
            return UNKNOWN
        head, rest = cmd.args[0], list(cmd.args[1:])
        if isinstance(head, Ident):
            args: list[Callable[[], Value]] = [partial(self.arg, a, dot, scope) for a in rest]
            if has_piped:
                args.append(lambda: piped)
            return self.call(head.name, args)
        if isinstance(head, Field) and (rest or has_piped):
            base = dot if head.var is None else self.variable(head.var, scope)
            receiver = self.fields(base, head.names[:-1])
            values = [self.arg(a, dot, scope) for a in rest] + ([piped] if has_piped else [])
            return self.method(receiver, head.names[-1], values)
        if rest or has_piped:
            return UNKNOWN  # a non-function with arguments: an error in Go
        return self.arg(head, dot, scope)

    def arg(self, arg: Arg, dot: Value, scope: _Scope) -> Value:
        if isinstance(arg, Literal):
            if isinstance(arg.value, str) and arg.start >= 0:
                return Traced((Piece(arg.value, TemplateOrigin(self._path, arg.start, arg.end)),))
            return arg.value
        if isinstance(arg, Dot):
            return dot
        if isinstance(arg, Var):
            return self.variable(arg.name, scope)
        if isinstance(arg, Field):
            base = dot if arg.var is None else self.variable(arg.var, scope)
            return self.fields(base, arg.names)
        if isinstance(arg, Sub):
            return self.fields(self.pipe(arg.pipe, dot, _Scope({}, scope)), arg.names)
        return UNKNOWN  # an identifier used as a value: a niladic function we do not model

    def variable(self, name: str, scope: _Scope) -> Value:
        found = scope.get(name)
        if found is None and self.var_fallback is not None:
            found = self.var_fallback(name)
        if found is None:
            return UNKNOWN
        value, tainted = found
        if tainted:
            self._caps_reads += 1
        return value

    def fields(self, base: Value, names: Iterable[str]) -> Value:
        value = base
        for name in names:
            value = self.field(value, name)
        return value

    @property
    def caps_reads(self) -> int:
        """How many times ``.Capabilities`` was read (a run that reads none is the same for every release)."""
        return self._caps_reads

    def field(self, value: Value, name: str) -> Value:
        if isinstance(value, _TracedValues):
            self.values_reads += 1
            return value.get(name)
        if isinstance(value, dict):
            if name == "Capabilities":
                self._caps_reads += 1
            return value.get(name)
        if isinstance(value, _KubeVersion):
            self._caps_reads += 1
            version = value.caps.git_version
            if name in ("GitVersion", "Version"):
                return version
            if name in ("Major", "Minor"):
                parts = version.lstrip("v").split(".")
                index = 0 if name == "Major" else 1
                digits = "".join(ch for ch in (parts[index] if index < len(parts) else "") if ch.isdigit())
                return digits
            return UNKNOWN
        if value is None:
            return None
        return UNKNOWN

    def method(self, receiver: Value, name: str, args: list[Value]) -> Value:
        if isinstance(receiver, _APIVersions) and name == "Has" and len(args) == 1:
            self._caps_reads += 1
            api = plain(args[0])
            if not isinstance(api, str):
                return UNKNOWN
            answer = receiver.caps.has(api)
            return UNKNOWN if answer is None else answer
        return UNKNOWN

    # ------------------------------------------------------------------ functions

    def call(self, name: str, args: list[Callable[[], Value]]) -> Value:
        if name in ("and", "or"):
            if not args:
                return UNKNOWN
            value: Value = None
            for thunk in args:
                value = thunk()
                truth = truthy(value)
                if truth is None:
                    return UNKNOWN
                if truth == (name == "or"):
                    return value
            return value
        values = [thunk() for thunk in args]
        if name in ("include", "template") and values:
            tname = plain(values[0])
            if not isinstance(tname, str):
                return UNKNOWN
            return self.include(tname, values[1] if len(values) > 1 else None)
        if any(v is UNKNOWN for v in values) and name not in ("default", "coalesce", "ternary"):
            return UNKNOWN
        fn = _FUNCTIONS.get(name)
        if fn is None:
            return UNKNOWN
        return fn(values)


class _TracedValues:
    """``.Values`` (or a map inside it): strings read from it carry their key."""

    def __init__(self, data: Mapping[str, object], key: tuple[str, ...]) -> None:
        self.data = data
        self.key = key

    def get(self, name: str) -> Value:
        if name not in self.data:
            return None
        value = self.data[name]
        key = (*self.key, name)
        if isinstance(value, dict):
            return _TracedValues(value, key)
        if isinstance(value, str):
            return Traced((Piece(value, ValuesOrigin(key)),))
        return value

    def unwrap(self) -> dict[str, object]:
        return dict(self.data)


# ---------------------------------------------------------------------- value helpers


def plain(value: Value) -> Value:
    """The value without origins (a Traced string as a str; an unknown piece makes it UNKNOWN)."""
    if isinstance(value, Traced):
        return UNKNOWN if value.unknown else value.text
    if isinstance(value, _TracedValues):
        return value.unwrap()
    return value


def truthy(value: Value) -> bool | None:
    """Go's ``isTrue``: false, 0, nil and empty strings, maps and lists are false (None: unknown)."""
    value = plain(value)
    if value is UNKNOWN or isinstance(value, (_KubeVersion, _APIVersions)):
        return None if value is UNKNOWN else True
    if value is None:
        return False
    if isinstance(value, (bool, int, float, str, dict, list)):
        return bool(value)
    return True


def to_text(value: Value) -> str:
    """How Go prints a scalar."""
    value = plain(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e21 else repr(value)
    return str(value)


def _traced_or_text(value: Value) -> Traced:
    if isinstance(value, Traced):
        return value
    return Traced((Piece(to_text(value)),))


def _concat(parts: Iterable[Traced]) -> Traced:
    return Traced(tuple(p for part in parts for p in part.pieces))


def _print(values: list[Value]) -> Value:
    # fmt.Sprint puts a space between operands when neither is a string
    parts: list[Traced] = []
    for i, v in enumerate(values):
        if i and not isinstance(plain(values[i - 1]), str) and not isinstance(plain(v), str):
            parts.append(Traced((Piece(" "),)))
        parts.append(_traced_or_text(v))
    return _concat(parts)


def _printf(values: list[Value]) -> Value:
    fmt = plain(values[0]) if values else UNKNOWN
    if not isinstance(fmt, str):
        return UNKNOWN
    args = values[1:]
    parts: list[Traced] = []
    i = 0
    literal = ""
    while i < len(fmt):
        c = fmt[i]
        if c != "%":
            literal += c
            i += 1
            continue
        verb = fmt[i + 1 : i + 2]
        if verb == "%":
            literal += "%"
            i += 2
            continue
        if verb not in ("s", "v", "d") or not args:
            return UNKNOWN
        if literal:
            parts.append(Traced((Piece(literal),)))
            literal = ""
        parts.append(_traced_or_text(args.pop(0)))
        i += 2
    if literal:
        parts.append(Traced((Piece(literal),)))
    return _concat(parts)


def _default(values: list[Value]) -> Value:
    if len(values) != 2:
        return UNKNOWN
    given = values[1]
    truth = truthy(given)
    if truth is None:
        return UNKNOWN
    return given if truth else values[0]


def _required(values: list[Value]) -> Value:
    if len(values) != 2:
        return UNKNOWN
    value = values[1]
    if plain(value) is None or plain(value) == "":
        raise TemplateFailure(to_text(values[0]))
    return value


def _fail(values: list[Value]) -> Value:
    raise TemplateFailure(to_text(values[0]) if values else "fail")


def _semver_compare(values: list[Value]) -> Value:
    if len(values) != 2:
        return UNKNOWN
    constraint, version = plain(values[0]), plain(values[1])
    if not isinstance(constraint, str) or not isinstance(version, str):
        return UNKNOWN
    try:
        return _cached_compare(constraint, version)
    except SemverError as exc:
        raise TemplateFailure(str(exc)) from exc


@lru_cache(maxsize=4096)
def _cached_compare(constraint: str, version: str) -> bool:
    return semver_compare(constraint, version)


def _quote(mark: str) -> Callable[[list[Value]], Value]:
    def quote(values: list[Value]) -> Value:
        parts: list[Traced] = []
        for i, v in enumerate(values):
            if plain(v) is None:
                continue
            if i:
                parts.append(Traced((Piece(" "),)))
            text = to_text(v)
            if mark == '"' and any(ch in text for ch in '"\\\n\t'):
                return UNKNOWN  # strconv.Quote escapes: not traced
            parts += [Traced((Piece(mark),)), _traced_or_text(v), Traced((Piece(mark),))]
        return _concat(parts)

    return quote


def _trim(values: list[Value]) -> Value:
    if len(values) != 1:
        return UNKNOWN
    value = _traced_or_text(values[0])
    text = value.text
    lo = len(text) - len(text.lstrip())
    hi = len(text.rstrip())
    return value.slice(lo, max(lo, hi))


def _compare(op: Callable[[object, object], bool]) -> Callable[[list[Value]], Value]:
    def compare(values: list[Value]) -> Value:
        if len(values) < 2:
            return UNKNOWN
        first = plain(values[0])
        others = [plain(v) for v in values[1:]]
        try:
            return any(op(first, o) for o in others) if op is _eq else op(first, others[0])
        except TypeError:
            return UNKNOWN

    return compare


def _eq(a: object, b: object) -> bool:
    return a == b


def _empty(values: list[Value]) -> Value:
    truth = truthy(values[0]) if values else None
    return UNKNOWN if truth is None else not truth


def _to_int(values: list[Value]) -> Value:
    value = plain(values[0]) if values else UNKNOWN
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip(), 0)
        except ValueError:
            return 0
    return 0 if value is None else UNKNOWN


def _string_fn(fn: Callable[..., object]) -> Callable[[list[Value]], Value]:
    def call(values: list[Value]) -> Value:
        plain_values = [plain(v) for v in values]
        if any(not isinstance(v, (str, int, float, bool)) or v is None for v in plain_values):
            return UNKNOWN
        try:
            return fn(*[to_text(v) for v in plain_values])
        except (TypeError, ValueError):
            return UNKNOWN

    return call


def _ternary(values: list[Value]) -> Value:
    if len(values) != 3:
        return UNKNOWN
    truth = truthy(values[2])
    if truth is None:
        return UNKNOWN
    return values[0] if truth else values[1]


def _coalesce(values: list[Value]) -> Value:
    for v in values:
        truth = truthy(v)
        if truth is None:
            return UNKNOWN
        if truth:
            return v
    return None


def _has_key(values: list[Value]) -> Value:
    if len(values) != 2:
        return UNKNOWN
    mapping, key = plain(values[0]), plain(values[1])
    if isinstance(mapping, dict) and isinstance(key, str):
        return key in mapping
    return UNKNOWN


_FUNCTIONS: dict[str, Callable[[list[Value]], Value]] = {
    "not": lambda vs: UNKNOWN if len(vs) != 1 or truthy(vs[0]) is None else not truthy(vs[0]),
    "eq": _compare(_eq),
    "ne": _compare(lambda a, b: a != b),
    "lt": _compare(lambda a, b: a < b),  # type: ignore[operator]
    "le": _compare(lambda a, b: a <= b),  # type: ignore[operator]
    "gt": _compare(lambda a, b: a > b),  # type: ignore[operator]
    "ge": _compare(lambda a, b: a >= b),  # type: ignore[operator]
    "print": _print,
    "printf": _printf,
    "toString": lambda vs: _traced_or_text(vs[0]) if len(vs) == 1 else UNKNOWN,
    "default": _default,
    "required": _required,
    "fail": _fail,
    "semverCompare": _semver_compare,
    "quote": _quote('"'),
    "squote": _quote("'"),
    "trim": _trim,
    "empty": _empty,
    "int": _to_int,
    "int64": _to_int,
    "ternary": _ternary,
    "coalesce": _coalesce,
    "hasKey": _has_key,
    "lower": _string_fn(str.lower),
    "upper": _string_fn(str.upper),
    "contains": _string_fn(lambda sub, s: sub in s),
    "hasPrefix": _string_fn(lambda pre, s: s.startswith(pre)),
    "hasSuffix": _string_fn(lambda suf, s: s.endswith(suf)),
    "trimPrefix": _string_fn(lambda pre, s: s[len(pre) :] if s.startswith(pre) else s),
    "trimSuffix": _string_fn(lambda suf, s: s[: -len(suf)] if suf and s.endswith(suf) else s),
    "replace": _string_fn(lambda old, new, s: s.replace(old, new)),
}


def strip_space(text: str) -> tuple[int, int]:
    """Bounds of ``text`` without Go's space characters at either end."""
    lo, hi = 0, len(text)
    while lo < hi and text[lo] in SPACE:
        lo += 1
    while hi > lo and text[hi - 1] in SPACE:
        hi -= 1
    return lo, hi
