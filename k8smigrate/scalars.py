"""How Kubernetes reads a YAML scalar, and how to write one so that it reads back the same.

Kubernetes decodes manifests with a YAML 1.1 reader (go-yaml v2 behind sigs.k8s.io/yaml):
``yes``, ``on`` and ``y`` are booleans there, ``010`` is octal, ``1.10`` a float. ruamel
defaults to YAML 1.2, so this module resolves plain scalars itself and is the only place
that decides whether a new string must be quoted.
"""

from __future__ import annotations

import re

Data = None | bool | int | float | str | list["Data"] | dict[str, "Data"]

_BOOL_TRUE = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}
_BOOL_FALSE = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}
_NULL = {"", "~", "null", "Null", "NULL"}

_INT_RE = re.compile(
    r"""^(?:[-+]?0b[0-1_]+
        |[-+]?0[0-7_]+
        |[-+]?(?:0|[1-9][0-9_]*)
        |[-+]?0x[0-9a-fA-F_]+
        |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""",
    re.X,
)
_FLOAT_RE = re.compile(
    r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |\.[0-9_]+(?:[eE][-+][0-9]+)?
        |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
    re.X,
)
_TIMESTAMP_RE = re.compile(r"^\d{4}-\d\d?-\d\d?(?:[Tt ].*)?$")
_INDICATORS = set("-?:,[]{}#&*!|>'\"%@`")
_NUMBER_START = set("+-.0123456789")
"""Every int and float form above starts with one of these: most scalars skip both patterns."""


def resolve_plain(text: str) -> Data:
    """The value a YAML 1.1 reader gives an unquoted scalar (timestamps stay strings, as in JSON)."""
    if text in _NULL:
        return None
    if text in _BOOL_TRUE:
        return True
    if text in _BOOL_FALSE:
        return False
    if text[0] not in _NUMBER_START:
        return text
    if _INT_RE.match(text):
        return _parse_int(text)
    if _FLOAT_RE.match(text):
        return _parse_float(text)
    return text


def _parse_int(text: str) -> int:
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-").replace("_", "")
    if ":" in body:
        value = 0
        for part in body.split(":"):
            value = value * 60 + int(part)
        return sign * value
    if body.startswith("0b"):
        return sign * int(body[2:], 2)
    if body.startswith("0x"):
        return sign * int(body[2:], 16)
    if len(body) > 1 and body.startswith("0"):
        return sign * int(body, 8)
    return sign * int(body)


def _parse_float(text: str) -> float:
    body = text.replace("_", "")
    lowered = body.lower()
    if lowered.endswith(".inf"):
        return float("-inf") if body.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    if ":" in body:
        sign = -1.0 if body.startswith("-") else 1.0
        value = 0.0
        for part in body.lstrip("+-").split(":"):
            value = value * 60 + float(part)
        return sign * value
    return float(body)


def is_ambiguous(text: str) -> bool:
    """True when a plain scalar with this text would not be read back as this string."""
    if resolve_plain(text) != text or not isinstance(resolve_plain(text), str):
        return True
    if _TIMESTAMP_RE.match(text):
        return True
    # Also quote what YAML 1.2 readers (ruamel, kubectl's newer decoders) would not read as a string,
    # and YAML 1.1's value and merge indicators, which PyYAML-based tools refuse as plain scalars.
    return text.lower() in {"true", "false", "null", "yes", "no", "on", "off"} or text in ("=", "<<")


def needs_quotes(text: str) -> bool:
    """True when ``text`` cannot be written as a plain block-context scalar."""
    if text == "" or is_ambiguous(text):
        return True
    if text != text.strip() or "\n" in text or "\t" in text:
        return True
    if text[0] in _INDICATORS:
        return True
    if ": " in text or " #" in text or text.endswith(":"):
        return True
    # Flow indicators end a plain scalar inside {…} and […]: quote them wherever the string lands.
    if any(c in _FLOW_INDICATORS for c in text):
        return True
    return not text.isprintable()


_FLOW_INDICATORS = frozenset(",[]{}")


def render_string(text: str, style: str | None = None, flow: bool = False) -> str:
    """A YAML scalar for ``text`` in the wanted style (``None``, ``'`` or ``"``), quoted when it must be.

    ``flow``: it lands inside ``{…}`` or ``[…]``, where YAML 1.1 readers (PyYAML) refuse any
    ``:`` in a plain scalar (``unix:///run/…``), which block context allows.
    """
    if style is None and not needs_quotes(text) and not (flow and ":" in text):
        return text
    if style == "'" and text.isprintable():
        return "'" + text.replace("'", "''") + "'"
    if style is None and text.isprintable() and '"' in text and "'" not in text:
        return "'" + text + "'"
    return double_quoted(text)


def double_quoted(text: str) -> str:
    """A YAML double-quoted scalar; characters that are not printable are escaped (YAML refuses them raw)."""
    out = ['"']
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        elif ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


_SHORT_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def render_data_scalar(value: bool | int | float | str | None, style: str | None = None) -> str:
    """The YAML text of a non-collection value, with YAML 1.1-safe quoting for strings."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return render_string(value, style)
