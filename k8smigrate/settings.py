"""Run settings: what the CLI options, config files and library keywords all become.

Settings may come from ``[tool.k8smigrate]`` in ``pyproject.toml`` or from a
``.k8smigrate.toml`` (searched upwards from the working directory); explicit options win.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from .components import ComponentError, Windows, parse_release
from .versions import Window

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class SettingsError(ValueError):
    """A setting with a value the tool cannot use (exit code 2 on the CLI)."""


@dataclass(frozen=True)
class Settings:
    """Everything that shapes one run; the engine reads nothing else."""

    target_version: str | None = None
    min_version: str | None = None
    decisions: dict[str, str] = field(default_factory=dict)
    only: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    adopt_new_defaults: bool = False
    strict: bool = False
    raise_errors: bool = False
    components: dict[str, str] = field(default_factory=dict)
    """The release of each add-on the manifests must run on (``--component cert-manager=1.14``)."""

    @property
    def window(self) -> Window:
        """The Kubernetes window (``--min-version`` … ``--target-version``)."""
        try:
            return Window.of(self.target_version, self.min_version)
        except ValueError as exc:
            raise SettingsError(str(exc)) from exc

    @cached_property
    def windows(self) -> Windows:
        """The window of every component: Kubernetes', and each add-on's release (given or assumed)."""
        try:
            given = tuple(sorted((name, parse_release(name, v)) for name, v in self.components.items()))
        except ComponentError as exc:
            raise SettingsError(str(exc)) from exc
        return Windows(self.window, given)

    def enabled(self, name: str, opt_in: bool = False) -> bool:
        """Whether a migration runs; an opt-in one only when it is named in ``only``."""
        if (self.only or opt_in) and name not in self.only:
            return False
        return name not in self.skip


CONFIG_FILES = (".k8smigrate.toml", "pyproject.toml")
_KEYS = {f.name.replace("_", "-"): f.name for f in fields(Settings)}


def find_config(start: Path) -> tuple[Path, dict[str, Any]] | None:
    """The nearest config file with k8smigrate settings, and those settings."""
    for folder in (start, *start.parents):
        for name in CONFIG_FILES:
            path = folder / name
            if not path.is_file():
                continue
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise SettingsError(f"{path}: {exc}") from exc
            table = data.get("tool", {}).get("k8smigrate") if name == "pyproject.toml" else data
            if table is None and name == ".k8smigrate.toml":
                table = {}
            if table is not None:
                return path, table
    return None


def from_table(table: dict[str, Any], source: str) -> dict[str, Any]:
    """Keyword arguments for ``Settings`` from a config table (``target-version = "1.22"``…)."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key in ("decisions", "components"):
            if not isinstance(value, dict):
                raise SettingsError(f'{source}: {key} must be a table ({key} = {{name = "value"}})')
            out[key] = {str(k): str(v) for k, v in value.items()}
            continue
        name = _KEYS.get(key) or _KEYS.get(key.replace("_", "-"))
        if name is None or name == "raise_errors":
            raise SettingsError(f"{source}: unknown setting {key!r}")
        if name in ("only", "skip"):
            value = tuple([value] if isinstance(value, str) else value)
        elif name in ("target_version", "min_version"):
            value = str(value)
        out[name] = value
    return out
