"""What a run reads, by name and by size: the names of manifest files, the largest file, the
deepest folder searched, the file that makes a folder a Helm chart.

Shared by ``files``, which walks folders and reads files, and ``prefetch``, which reads them
ahead on another core and is started before ``files`` (and what it imports) is loaded.
"""

from __future__ import annotations

SUFFIXES = (".yaml", ".yml", ".json", ".yaml.j2", ".yml.j2", ".json.j2")
"""The names of the files read below a folder (a file given by name is read whatever its name)."""

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest file (or stdin) read: 64 MiB, far above any real manifest bundle."""

MAX_DEPTH = 256
"""Folders nested deeper than this below a given folder are reported, not searched."""

CHART_FILE = "Chart.yaml"
"""A folder holding one is a Helm chart: its templates are read as a chart, not as plain manifests."""
