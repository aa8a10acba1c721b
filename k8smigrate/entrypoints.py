"""Whether any installed distribution declares ``k8smigrate.migrations`` entry points, cheaply.

Reading entry points through ``importlib.metadata`` costs more than the rest of the registry
put together on a short run: its import pulls ``email``, ``zipfile``, ``csv`` and friends, and
its lookup parses every distribution's metadata. Almost nobody has a plugin installed, so
``declared`` first looks at the raw ``entry_points.txt`` files the way
``importlib.metadata``'s path finder would find them (``*.dist-info`` and ``*.egg-info`` in
each ``sys.path`` folder, ``EGG-INFO`` inside an ``*.egg`` folder; CPython
``Lib/importlib/metadata/__init__.py``, ``FastPath``/``Lookup``). Only when one of them
mentions the group does the registry import ``importlib.metadata`` and load them the normal
way, so what is loaded, its order and its de-duplication stay ``importlib.metadata``'s.

The scan errs on the side of saying yes: a zip file on ``sys.path`` or an import hook that
can list distributions of its own (anything on ``sys.meta_path`` with ``find_distributions``
besides the standard path finder) is something it cannot see into, so it answers yes and
lets ``importlib.metadata`` look.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import PathFinder

GROUP = "k8smigrate.migrations"


def declared(group: str = GROUP) -> bool:
    """True when some distribution may declare entry points in ``group`` (never a false no)."""
    if any(f is not PathFinder and hasattr(f, "find_distributions") for f in sys.meta_path):
        return True
    for entry in sys.path:
        folder = entry or "."
        if os.path.isfile(folder):  # a zip archive: importlib.metadata reads inside it
            return True
        if _folder_declares(folder, group):
            return True
    return False


def _folder_declares(folder: str, group: str) -> bool:
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    if folder.lower().endswith(".egg") and _mentions(os.path.join(folder, "EGG-INFO", "entry_points.txt"), group):
        return True
    for name in names:
        low = name.lower()
        if low.endswith((".dist-info", ".egg-info")) and _mentions(
            os.path.join(folder, name, "entry_points.txt"), group
        ):
            return True
    return False


def _mentions(path: str, group: str) -> bool:
    """Whether the file names the group anywhere (a loose match: a false yes only costs time).

    Most distributions have no ``entry_points.txt``: asking whether it exists costs a fraction of
    a failed ``open`` (an exception each). The bytes are searched undecoded: the group is ASCII,
    and in UTF-8 (even with invalid bytes replaced) an ASCII run is found as bytes exactly where
    it is found as text."""
    if not os.access(path, os.F_OK):
        return False
    try:
        with open(path, "rb") as f:
            return group.encode() in f.read()
    except OSError:  # gone since, unreadable, or an .egg-info file, not a folder
        return False
