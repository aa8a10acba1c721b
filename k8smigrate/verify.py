"""Render and verify: splice an edited tree into its text, then read the new text back.

The engine's last stage for a changed document. ``render`` writes only the edited nodes in
the document's own style; the new text must then read back as exactly the edited tree
(anything else is a bug, refused with K8SM-GEN-012 and the document left as it was), and
every comment of the old text should still be there (K8SM-GEN-004 names one that went with
a removed field).
"""

from __future__ import annotations

from collections import Counter

from .regexcode import regex
from .render import Renderer, detect_style
from .scalars import Data, same_data
from .textsearch import lines_with
from .tree import Mapping, TreeError
from .yamlio import directives, read_data
from .yamlio.fastbuild import tree_data


class RenderCheckError(AssertionError):
    """The spliced text does not read back as the edited tree (a bug, never user error)."""


def render(text: str, root: Mapping) -> tuple[str, str]:
    """The new text of ``root`` spliced from ``text``, and the directive lines it needs to be read alone."""
    new_text = Renderer(text, detect_style(text, root)).document(root)
    lead = directives(text, root.src.start if root.src else 0)  # %TAG handles, to read it alone
    return new_text, lead


def read_back(root: Mapping, new_text: str, lead: str = "", libyaml: bool = True) -> tuple[Data, str]:
    """The data of the spliced text, and "" when it is the edited tree's, else what is wrong."""
    assert root.src is not None
    try:
        want = tree_data(root)
        reread = read_data(lead + " " * root.src.col + new_text, libyaml)
    except (TreeError, RecursionError, ValueError) as exc:
        return None, f"the edited document does not parse: {exc}"
    if len(reread) != 1:
        return None, "the edited document does not read back as one document"
    if reread[0] != want and not same_data(reread[0], want):
        return None, "the edited document does not read back as intended"
    return reread[0], ""


_COMMENT_RE = regex(r"(?:^|\s)(#.*)$")


def comments(text: str) -> Counter[str]:
    """The comments of a text (whole-line and end-of-line), counted."""
    found: Counter[str] = Counter()
    for line in lines_with(text, "#"):
        s = line.strip()
        if s.startswith("#"):
            found[s] += 1
            continue
        m = _COMMENT_RE.search(line)
        if m and line.count('"') % 2 == 0 and line.count("'") % 2 == 0:
            found[m.group(1).strip()] += 1
    return found


def dropped_comments(old: str, new: str) -> list[tuple[str, int]]:
    """The comments of ``old`` that ``new`` no longer has, each with its 0-based line in ``old``."""
    if "#" not in old:
        return []
    # A line's comments depend on its text without the whitespace around it: when every such
    # line of ``old`` with a # is in ``new`` too, no comment went (most edits, read at C speed).
    if not Counter(map(str.strip, lines_with(old, "#"))) - Counter(map(str.strip, lines_with(new, "#"))):
        return []
    lost = comments(old) - comments(new)
    if not lost:
        return []
    out: list[tuple[str, int]] = []
    for number, line in enumerate(old.splitlines()):  # which copy of a repeated comment went is unknown: the first
        for comment in list(lost):
            if comment in line and comments(line)[comment]:
                out.append((comment, number))
                lost[comment] -= 1
                if not lost[comment]:
                    del lost[comment]
    return out
