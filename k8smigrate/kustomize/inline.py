"""Inline patches: YAML held in a string of the kustomization (``patches[].patch: |``).

The patch is migrated as text, like a file, and written back into its block scalar line by
line at the block's own indentation, so the kustomization keeps its layout; a scalar this
cannot do that for (folded, explicit indentation, kept trailing lines) is left alone.
"""

from __future__ import annotations

from ..tree import Scalar


def _lines(value: str, indent: str) -> str:
    body = value[:-1] if value.endswith("\n") else value
    return "\n".join(indent + line if line else "" for line in body.split("\n")) + "\n"


def splice_block(text: str, node: Scalar, new_value: str) -> str | None:
    """``text`` with the literal block scalar ``node`` holding ``new_value``; None when it cannot."""
    if node.src is None or node.style != "|":
        return None
    span = text[node.src.start : node.src.end]
    header, sep, body = span.partition("\n")
    indicators = header.strip()[1:].split("#", 1)[0].strip()
    if not sep or indicators not in ("", "-") or not body.strip():
        return None
    first = next(line for line in body.split("\n") if line.strip())
    indent = first[: len(first) - len(first.lstrip(" "))]
    if _lines(node.value, indent) != body:
        return None
    if indicators == "-" and new_value.endswith("\n"):
        return None
    if indicators == "" and not new_value.endswith("\n"):
        return None
    return text[: node.src.start] + header + "\n" + _lines(new_value, indent) + text[node.src.end :]
