"""The parser: ruamel.yaml's events and marks, through libyaml when it is there.

This module and its siblings in ``yamlio`` are the only code that talks to ruamel; its loosely
typed events (``Any``) do not leave the package.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from ruamel.yaml import YAML

from ..runtime_typing import Any

try:  # libyaml through ruamel.yaml.clib: the same events and marks, at C speed
    from _ruamel_yaml import CParser
except ImportError:  # pragma: no cover - a Python without the C extension
    CParser = None
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

__all__ = [
    "PARSE_ERRORS",
    "AliasEvent",
    "CParser",
    "DocumentEndEvent",
    "DocumentStartEvent",
    "MappingEndEvent",
    "MappingStartEvent",
    "MarkedYAMLError",
    "ScalarEvent",
    "SequenceEndEvent",
    "SequenceStartEvent",
    "StreamEndEvent",
    "StreamStartEvent",
    "YAMLError",
    "c_events",
    "events",
    "libyaml_accepts",
    "message",
]

PARSE_ERRORS = (YAMLError, RecursionError, ValueError, AssertionError)
"""What reading a stream may raise: ruamel asserts on some directives (``%YAML 1.3``)."""


def events(source: str, libyaml: bool) -> Iterator[Any]:
    """The parser events of ``source``: libyaml's when asked for and present, else ruamel's own parser's."""
    if libyaml and CParser is not None:
        return c_events(source)
    return iter(YAML(typ="rt").parse(io.StringIO(source)))


def c_events(source: str) -> Iterator[Any]:
    """libyaml's events for ``source`` (same classes and marks as ruamel's own parser)."""
    assert CParser is not None
    parser = CParser(source)
    try:
        while True:
            event = parser.get_event()
            yield event
            if isinstance(event, StreamEndEvent):
                return
    finally:
        parser.dispose()


def libyaml_accepts(text: str) -> bool:
    """Whether libyaml parses the whole stream without complaint (False without libyaml); what
    ``libyaml.libyaml_accepts`` asks when the C module is not there."""
    if CParser is None:
        return False
    try:
        parser = CParser(text)
        try:
            parser.raw_parse()
        finally:
            parser.dispose()
    except Exception:  # any complaint: the careful path reports it precisely
        return False
    return True


def message(exc: MarkedYAMLError) -> str:
    parts = [p for p in (exc.context, exc.problem) if p]
    return ", ".join(str(p) for p in parts) or "invalid YAML"
