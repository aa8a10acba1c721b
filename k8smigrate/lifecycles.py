"""When each API version of each kind was deprecated and removed: the one source of truth.

Read from ``data/removals.tsv`` (one row per ``(apiVersion, kind)``: deprecated and removed
releases, the replacement, the component whose release gates it). Everything that speaks of
an API's lifecycle reads it from here through the registry: ``scan``, the engine's removal
findings and window gating, and what ``list``, ``explain`` and the generated docs say of a
version step (a step declares only ``kinds``, ``from_api → to_api`` and the release that
first serves ``to_api``). APIs that no step migrates (PodSecurityPolicy…) have rows too; an
add-on (cert-manager, Gateway API…) adds rows with its own ``component``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .packagedata import data_text
from .versions import KubeVersion, parse_optional


@dataclass(frozen=True)
class ApiLifecycle:
    """When an (apiVersion, kind) was deprecated and removed, and what replaces it."""

    api_version: str
    kind: str
    deprecated_in: KubeVersion | None
    removed_in: KubeVersion | None
    replacement: str | None
    component: str = "kubernetes"
    """Whose releases these are: ``kubernetes``, ``kubeadm``, ``kube-scheduler`` or an add-on's name."""


Lifecycles = dict[tuple[str, str], ApiLifecycle]
"""Lifecycles keyed on ``(apiVersion, kind)``."""


def parse_table(text: str) -> Lifecycles:
    """The rows of a removal table in the ``removals.tsv`` format."""
    table: Lifecycles = {}
    for row in _rows(text):
        group = row["group"].strip()
        version = row["old_version"].strip()
        api = version if group in ("", "core") else f"{group}/{version}"
        kind = row["kind"].strip()
        replacement = row["new_apiVersion"].strip()
        table[(api, kind)] = ApiLifecycle(
            api,
            kind,
            parse_optional(row["deprecated_in"]),
            parse_optional(row["removed_in"]),
            None if replacement in ("", "-") else replacement,
            (row.get("component") or "").strip() or "kubernetes",
        )
    return table


def _rows(text: str) -> Iterator[dict[str, str]]:
    """The rows of a tab-separated table with a header line, as dicts (blank lines skipped).

    The table quotes nothing, so splitting on tabs reads what ``csv.DictReader`` reads (a test
    compares them) without importing csv at every start."""
    lines = text.splitlines()
    header = lines[0].split("\t") if lines else []
    for line in lines[1:]:
        if line:
            yield dict(zip(header, line.split("\t"), strict=False))


def builtin() -> Lifecycles:
    """The table shipped with k8smigrate (``data/removals.tsv``), read once."""
    global _BUILTIN
    if _BUILTIN is None:
        _BUILTIN = parse_table(data_text("removals.tsv"))
    return _BUILTIN


_BUILTIN: Lifecycles | None = None


def lookup(table: Lifecycles, api_version: str, kind: str) -> ApiLifecycle | None:
    """The row of ``(api_version, kind)``, or of ``(api_version, "*")``: a whole group version that
    went away at once (Istio's Mixer kinds of ``config.istio.io/v1alpha2``)."""
    found = table.get((api_version, kind))
    if found is None:
        every = table.get((api_version, "*"))
        if every is not None:
            return ApiLifecycle(
                api_version, kind, every.deprecated_in, every.removed_in, every.replacement, every.component
            )
    return found
