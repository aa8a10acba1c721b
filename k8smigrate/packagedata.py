"""The data files shipped inside the package (``k8smigrate/data``), read as text.

Read from the package folder directly: ``importlib.resources`` costs more to import than a
short run spends on everything else it reads, and an installed k8smigrate is a folder. Only
an install the folder cannot be found in (a zip import) goes through ``importlib.resources``.
"""

from __future__ import annotations

from pathlib import Path

_DATA = Path(__file__).resolve().parent / "data"


def data_text(name: str) -> str:
    """The text of ``k8smigrate/data/NAME`` (UTF-8)."""
    try:
        return (_DATA / name).read_text(encoding="utf-8")
    except FileNotFoundError:
        from importlib import resources

        return (resources.files("k8smigrate") / "data" / name).read_text(encoding="utf-8")
