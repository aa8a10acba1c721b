"""k8smigrate: rewrite Kubernetes manifests off deprecated and removed API versions.

The library is the product; the CLI is a thin layer over it::

    import k8smigrate
    result = k8smigrate.migrate_text(text, target_version="1.22")
    result.text        # the new text; every byte that did not have to change is kept
    result.changed     # whether anything changed
    result.findings    # Finding(level, code, migration, filename, document, line, path, message)
    result.documents   # per document: .index, .applied, .patch (RFC 6902), .summary
    result.diff        # unified diff ("" when unchanged)

``migrate_text`` never raises on bad input: parse errors, templates and missing decisions
come back as findings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .api import (
    FileOutcome,
    migrate_file,
    migrate_paths,
    migrate_text,
    scan_file,
    scan_text,
)
from .codes import Code
from .decisions import Decision
from .files import WritePolicy
from .model import Check, Migration, Step
from .registry import default_registry
from .results import DocumentResult, FileResult, Finding
from .settings import Settings
from .versions import NEWEST_KNOWN, KubeVersion

if TYPE_CHECKING:
    from .scan import ScanEntry


def __getattr__(name: str) -> Any:
    """``ScanEntry`` is imported on first use: ``apply`` and ``diff`` never load the scan module."""
    if name == "ScanEntry":
        from .scan import ScanEntry

        return ScanEntry
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__version__ = "0.1.0"

__all__ = [
    "NEWEST_KNOWN",
    "Check",
    "Code",
    "Decision",
    "DocumentResult",
    "FileOutcome",
    "FileResult",
    "Finding",
    "KubeVersion",
    "Migration",
    "ScanEntry",
    "Settings",
    "Step",
    "WritePolicy",
    "__version__",
    "default_registry",
    "migrate_file",
    "migrate_paths",
    "migrate_text",
    "scan_file",
    "scan_text",
]
