"""How Kubernetes reads a YAML scalar, and how to write one so that it reads back the same.

Kubernetes decodes manifests with a YAML 1.1 reader (go-yaml v2 behind sigs.k8s.io/yaml):
``yes``, ``on`` and ``y`` are booleans there, ``010`` is octal, ``1.10`` a float. ruamel
defaults to YAML 1.2, so this module resolves plain scalars itself and is the only place
that decides whether a new string must be quoted.
"""

from __future__ import annotations

import math
import re

from .lazyre import lazy
from .regexcode import regex

Data = None | bool | int | float | str | list["Data"] | dict[str, "Data"]

_BOOL_TRUE = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}
_BOOL_FALSE = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}
_NULL = {"", "~", "null", "Null", "NULL"}
RESOLVE_MAP: dict[str, Data] = {
    **dict.fromkeys(_NULL),
    **dict.fromkeys(_BOOL_TRUE, True),
    **dict.fromkeys(_BOOL_FALSE, False),
    **dict.fromkeys((".nan", ".NaN", ".NAN"), float("nan")),
    **dict.fromkeys((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), float("inf")),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), float("-inf")),
}
"""go-yaml v2's table of plain scalars (``resolveMap`` in ``resolve.go``)."""

_GO_INT = regex(r"[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)")
"""What Go's ``strconv.ParseInt(s, 0, 64)`` accepts (underscores removed first, as go-yaml does):
``0x``/``0X`` hex, ``0o``/``0O`` and a leading ``0`` octal, ``0b``/``0B`` binary, decimal."""
_GO_FLOAT = regex(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
"""go-yaml v2's ``yamlStyleFloat``."""
_DOT_FLOAT = regex(r"\.[0-9]+(?:[eE][-+]?[0-9]+)?")
"""What ``strconv.ParseFloat`` accepts of a scalar that starts with a dot (``.5``, ``.5e3``)."""
_INT64 = (-(2**63), 2**64)  # ParseInt, then ParseUint: beyond them a number is read as a float

_YAML11_INT = lazy(
    r"""^(?:[-+]?0b[0-1_]+
        |[-+]?0[0-7_]+
        |[-+]?(?:0|[1-9][0-9_]*)
        |[-+]?0x[0-9a-fA-F_]+
        |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""",
    re.X,
)
_YAML11_FLOAT = lazy(
    r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |\.[0-9_]+(?:[eE][-+][0-9]+)?
        |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
    re.X,
)
"""The YAML 1.1 spec's (and PyYAML's) numbers, base 60 included: only for deciding what to quote
(compiled when a new string is first written: a run that writes none never needs them)."""
_TIMESTAMP_RE = lazy(r"^\d{4}-\d\d?-\d\d?(?:[Tt ].*)?$")
_INDICATORS = set("-?:,[]{}#&*!|>'\"%@`")
_NUMBER_START = set("+-0123456789")
"""go-yaml tries numbers only for scalars that start with one of these (or a dot)."""


def resolve_plain(text: str) -> Data:
    """The value Kubernetes gives an unquoted scalar: go-yaml v2's ``resolve`` (``resolve.go``).

    sigs.k8s.io/yaml decodes with go-yaml v2 (a YAML 1.1 reader): ``yes``/``on``/``y`` are
    booleans, ``010`` and ``0o10`` are octal, ``0x1F``/``0X1F`` hex, ``0b101`` binary,
    underscores are dropped (``1_000``); base-60 numbers (``1:30``) are *not* read, they stay
    strings. Timestamps stay strings here, as they are in the JSON Kubernetes receives.
    """
    if text in RESOLVE_MAP:
        return RESOLVE_MAP[text]
    first = text[0]
    if first == ".":
        return float(text) if _DOT_FLOAT.fullmatch(text) and not _huge(text) else text
    if first not in _NUMBER_START:
        return text
    plain = text.replace("_", "")
    if _GO_INT.fullmatch(plain):
        value = _parse_int(plain)
        if _INT64[0] <= value < _INT64[1]:
            return value
    if _GO_FLOAT.fullmatch(plain) and not _huge(plain):
        return float(plain)
    return text


def _huge(text: str) -> bool:
    """ParseFloat refuses a number out of float64's range (it is read as a string then)."""
    return float(text) in (float("inf"), float("-inf"))


def _parse_int(text: str) -> int:
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    prefix = body[:2].lower()
    if prefix in ("0x", "0o", "0b"):
        return sign * int(body[2:], {"0x": 16, "0o": 8, "0b": 2}[prefix])
    if len(body) > 1 and body.startswith("0"):
        return sign * int(body, 8)
    return sign * int(body)


def _yaml11_number(text: str) -> bool:
    """Whether a YAML 1.1 reader such as PyYAML reads this plain scalar as a number."""
    return text[:1] in _NUMBER_START | {"."} and bool(_YAML11_INT.match(text) or _YAML11_FLOAT.match(text))


def is_ambiguous(text: str) -> bool:
    """True when a plain scalar with this text would not be read back as this string."""
    if resolve_plain(text) != text or not isinstance(resolve_plain(text), str):
        return True
    if _TIMESTAMP_RE.match(text) or _yaml11_number(text):
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
    if not _FLOW_INDICATORS.isdisjoint(text):
        return True
    # YAML's printable set has the private-use area (Python's has not): a masked template action
    # (a chart's skeleton) is written plain where a migration writes it unquoted
    return not text.isprintable() and not all(ch.isprintable() or "\ue000" <= ch <= "\uf8ff" for ch in text)


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


def same_data(a: Data, b: Data) -> bool:
    """``a == b``, where a ``.nan`` equals a ``.nan`` (Python's ``==`` says it does not)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_data(v, b[k]) for k, v in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_data(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b
