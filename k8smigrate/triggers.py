"""Text triggers: what a document's raw text must hold before a check or a collector reads it.

Every file a run reads is asked whether it holds any of the triggers of the checks of its
apiVersions (a Deployment is looked at by some forty), so a set of triggers is split once into
its substrings and its patterns, and the substrings are looked for in one pass over the text
(``contains_any``, in C when the extension is there) instead of one ``in`` scan each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .yamlio.fastbuild import contains_any

Trigger = str | re.Pattern[str]
"""A substring the text must hold, or a pattern it must match somewhere."""


class Triggers:
    """Triggers of which any one is enough: the substrings (one pass), then the patterns."""

    __slots__ = ("patterns", "words")

    def __init__(self, triggers: Iterable[Trigger]) -> None:
        found = set(triggers)
        self.words = tuple(sorted(t for t in found if isinstance(t, str)))
        self.patterns = tuple(sorted((t for t in found if not isinstance(t, str)), key=lambda p: p.pattern))

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
        return contains_any(text, self.words) or any(p.search(text) is not None for p in self.patterns)
