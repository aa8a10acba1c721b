"""Whole objects that a ``define`` writes: an Ingress on a removed API inside ``{{- define "ingress" }}``.

A chart may keep a whole manifest in a define (cetic's microservice: ``_ingress.yaml`` holds
``{{- define "ingress" }}`` around an ``extensions/v1beta1`` Ingress, and ``ingress.yaml`` only
includes it). The skeleton of a template leaves define bodies out (they are written where they
are included, where the skeleton cannot see them), so nothing migrated that Ingress and nothing
said so: the chart rendered a removed API at the target, silently. A define that a template of
the chart includes, and whose body writes an ``apiVersion:`` line at column 0 on an API removed
at the target, is an error at that line (``K8SM-TPL-018``), and at each line that includes it
(that template is what renders the object): move the object into a template, or migrate it by
hand. The chart's own templates only: a subchart's defines are its own run's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from ..codes import DEFINE_REMOVED_API
from ..regexcode import regex
from ..registry import Registry
from ..results import Finding
from ..versions import Window
from .sites import ParsedChart

_API_LINE = regex(r"^apiVersion:[ \t]*['\"]?([A-Za-z0-9./-]+)['\"]?[ \t]*(?:#.*)?$", re.M)
_KIND_LINE = regex(r"^kind:[ \t]*['\"]?([A-Za-z0-9]+)['\"]?[ \t]*(?:#.*)?$", re.M)


def removed_in_defines(chart: ParsedChart, root: Path, window: Window, registry: Registry) -> dict[str, list[Finding]]:
    """Per template path, the errors for the objects on removed APIs that its included defines write."""
    out: dict[str, list[Finding]] = {}
    texts = chart.sources.templates
    for name, (path, define) in sorted(chart.defines.items()):
        text = texts.get(path)
        if text is None:
            continue
        start, end = define.action.end, define.end_action.start
        calls: list[tuple[str, int]] | None = None  # looked for once an object is found: most defines hold none
        for api in _API_LINE.finditer(text, start, end):
            kind = _KIND_LINE.search(text, api.end(), end)
            if kind is None:
                continue
            life = registry.lifecycle(api.group(1), kind.group(1))
            if life is None or life.component != "kubernetes" or life.removed_in is None:
                continue
            if life.removed_in > window.target:
                continue
            calls = _calls(name, texts) if calls is None else calls
            if not calls:
                break  # a define nobody includes writes nothing
            line = text.count("\n", 0, api.start()) + 1
            message = (
                f'the define "{name}" writes a whole {kind.group(1)} on {api.group(1)}, removed in '
                f"{life.removed_in}: k8smigrate does not migrate a define's body (it is written wherever the "
                "define is included); move the object into a template, where it is migrated, or migrate the "
                "define by hand"
            )
            code = DEFINE_REMOVED_API
            out.setdefault(path, []).append(Finding(code.level, code.code, message, None, str(root / path), 0, line))
            for where, at in calls:
                if where != path or not start <= at < end:
                    found = f"{message} (the define is at {path}:{line})"
                    out.setdefault(where, []).append(
                        Finding(
                            code.level,
                            code.code,
                            found,
                            None,
                            str(root / where),
                            0,
                            texts[where].count("\n", 0, at) + 1,
                        )
                    )
    return out


def _calls(name: str, texts: Mapping[str, str]) -> list[tuple[str, int]]:
    """(template path, offset) of each ``include``/``template`` of the define ``name``."""
    call = regex(r"\b(?:include|template)\s+" + re.escape(f'"{name}"'))
    return [(path, m.start()) for path, text in sorted(texts.items()) for m in call.finditer(text)]
