"""Kubernetes releases, and the window of releases a run targets.

``KubeVersion`` is a minor release (``1.22``); ``Window`` is ``[--min-version,
--target-version]``, the releases the manifests must run on. Which API each release serves
is the lifecycle table's business (``lifecycles``); the engine gates migrations with both.
"""

from __future__ import annotations

from functools import total_ordering

from .dataclasscode import dataclass
from .regexcode import regex

_VERSION_RE = regex(r"^v?(\d+)\.(\d+)(?:\.\d+)?$")


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
        found = _PARSED.get(text) if cls is KubeVersion and isinstance(text, str) else None
        if found is not None:
            return found
        m = _VERSION_RE.match(str(text).strip())
        if not m:
            raise ValueError(f"not a Kubernetes version: {text!r} (expected e.g. 1.22)")
        version = cls(int(m.group(1)), int(m.group(2)))
        if cls is KubeVersion and isinstance(text, str) and len(_PARSED) < 1024:
            _PARSED[text] = version
        return version

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, KubeVersion):
            return NotImplemented
        return (self.major, self.minor) < (other.major, other.minor)

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


_PARSED: dict[str, KubeVersion] = {}
"""Releases already parsed (they are immutable): the registry and the lifecycle table parse the same
few hundred times at each start."""

NEWEST_KNOWN = KubeVersion(1, 35)
"""The default ``--target-version``: the newest release whose removals the tool knows."""


def parse_optional(text: str) -> KubeVersion | None:
    """A release from a table cell, or None for ``-`` or an empty cell."""
    text = text.strip()
    return KubeVersion.parse(text) if _VERSION_RE.match(text) else None


@dataclass(frozen=True)
class Window:
    """The releases a manifest must run on: from ``min_version`` to ``target`` included."""

    min_version: KubeVersion
    target: KubeVersion

    @classmethod
    def of(cls, target: str | KubeVersion | None, min_version: str | KubeVersion | None) -> Window:
        # ``Settings.window`` asks several times per file: parse each pair of versions once
        key = (cls, target, min_version)
        known = _WINDOWS.get(key)
        if known is not None:
            return known
        t = KubeVersion.parse(target) if target is not None else NEWEST_KNOWN
        m = KubeVersion.parse(min_version) if min_version is not None else t
        if m > t:
            raise ValueError(f"--min-version {m} is newer than --target-version {t}")
        window = cls(m, t)
        if len(_WINDOWS) >= 64:
            _WINDOWS.clear()
        _WINDOWS[key] = window
        return window

    def serves(self, introduced: KubeVersion | None, removed: KubeVersion | None) -> bool:
        """True when an API introduced and removed at these releases is served across the window."""
        if introduced is not None and introduced > self.min_version:
            return False
        return removed is None or removed > self.target


_WINDOWS: dict[tuple[type[Window], str | KubeVersion | None, str | KubeVersion | None], Window] = {}
