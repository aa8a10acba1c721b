"""File names as people and programs can read them: quoted the way git quotes paths.

A file name is bytes on POSIX; Python hands undecodable bytes over as lone surrogates
(``\\udcff`` for 0xFF), which no UTF-8 output can hold, and a name may hold a newline that
would start a new line of a diff header or of a ``file:line:`` message. ``quote_path``
leaves an ordinary name alone (non-ASCII UTF-8 included) and writes any other in double
quotes with C escapes, as git's ``quote_c_style`` does: ``\\n``, ``\\t``, ``\\"``,
``\\\\``, and ``\\ooo`` (octal) for other control bytes and, inside quotes, every byte from
0x80 up, so the quoted form is ASCII and ``git apply`` reads the exact bytes back. A name
holding ``"`` is always quoted, so a quoted form cannot be mistaken for a plain name.
"""

from __future__ import annotations

_NAMED = {0x07: "a", 0x08: "b", 0x09: "t", 0x0A: "n", 0x0B: "v", 0x0C: "f", 0x0D: "r", 0x22: '"', 0x5C: "\\"}


def name_bytes(name: str) -> bytes:
    """The bytes of a file name as the file system has them (lone surrogates: their UTF-8-like bytes)."""
    out = bytearray()
    for char in name:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, as os.fsdecode hands it over
            out.append(code - 0xDC00)
        else:
            out += char.encode("utf-8", "surrogatepass")
    return bytes(out)


def _plain(name: str) -> bool:
    if not name.isprintable() or '"' in name or "\\" in name:
        return False
    return not any(0xD800 <= ord(c) <= 0xDFFF for c in name)


def quote_path(name: str) -> str:
    """``name`` unchanged when it is printable Unicode, else git's C-quoted form (ASCII)."""
    if _plain(name):
        return name
    out = ['"']
    for byte in name_bytes(name):
        if byte in _NAMED:
            out.append("\\" + _NAMED[byte])
        elif byte < 0x20 or byte >= 0x7F:
            out.append(f"\\{byte:03o}")
        else:
            out.append(chr(byte))
    out.append('"')
    return "".join(out)
