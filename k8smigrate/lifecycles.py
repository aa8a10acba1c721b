"""When each API version of each kind was deprecated and removed: the one source of truth.

Read from ``data/removals.tsv`` (one row per ``(apiVersion, kind)``: deprecated and removed
releases, the replacement, the component whose release gates it). Everything that speaks of
an API's lifecycle reads it from here through the registry: ``scan``, the engine's removal
findings and window gating, and what ``list``, ``explain`` and the generated docs say of a
version step (a step declares only ``kinds``, ``from_api → to_api`` and the release that
first serves ``to_api``). APIs that no step migrates (PodSecurityPolicy…) have rows too; an
add-on (cert-manager, Gateway API…) adds rows with its own ``component``.

Parsing the table's text (splitting ~240 rows, parsing ~470 release cells, building a frozen
dataclass field by field for each row) cost about 2 % of a one-file run at every start, for
data that changes only with a release. So the rows are also written out as Python literals in
``k8smigrate/lifecycles_index.py``, generated with the migrations' index:

    python -m k8smigrate.indexgen --write     # after changing data/removals.tsv

That module records the CRC-32 of the text it was made from; a run reads it only while
``data/removals.tsv`` still has that checksum, and parses the text otherwise (a checkout whose
table was edited and not regenerated): a stale module costs time, never correctness.
``tests/test_lifecycles.py`` fails when it is stale and compares both readings row by row.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from .dataclasscode import dataclass, made_rows
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
    global _BUILTIN, _BUILTIN_GENERATED
    if _BUILTIN is None:
        text = data_text("removals.tsv")
        found = generated(text)
        _BUILTIN = parse_table(text) if found is None else found
        _BUILTIN_GENERATED = found is not None
    return _BUILTIN


def builtin_is_generated() -> bool:
    """Whether ``builtin()`` is the generated table (``lifecycles_index`` was current), not a parsed one."""
    builtin()
    return _BUILTIN_GENERATED


_BUILTIN: Lifecycles | None = None
_BUILTIN_GENERATED = False

Row = tuple[str, str, str | None, str | None, str | None, str]
"""A row of ``lifecycles_index.ROWS``: an ``ApiLifecycle``'s fields, releases as text."""


def checksum(text: str) -> int:
    """What ``lifecycles_index.SOURCE_CRC32`` records of the table's text."""
    return zlib.crc32(text.encode("utf-8"))


def rows(table: Lifecycles) -> list[Row]:
    """The rows ``lifecycles_index`` holds for ``table`` (the generator writes them)."""
    return [
        (
            life.api_version,
            life.kind,
            None if life.deprecated_in is None else str(life.deprecated_in),
            None if life.removed_in is None else str(life.removed_in),
            life.replacement,
            life.component,
        )
        for life in table.values()
    ]


def generated(text: str) -> Lifecycles | None:
    """The table from ``lifecycles_index`` when it was generated from ``text``; else None."""
    try:
        from .lifecycles_index import ROWS, SOURCE_CRC32
    except ImportError:
        return None
    if checksum(text) != SOURCE_CRC32:
        return None
    release: dict[str | None, KubeVersion | None] = {None: None}
    for row in ROWS:
        for cell in row[2:4]:
            if cell not in release:
                release[cell] = KubeVersion.parse(cell)  # type: ignore[arg-type]
    lives = made_rows(  # ApiLifecycle's __init__ sets each field through object.__setattr__: a third of the cost
        ApiLifecycle,
        tuple((api, kind, release[old], release[gone], *rest) for api, kind, old, gone, *rest in ROWS),
    )
    return {(life.api_version, life.kind): life for life in lives}


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
