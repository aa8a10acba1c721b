"""Hypothesis strategies for realistic manifest streams in random formatting.

Objects are drawn from the kinds in the migration table (and current ones that must stay
untouched); each is written by a small emitter with random indentation, sequence offset,
quoting, flow/block choices and comments everywhere, so that properties exercise the
splicing code on layouts nobody wrote by hand.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12).filter(
    lambda s: s[0].isalpha() and not s.endswith("-")
)
# Strings that YAML 1.1 readers misread when written plain.
TRICKY = st.sampled_from(["yes", "no", "on", "off", "y", "n", "true", "null", "~", "1.10", "010", "0x1f", "12:30", "1e3"])
VALUES = st.one_of(NAMES, TRICKY, st.integers(0, 70000), st.booleans())
COMMENTS = st.text(alphabet="abcdefghij klmnop", min_size=1, max_size=15).map(lambda s: "# " + s.strip())


@st.composite
def ingress(draw: st.DrawFn, api: str | None = None) -> dict[str, Any]:
    def backend() -> dict[str, Any]:
        port = draw(st.one_of(st.integers(1, 65535), st.sampled_from(["http", "https", "web-port"])))
        return {"serviceName": draw(NAMES), "servicePort": port}

    paths = [
        {"path": draw(st.sampled_from(["/", "/api", "/v1/.*"])), "backend": backend()}
        for _ in range(draw(st.integers(1, 3)))
    ]
    spec: dict[str, Any] = {"rules": [{"host": draw(NAMES) + ".example.com", "http": {"paths": paths}}]}
    if draw(st.booleans()):
        spec["backend"] = backend()
    return {
        "apiVersion": api or draw(st.sampled_from(["extensions/v1beta1", "networking.k8s.io/v1beta1"])),
        "kind": "Ingress",
        "metadata": {"name": draw(NAMES), "labels": {"app": draw(st.one_of(NAMES, TRICKY))}},
        "spec": spec,
    }


@st.composite
def rbac(draw: st.DrawFn) -> dict[str, Any]:
    api = draw(st.sampled_from(["rbac.authorization.k8s.io/v1beta1", "rbac.authorization.k8s.io/v1alpha1"]))
    kind = draw(st.sampled_from(["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"]))
    obj: dict[str, Any] = {"apiVersion": api, "kind": kind, "metadata": {"name": draw(NAMES)}}
    if kind.endswith("Binding"):
        subject_kind = draw(st.sampled_from(["User", "Group", "ServiceAccount"]))
        subject: dict[str, Any] = {"kind": subject_kind, "name": draw(st.one_of(NAMES, st.just("*")))}
        if subject_kind == "ServiceAccount":
            subject["namespace"] = "default"
        if api.endswith("v1alpha1") and draw(st.booleans()):
            subject["apiVersion"] = "v1" if subject_kind == "ServiceAccount" else "rbac.authorization.k8s.io/v1alpha1"
        obj["subjects"] = [subject]
        obj["roleRef"] = {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": draw(NAMES)}
    else:
        obj["rules"] = [{"apiGroups": [""], "resources": ["pods"], "verbs": draw(st.lists(st.sampled_from(["get", "list"]), min_size=1, max_size=2, unique=True))}]
    return obj


@st.composite
def current(draw: st.DrawFn) -> dict[str, Any]:
    """Objects no migration touches."""
    return draw(
        st.sampled_from(
            [
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k": draw(VALUES)}},
                {"apiVersion": "v1", "kind": "Service", "metadata": {"name": draw(NAMES)},
                 "spec": {"ports": [{"port": 80, "targetPort": draw(VALUES)}], "selector": {"app": "x"}}},
                {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
                 "spec": {"selector": {"matchLabels": {"app": "d"}},
                          "template": {"metadata": {"labels": {"app": "d"}},
                                       "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}},
                ingress_v1(draw(NAMES)),
                {"apiVersion": "admissionregistration.k8s.io/v1beta1", "kind": "ValidatingAdmissionPolicy",
                 "metadata": {"name": "p"}, "spec": {"validations": [{"expression": "true"}]}},
            ]
        )
    )


def ingress_v1(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "Ingress",
        "metadata": {"name": name},
        "spec": {"defaultBackend": {"service": {"name": name, "port": {"number": 80}}}},
    }


class Layout:
    """One random way of writing YAML."""

    def __init__(self, indent: int, seq_offset: int, quote: str, flow_small: bool, comments: list[str], crlf: bool):
        self.indent = indent
        self.seq_offset = seq_offset
        self.quote = quote
        self.flow_small = flow_small
        self.comments = comments
        self.crlf = crlf
        self.n = 0

    def comment(self) -> str:
        self.n += 1
        if self.comments and self.n % 3 == 0:
            return "  " + self.comments[self.n % len(self.comments)]
        return ""

    def scalar(self, value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        text = str(value)
        plain_ok = text.replace("-", "").replace(".", "").replace("/", "").replace("*", "x").isalnum() and not text[0].isdigit()
        if self.quote == "plain" and plain_ok and text not in {"yes", "no", "on", "off", "y", "n", "true", "null"} and text != "*":
            return text
        if self.quote == "'" :
            return "'" + text.replace("'", "''") + "'"
        return json.dumps(text)

    def emit(self, obj: dict[str, Any]) -> str:
        lines: list[str] = []
        self._map(obj, 0, lines)
        nl = "\r\n" if self.crlf else "\n"
        return nl.join(lines) + nl

    def _inline(self, value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k}: {self._inline(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self._inline(v) for v in value) + "]"
        return self.scalar(value)

    def _small(self, value: Any) -> bool:
        return self.flow_small and isinstance(value, (dict, list)) and len(value) <= 2 and all(
            not isinstance(v, (dict, list)) for v in (value.values() if isinstance(value, dict) else value)
        )

    def _map(self, obj: dict[str, Any], col: int, lines: list[str], first_prefix: str | None = None) -> None:
        for i, (key, value) in enumerate(obj.items()):
            lead = first_prefix if (i == 0 and first_prefix is not None) else " " * col
            if self.comments and self.n % 5 == 4 and i > 0:
                lines.append(" " * col + self.comments[0])
            if isinstance(value, (dict, list)) and value and not self._small(value):
                lines.append(f"{lead}{key}:{self.comment()}")
                if isinstance(value, dict):
                    self._map(value, col + self.indent, lines)
                else:
                    self._seq(value, col + self.seq_offset, lines)
            else:
                lines.append(f"{lead}{key}: {self._inline(value)}{self.comment()}")

    def _seq(self, items: list[Any], col: int, lines: list[str]) -> None:
        for item in items:
            if isinstance(item, dict) and item:
                self._map(item, col + 2, lines, first_prefix=" " * col + "- ")
            else:
                lines.append(" " * col + "- " + self._inline(item) + self.comment())


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    indent = draw(st.sampled_from([2, 4]))
    return Layout(
        indent,
        draw(st.sampled_from([0, indent])),
        draw(st.sampled_from(["plain", "'", '"'])),
        draw(st.booleans()),
        draw(st.lists(COMMENTS, max_size=3)),
        draw(st.booleans()),
    )


@st.composite
def streams(draw: st.DrawFn, objects: st.SearchStrategy[dict[str, Any]] | None = None) -> list[str]:
    """A list of documents' texts (join with '---' lines to make a stream)."""
    layout = draw(layouts())
    pool = objects if objects is not None else st.one_of(ingress(), rbac(), current())
    objs = draw(st.lists(pool, min_size=1, max_size=4))
    return [layout.emit(o) for o in objs]


def join(docs: list[str]) -> str:
    nl = "\r\n" if any("\r\n" in d for d in docs) else "\n"
    return ("---" + nl).join(docs)
