"""One-line YAML flow text of plain data, for findings that tell a human what to write.

``{selector: {dnsNames: [a.example.com]}, http01: {ingress: {name: web}}}`` reads better in a
message than JSON and can be pasted into a manifest as it is.
"""

from __future__ import annotations

from k8smigrate.scalars import Data, render_data_scalar


def flow(data: Data) -> str:
    """``data`` as YAML flow text (strings quoted where a YAML 1.1 reader would misread them)."""
    if isinstance(data, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {flow(v)}" for k, v in data.items()) + "}"
    if isinstance(data, list):
        return "[" + ", ".join(flow(v) for v in data) + "]"
    return _scalar(data)


def _scalar(value: Data) -> str:
    assert not isinstance(value, (list, dict))
    text = render_data_scalar(value)
    if isinstance(value, str) and text == value and any(c in value for c in ",[]{}:#"):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def block(data: Data, indent: int = 0) -> str:
    """``data`` as block YAML text (two-space indents, sequences not indented), ending with a newline."""
    pad = " " * indent
    if isinstance(data, dict):
        if not data:
            return pad + "{}\n"
        out = ""
        for key, value in data.items():
            head = f"{pad}{_scalar(key)}:"
            if isinstance(value, (dict, list)) and value:
                out += head + "\n" + block(value, indent + (2 if isinstance(value, dict) else 0))
            else:
                out += f"{head} {flow(value)}\n"
        return out
    if isinstance(data, list):
        if not data:
            return pad + "[]\n"
        out = ""
        for value in data:
            if isinstance(value, (dict, list)) and value:
                inner = block(value, indent + 2)
                out += pad + "- " + inner[indent + 2 :]
            else:
                out += f"{pad}- {flow(value)}\n"
        return out
    return pad + flow(data) + "\n"
