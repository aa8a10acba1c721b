"""Kubernetes components on the command line of a container: which program runs, and its flags.

Static pod manifests (``/etc/kubernetes/manifests/*.yaml``), kube-proxy DaemonSets and
hosted control planes run a component as a container whose ``command`` (or, without one,
the image's entrypoint) is the component's binary, and whose flags stand in ``command`` and
``args``. A flag is read the way pflag reads it: ``--name=value`` as one element, or
``--name`` followed by its value as the next element (for flags that take a value).
``hyperkube`` (up to 1.18) names the component in its first argument.
"""

from __future__ import annotations

from collections.abc import Iterator

from k8smigrate.tree import Mapping, Node, Scalar, Sequence

from ..dataclasscode import dataclass

ARCHES = ("amd64", "arm", "arm64", "ppc64le", "s390x")
HYPERKUBE_ALIASES = {
    "apiserver": "kube-apiserver",
    "controller-manager": "kube-controller-manager",
    "scheduler": "kube-scheduler",
    "proxy": "kube-proxy",
}


def program(container: Mapping) -> str | None:
    """The program a container runs: the base name of ``command[0]``, else the image's name.

    ``registry.k8s.io/kube-proxy-amd64:v1.20.0@sha256:…`` → ``kube-proxy`` (the old per-arch images).
    """
    command = container.get("command")
    first = command[0] if isinstance(command, Sequence) and len(command) > 0 else None
    if isinstance(first, Scalar) and isinstance(first.data, str):
        return first.data.rsplit("/", 1)[-1]
    image = container.data("image")
    if not isinstance(image, str):
        return None
    name = image.split("@", 1)[0].rsplit("/", 1)[-1].split(":", 1)[0]
    base, _, arch = name.rpartition("-")
    return base if arch in ARCHES else name


def component(container: Mapping) -> str | None:
    """The Kubernetes component a container runs, with ``hyperkube``'s sub-command resolved."""
    name = program(container)
    if name != "hyperkube":
        return name
    words = [n for key in ("command", "args") for n in _items(container.get(key))]
    sub = words[1] if words and words[0].rsplit("/", 1)[-1] == "hyperkube" and len(words) > 1 else None
    sub = sub if sub is not None else (words[0] if words and not words[0].startswith("-") else None)
    return HYPERKUBE_ALIASES.get(sub or "", sub) if sub else name


def _items(node: Node | None) -> list[str]:
    if not isinstance(node, Sequence):
        return []
    return [str(n.data) for n in node if isinstance(n, Scalar) and isinstance(n.data, str)]


@dataclass
class Flag:
    """One flag on a command line: where it stands and its value."""

    line: Sequence
    name: str
    value: str
    node: Scalar
    """The element that holds the value (``--name=value``, or the element after ``--name``)."""
    joined: bool
    """``--name=value`` in one element (else the value is the next element)."""

    def set(self, value: str) -> None:
        """Write a new value, in the flag's own form."""
        self.node.set(f"--{self.name}={value}" if self.joined else value)

    def remove(self) -> None:
        """Delete the flag (and its value element)."""
        index = self.line.index(self.node)
        self.line.pop(index)
        if not self.joined:
            self.line.pop(index - 1)


def flags(container: Mapping, names: tuple[str, ...]) -> Iterator[Flag]:
    """The flags named ``names`` (without ``--``) in ``command`` and ``args``, in order."""
    for key in ("command", "args"):
        line = container.get(key)
        if not isinstance(line, Sequence):
            continue
        nodes = list(line)
        for i, node in enumerate(nodes):
            text = node.data if isinstance(node, Scalar) else None
            if not isinstance(node, Scalar) or not isinstance(text, str) or not text.startswith("-"):
                continue
            name, sep, value = text.lstrip("-").partition("=")
            if name not in names:
                continue
            if sep:
                yield Flag(line, name, value, node, True)
            elif i + 1 < len(nodes) and isinstance(nodes[i + 1], Scalar):
                following = nodes[i + 1]
                assert isinstance(following, Scalar)
                yield Flag(line, name, "" if following.data is None else str(following.data), following, False)
