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

import importlib
import os
import sys

TYPE_CHECKING = False  # the package imports nothing at all (not even runtime_typing): its names come on first use
if TYPE_CHECKING:
    from typing import Any

    from .api import FileOutcome, migrate_file, migrate_paths, migrate_text, scan_file, scan_text
    from .codes import Code
    from .decisions import Decision
    from .files import WritePolicy
    from .model import Check, Migration, Step
    from .registry import default_registry
    from .results import DocumentResult, FileResult, Finding
    from .scan import ScanEntry
    from .settings import Settings
    from .versions import NEWEST_KNOWN, KubeVersion

_HOMES = {
    "FileOutcome": "api",
    "migrate_file": "api",
    "migrate_paths": "api",
    "migrate_text": "api",
    "scan_file": "api",
    "scan_text": "api",
    "Code": "codes",
    "Decision": "decisions",
    "WritePolicy": "files",
    "Check": "model",
    "Migration": "model",
    "Step": "model",
    "default_registry": "registry",
    "DocumentResult": "results",
    "FileResult": "results",
    "Finding": "results",
    "ScanEntry": "scan",
    "Settings": "settings",
    "NEWEST_KNOWN": "versions",
    "KubeVersion": "versions",
}
"""Where each public name lives. They are imported on first use (PEP 562), so importing a
submodule (``k8smigrate.console``, a worker's) does not import the whole library first, and
``apply`` never loads the scan module."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


class _SourceTreeMigrations:
    """Finds ``k8smigrate.migrations`` in a source checkout that is not what is installed.

    An install maps the repository's top-level ``migrations/`` folder under the package
    (``package-dir``). ``python -m k8smigrate`` run in the repository's folder imports the
    package from there instead, where nothing maps it, and failed with an internal error.
    Consulted last: an install's own import machinery answers first.
    """

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def find_spec(self, name: str, path: object = None, target: object = None) -> Any:
        if name != "k8smigrate.migrations":
            return None
        import importlib.util

        init = os.path.join(self.folder, "__init__.py")
        return importlib.util.spec_from_file_location(name, init, submodule_search_locations=[self.folder])


def _find_source_tree_migrations() -> None:
    here = os.path.dirname(__file__)
    if os.path.isdir(os.path.join(here, "migrations")):
        return  # installed: the package has it
    folder = os.path.join(os.path.dirname(here), "migrations")
    if os.path.isfile(os.path.join(folder, "__init__.py")):
        sys.meta_path.append(_SourceTreeMigrations(folder))


_find_source_tree_migrations()

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
