"""Go ``text/template`` source read into a tree that keeps every byte offset.

The apiVersion of a chart's document is often computed: a ``define`` in ``_helpers.tpl``
picks one with ``if semverCompare …``, or an ``if``/``else`` around ``apiVersion:`` lines does.
To know which branch each Kubernetes release takes, and to rewrite one branch's literal in
place, the template must be read as Go reads it: actions ``{{ }}`` with their trim markers
(``{{- `` trims the whitespace before, `` -}}`` the whitespace after; the space is required,
``{{-3}}`` is the number -3), comments ``{{/* */}}``, strings ``"…"`` (escapes, no newline),
raw strings and character constants that may hold ``}}``, actions spanning lines; then the
control structure (``if``/``else if``/``else``/``end``, ``with``, ``range``, ``define``,
``block``) and each action's pipeline (commands, ``|``, ``$x :=``, parenthesised pipelines).

Actions are found by ``golex`` (the port of ``text/template/parse/lex.go`` that the template
I/O uses too: one lexer for both). The tree follows ``parse.go`` (``itemList``,
``parseControl``, ``pipeline``, ``command``, ``operand``). Only what an evaluator of chart
logic needs is kept; anything else in a pipeline is read as an opaque word, never an error,
so that a template this module cannot fully read still yields its structure.
"""

from __future__ import annotations

import re
from dataclasses import field
from functools import lru_cache

from ..dataclasscode import dataclass
from ..regexcode import regex
from . import golex

__all__ = [
    "Action",
    "Block",
    "Branch",
    "Cmd",
    "Define",
    "Dot",
    "Field",
    "Ident",
    "Literal",
    "Node",
    "Pipe",
    "Sub",
    "Template",
    "TemplateSyntaxError",
    "Text",
    "Var",
    "lex",
    "parse",
]

SPACE = " \t\r\n"
"""What a trim marker removes, and what separates words in an action (Go's ``isSpace``)."""


class TemplateSyntaxError(ValueError):
    """The text is not a template Go would parse; ``offset`` is where the problem is."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Action:
    """One ``{{ … }}``: its span, the span of its words, and its trim markers."""

    start: int
    end: int
    inner_start: int
    inner_end: int
    trim_left: bool
    trim_right: bool
    comment: bool = False


def lex(text: str) -> list[Action]:
    """Every action of ``text`` in order, as ``golex`` (the port of Go's lexer) finds them."""
    try:
        found = golex.lex_actions(text)
    except golex.LexError as exc:
        raise TemplateSyntaxError(exc.message, exc.pos) from exc
    return [
        Action(
            a.start,
            a.end,
            a.start + (4 if a.trim_left else 2),
            a.end - (4 if a.trim_right else 2),
            a.trim_left,
            a.trim_right,
            a.comment,
        )
        for a in found
    ]


# ---------------------------------------------------------------------------- pipelines


@dataclass(frozen=True)
class Literal:
    """A string, number, boolean or nil; a string remembers the span of its characters when
    they are written as they read (no escapes), so that it can be rewritten in place."""

    value: str | int | float | bool | None
    start: int = -1
    end: int = -1


@dataclass(frozen=True)
class Field:
    """``.A.B`` (``var`` None), ``$.A`` (``var`` ``"$"``) or ``$x.A`` (``var`` ``"$x"``)."""

    names: tuple[str, ...]
    var: str | None = None


@dataclass(frozen=True)
class Var:
    """``$x`` or ``$`` alone."""

    name: str


@dataclass(frozen=True)
class Dot:
    """``.`` alone."""


@dataclass(frozen=True)
class Ident:
    """A function name (``semverCompare``, ``include``, ``default`` …), or an unread word."""

    name: str


@dataclass(frozen=True)
class Sub:
    """A parenthesised pipeline, maybe followed by fields: ``(include "x" .).Name``."""

    pipe: Pipe
    names: tuple[str, ...] = ()


Arg = Literal | Field | Var | Dot | Ident | Sub


@dataclass(frozen=True)
class Cmd:
    """One command of a pipeline: its arguments, the first being what is called."""

    args: tuple[Arg, ...]


@dataclass(frozen=True)
class Pipe:
    """``$a, $b := cmd | cmd``: variables declared (or assigned with ``=``) and commands."""

    cmds: tuple[Cmd, ...]
    decl: tuple[str, ...] = ()
    assign: bool = False


_WORD = regex(
    r"""(?P<space>[ \t\r\n]+)
    |(?P<punct>[()|,])
    |(?P<decl>:=)
    |(?P<eq>=)
    |(?P<str>"(?:[^"\\\n]|\\.)*")
    |(?P<raw>`[^`]*`)
    |(?P<char>'(?:[^'\\\n]|\\.)*')
    |(?P<word>(?:[^ \t\r\n()|,"'`=:]|:(?!=))+)""",
    re.X,
)
_TYPES = {"punct": None, "decl": ":=", "eq": "=", "str": "str", "raw": "raw", "char": "char", "word": "word"}


def _words(text: str, base: int) -> list[tuple[str, str, int, int]]:
    """(type, value, start, end) of the words of an action's inside."""
    out: list[tuple[str, str, int, int]] = []
    pos = 0
    while pos < len(text):
        m = _WORD.match(text, pos)
        if m is None:
            quote = text[pos]
            what = "unterminated quoted string" if quote == '"' else f"unexpected {quote!r}"
            raise TemplateSyntaxError(what, base + pos)
        kind = m.lastgroup
        assert kind is not None
        if kind != "space":
            value = m.group(kind)
            typ = _TYPES[kind] or value
            out.append((typ, value, base + m.start(), base + m.end()))
        pos = m.end()
    return out


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _unquote(raw: str) -> str | None:
    """The value of a Go interpreted string literal (None for an escape this reader does not know)."""
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            return None
    return "".join(out)


def _number(word: str) -> int | float | None:
    try:
        return int(word, 0)
    except ValueError:
        pass
    try:
        return float(word)
    except ValueError:
        return None


def parse_pipe(text: str, base: int) -> Pipe:
    """The pipeline of an action's words (``base``: offset of ``text`` in the file)."""
    words = _words(text, base)
    pipe, rest = _pipe(words, 0)
    if rest != len(words):
        raise TemplateSyntaxError(f"unexpected {words[rest][1]!r} in action", words[rest][2])
    return pipe


def _pipe(words: list[tuple[str, str, int, int]], i: int) -> tuple[Pipe, int]:
    decl: list[str] = []
    assign = False
    j = i
    names: list[str] = []
    while j < len(words) and words[j][0] == "word" and words[j][1].startswith("$") and "." not in words[j][1][1:]:
        names.append(words[j][1])
        j += 1
        if j < len(words) and words[j][0] == ",":
            j += 1
            continue
        break
    if names and j < len(words) and words[j][0] in (":=", "="):
        decl, assign = names, words[j][0] == "="
        i = j + 1
    cmds: list[Cmd] = []
    args: list[Arg] = []
    while i < len(words):
        typ, value, start, end = words[i]
        if typ == ")":
            break
        if typ == "|":
            cmds.append(Cmd(tuple(args)))
            args = []
            i += 1
            continue
        if typ == "(":
            sub, i = _pipe(words, i + 1)
            if i >= len(words) or words[i][0] != ")":
                raise TemplateSyntaxError("unclosed left paren", start)
            i += 1
            chain: tuple[str, ...] = ()
            glued = i < len(words) and words[i][2] == words[i - 1][3]
            if glued and words[i][0] == "word" and words[i][1].startswith("."):
                chain = tuple(p for p in words[i][1].split(".") if p)
                i += 1
            args.append(Sub(sub, chain))
            continue
        args.append(_operand(typ, value, start, end))
        i += 1
    if args:
        cmds.append(Cmd(tuple(args)))
    return Pipe(tuple(cmds), tuple(decl), assign), i


def _operand(typ: str, value: str, start: int, end: int) -> Arg:
    if typ == "str":
        unquoted = _unquote(value)
        if unquoted is None:
            return Ident(value)
        exact = unquoted == value[1:-1]
        return Literal(unquoted, start + 1 if exact else -1, end - 1 if exact else -1)
    if typ == "raw":
        return Literal(value[1:-1], start + 1, end - 1)
    if typ == "char":
        inner = _unquote(value)
        return Literal(ord(inner) if inner and len(inner) == 1 else 0)
    if value == ".":
        return Dot()
    if value.startswith("."):
        return Field(tuple(value[1:].split(".")))
    if value.startswith("$"):
        head, _, tail = value.partition(".")
        return Field(tuple(tail.split(".")), head) if tail else Var(head)
    if value in ("true", "false"):
        return Literal(value == "true")
    if value == "nil":
        return Literal(None)
    number = _number(value) if value[:1].isdigit() or value[:1] in "+-." else None
    if number is not None:
        return Literal(number)
    return Ident(value)


# ---------------------------------------------------------------------------- the tree


@dataclass
class Text:
    """Text between actions: ``start``/``end`` as written, ``lo``/``hi`` after trimming."""

    start: int
    end: int
    lo: int
    hi: int


@dataclass
class ActionNode:
    """An action that prints or declares (``pipe``), or a comment (``pipe`` None)."""

    action: Action
    pipe: Pipe | None


@dataclass
class Template:
    """``{{ template "name" pipe }}``."""

    action: Action
    name: str
    pipe: Pipe | None


@dataclass
class Branch:
    """One arm of an ``if``/``with``/``range``: the action that opens it and its body."""

    action: Action
    pipe: Pipe | None
    """The condition; None for a plain ``else``."""
    body: list[Node] = field(default_factory=list)


@dataclass
class Block:
    """``if``, ``with`` or ``range`` with its arms (``else if`` arms included) and its ``end``."""

    keyword: str
    branches: list[Branch]
    end_action: Action

    @property
    def start(self) -> int:
        return self.branches[0].action.start

    @property
    def end(self) -> int:
        return self.end_action.end


@dataclass
class Define:
    """``define "name"`` or ``block "name" pipe``: a named body."""

    name: str
    action: Action
    body: list[Node]
    end_action: Action
    pipe: Pipe | None = None
    """For ``block``: the argument it is executed with where it stands."""


Node = Text | ActionNode | Template | Block | Define


def parse(text: str, actions: list[Action] | None = None) -> list[Node]:
    """The top-level nodes of a template text (``actions``: its ``lex``, when already known)."""
    if actions is None:
        actions = lex(text)
    parser = _Parser(text, actions)
    nodes, stop = parser.list_until(())
    if stop is not None:
        word = _keyword(text, stop)
        raise TemplateSyntaxError(f"unexpected {{{{{word}}}}}", stop.start)
    return nodes


def _keyword(text: str, action: Action) -> str:
    """The action's first word; a keyword ends where an identifier does, as Go's lexer reads it
    (``{{ range.spec.ports }}`` is ``range`` over ``.spec.ports``)."""
    inner = text[action.inner_start : action.inner_end].strip(SPACE)
    word = _IDENTIFIER.match(inner)
    if word is not None and word.group() in _KEYWORDS:
        return word.group()
    return inner.split(None, 1)[0] if inner else ""


_IDENTIFIER = regex(r"[A-Za-z_][A-Za-z0-9_]*")
_KEYWORDS = frozenset(("if", "with", "range", "else", "end", "define", "block", "template", "break", "continue"))


class _Parser:
    def __init__(self, text: str, actions: list[Action]) -> None:
        self.text = text
        self.actions = actions
        self.i = 0
        self.pos = 0

    def _text_node(self, end: int) -> Text | None:
        start = self.pos
        if end <= start:
            return None
        lo, hi = start, end
        prev = self.actions[self.i - 1] if self.i > 0 else None
        if prev is not None and prev.end == start and prev.trim_right:
            while lo < hi and self.text[lo] in SPACE:
                lo += 1
        nxt = self.actions[self.i] if self.i < len(self.actions) else None
        if nxt is not None and nxt.start == end and nxt.trim_left:
            while hi > lo and self.text[hi - 1] in SPACE:
                hi -= 1
        return Text(start, end, lo, hi)

    def list_until(self, stops: tuple[str, ...]) -> tuple[list[Node], Action | None]:
        """Nodes up to an action whose keyword is in ``stops`` (returned, consumed)."""
        nodes: list[Node] = []
        while True:
            if self.i >= len(self.actions):
                node = self._text_node(len(self.text))
                if node is not None:
                    nodes.append(node)
                self.pos = len(self.text)
                if stops:
                    raise TemplateSyntaxError("unexpected end of template (missing {{end}})", len(self.text))
                return nodes, None
            action = self.actions[self.i]
            node = self._text_node(action.start)
            if node is not None:
                nodes.append(node)
            self.pos = action.end
            self.i += 1
            if action.comment:
                nodes.append(ActionNode(action, None))
                continue
            word = _keyword(self.text, action)
            if word in ("end", "else"):
                if word in stops:
                    return nodes, action
                raise TemplateSyntaxError(f"unexpected {{{{{word}}}}}", action.start)
            if word in ("if", "with", "range"):
                nodes.append(self._block(word, action))
            elif word in ("define", "block"):
                nodes.append(self._define(word, action))
            elif word == "template":
                nodes.append(self._template(action))
            else:
                nodes.append(ActionNode(action, self._pipe(action, 0)))

    def _pipe(self, action: Action, skip: int) -> Pipe:
        """The pipeline of an action after its first ``skip`` characters of words."""
        inner = self.text[action.inner_start : action.inner_end]
        lead = len(inner) - len(inner.lstrip(SPACE))
        start = lead + skip
        return parse_pipe(inner[start:], action.inner_start + start)

    def _block(self, keyword: str, action: Action) -> Block:
        branches = [Branch(action, self._pipe(action, len(keyword)))]
        while True:
            body, stop = self.list_until(("end", "else"))
            branches[-1].body = body
            assert stop is not None
            if _keyword(self.text, stop) == "end":
                return Block(keyword, branches, stop)
            inner = self.text[stop.inner_start : stop.inner_end].strip(SPACE)
            rest = inner[4:].strip(SPACE)
            if rest.split(None, 1)[:1] == [keyword] and keyword in ("if", "with"):
                after_keyword = inner.index(keyword, 4) + len(keyword)
                branches.append(Branch(stop, self._pipe(stop, after_keyword)))
            elif rest:
                raise TemplateSyntaxError(f"unexpected {rest!r} after else", stop.start)
            else:
                branches.append(Branch(stop, None))

    def _name_and_pipe(self, action: Action, keyword: str) -> tuple[str, Pipe | None]:
        pipe = self._pipe(action, len(keyword))
        first = pipe.cmds[0].args[0] if pipe.cmds and pipe.cmds[0].args else None
        if not isinstance(first, Literal) or not isinstance(first.value, str):
            raise TemplateSyntaxError(f"{keyword} needs a quoted name", action.start)
        rest = pipe.cmds[0].args[1:]
        tail: Pipe | None = None
        if rest or len(pipe.cmds) > 1:
            tail = Pipe((Cmd(rest), *pipe.cmds[1:]) if rest else pipe.cmds[1:])
        return first.value, tail

    def _define(self, keyword: str, action: Action) -> Define:
        name, pipe = self._name_and_pipe(action, keyword)
        body, stop = self.list_until(("end",))
        assert stop is not None
        return Define(name, action, body, stop, pipe if keyword == "block" else None)

    def _template(self, action: Action) -> Template:
        name, pipe = self._name_and_pipe(action, "template")
        return Template(action, name, pipe)


@lru_cache(maxsize=4096)
def read(text: str) -> tuple[tuple[Action, ...], tuple[Node, ...]]:
    """``lex`` and ``parse`` of a text, remembered: a plan reads each template again after its
    edits, and most templates do not change. The trees are shared: never mutate them."""
    actions = lex(text)
    return tuple(actions), tuple(parse(text, actions))


def walk(nodes: list[Node]) -> list[Node]:
    """Every node of a tree, depth first, in text order."""
    out: list[Node] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, Block):
            for branch in reversed(node.branches):
                stack.extend(reversed(branch.body))
        elif isinstance(node, Define):
            stack.extend(reversed(node.body))
    return out
