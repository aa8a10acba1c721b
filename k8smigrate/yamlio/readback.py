"""The verification reader: the data of a text, read as the tree reads it, without building one.

The engine checks every edited document by reading its new text back; this does that at a
fraction of the cost of a tree (no spans, no comments), with libyaml when present.
"""

from __future__ import annotations

from typing import Any

from ..scalars import Data, resolve_plain
from .fastbuild import read_data as read_data_in_c


def read_data(text: str, libyaml: bool = True) -> list[Data]:
    """The data of every document of ``text``, read as the tree reads it, without building one.

    The engine checks every edited document by reading its new text back; this does that at
    a fraction of the cost of a tree (no spans, no comments), with libyaml when present.
    Text that does not parse raises ``ValueError``.
    """
    if libyaml:
        docs = read_data_in_c(text)
        if docs is not None:
            return docs
    from .events import YAMLError  # the reader below is ruamel.yaml's: imported only when it runs

    try:
        return _read_data(text, libyaml)
    except YAMLError as exc:
        raise ValueError(str(exc)) from exc


def _read_data(text: str, libyaml: bool) -> list[Data]:
    from .events import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        events,
    )

    docs: list[Data] = []
    stack: list[list[Any]] = []  # [container, pending key] per open collection
    anchors: dict[str, Data] = {}
    for event in events(text, libyaml):
        kind = type(event)
        if kind is ScalarEvent and not event.anchor:  # most events: a plain or quoted scalar
            value: Data = _scalar_data(event)
        elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
            container: Any = {} if isinstance(event, MappingStartEvent) else []
            if event.anchor:
                anchors[str(event.anchor)] = container
            stack.append([container, _NO_KEY, []])
            continue
        elif isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            container, _key, merges = stack.pop()
            for merged in merges:  # explicit keys win over merged ones, wherever they stand
                for k, v in merged.items():
                    container.setdefault(k, v)
            value = container
        elif isinstance(event, ScalarEvent):
            value = _scalar_data(event)
            if event.anchor:
                anchors[str(event.anchor)] = value
        elif isinstance(event, AliasEvent):
            if str(event.anchor) not in anchors:
                raise ValueError(f"unknown alias *{event.anchor}")
            value = anchors[str(event.anchor)]
        elif isinstance(event, DocumentStartEvent):
            anchors = {}
            continue
        else:
            continue
        if not stack:
            docs.append(value)
            continue
        top = stack[-1]
        if top[0].__class__ is list:
            top[0].append(value)
        elif top[1] is _NO_KEY:
            top[1] = (event, value)
        else:
            key_event, key = top[1]
            top[1] = _NO_KEY
            if key == "<<" and isinstance(key_event, ScalarEvent) and key_event.value == "<<" and not key_event.style:
                top[2].extend(m for m in (value if isinstance(value, list) else [value]) if isinstance(m, dict))
                continue
            if isinstance(key, (dict, list)):
                raise ValueError("complex mapping keys are not supported")
            top[0][_key_string(key)] = value
    return docs


_NO_KEY = object()


def _scalar_data(event: Any) -> Data:
    """What ``Scalar.data`` says for the node the builder makes of this event."""
    style = event.style or None
    tag = event.tag if event.tag not in (None, "!") else None
    value = str(event.value)
    if style is not None or (tag is not None and tag.endswith(":str")):
        return value
    resolved = resolve_plain(value)
    if tag is not None and tag.endswith(":int"):
        return resolved if isinstance(resolved, int) else value
    return resolved


def _key_string(key: Data) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return "null" if key is None else str(key)
