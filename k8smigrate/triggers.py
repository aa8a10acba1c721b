"""Text triggers: what a document's raw text must hold before a check or a collector reads it.

Every file a run reads is asked whether it holds any of the triggers of the checks of its
apiVersions (a Deployment is looked at by some forty), so a set of triggers is split once into
its substrings and its patterns, and the substrings are looked for in one pass over the text
(``holds_any``, in C when the extension is there) instead of one ``in`` scan each; the
substrings are made ready for it once per set (``needle_set``), not once per text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import lru_cache

from .yamlio.fastbuild import holds_any, needle_set

Trigger = str | re.Pattern[str]
"""A substring the text must hold, or a pattern it must match somewhere."""


class Triggers:
    """Triggers of which any one is enough: the substrings (one pass), then the patterns.

    A pattern that starts with a literal of three or more characters (``clusterName["']?…``)
    can only match a text that holds that literal, and ``in`` looks for it several times faster
    than the pattern's own search: the pattern is searched only where the literal is there.
    """

    __slots__ = ("_guarded", "_ready", "_unguarded", "patterns", "words")

    def __init__(self, triggers: Iterable[Trigger]) -> None:
        found = set(triggers)
        self.words = tuple(sorted(t for t in found if isinstance(t, str)))
        self.patterns = tuple(sorted((t for t in found if not isinstance(t, str)), key=lambda p: p.pattern))
        self._ready: object = None  # made ready when first asked: every check has a set, a run asks a few
        self._unguarded: tuple[re.Pattern[str], ...] = ()
        self._guarded: tuple[tuple[re.Pattern[str], str], ...] = ()

    def _make_ready(self) -> object:
        prefixes = [(p, literal_prefix(p)) for p in self.patterns]
        self._unguarded = tuple(p for p, prefix in prefixes if len(prefix) < 3)
        self._guarded = tuple((p, prefix) for p, prefix in prefixes if len(prefix) >= 3)
        self._ready = needle_set(self.words)
        return self._ready

    def __bool__(self) -> bool:
        return bool(self.words or self.patterns)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Triggers) and (self.words, self.patterns) == (other.words, other.patterns)

    def __hash__(self) -> int:
        return hash((self.words, self.patterns))

    def __repr__(self) -> str:
        return f"Triggers({[*self.words, *self.patterns]!r})"

    def found_among(self, text: str, present: AbstractSet[str]) -> bool:
        """``found_in``, told which substrings ``text`` holds (``present``: those of a larger set,
        found at once by ``holds_which``); only the patterns are looked for in ``text``."""
        if not present.isdisjoint(self.words):
            return True
        if self._ready is None:
            self._make_ready()
        return self._pattern_in(text)

    def found_in(self, text: str) -> bool:
        """Whether ``text`` holds one of the substrings or matches one of the patterns."""
        ready = self._ready if self._ready is not None else self._make_ready()
        return holds_any(text, ready) or self._pattern_in(text)

    def _pattern_in(self, text: str) -> bool:
        """Whether ``text`` matches one of the patterns (the set made ready)."""
        for pattern in self._unguarded:  # loops, not any(…): a generator per file cost as much as a search
            if pattern.search(text) is not None:
                return True
        for pattern, prefix in self._guarded:  # noqa: SIM110 (as above)
            if prefix in text and pattern.search(text) is not None:
                return True
        return False


_SPECIAL = frozenset(".^$*+?{}[]|()\\")
_QUANTIFIERS = frozenset("*+?{")


@lru_cache(maxsize=256)
def literal_prefix(pattern: re.Pattern[str]) -> str:
    """Characters every match of ``pattern`` starts with ("" when none can be told apart).

    Read from the pattern's text, not parsed: plain characters and escaped punctuation
    (``\\-``) up to the first other special character, a character a quantifier follows left
    out. Nothing for an alternation at the top (``abc|xyz``) or a pattern whose flags change
    what a character matches (``IGNORECASE``, ``VERBOSE``). Short of what ``re`` would find
    at times (``(?:abc)d``), never longer.
    """
    source = pattern.pattern
    if pattern.flags & (re.IGNORECASE | re.VERBOSE) or _alternates_at_top(source):
        return ""
    out: list[str] = []
    at = 0
    while at < len(source):
        char, width = source[at], 1
        if char == "\\":
            char, width = source[at + 1 : at + 2], 2
            if not char or char.isalnum() or char == "_":
                break  # a class (\\d), an anchor (\\A), a backreference or an escape like \\n
        elif char in _SPECIAL:
            break
        if source[at + width : at + width + 1] in _QUANTIFIERS:
            break  # the character may be absent, or stand several times
        out.append(char)
        at += width
    return "".join(out)


def _alternates_at_top(source: str) -> bool:
    """Whether ``source`` has a ``|`` outside every group and character class."""
    depth, at, in_class = 0, 0, False
    while at < len(source):
        char = source[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            at += 2 if source[at + 1 : at + 2] == "^" else 1
            at += 1 if source[at : at + 1] == "]" else 0  # a "]" first in a class is one of its characters
            in_class = True
            continue
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return True
        at += 1
    return False
