"""Where a node's text ends: the last character of its value, and the end of that line.

Edits splice text at these places (``sharing`` and the templating code cut entries out and
put them back), and the tree builders use them to close each entry's span.
"""

from __future__ import annotations

from ..tree import Mapping, Node, Scalar, Sequence


def content_end(text: str, node: Node) -> int:
    """Index just after the last character that belongs to ``node``'s value."""
    assert node.src is not None
    if isinstance(node, Mapping) and not node.flow and node.entries:
        return content_end(text, node.entries[-1].value)
    if isinstance(node, Sequence) and not node.flow and node.items:
        return content_end(text, node.items[-1].value)
    if isinstance(node, Scalar) and node.style in ("|", ">"):
        return node.src.start + len(text[node.src.start : node.src.end].rstrip())
    return node.src.end


def entry_end(text: str, value: Node) -> int:
    """Index just after the newline that ends the line where ``value`` ends (or end of text)."""
    end = content_end(text, value)
    nl = text.find("\n", end)
    return len(text) if nl < 0 else nl + 1
