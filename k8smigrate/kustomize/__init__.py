"""Kustomize trees: bases, overlays, components and patches migrated together.

A plain manifest can be migrated on its own; a kustomize tree cannot. A patch is a partial
object or a list of JSON operations that must keep matching the object it targets (same
group, version and kind, same field paths), and ``vars``, ``replacements`` and transformer
configurations name objects and fields too. This package reads a tree as a graph
(``graph``), migrates each patch through its targets (``partial``, with ``smp`` and
``pointer``), makes references follow (``references``, ``fieldpaths``, ``selectors``),
and holds back together whatever must move together (``run``). See docs/kustomize.md.
"""

from __future__ import annotations

from .codes import KUSTOMIZE as CODES

__all__ = ["CODES"]
