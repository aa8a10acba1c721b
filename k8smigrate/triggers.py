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
from functools import lru_cache

from .yamlio.fastbuild import holds_any, needle_set

try:
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python 3.10
    import sre_parse

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
        self._ready = needle_set(self.words)
        prefixes = [(p, literal_prefix(p)) for p in self.patterns]
        self._unguarded = tuple(p for p, prefix in prefixes if len(prefix) < 3)
        self._guarded = tuple((p, prefix) for p, prefix in prefixes if len(prefix) >= 3)

    def __bool__(self) -> bool:
        return bool(self.words or self.patterns)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Triggers) and (self.words, self.patterns) == (other.words, other.patterns)

    def __hash__(self) -> int:
        return hash((self.words, self.patterns))

    def __repr__(self) -> str:
        return f"Triggers({[*self.words, *self.patterns]!r})"

    def found_in(self, text: str) -> bool:
        """Whether ``text`` holds one of the substrings or matches one of the patterns."""
        if holds_any(text, self._ready) or any(p.search(text) is not None for p in self._unguarded):
            return True
        return any(prefix in text and p.search(text) is not None for p, prefix in self._guarded)


@lru_cache(maxsize=256)
def literal_prefix(pattern: re.Pattern[str]) -> str:
    """The characters every match of ``pattern`` starts with ("" when none can be told apart).

    Read from the pattern as ``re`` parses it: its leading literal characters (``ab?c``: ``a``;
    an alternation at the top: none). A pattern whose flags change what a character matches
    (``IGNORECASE``), or one this Python's parser reads differently, has none.
    """
    if pattern.flags & re.IGNORECASE:
        return ""
    try:
        parsed = list(sre_parse.parse(pattern.pattern, pattern.flags))
        literal = sre_parse.LITERAL
        out = []
        for op, value in parsed:
            if op is not literal:
                break
            out.append(chr(value))
        return "".join(out)
    except Exception:  # the parser is private to ``re``: without it there is no shortcut, never a wrong one
        return ""
