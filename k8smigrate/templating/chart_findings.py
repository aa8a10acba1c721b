"""What only the whole chart shows about one template, for ``scan`` and ``apply`` alike.

A template's own skeleton cannot see the defines it includes or what a condition on the
cluster's APIs means at the target; these findings come from reading every template of the
chart (``sites.ParsedChart``) and are filed under the template they concern.
"""

from __future__ import annotations

from pathlib import Path

from ..registry import default_registry
from ..results import Finding
from ..versions import Window
from .define_objects import removed_in_defines
from .removed_conditions import removed_api_conditions
from .sites import ParsedChart


def chart_findings(chart: ParsedChart, root: Path, window: Window) -> dict[str, list[Finding]]:
    """Per template path: included defines that write whole objects on removed APIs
    (``define_objects``) and conditions that ask for a removed API (``removed_conditions``)."""
    out = removed_in_defines(chart, root, window, default_registry())
    for path, found in removed_api_conditions(chart, root, window).items():
        out.setdefault(path, []).extend(found)
    return out
