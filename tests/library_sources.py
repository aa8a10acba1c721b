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
