"""Go ``text/template`` lexing, exactly as Go does it, to find every action of a Helm template.

A chart template is YAML only once rendered; to migrate its source, every action
(``{{ … }}``) must be found exactly where Go finds it, or a ``}}`` inside a string, a trim
marker or a multi-line action would cut the text in the wrong place. This is a port of the
state machine of Go's ``src/text/template/parse/lex.go`` (``lexText``, ``lexLeftDelim``,
``lexComment``, ``lexRightDelim``, ``lexInsideAction``, ``lexSpace``, ``lexIdentifier``,
``lexFieldOrVariable``, ``atTerminator``, ``lexChar``, ``lexNumber``/``scanNumber``,
``lexQuote``, ``lexRawQuote``, ``hasLeftTrimMarker``/``hasRightTrimMarker``), with the
default delimiters and the options Helm parses with (comments are not emitted as items to
the parser, ``break``/``continue`` are keywords inside ``range``). Facts it keeps:

- a trim marker is ``-`` plus one *space* (space, tab, CR or LF) right after ``{{`` or right
  before ``}}``; ``{{-3}}`` is the number -3, not a trim; a trim removes every space, tab and
  newline on that side;
- a comment is ``{{/*`` … ``*/}}`` (trim markers allowed), and ``*/`` must touch the closing
  delimiter;
- strings (``"…"``, escapes, no newline), raw strings (backquotes, newlines allowed) and
  character constants may hold ``}}``;
- an action may span lines (newlines are spaces inside an action since Go 1.16).

Positions are indices into the Python string (Go counts bytes; the two agree on ASCII).

The port reads a character at a time, which made lexing most of the time of a run on a large
chart (every template is read for the chart-level step). ``lex_actions`` first tries a fast
path (``_scan_actions``: one regular expression per token, ASCII forms only) that gives the
same actions or gives up on the whole text, which the port then lexes; the tests hold the two
equal on Go's own cases, on generated text and on every template of a corpus of real charts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from enum import Enum
from functools import lru_cache

from ..dataclasscode import dataclass
from ..regexcode import regex

LEFT, RIGHT = "{{", "}}"
LEFT_COMMENT, RIGHT_COMMENT = "/*", "*/"
SPACE_CHARS = " \t\r\n"
TRIM_MARKER = "-"
TRIM_MARKER_LEN = 2  # the marker plus the space before or after it


class ItemType(Enum):
    """Go's ``itemType`` (the names of ``lex_test.go``'s pretty printer)."""

    ERROR = "error"
    BOOL = "bool"
    CHAR = "char"
    CHAR_CONSTANT = "charconst"
    COMMENT = "comment"
    COMPLEX = "complex"
    ASSIGN = "="
    DECLARE = ":="
    EOF = "EOF"
    FIELD = "field"
    IDENTIFIER = "identifier"
    LEFT_DELIM = "left delim"
    LEFT_PAREN = "("
    NUMBER = "number"
    PIPE = "pipe"
    RAW_STRING = "raw string"
    RIGHT_DELIM = "right delim"
    RIGHT_PAREN = ")"
    SPACE = "space"
    STRING = "string"
    TEXT = "text"
    VARIABLE = "variable"
    # keywords
    BLOCK = "block"
    BREAK = "break"
    CONTINUE = "continue"
    DOT = "."
    DEFINE = "define"
    ELSE = "else"
    END = "end"
    IF = "if"
    NIL = "nil"
    RANGE = "range"
    TEMPLATE = "template"
    WITH = "with"


KEYWORDS = {
    ".": ItemType.DOT,
    "block": ItemType.BLOCK,
    "break": ItemType.BREAK,
    "continue": ItemType.CONTINUE,
    "define": ItemType.DEFINE,
    "else": ItemType.ELSE,
    "end": ItemType.END,
    "if": ItemType.IF,
    "range": ItemType.RANGE,
    "nil": ItemType.NIL,
    "template": ItemType.TEMPLATE,
    "with": ItemType.WITH,
}


CONTROL = frozenset(
    {
        ItemType.IF,
        ItemType.ELSE,
        ItemType.END,
        ItemType.RANGE,
        ItemType.WITH,
        ItemType.DEFINE,
        ItemType.BREAK,
        ItemType.CONTINUE,
    }
)
"""Keywords of actions that write nothing where they stand (``block`` and ``template`` do)."""


@dataclass(frozen=True)
class Item:
    """One token: its type, where it starts, its text and the line it starts on (1-based)."""

    typ: ItemType
    pos: int
    val: str
    line: int


@dataclass(frozen=True)
class Action:
    """One action, ``{{`` to ``}}`` with its trim markers, and its tokens (spaces left out)."""

    start: int
    end: int
    trim_left: bool
    trim_right: bool
    comment: bool
    words: tuple[Item, ...]

    @property
    def keyword(self) -> ItemType | None:
        """The keyword that opens the action (``if``, ``end``…), or None for an expression."""
        if self.words and self.words[0].typ in KEYWORDS.values() and self.words[0].typ is not ItemType.DOT:
            return self.words[0].typ
        return None

    @property
    def writes(self) -> bool:
        """Whether the action writes text where it stands (False for comments, control and ``$x := …``)."""
        if self.comment or self.keyword in CONTROL:
            return False
        if self.words and self.words[0].typ is ItemType.IDENTIFIER and self.words[0].val == "fail":
            return False  # ``{{ fail "…" }}`` stops the rendering: it never writes where it stands
        declares = len(self.words) > 1 and self.words[0].typ is ItemType.VARIABLE
        return not (declares and self.words[1].typ in (ItemType.DECLARE, ItemType.ASSIGN))


class LexError(ValueError):
    """The text is not a Go template (``message`` as Go says it, ``pos``/``line`` where)."""

    def __init__(self, message: str, pos: int, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.line = line


_EOF = ""


def _is_space(r: str) -> bool:
    return r in (" ", "\t", "\r", "\n") and r != ""


def _is_alphanumeric(r: str) -> bool:
    if r == "":
        return False
    if r == "_":
        return True
    category = unicodedata.category(r)
    return category.startswith("L") or category == "Nd"


def _has_left_trim_marker(s: str, at: int) -> bool:
    return len(s) >= at + 2 and s[at] == TRIM_MARKER and _is_space(s[at + 1])


def _has_right_trim_marker(s: str, at: int) -> bool:
    return len(s) >= at + 2 and _is_space(s[at]) and s[at + 1] == TRIM_MARKER


class _Lexer:
    """The state machine of ``lex.go``; each state returns the next one, or None after an item."""

    def __init__(self, text: str, emit_comments: bool) -> None:
        self.input = text
        self.pos = 0
        self.start = 0
        self.at_eof = False
        self.paren_depth = 0
        self.line = 1
        self.start_line = 1
        self.inside_action = False
        self.emit_comments = emit_comments
        self.items: list[Item] = []
        self.actions: list[Action] = []
        self.action_start = 0
        self.action_trim = False
        self.action_items = 0

    # --- primitives (``next``, ``peek``, ``backup``, ``thisItem``, ``ignore``, ``accept``)
    def next(self) -> str:
        if self.pos >= len(self.input):
            self.at_eof = True
            return _EOF
        r = self.input[self.pos]
        self.pos += 1
        if r == "\n":
            self.line += 1
        return r

    def peek(self) -> str:
        r = self.next()
        self.backup()
        return r

    def backup(self) -> None:
        if not self.at_eof and self.pos > 0:
            self.pos -= 1
            if self.input[self.pos] == "\n":
                self.line -= 1

    def this_item(self, typ: ItemType) -> Item:
        item = Item(typ, self.start, self.input[self.start : self.pos], self.start_line)
        self.start = self.pos
        self.start_line = self.line
        return item

    def emit(self, typ: ItemType) -> None:
        self.items.append(self.this_item(typ))

    def ignore(self) -> None:
        self.line += self.input.count("\n", self.start, self.pos)
        self.start = self.pos
        self.start_line = self.line

    def accept(self, valid: str) -> bool:
        r = self.next()
        if r != _EOF and r in valid:
            return True
        self.backup()
        return False

    def accept_run(self, valid: str) -> None:
        while True:
            r = self.next()
            if r == _EOF or r not in valid:
                break
        self.backup()

    def error(self, message: str) -> LexError:
        return LexError(message, self.start, self.start_line)

    # --- states
    def run(self) -> list[Item]:
        while True:
            done = self.lex_inside_action() if self.inside_action else self.lex_text()
            if done:
                return self.items

    def lex_text(self) -> bool:
        x = self.input.find(LEFT, self.pos)
        if x >= 0:
            if x > self.pos:
                self.pos = x
                trim = 0
                if _has_left_trim_marker(self.input, self.pos + len(LEFT)):
                    segment = self.input[self.start : self.pos]
                    trim = len(segment) - len(segment.rstrip(SPACE_CHARS))
                self.pos -= trim
                self.line += self.input.count("\n", self.start, self.pos)
                item = self.this_item(ItemType.TEXT)
                self.pos += trim
                self.ignore()
                if item.val:
                    self.items.append(item)
            return self.lex_left_delim()
        self.pos = len(self.input)
        if self.pos > self.start:
            self.line += self.input.count("\n", self.start, self.pos)
            self.emit(ItemType.TEXT)
        self.emit(ItemType.EOF)
        return True

    def at_right_delim(self) -> tuple[bool, bool]:
        if _has_right_trim_marker(self.input, self.pos) and self.input.startswith(RIGHT, self.pos + TRIM_MARKER_LEN):
            return True, True
        if self.input.startswith(RIGHT, self.pos):
            return True, False
        return False, False

    def lex_left_delim(self) -> bool:
        self.action_start = self.pos
        self.pos += len(LEFT)
        trim = _has_left_trim_marker(self.input, self.pos)
        self.action_trim = trim
        after = TRIM_MARKER_LEN if trim else 0
        if self.input.startswith(LEFT_COMMENT, self.pos + after):
            self.pos += after
            self.ignore()
            return self.lex_comment()
        self.emit(ItemType.LEFT_DELIM)
        self.action_items = len(self.items)
        self.inside_action = True
        self.pos += after
        self.ignore()
        self.paren_depth = 0
        return False

    def lex_comment(self) -> bool:
        self.pos += len(LEFT_COMMENT)
        x = self.input.find(RIGHT_COMMENT, self.pos)
        if x < 0:
            raise self.error("unclosed comment")
        self.pos = x + len(RIGHT_COMMENT)
        delim, trim = self.at_right_delim()
        if not delim:
            raise self.error("comment ends before closing delimiter")
        self.line += self.input.count("\n", self.start, self.pos)
        item = self.this_item(ItemType.COMMENT)
        if trim:
            self.pos += TRIM_MARKER_LEN
        self.pos += len(RIGHT)
        self.actions.append(Action(self.action_start, self.pos, self.action_trim, trim, True, (item,)))
        if trim:
            rest = self.input[self.pos :]
            self.pos += len(rest) - len(rest.lstrip(SPACE_CHARS))
        self.ignore()
        if self.emit_comments:
            self.items.append(item)
        return False

    def lex_right_delim(self) -> bool:
        _delim, trim = self.at_right_delim()
        if trim:
            self.pos += TRIM_MARKER_LEN
            self.ignore()
        self.pos += len(RIGHT)
        self.emit(ItemType.RIGHT_DELIM)
        words = tuple(i for i in self.items[self.action_items : -1] if i.typ is not ItemType.SPACE)
        self.actions.append(Action(self.action_start, self.pos, self.action_trim, trim, False, words))
        if trim:
            rest = self.input[self.pos :]
            self.pos += len(rest) - len(rest.lstrip(SPACE_CHARS))
            self.ignore()
        self.inside_action = False
        return False

    def lex_inside_action(self) -> bool:  # one branch per case of Go's switch
        delim, _trim = self.at_right_delim()
        if delim:
            if self.paren_depth == 0:
                return self.lex_right_delim()
            raise self.error("unclosed left paren")
        r = self.next()
        if r == _EOF:
            raise self.error("unclosed action")
        if _is_space(r):
            self.backup()  # put the space back in case this is " -}}"
            return self.lex_space()
        if r == "=":
            self.emit(ItemType.ASSIGN)
        elif r == ":":
            if self.next() != "=":
                raise self.error("expected :=")
            self.emit(ItemType.DECLARE)
        elif r == "|":
            self.emit(ItemType.PIPE)
        elif r == '"':
            self.lex_quote()
        elif r == "`":
            self.lex_raw_quote()
        elif r == "$":
            self.lex_variable()
        elif r == "'":
            self.lex_char()
        elif r == "." and self.pos < len(self.input) and not ("0" <= self.input[self.pos] <= "9"):
            self.lex_field_or_variable(ItemType.FIELD)
        elif r in "+-." or "0" <= r <= "9":
            self.backup()
            self.lex_number()
        elif _is_alphanumeric(r):
            self.backup()
            self.lex_identifier()
        elif r == "(":
            self.paren_depth += 1
            self.emit(ItemType.LEFT_PAREN)
        elif r == ")":
            self.paren_depth -= 1
            if self.paren_depth < 0:
                raise self.error("unexpected right paren")
            self.emit(ItemType.RIGHT_PAREN)
        elif ord(r) < 0x80 and r.isprintable():
            self.emit(ItemType.CHAR)
        else:
            raise self.error(f"unrecognized character in action: {_rune_name(r)}")
        return False

    def lex_space(self) -> bool:
        spaces = 0
        while _is_space(self.peek()):
            self.next()
            spaces += 1
        # A trim-marked closing delimiter starts with a space: leave it to lex_right_delim.
        if _has_right_trim_marker(self.input, self.pos - 1) and self.input.startswith(
            RIGHT, self.pos - 1 + TRIM_MARKER_LEN
        ):
            self.backup()
            if spaces == 1:
                return self.lex_right_delim()
        self.emit(ItemType.SPACE)
        return False

    def lex_identifier(self) -> None:
        while True:
            r = self.next()
            if _is_alphanumeric(r):
                continue
            self.backup()
            word = self.input[self.start : self.pos]
            if not self.at_terminator():
                raise self.error(f"bad character {_rune_name(r)}")
            keyword = KEYWORDS.get(word)
            if keyword is not None and keyword is not ItemType.DOT:
                self.emit(keyword)
            elif word[0] == ".":
                self.emit(ItemType.FIELD)
            elif word in ("true", "false"):
                self.emit(ItemType.BOOL)
            else:
                self.emit(ItemType.IDENTIFIER)
            return

    def lex_variable(self) -> None:
        if self.at_terminator():  # nothing interesting follows: "$"
            self.emit(ItemType.VARIABLE)
            return
        self.lex_field_or_variable(ItemType.VARIABLE)

    def lex_field_or_variable(self, typ: ItemType) -> None:
        if self.at_terminator():  # nothing interesting follows: "." or "$"
            self.emit(ItemType.VARIABLE if typ is ItemType.VARIABLE else ItemType.DOT)
            return
        r = ""
        while True:
            r = self.next()
            if not _is_alphanumeric(r):
                self.backup()
                break
        if not self.at_terminator():
            raise self.error(f"bad character {_rune_name(r)}")
        self.emit(typ)

    def at_terminator(self) -> bool:
        r = self.peek()
        if _is_space(r):
            return True
        if r in (_EOF, ".", ",", "|", ":", ")", "("):
            return True
        return self.input.startswith(RIGHT, self.pos)

    def lex_char(self) -> None:
        while True:
            r = self.next()
            if r == "\\":
                r = self.next()
                if r not in (_EOF, "\n"):
                    continue
                raise self.error("unterminated character constant")
            if r in (_EOF, "\n"):
                raise self.error("unterminated character constant")
            if r == "'":
                break
        self.emit(ItemType.CHAR_CONSTANT)

    def lex_number(self) -> None:
        if not self.scan_number():
            raise self.error(f"bad number syntax: {_go_quote(self.input[self.start : self.pos])}")
        sign = self.peek()
        if sign in ("+", "-") and sign != _EOF:
            # complex: 1+2i, no spaces, must end in 'i'
            if not self.scan_number() or self.input[self.pos - 1] != "i":
                raise self.error(f"bad number syntax: {_go_quote(self.input[self.start : self.pos])}")
            self.emit(ItemType.COMPLEX)
            return
        self.emit(ItemType.NUMBER)

    def scan_number(self) -> bool:
        self.accept("+-")
        digits = "0123456789_"
        if self.accept("0"):
            if self.accept("xX"):
                digits = "0123456789abcdefABCDEF_"
            elif self.accept("oO"):
                digits = "01234567_"
            elif self.accept("bB"):
                digits = "01_"
        self.accept_run(digits)
        if self.accept("."):
            self.accept_run(digits)
        if len(digits) == 10 + 1 and self.accept("eE"):
            self.accept("+-")
            self.accept_run("0123456789_")
        if len(digits) == 16 + 6 + 1 and self.accept("pP"):
            self.accept("+-")
            self.accept_run("0123456789_")
        self.accept("i")
        if _is_alphanumeric(self.peek()):
            self.next()
            return False
        return True

    def lex_quote(self) -> None:
        while True:
            r = self.next()
            if r == "\\":
                r = self.next()
                if r not in (_EOF, "\n"):
                    continue
                raise self.error("unterminated quoted string")
            if r in (_EOF, "\n"):
                raise self.error("unterminated quoted string")
            if r == '"':
                break
        self.emit(ItemType.STRING)

    def lex_raw_quote(self) -> None:
        while True:
            r = self.next()
            if r == _EOF:
                raise self.error("unterminated raw quoted string")
            if r == "`":
                break
        self.emit(ItemType.RAW_STRING)


def _rune_name(r: str) -> str:
    """Go's ``%#U``: ``U+0001`` (and ``'x'`` for a printable rune)."""
    code = f"U+{ord(r):04X}" if r else "U+FFFFFFFFFFFFFFFF"
    return f"{code} '{r}'" if r and r.isprintable() else code


def _go_quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def lex_items(text: str, *, emit_comments: bool = True) -> list[Item]:
    """Every token of ``text`` as Go's lexer emits it, ending with EOF; ``LexError`` on bad input."""
    return _Lexer(text, emit_comments).run()


def lex_actions(text: str) -> list[Action]:
    """Every action of ``text`` in order, comments included; ``LexError`` on bad input.

    Cached by text: the template I/O (``gotemplate``) and the chart-level reader (``gotmpl``)
    lex the same files in one run.
    """
    return list(_lex_actions(text))


@lru_cache(maxsize=1024)
def _lex_actions(text: str) -> tuple[Action, ...]:
    found = _scan_actions(text)
    if found is not None:
        return found
    lexer = _Lexer(text, emit_comments=True)
    lexer.run()
    return tuple(lexer.actions)


# ---------------------------------------------------------------------------- the fast path

_SPACES = frozenset(SPACE_CHARS)
_TERMINATORS = frozenset(" \t\r\n.,|:)(")
_TOKEN = regex(
    r"""(?P<space>[ \t\r\n]+)
    |(?P<field>\.[A-Za-z_][A-Za-z0-9_]*|\.(?![0-9]))
    |(?P<variable>\$[A-Za-z0-9_]*)
    |(?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    |(?P<number>[+-]?[0-9]+(?![0-9A-Za-z_.+-]))
    |(?P<string>"(?:[^"\\\n]|\\[^\n])*")
    |(?P<raw>`[^`]*`)
    |(?P<char>'(?:[^'\\\n]|\\[^\n])*')
    |(?P<declare>:=)
    |(?P<punct>[=|()])
    |(?P<other>[!#%&*,;<>?@\[\\\]^{}~/])""",
    re.X,
)
"""The tokens of an action in their common ASCII forms. Anything else (another number syntax,
a character outside ASCII, an error) is not matched, and the port lexes the text instead."""

_PUNCT = {"=": ItemType.ASSIGN, "|": ItemType.PIPE, "(": ItemType.LEFT_PAREN, ")": ItemType.RIGHT_PAREN}


class _Unsure(Exception):
    """The fast path met something it does not lex as Go would for certain."""


def _scan_actions(text: str) -> tuple[Action, ...] | None:
    """``_Lexer``'s actions for ``text``, found with regular expressions: the same result for
    the forms templates use (checked against the port on every template of the test corpus),
    several times faster; None when the text holds anything else, for the port to lex."""
    try:
        return tuple(_scan(text))
    except _Unsure:
        return None


def _scan(text: str) -> Iterator[Action]:
    n = len(text)
    pos = 0
    line, counted = 1, 0  # the line of ``counted``
    token = _TOKEN.match
    while True:
        x = text.find(LEFT, pos)
        if x < 0:
            return
        start = x
        x += 2
        trim_left = x + 1 < n and text[x] == "-" and text[x + 1] in _SPACES
        if trim_left:
            x += 2
        if text.startswith(LEFT_COMMENT, x):
            close = text.find(RIGHT_COMMENT, x + 2)
            if close < 0:
                raise _Unsure
            end = close + 2
            trim_right = end < n and text[end] in _SPACES and text.startswith("-}}", end + 1)
            if trim_right:
                end += 2
            elif not text.startswith(RIGHT, end):
                raise _Unsure
            line += text.count("\n", counted, x)
            counted = x
            comment = Item(ItemType.COMMENT, x, text[x : close + 2], line)
            yield Action(start, end + 2, trim_left, trim_right, True, (comment,))
            pos = end + 2
            continue
        words: list[Item] = []
        depth = 0
        p = x
        while True:
            if text.startswith(RIGHT, p):
                trim_right = False
                break
            if p < n and text[p] in _SPACES and text.startswith("-}}", p + 1):
                trim_right = True
                break
            m = token(text, p)
            if m is None:
                raise _Unsure
            kind = m.lastgroup
            end = m.end()
            if kind == "space":
                p = end - 1 if text.startswith("-}}", end) else end  # the last space may start a trim marker
                continue
            val = m.group()
            if kind in ("field", "variable", "ident"):
                if end < n and text[end] not in _TERMINATORS and not text.startswith(RIGHT, end):
                    raise _Unsure
                if kind == "field":
                    typ = ItemType.FIELD if len(val) > 1 else ItemType.DOT
                elif kind == "variable":
                    typ = ItemType.VARIABLE
                else:
                    keyword = KEYWORDS.get(val)
                    typ = (
                        keyword
                        if keyword is not None
                        else ItemType.BOOL
                        if val in ("true", "false")
                        else ItemType.IDENTIFIER
                    )
            elif kind == "number":
                typ = ItemType.NUMBER
            elif kind == "string":
                typ = ItemType.STRING
            elif kind == "raw":
                typ = ItemType.RAW_STRING
            elif kind == "char":
                typ = ItemType.CHAR_CONSTANT
            elif kind == "declare":
                typ = ItemType.DECLARE
            elif kind == "punct":
                typ = _PUNCT[val]
                if val == "(":
                    depth += 1
                elif val == ")":
                    depth -= 1
                    if depth < 0:
                        raise _Unsure
            else:
                typ = ItemType.CHAR
            line += text.count("\n", counted, p)
            counted = p
            words.append(Item(typ, p, val, line))
            p = end
        if depth:
            raise _Unsure
        end = p + (2 if trim_right else 0) + 2
        yield Action(start, end, trim_left, trim_right, False, tuple(words))
        pos = end
