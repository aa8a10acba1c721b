"""Guides shipped inside the package, so that ``k8smigrate explain NAME`` prints them from any install.

Findings point to a guide by the command that prints it, never by a path in the source tree
(an installed package has no ``docs/``). Each guide is a copy of a page of ``docs/``
(``k8smigrate/data/NAME.md``; ``tests/test_guides.py`` keeps the two identical).
"""

from __future__ import annotations

from .packagedata import data_text

GUIDES = {"podsecuritypolicy": "podsecuritypolicy.md"}
"""Guide name (what ``explain`` takes) → file in ``k8smigrate/data`` (and in ``docs/``)."""


def guide(name: str) -> str | None:
    """The text of the guide ``name``, or None when there is no such guide."""
    file = GUIDES.get(name)
    if file is None:
        return None
    return data_text(file)
