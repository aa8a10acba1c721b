"""Reading and writing manifest files safely: discovery, decoding, atomic in-place writes.

A file that cannot be decoded is reported, never guessed at; a file is written through a
temporary file in the same folder and a rename, keeps its mode, and is written only when
its text changed and its bytes on disk are still those that were read.

Symbolic links: a link given by name is followed, its target rewritten in place and the link
kept. When a folder is recursed, links to folders are never entered, a link to a file inside
the folder is skipped (its target is found under its own name), and a link to a file outside
the folder is reported and neither read nor written: a run never leaves the trees it was
given (give the target itself to migrate it). A folder that cannot be listed is reported.

A folder with a ``Chart.yaml`` found while recursing is a Helm chart: only its manifests
(``templates/``, ``crds/``), partials and ``values.yaml`` are listed (``templating.chart``),
never its CI values or ``Chart.yaml``. Jinja2 templates of manifests (``*.yaml.j2``) are listed.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .templating.chart import CHART_FILE, manifest_files

SUFFIXES = (".yaml", ".yml", ".json", ".yaml.j2", ".yml.j2", ".json.j2")


class InputError(Exception):
    """A path that cannot be read as a manifest (binary, not UTF-8, unreadable, missing)."""


@dataclass(frozen=True)
class Skipped:
    """A path found while recursing that is reported instead of read (a link out, an unreadable folder)."""

    path: Path
    reason: str


@dataclass(frozen=True)
class Loaded:
    """A file's text with what is needed to write it back: its original bytes and line ending."""

    path: Path
    text: str
    raw: bytes


def iter_entries(paths: list[Path]) -> Iterator[Path | Skipped]:
    """Files given, and ``*.yaml``/``*.yml``/``*.json`` below given folders, sorted; what recursion
    refused to read comes as ``Skipped`` entries, in order.

    Links to folders are not recursed into; links to files are followed only when given by
    name, so a run never leaves the trees it was given (module docstring).
    """
    for path in paths:
        if not path.is_dir():
            yield path
            continue
        yield from sorted(_walk(path), key=lambda e: e.path if isinstance(e, Skipped) else e)


def _walk(path: Path) -> list[Path | Skipped]:
    found: list[Path | Skipped] = []
    root = path.resolve()

    def unlistable(exc: OSError) -> None:
        where = Path(exc.filename) if exc.filename else path
        found.append(Skipped(where, f"cannot read folder: {exc.strerror or exc}"))

    for folder, dirs, files in os.walk(path, onerror=unlistable, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if CHART_FILE in files:  # a Helm chart: its manifests only, not values or CI files
            dirs[:] = []
            found += [e for f in manifest_files(Path(folder)) if (e := _entry(f, root)) is not None]
            continue
        for name in files:
            if name.endswith(SUFFIXES):
                entry = _entry(Path(folder, name), root)
                if entry is not None:
                    found.append(entry)
    return found


def _entry(file: Path, root: Path) -> Path | Skipped | None:
    """A file found below ``root``: itself, None for a link into the tree, Skipped for a link out of it."""
    if not file.is_symlink():
        return file
    target = file.resolve()
    if not target.exists():
        return file  # a dangling link: reading it reports the missing target
    if target.is_relative_to(root):
        return None
    return Skipped(file, f"symbolic link to {target}, outside {root}; not followed (give the target to migrate it)")


def read_manifest(path: Path) -> Loaded:
    """Read a file as UTF-8 text; binary and undecodable files raise ``InputError``."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from exc
    return Loaded(path, decode(raw), raw)


def decode(raw: bytes) -> str:
    """UTF-8 text of ``raw`` (BOM kept as U+FEFF), or ``InputError`` naming the byte and line."""
    if b"\0" in raw[:8192]:
        raise InputError("binary file (NUL byte); not a manifest")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(f"line {line}: not UTF-8 (byte 0x{raw[exc.start]:02x})") from exc


def write_atomic(loaded: Loaded, text: str) -> bool:
    """Replace the file's contents with ``text`` atomically; False when nothing needed writing.

    The file is re-read first: if it changed since it was read, nothing is written and
    ``InputError`` is raised.
    """
    if text == loaded.text:
        return False
    target = loaded.path.resolve()
    try:
        current = target.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot re-read before writing: {exc.strerror or exc}") from exc
    if current != loaded.raw:
        raise InputError("file changed while it was being migrated; not written")
    mode = stat.S_IMODE(target.stat().st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".k8smigrate", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return True
