"""Which defines write a line break first, so that ``indent N`` of them starts a new line.

Bitnami's mongodb writes ``{{- include "mongodb.initContainer.volumePermissions" . | indent 8 }}``
under ``initContainers:``. The trim eats the line break before the action, and ``indent 8``
alone would put the output on the key's own line; it renders as YAML because the define's body
starts with a line break (``{{- define "…" }}`` then a new line), which ``indent`` indents with
the rest: the output starts on a new line at column 8, as ``nindent 8`` would put it. Masking
must know that to place the output (``gotemplate.tags``); this reads it off the chart's
defines, conservatively: a body whose first written text may be anything but a line break (an
action that writes, an ``include``, text on the define's own line) does not count. A body that
may write nothing counts: ``indent`` of nothing is spaces at the end of the line before.
"""

from __future__ import annotations

from collections.abc import Mapping

from .gotmpl import ActionNode, Block, Define, Node, Text

_EMPTY, _NEWLINE, _OTHER = "empty", "newline", "other"


def newline_first(defines: Mapping[str, tuple[str, Define]], texts: Mapping[str, str]) -> frozenset[str]:
    """The names of ``defines`` (name → (path, define)) whose output is empty or starts with a
    line break; ``texts``: the template texts by path."""
    out = set()
    for name, (path, define) in defines.items():
        text = texts.get(path)
        if text is not None and _OTHER not in _starts(define.body, text):
            out.add(name)
    return frozenset(out)


def _starts(nodes: list[Node], text: str) -> set[str]:
    """How what ``nodes`` write may start: empty, with a line break, or otherwise."""
    out: set[str] = set()
    for node in nodes:
        first = _first(node, text)
        out |= first - {_EMPTY}
        if _EMPTY not in first:
            return out
    return out | {_EMPTY}


def _first(node: Node, text: str) -> set[str]:
    if isinstance(node, Text):
        written = text[node.lo : node.hi]
        if not written:
            return {_EMPTY}
        return {_NEWLINE} if written.lstrip(" \t").startswith(("\n", "\r\n")) else {_OTHER}
    if isinstance(node, ActionNode):
        writes = node.pipe is not None and not node.pipe.decl  # a comment, or ``$x := …``, writes nothing
        return {_OTHER} if writes else {_EMPTY}
    if isinstance(node, Block):
        out: set[str] = set()
        for branch in node.branches:
            out |= _starts(branch.body, text)
        if all(branch.pipe is not None for branch in node.branches):
            out.add(_EMPTY)  # no plain else: no branch may be taken
        return out
    if isinstance(node, Define):
        return {_EMPTY}  # written where it is included
    return {_OTHER}  # a template call: what it writes is not looked into
