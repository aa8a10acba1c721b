"""Reading and writing manifest files safely: discovery, decoding, atomic in-place writes.

A file that cannot be decoded is reported, never guessed at; a file is written through a
temporary file in the same folder and a rename, keeps its mode, owner and group (as far as
the process may set them), and is written only when its text changed and its bytes on disk
are still those that were read.

What is read: regular files, and a pipe given by name (``<(helm template …)``); never a
device, a socket or a pipe found in a folder (it could block or never end). At most
``MAX_FILE_BYTES`` are read from any file or from stdin; a larger one is an error naming it.

Symbolic links: a link given by name is followed, its target rewritten in place and the link
kept. When a folder is recursed, links to folders are never entered, a link to a file inside
the folder is skipped (its target is found under its own name), and a link to a file outside
the folder is reported and neither read nor written: a run never leaves the trees it was
given (give the target itself to migrate it). A link loop, a folder that cannot be listed and
a folder nested more than ``MAX_DEPTH`` levels deep are reported; the walk goes on.

What is not written (each an error for that file, which is left unchanged): a file with more
than one hard link (the rename would give this path a new file and leave the other names on
the old one) unless ``WritePolicy.break_hardlinks``; a read-only file (no write permission for
this process, or no ``w`` bit at all, which also stops root) unless
``WritePolicy.force_readonly``; anything but a regular file.

Temporary files are named ``.NAME.PID.XXXXXXXX.k8smigrate``. One that a killed run left
behind is removed by the next writing run that searches its folder (``iter_entries`` with
``sweep``): only names of that form, only regular files, and only when the process that made
it is gone or it is older than ``STALE_AFTER`` seconds.

A folder with a ``Chart.yaml`` found while recursing is a Helm chart: only its manifests
(``templates/``, ``crds/``), partials and ``values.yaml`` are listed (``templating.chart``),
never its CI values or ``Chart.yaml``. Jinja2 templates of manifests (``*.yaml.j2``) are listed.
"""

from __future__ import annotations

import contextvars
import errno
import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path

from .dataclasscode import dataclass
from .interrupt import critical
from .prefetch import checked, take
from .prefetch import drop as drop_prefetched
from .prefetch import size as prefetched_size
from .quoting import quote_path
from .readlimits import CHART_FILE
from .readlimits import MAX_DEPTH as MAX_DEPTH
from .readlimits import MAX_FILE_BYTES as _LIMIT
from .readlimits import SUFFIXES as SUFFIXES
from .regexcode import regex
from .runtime_typing import BinaryIO
from .templating.chart import manifest_files

MAX_FILE_BYTES = _LIMIT
"""The largest file (or stdin) read (``readlimits``; tests lower it here)."""

TEMP_SUFFIX = ".k8smigrate"
STALE_AFTER = 3600.0
"""A temporary file of ours this old is stale even if a process with its PID is running."""

_TEMP_NAME = regex(r"\.(?P<name>.+?)\.(?:(?P<pid>[0-9]+)\.)?[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))


class InputError(Exception):
    """A path that cannot be read as a manifest (binary, not UTF-8, unreadable, missing), or written."""


@dataclass(frozen=True)
class Skipped:
    """A path found while recursing that is reported instead of read (a link out, an unreadable folder)."""

    path: Path
    reason: str


@dataclass(frozen=True)
class Swept:
    """A stale temporary file of an interrupted run, removed while searching its folder."""

    path: Path


Entry = Path | Skipped | Swept

Found = str | Skipped | Swept
"""What ``found_files`` lists: a file as the text of its path (``str(Path(...))`` of it)."""


class Loaded:
    """A file's text with what is needed to write it back: its original bytes and line ending.

    ``path`` is made a ``Path`` when first asked: a run's first pass reads every file ahead by
    the text of its path and never asks (a ``Path`` per file was a sixth of that pass).
    """

    __slots__ = ("_path", "raw", "text")

    def __init__(self, path: Path | str, text: str, raw: bytes) -> None:
        self._path = path
        self.text = text
        self.raw = raw

    @property
    def path(self) -> Path:
        path = self._path
        if not isinstance(path, Path):
            path = self._path = Path(path)
        return path

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Loaded):
            return NotImplemented
        return (self.path, self.text, self.raw) == (other.path, other.text, other.raw)

    def __hash__(self) -> int:  # hashable by value, as the frozen dataclass it was
        return hash((self.path, self.text, self.raw))

    def __repr__(self) -> str:
        return f"Loaded(path={self.path!r}, text={self.text!r}, raw={self.raw!r})"


@dataclass(frozen=True)
class WritePolicy:
    """What an in-place write may do beyond replacing an ordinary file (module docstring)."""

    break_hardlinks: bool = False
    force_readonly: bool = False


@dataclass(frozen=True)
class Written:
    """Whether a file was written, and what could not be kept (its owner or group); truthy when written."""

    written: bool
    notes: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.written


# ------------------------------------------------------------------ finding files


def iter_entries(paths: list[Path], *, sweep: bool = False) -> Iterator[Entry]:
    """Files given, and ``*.yaml``/``*.yml``/``*.json`` below given folders, sorted; what recursion
    refused to read comes as ``Skipped`` entries, in order.

    Links to folders are not recursed into; links to files are followed only when given by
    name, so a run never leaves the trees it was given (module docstring). With ``sweep``
    (writing runs), stale temporary files of ours in the folders searched, and those of
    the files given by name, are removed and come as ``Swept`` entries.
    """
    return (Path(e) if isinstance(e, str) else e for e in found_files(paths, sweep=sweep))


def found_files(paths: list[Path], *, sweep: bool = False) -> Iterator[Found]:
    """``iter_entries`` with each file as the text of its path.

    A run holds the list of its files from start to end: a ``Path`` costs about three times
    the memory of its text (a list of its parts beside it), which made a scan's memory grow
    with the number of files. The text is what ``str`` of the ``Path`` gives, in the same order.
    """
    for path in paths:
        if not path.is_dir():
            if sweep:
                yield from _sweep_for(path)
            yield str(path)
            continue
        yield from sorted(_walk(path, sweep), key=_path_order)


def _path_order(entry: Found) -> str:
    """The order of ``Path`` objects (part by part), for path texts: each separator is a
    character that sorts before any other, so ``a/b`` comes before ``a-b/c`` as with ``Path``."""
    text = entry if isinstance(entry, str) else str(entry.path)
    if os.altsep:  # Windows: Path compares its parts case-insensitively, either separator
        text = text.replace(os.altsep, os.sep).lower()
    return text.replace(os.sep, "\0")


def _child(folder: str, name: str) -> str:
    """``str(Path(folder, name))`` for a folder text ``str`` of a ``Path`` gave, without the ``Path``."""
    return name if folder == "." else os.path.join(folder, name)


def _walk(path: Path, sweep: bool) -> list[Found]:
    """Iterative (no recursion limit); dot-folders and links to folders are not entered."""
    found: list[Found] = []
    root = path.resolve()
    stack = [(str(path), 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as listing:
                children = list(listing)
        except OSError as exc:
            found.append(Skipped(Path(folder), f"cannot read folder: {exc.strerror or exc}"))
            continue
        if any(c.name == CHART_FILE and not c.is_dir() for c in children):
            # a Helm chart: its manifests, partials and values.yaml only, never its CI values or Chart.yaml
            found += [e for f in manifest_files(Path(folder)) if (e := _entry(str(f), None, root)) is not None]
            continue
        for child in children:
            file = _child(folder, child.name)
            if _is_dir(child):
                if child.is_symlink() or child.name.startswith("."):
                    continue
                if depth >= MAX_DEPTH:
                    found.append(Skipped(Path(file), f"folder nested more than {MAX_DEPTH} levels deep; not searched"))
                else:
                    stack.append((file, depth + 1))
            elif child.name.endswith(SUFFIXES):
                entry = _entry(file, child, root)
                if entry is not None:
                    found.append(entry)
            elif sweep and child.name.endswith(TEMP_SUFFIX) and _sweep(Path(file)):
                found.append(Swept(Path(file)))
    return found


def _is_dir(child: os.DirEntry[str]) -> bool:
    try:
        return child.is_dir()  # follows links, like os.walk: a link to a folder is listed, then not entered
    except OSError:
        return False


def _entry(file: str, child: os.DirEntry[str] | None, root: Path) -> Found | None:
    """A file found below ``root``: itself, None for a link into the tree, Skipped for a link out of
    it, a loop, or anything but a regular file (``child``: its listing entry, when listed here)."""
    if not (child.is_symlink() if child is not None else os.path.islink(file)):
        try:
            if child is not None and child.is_file(follow_symlinks=False):
                return file  # known from the listing (no ``stat`` per file where the system says what each entry is)
            mode = child.stat(follow_symlinks=False).st_mode if child is not None else os.lstat(file).st_mode
            kind = _kind(mode)
        except OSError:
            return file  # gone meanwhile: reading it says so
        return file if kind is None else Skipped(Path(file), f"not a regular file ({kind}); not read")
    try:
        target = Path(os.path.realpath(file, strict=True))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Skipped(Path(file), "symbolic link loop; not read")
        return file  # a dangling link: reading it reports the missing target
    if target.is_relative_to(root):
        return None
    where = f"symbolic link to {quote_path(str(target))}, outside {quote_path(str(root))}"
    return Skipped(Path(file), f"{where}; not followed (give the target to migrate it)")


def _kind(mode: int) -> str | None:
    """None for a regular file, else what it is."""
    if stat.S_ISREG(mode):
        return None
    kinds = {
        stat.S_ISFIFO: "a named pipe",
        stat.S_ISCHR: "a character device",
        stat.S_ISBLK: "a block device",
        stat.S_ISSOCK: "a socket",
        stat.S_ISDIR: "a folder",
    }
    return next((name for test, name in kinds.items() if test(mode)), "not a file")


# ------------------------------------------------------------------ stale temporary files


def _sweep_for(file: Path) -> Iterator[Swept]:
    """The stale temporary files of one file given by name (not the rest of its folder)."""
    try:
        with os.scandir(file.parent) as listing:
            names = [c.name for c in listing if c.name.startswith(f".{file.name}.") and c.name.endswith(TEMP_SUFFIX)]
    except OSError:
        return
    for name in sorted(names):
        match = _TEMP_NAME.fullmatch(name)
        if match is not None and match["name"] == file.name and _sweep(file.parent / name):
            yield Swept(file.parent / name)


def _sweep(path: Path) -> bool:
    """Remove ``path`` if it is a stale temporary file of ours; whether it was removed."""
    match = _TEMP_NAME.fullmatch(path.name)
    if match is None or str(path) in _live_temps:
        return False
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return False
        pid = int(match["pid"]) if match["pid"] else 0
        if time.time() - st.st_mtime < STALE_AFTER and (pid <= 0 or _alive(pid)):
            return False
        os.unlink(path)
    except OSError:
        return False
    return True


def _alive(pid: int) -> bool:
    """Whether process ``pid`` may still be writing (this process is not: it has written nothing yet)."""
    if pid == os.getpid():
        return False
    if os.name != "posix":
        return True  # no safe way to ask: the age alone decides
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # someone else's process, or not a PID we can ask about
    return True


# ------------------------------------------------------------------ reading


_OPEN = os.O_RDONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
_OPEN_REGULAR = _OPEN | getattr(os, "O_NONBLOCK", 0)
"""Flags of ``read_manifest``'s open (a failed ``getattr`` per file cost as much as the read)."""

_read_ahead: dict[str, Loaded] = {}
"""Files a run's first pass read (the facts of the checks that join files), each kept for the one
read of its second pass; what no second read takes is forgotten when the run ends."""


def read_manifest(path: Path | str) -> Loaded:
    """Read a file as UTF-8 text; binary, undecodable, oversized and special files raise ``InputError``.

    A file ``read_ahead`` kept is not read again: it is the text the run's first pass saw (an
    in-place write still re-reads the file first, and writes nothing when it changed since).
    """
    text_path = os.fspath(path)
    kept = _read_ahead.pop(text_path, None)
    if kept is not None:
        if isinstance(path, Path):
            kept._path = path  # the caller's, not another made from the text of it
        return kept
    prefetched = take(text_path)
    if prefetched is not None:  # read on another core while the library loaded (``prefetch``)
        if len(prefetched[0]) > MAX_FILE_BYTES:
            raise InputError(_too_large(len(prefetched[0])))
        loaded = Loaded(path, decode(prefetched[0]), prefetched[0])
        checked(loaded.text, *prefetched)
        return loaded
    try:
        kind = _kind(os.stat(path).st_mode)
        if kind not in (None, "a named pipe"):
            raise InputError(f"not a regular file ({kind}); not read")
        # should a regular file have become a pipe meanwhile, opening it must not wait for a writer
        flags = _OPEN_REGULAR if kind is None else _OPEN
        fd = os.open(path, flags)  # a pipe given by name waits for its writer, as ``cat`` does
    except OSError as exc:
        raise InputError(_cannot("read", exc)) from exc
    try:
        st = os.fstat(fd)
        raw = None
        if stat.S_ISFIFO(st.st_mode):
            os.set_blocking(fd, True)
        elif not stat.S_ISREG(st.st_mode):
            raise InputError(f"not a regular file ({_kind(st.st_mode)}); not read")
        elif st.st_size > MAX_FILE_BYTES:
            raise InputError(_too_large(st.st_size))
        else:
            raw = _read_whole(fd, st.st_size)
        if raw is None:
            with os.fdopen(fd, "rb", closefd=False) as fh:
                raw = read_limited(fh, st.st_size if stat.S_ISREG(st.st_mode) else None)
    except OSError as exc:
        raise InputError(_cannot("read", exc)) from exc
    finally:
        os.close(fd)
    return Loaded(path, decode(raw), raw)


def _read_whole(fd: int, size: int) -> bytes | None:
    """The ``size`` bytes of a regular file, read without a buffered file object (most files a
    run reads are a few KB: the object cost more than the read); None if it grew meanwhile."""
    raw = b""
    while len(raw) <= size:
        wanted = size + 1 - len(raw)
        chunk = os.read(fd, wanted)
        if len(chunk) < wanted:  # a regular file's read returns less only at its end
            return raw + chunk
        raw += chunk
    os.lseek(fd, 0, os.SEEK_SET)
    return None  # larger than ``stat`` said: read it again with the limit


def read_ahead(path: Path | str) -> Loaded:
    """``read_manifest``, the result kept for the next read of ``path`` (see ``_read_ahead``)."""
    loaded = read_manifest(path)
    _read_ahead[os.fspath(path)] = loaded
    return loaded


def kept_ahead() -> list[Loaded]:
    """What ``read_ahead`` keeps now, in the order it was read."""
    return list(_read_ahead.values())


def kept_count() -> int:
    """How many files ``read_ahead`` keeps now."""
    return len(_read_ahead)


def kept_size(path: Path | str) -> int | None:
    """The size of the bytes ``read_ahead`` (or the prefetch) keeps for ``path``; None when neither does."""
    text_path = os.fspath(path)
    kept = _read_ahead.get(text_path)
    return prefetched_size(text_path) if kept is None else len(kept.raw)


def forget_read_ahead(prefetched: bool = True) -> None:
    """Drop what ``read_ahead`` kept and no read took (a run ends, or a new one starts), and what
    ``prefetch`` read (unless ``prefetched`` is False: a run starts that the prefetch is for)."""
    _read_ahead.clear()
    if prefetched:
        drop_prefetched()


def read_limited(stream: BinaryIO, expected: int | None = None) -> bytes:
    """All of ``stream`` (a file, a pipe, stdin), or ``InputError`` past ``MAX_FILE_BYTES``.

    ``expected``: the size ``stat`` gave. ``read(n)`` allocates ``n`` bytes before reading, so
    asking for the whole limit costs a 64 MiB allocation per file; a file that grew since
    ``stat`` is read on up to the limit.
    """
    raw = b""
    if expected is not None and expected < MAX_FILE_BYTES:
        raw = stream.read(expected + 1)
        if len(raw) <= expected:
            return raw  # end of file: ``read(n)`` of a file returns less than ``n`` only there
    raw += stream.read(MAX_FILE_BYTES + 1 - len(raw))
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(_too_large(None))
    return raw


def _too_large(size: int | None) -> str:
    have = f"{size / 2**20:.1f} MiB, " if size is not None else ""
    limit = f"{MAX_FILE_BYTES // 2**20} MiB" if MAX_FILE_BYTES % 2**20 == 0 else f"{MAX_FILE_BYTES} bytes"
    return f"too large ({have}over the limit of {limit}); not read"


def _cannot(verb: str, exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symbolic link loop; not read"
    return f"cannot {verb}: {exc.strerror or exc}"


def decode(raw: bytes) -> str:
    """UTF-8 text of ``raw`` (BOM kept as U+FEFF), or ``InputError`` naming the byte and line."""
    if raw.find(b"\0", 0, 8192) >= 0:
        raise InputError("binary file (NUL byte); not a manifest")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(f"line {line}: not UTF-8 (byte 0x{raw[exc.start]:02x})") from exc


# ------------------------------------------------------------------ writing

_live_temps: set[str] = set()
"""Temporary files this process is writing now (removed by ``remove_live_temps`` on a signal)."""

_on_written: contextvars.ContextVar[Callable[[Path], None] | None] = contextvars.ContextVar(
    "k8smigrate_on_written", default=None
)


def recording(callback: Callable[[Path], None] | None) -> _Recording:
    """Call ``callback(path)`` for each file written inside, in the same step as its rename."""
    return _Recording(callback)


class _Recording:
    """``recording``'s context: a class, not a generator (a run enters one per file)."""

    __slots__ = ("_callback", "_token")

    def __init__(self, callback: Callable[[Path], None] | None) -> None:
        self._callback = callback

    def __enter__(self) -> None:
        self._token = _on_written.set(self._callback)

    def __exit__(self, *_exc: object) -> None:
        _on_written.reset(self._token)


def remove_live_temps() -> None:
    """Remove the temporary files being written (a worker told to stop calls this before exiting)."""
    for tmp in list(_live_temps):
        with suppress(OSError):
            os.unlink(tmp)
        _live_temps.discard(tmp)


def write_atomic(loaded: Loaded, text: str, policy: WritePolicy | None = None) -> Written:
    """Replace the file's contents with ``text`` atomically; falsy when nothing needed writing.

    The file is re-read first: if it changed since it was read, nothing is written and
    ``InputError`` is raised; so it is for a hard-linked or read-only file (``policy``).
    """
    policy = policy or WritePolicy()
    if text == loaded.text:
        return Written(False)
    target = loaded.path.resolve()
    try:
        st = os.stat(target)
        current = target.read_bytes() if stat.S_ISREG(st.st_mode) else None
    except OSError as exc:
        raise InputError(_cannot("re-read before writing", exc)) from exc
    if current is None:
        raise InputError(f"not a regular file ({_kind(st.st_mode)}); not written")
    if current != loaded.raw:
        raise InputError("file changed while it was being migrated; not written")
    _check_writable(target, st, policy)
    fd, tmp = _temp_beside(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            notes = _keep_owner(fh.fileno(), st)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode))  # after chown, which may clear set-id bits
        with critical():  # a signal waits until the rename is done and noted
            os.replace(tmp, target)
            _live_temps.discard(tmp)
            _note_written(loaded.path)
    except BaseException:
        _live_temps.discard(tmp)
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise
    return Written(True, notes)


def _temp_beside(target: Path) -> tuple[int, str]:
    """A new temporary file (mode 0600) in ``target``'s folder, known to ``remove_live_temps`` before
    any signal can be acted on."""
    import tempfile  # writing runs only

    with critical():
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=target.parent)
        _live_temps.add(tmp)
    return fd, tmp


def write_output(path: Path, data: bytes) -> None:
    """Write a report or diff to ``path`` atomically: readers see the old file or the whole new one.

    A new file gets the usual mode (0666 less the umask), an existing one keeps its mode; a
    path that is not a regular file (``/dev/null``, a pipe) is written to directly.
    """
    if path.exists() and not path.is_file():
        with open(path, "wb") as fh:
            fh.write(data)
        return
    target = path.resolve()
    if target.exists():
        mode = stat.S_IMODE(target.stat().st_mode)
    else:
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = _temp_beside(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        with critical():
            os.replace(tmp, target)
            _live_temps.discard(tmp)
    except BaseException:
        _live_temps.discard(tmp)
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def _check_writable(target: Path, st: os.stat_result, policy: WritePolicy) -> None:
    if st.st_nlink > 1 and not policy.break_hardlinks:
        raise InputError(
            f"has {st.st_nlink} hard links; rewriting it would split them (not written; --break-hardlinks writes it)"
        )
    read_only = not (st.st_mode & 0o222) or not os.access(target, os.W_OK)
    if read_only and not policy.force_readonly:
        mode = f"{stat.S_IMODE(st.st_mode):04o}"
        raise InputError(f"read-only file (mode {mode}); not written (--force-readonly writes it)")


def _keep_owner(fd: int, st: os.stat_result) -> tuple[str, ...]:
    """Give the new file the old one's owner and group where allowed; notes for what could not be kept."""
    if not hasattr(os, "fchown"):
        return ()
    new = os.fstat(fd)
    if (new.st_uid, new.st_gid) == (st.st_uid, st.st_gid):
        return ()
    try:
        os.fchown(fd, st.st_uid, st.st_gid)
        return ()
    except PermissionError:
        pass
    lost = ["owner"] if new.st_uid != st.st_uid else []
    if new.st_gid != st.st_gid:
        try:
            os.fchown(fd, -1, st.st_gid)  # a member of the group may keep it
        except PermissionError:
            lost.append("group")
    if not lost:
        return ()
    now = os.fstat(fd)
    return (
        f"written, but its {' and '.join(lost)} could not be kept "
        f"(was {st.st_uid}:{st.st_gid}, now {now.st_uid}:{now.st_gid})",
    )


def _note_written(path: Path) -> None:
    callback = _on_written.get()
    if callback is not None:
        with suppress(OSError):  # the note is for an interrupted run's summary; the file is written either way
            callback(path)
