"""Command-line flags of containers and kubeadm ``extraArgs``, for checks that read a component's flags.

Not a migration. Kubernetes components and most controllers parse flags with pflag: a long
flag is ``--name=value`` in one element or ``--name`` followed by its value in the next; a
bool flag given alone (``--watch-ingress-without-class``) is true, and pflag never takes the
next element as a bool flag's value. ``program`` names what a container runs: the base name
of ``command[0]`` (``hyperkube``'s sub-command after it), or without a command the image
name without registry, tag and per-architecture suffix (``kube-apiserver-amd64``).
kubeadm's ``extraArgs`` are a map (v1beta1–v1beta3) or a list of ``{name, value}`` (v1beta4).
"""

from __future__ import annotations

from collections.abc import Iterator

from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping, Node, Sequence

ARCHES = ("amd64", "arm", "arm64", "ppc64le", "s390x")


def strings(items: Data) -> list[str]:
    """The elements of a command or args list as strings (other values as empty strings)."""
    return [i if isinstance(i, str) else "" for i in items] if isinstance(items, list) else []


def command_line(container: dict[str, Data]) -> list[str]:
    """``command`` followed by ``args``, as the container runs them."""
    return strings(container.get("command")) + strings(container.get("args"))


def find_flag(line: list[str], name: str, boolean: bool = False) -> tuple[int, str | None] | None:
    """``(index, value)`` of the last ``--name`` in ``line`` (pflag keeps the last), or None.

    The value is None for a bool flag given alone, or for a flag at the end of the line.
    """
    flag = "--" + name
    found: tuple[int, str | None] | None = None
    for i, item in enumerate(line):
        if item.startswith(flag + "="):
            found = (i, item[len(flag) + 1 :])
        elif item == flag:
            following = line[i + 1] if i + 1 < len(line) else None
            found = (i, None if boolean or following is None or following.startswith("-") else following)
    return found


def truth(value: str | None) -> bool | None:
    """A pflag bool flag's value (``strconv.ParseBool``; alone means true), or None when invalid."""
    if value is None:
        return True
    return {"1": True, "t": True, "true": True, "0": False, "f": False, "false": False}.get(value.strip().lower())


def program(container: dict[str, Data]) -> str:
    """The program a container runs (see the module docstring); ``""`` when nothing says."""
    command = strings(container.get("command"))
    if command and command[0]:
        name = command[0].rsplit("/", 1)[-1]
        if name == "hyperkube" and len(command) > 1:
            name = command[1]
        return name
    image = container.get("image")
    if not isinstance(image, str):
        return ""
    name = image.split("@", 1)[0].rsplit("/", 1)[-1].split(":", 1)[0]
    base, _, arch = name.rpartition("-")
    return base if base and arch in ARCHES else name


def line_nodes(container: Mapping) -> list[Node]:
    """The nodes of ``command`` followed by ``args`` (parallel to ``command_line``)."""
    out: list[Node] = []
    for key in ("command", "args"):
        items = container.get(key)
        if isinstance(items, Sequence):
            out += list(items)
    return out


def extra_args_data(args: Data) -> Iterator[tuple[str, str | None]]:
    """``(flag, value)`` of a kubeadm ``extraArgs`` map or list, as plain data."""
    if isinstance(args, dict):
        for name, value in args.items():
            yield name, None if value is None else str(value)
    elif isinstance(args, list):
        for pair in args:
            if isinstance(pair, dict) and isinstance(pair.get("name"), str):
                value = pair.get("value")
                yield str(pair["name"]), None if value is None else str(value)
