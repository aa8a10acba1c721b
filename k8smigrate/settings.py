"""Run settings: what the CLI options, config files and library keywords all become.

Settings may come from ``[tool.k8smigrate]`` in ``pyproject.toml`` or from a
``.k8smigrate.toml`` (searched upwards from the working directory); explicit options win.

Every value is checked for its type once, here, whichever way it came (``Settings`` checks
itself when it is made; a config file is checked key by key with its own spelling), with the
same messages: a release is a string (TOML reads an unquoted ``1.30`` as the number 1.3),
``only``/``skip`` are a name or a list of names, the two switches are booleans (the string
``"false"`` is not false), decisions are a table of strings. What the names mean (a known
migration, a declared decision) is the registry's check (``registry.check_settings``).

Config discovery: the nearest folder holding ``.k8smigrate.toml``, or a ``pyproject.toml``
with a ``[tool.k8smigrate]`` table, wins. A ``.k8smigrate.toml`` that cannot be read is
always an error. A ``pyproject.toml`` that cannot be read (not UTF-8, not TOML) is an error
only when its text names ``tool.k8smigrate`` (it is meant for us); otherwise it belongs to
another tool and is skipped. ruff and black stop with an error on any unreadable
``pyproject.toml`` on their way up, because it might hold their table; one that does not
mention ours cannot.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import field, fields
from functools import cached_property
from pathlib import Path

from .components import ComponentError, Windows, parse_release
from .dataclasscode import dataclass
from .regexcode import regex
from .runtime_typing import Any, NoReturn
from .versions import KubeVersion, Window


class SettingsError(ValueError):
    """A setting with a value the tool cannot use (exit code 2 on the CLI)."""


@dataclass(frozen=True)
class Spelling:
    """How the user wrote a setting, so that a message quotes it back the same way."""

    toml: bool
    source: str | None = None
    """The config file, named at the start of every message about it."""
    text: str = ""
    """The config file's text: a message quotes what was written (``1.30``, not 1.3)."""

    def key(self, name: str) -> str:
        return name.replace("_", "-") if self.toml else name

    def assign(self, name: str, shown: str) -> str:
        return f"{self.key(name)} = {shown}" if self.toml else f"{self.key(name)}={shown}"

    def string(self, value: str) -> str:
        return f'"{value}"' if self.toml else repr(value)

    def written(self, name: str, value: object) -> str:
        """The value as the user wrote it: the config text when it is known, else its repr."""
        if self.toml and self.text:
            m = re.search(rf"(?m)^[ \t]*{re.escape(self.key(name))}[ \t]*=[ \t]*([^\s#,\]]+)", self.text)
            if m:
                return m.group(1)
        if isinstance(value, bool):
            return ("true" if value else "false") if self.toml else repr(value)
        return repr(value)

    def error(self, message: str) -> SettingsError:
        return SettingsError(f"{self.source}: {message}" if self.source else message)


KEYWORDS = Spelling(toml=False)
"""Library keywords and ``Settings(...)``: ``target_version="1.30"``."""

_TYPE_NAMES = {
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a table",
}


def _kind(value: object, spell: Spelling) -> str:
    if spell.toml:
        return next((n for t, n in _TYPE_NAMES.items() if type(value) is t), type(value).__name__)
    return f"a {type(value).__name__}"


def release_value(name: str, value: object, spell: Spelling) -> str | None:
    """A release setting (``target_version``, ``min_version``) as a string; a number is refused."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, KubeVersion):
        return str(value)
    written = spell.written(name, value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        hint = f" (as a number, {written} is {value!r}: 1.30 would be 1.3)" if isinstance(value, float) else ""
        _raise(
            spell,
            f"{spell.assign(name, written)} is {_kind(value, spell)}{hint}; write the release as a string: "
            f"{spell.assign(name, spell.string(written))}",
        )
    _raise(
        spell,
        f"{spell.assign(name, written)} is {_kind(value, spell)}; write the release as a string such as "
        f"{spell.assign(name, spell.string('1.30'))}",
    )


def names_value(name: str, value: object, spell: Spelling) -> tuple[str, ...]:
    """``only``/``skip``: one migration name or a list of them, as a tuple (a string is one name)."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return value
    if isinstance(value, Iterable) and not isinstance(value, (bytes, bytearray, Mapping)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        if all(isinstance(v, str) for v in items):
            return tuple(items)
    example = spell.assign(name, '["ingress_networking_v1beta1"]' if spell.toml else "['ingress_networking_v1beta1']")
    _raise(
        spell,
        f"{spell.assign(name, spell.written(name, value))} is {_kind(value, spell)}; give a migration name or a "
        f"list of names (see 'k8smigrate list'), e.g. {example}",
    )


def switch_value(name: str, value: object, spell: Spelling) -> bool:
    """``adopt_new_defaults``/``strict``: a real boolean; the string ``"false"`` is not false."""
    if isinstance(value, bool):
        return value
    true, false = ("true", "false") if spell.toml else ("True", "False")
    _raise(
        spell,
        f"{spell.assign(name, spell.written(name, value))} is {_kind(value, spell)}; write "
        f"{spell.assign(name, true)} or {spell.assign(name, false)}" + (" (unquoted)" if spell.toml else ""),
    )


def decisions_value(value: object, spell: Spelling) -> dict[str, str]:
    """``decisions``: a table (a dict) of decision names to string values."""
    return _string_table("decisions", value, spell, "VALUE", "a decision's value")


def components_value(value: object, spell: Spelling) -> dict[str, str]:
    """``components``: a table (a dict) of add-on names to releases, each a string (``"1.14"``)."""
    return _string_table("components", value, spell, "X.Y", "a release")


def _string_table(name: str, value: object, spell: Spelling, placeholder: str, what: str) -> dict[str, str]:
    """A table of names to strings (``decisions``, ``components``), messages in the user's spelling."""
    if value is None:
        return {}
    where = f"[{name}]" if spell.toml else name
    if not isinstance(value, Mapping):
        _raise(spell, f'{where} must be a table of NAME = "{placeholder}"' if spell.toml else f"{name} must be a dict")
    out: dict[str, str] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not isinstance(item, str):
            shown = f"{key} = {spell.written(key, item)}" if spell.toml else f"{key!r}: {item!r}"
            _raise(
                spell,
                f"{where}: {shown} is {_kind(item, spell)}; {what} is a string, e.g. "
                + (f'{key} = "{item}"' if spell.toml else f"{{{key!r}: {str(item)!r}}}"),
            )
        out[key] = item
    return out


def _raise(spell: Spelling, message: str) -> NoReturn:
    raise spell.error(message)


@dataclass(frozen=True)
class Settings:
    """Everything that shapes one run; the engine reads nothing else.

    The values are checked for their types when the settings are made (``SettingsError``):
    ``Settings(target_version=1.3)`` is refused, ``only="name"`` is one name.
    """

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

    def __post_init__(self) -> None:
        spell = KEYWORDS
        values = {
            "target_version": release_value("target_version", self.target_version, spell),
            "min_version": release_value("min_version", self.min_version, spell),
            "decisions": decisions_value(self.decisions, spell),
            "only": names_value("only", self.only, spell),
            "skip": names_value("skip", self.skip, spell),
            "adopt_new_defaults": switch_value("adopt_new_defaults", self.adopt_new_defaults, spell),
            "strict": switch_value("strict", self.strict, spell),
            "raise_errors": switch_value("raise_errors", self.raise_errors, spell),
            "components": components_value(self.components, spell),
        }
        for name, value in values.items():
            if getattr(self, name) is not value:
                object.__setattr__(self, name, value)  # frozen: normalized once, here

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
_OURS = regex(r"tool\s*\.\s*[\"']?k8smigrate\b")


@dataclass(frozen=True)
class Config:
    """A config file with k8smigrate settings: where, its table, its text (quoted by messages)."""

    path: Path
    table: dict[str, Any]
    text: str

    def settings(self) -> dict[str, Any]:
        """Keyword arguments for ``Settings``, each value checked (messages name the file)."""
        return from_table(self.table, str(self.path), self.text)


def find_config(start: Path) -> Config | None:
    """The nearest config file with k8smigrate settings, searched from ``start`` up (see the module doc)."""
    for folder in (start, *start.parents):
        for name in CONFIG_FILES:
            path = folder / name
            if not path.is_file():
                continue
            ours = name == ".k8smigrate.toml"
            try:
                raw = path.read_bytes()
            except OSError as exc:
                if not ours:
                    continue  # another tool's file that we may not read
                raise SettingsError(f"{path}: cannot read it: {exc.strerror or exc}") from exc
            if not ours and b"k8smigrate" not in raw:
                continue  # another tool's file: without the name it holds no table of ours
            if sys.version_info >= (3, 11):
                import tomllib  # here: most runs find no config file and need no TOML parser
            else:  # pragma: no cover
                import tomli as tomllib
            try:
                text = raw.decode("utf-8")
                data = tomllib.loads(text)
            except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                if not ours and not _OURS.search(raw.decode("utf-8", "replace")):
                    continue  # no [tool.k8smigrate] in it: another tool's file, not ours to judge
                why = "not UTF-8 (a TOML file is UTF-8)" if isinstance(exc, UnicodeDecodeError) else str(exc)
                raise SettingsError(f"{path}: {why}") from exc
            tool = data.get("tool")
            table = data if ours else tool.get("k8smigrate") if isinstance(tool, dict) else None
            if table is None:
                continue
            if not isinstance(table, dict):
                raise SettingsError(f"{path}: tool.k8smigrate must be a table")
            return Config(path, table, text)
    return None


def from_table(table: dict[str, Any], source: str, text: str = "") -> dict[str, Any]:
    """Keyword arguments for ``Settings`` from a config table (``target-version = "1.22"``…).

    Each value is checked for its type; a message names ``source``, the key and how to write it.
    """
    spell = Spelling(toml=True, source=source, text=text)
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key == "decisions":
            out["decisions"] = decisions_value(value, spell)
            continue
        if key == "components":
            out["components"] = components_value(value, spell)
            continue
        name = _KEYS.get(key) or _KEYS.get(key.replace("_", "-"))
        if name is None or name == "raise_errors":
            raise spell.error(f"unknown setting {key!r}")
        if name in ("only", "skip"):
            out[name] = names_value(name, value, spell)
        elif name in ("target_version", "min_version"):
            out[name] = release_value(name, value, spell)
        else:
            out[name] = switch_value(name, value, spell)
    return out
