"""The library's own modules as text, for the tests that say how every one of them is written
(``dataclass`` from ``dataclasscode``, patterns from ``regexcode``)."""

from __future__ import annotations

import re
from pathlib import Path

import k8smigrate
from k8smigrate import migrations

FOLDERS = (Path(k8smigrate.__file__).parent, Path(migrations.__file__).parent)


def modules_matching(pattern: re.Pattern[str], exempt: tuple[str, ...]) -> list[str]:
    """The modules of the library and its migrations (but those named in ``exempt``) whose text
    ``pattern`` finds something in, as paths inside their folder."""
    return [
        str(path.relative_to(folder))
        for folder in FOLDERS
        for path in sorted(folder.rglob("*.py"))
        if path.name not in exempt and pattern.search(path.read_text(encoding="utf-8"))
    ]


def module_names() -> list[str]:
    """The dotted name of every module of the library and its migrations (packages too), sorted:
    what a test has a fresh interpreter import. ``k8smigrate.__main__`` is left out: importing
    it runs the CLI."""
    names: set[str] = set()
    for folder, package in zip(FOLDERS, ("k8smigrate", "k8smigrate.migrations"), strict=True):
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if any(part.startswith(("_", ".")) for part in parts[:-1]):
                continue  # __pycache__ and the like
            name = ".".join([package, *parts]).removesuffix(".__init__")
            if name != "k8smigrate.__main__":
                names.add(name)
    return sorted(names)
