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
"""

from __future__ import annotations

import unicodedata
from enum import Enum
from functools import lru_cache

from ..dataclasscode import dataclass

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
    lexer = _Lexer(text, emit_comments=True)
    lexer.run()
    return tuple(lexer.actions)
