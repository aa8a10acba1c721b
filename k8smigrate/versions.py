"""Kubernetes releases and which API versions each one serves.

The availability table is read from ``data/removals.tsv`` (every removed API with its
deprecated and removed releases) and completed with the ``available_in`` releases that
migrations declare for their target APIs. Only the engine asks these questions:
migrations never check versions themselves.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import total_ordering
from importlib import resources

_VERSION_RE = re.compile(r"^v?(\d+)\.(\d+)(?:\.\d+)?$")


@total_ordering
@dataclass(frozen=True)
class KubeVersion:
    """A Kubernetes minor release such as 1.22."""

    major: int
    minor: int

    @classmethod
    def parse(cls, text: str | KubeVersion) -> KubeVersion:
        if isinstance(text, KubeVersion):
            return text
        m = _VERSION_RE.match(str(text).strip())
        if not m:
            raise ValueError(f"not a Kubernetes version: {text!r} (expected e.g. 1.22)")
        return cls(int(m.group(1)), int(m.group(2)))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, KubeVersion):
            return NotImplemented
        return (self.major, self.minor) < (other.major, other.minor)

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


NEWEST_KNOWN = KubeVersion(1, 35)
"""The default ``--target-version``: the newest release whose removals the tool knows."""


@dataclass(frozen=True)
class ApiLifecycle:
    """When an (apiVersion, kind) was deprecated and removed, and what replaces it."""

    api_version: str
    kind: str
    deprecated_in: KubeVersion | None
    removed_in: KubeVersion | None
    replacement: str | None


def _opt_version(text: str) -> KubeVersion | None:
    text = text.strip()
    return KubeVersion.parse(text) if _VERSION_RE.match(text) else None


def load_lifecycles() -> dict[tuple[str, str], ApiLifecycle]:
    """The removal table, keyed on (apiVersion, kind)."""
    table: dict[tuple[str, str], ApiLifecycle] = {}
    source = resources.files("k8smigrate").joinpath("data/removals.tsv")
    with source.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            group = row["group"].strip()
            version = row["old_version"].strip()
            api = version if group in ("", "core") else f"{group}/{version}"
            replacement = row["new_apiVersion"].strip()
            table[(api, row["kind"].strip())] = ApiLifecycle(
                api,
                row["kind"].strip(),
                _opt_version(row["deprecated_in"]),
                _opt_version(row["removed_in"]),
                None if replacement in ("", "-") else replacement,
            )
    return table


LIFECYCLES = load_lifecycles()


def lifecycle(api_version: str, kind: str) -> ApiLifecycle | None:
    return LIFECYCLES.get((api_version, kind))


@dataclass(frozen=True)
class Window:
    """The releases a manifest must run on: from ``min_version`` to ``target`` included."""

    min_version: KubeVersion
    target: KubeVersion

    @classmethod
    def of(cls, target: str | KubeVersion | None, min_version: str | KubeVersion | None) -> Window:
        t = KubeVersion.parse(target) if target is not None else NEWEST_KNOWN
        m = KubeVersion.parse(min_version) if min_version is not None else t
        if m > t:
            raise ValueError(f"--min-version {m} is newer than --target-version {t}")
        return cls(m, t)

    def serves(self, introduced: KubeVersion | None, removed: KubeVersion | None) -> bool:
        """True when an API introduced and removed at these releases is served across the window."""
        if introduced is not None and introduced > self.min_version:
            return False
        return removed is None or removed > self.target
