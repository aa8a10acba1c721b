"""libyaml's verdict on the texts a run read ahead, found by a thread on another core.

Every file a run reads is first checked by libyaml as a whole (``libyaml.libyaml_accepts``).
For most files of a repository that check is the only parse, and it is a tenth of a small
repository's scan. It touches no Python object, so ``accepts_each`` (in the C module) runs it
with the GIL released: when a run may use more than one core, a thread checks the texts read
ahead (``files.read_ahead``), in the order the run will ask, and ``libyaml_accepts`` takes each
verdict already found instead of parsing the text itself. A verdict not found yet is found the
usual way, so the thread only ever saves time. A run that starts worker processes ends the
thread first (``settle``): the workers, forked from this process, inherit what it found while
the pool's modules loaded.

The verdict is the same either way: the thread parses the very bytes the text was decoded
from (UTF-8 decoding and encoding are exact inverses), with the same libyaml. A text is
known by identity: ``read_stream`` asks about the text read, unless it starts with a BOM
(it asks about what follows), and such texts are left out.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from .fastbuild import ACTIVE, accepts_each

_UTF8_BOM = b"\xef\xbb\xbf"

_asked: dict[int, tuple[str, bytearray, int]] = {}
"""``id(text)`` -> (the text, its batch's verdicts, its place in them), until asked about. The
text is held, so no other string can take its ``id`` meanwhile; the verdicts are its own
batch's, whatever batch started since."""

_thread: threading.Thread | None = None
"""The thread of the last batch."""

_verdicts = bytearray(1)
"""One byte per text of the batch, written by the thread (0: not known yet, 1: libyaml accepts
it, 2: it does not), then a last byte that stops the thread when set."""


def precheck(texts: Sequence[tuple[str, bytes]]) -> None:
    """Start checking ``texts`` (each a text and the bytes it was decoded from, in the order
    they will be asked about) on a thread, except those whose verdict is known already; what an
    earlier call started is ended (what it found is kept)."""
    global _verdicts, _thread
    settle()
    if not ACTIVE or len(texts) < 2:  # a single text is asked about at once: nothing to win
        return
    kept = [(text, raw) for text, raw in texts if not raw.startswith(_UTF8_BOM) and not _known(text)]
    if not kept:
        return
    _verdicts = verdicts = bytearray(len(kept) + 1)
    for place, (text, _raw) in enumerate(kept):
        _asked[id(text)] = (text, verdicts, place)
    batch = [raw for _text, raw in kept]
    _thread = threading.Thread(target=accepts_each, args=(batch, verdicts), daemon=True, name="k8smigrate-precheck")
    _thread.start()


def found(text: str, raw: bytes, verdicts: bytearray, place: int) -> None:
    """Note ``verdicts[place]``, found for the bytes ``text`` was decoded from by another thread
    (``prefetch``), as this module's thread notes its own; a batch started later leaves it."""
    global _noted
    if not raw.startswith(_UTF8_BOM) and id(text) not in _asked:
        _asked[id(text)] = (text, verdicts, place)
        _noted += verdicts[place] != 0


_noted = 0
"""How many verdicts ``found`` noted (not asked about yet, or asked): when every text a run read
ahead has one, no batch needs starting (``parallel`` asks, and spares itself a look at each)."""


def noted() -> int:
    """How many texts ``found`` gave a verdict since the last ``stop``."""
    return _noted


def _known(text: str) -> bool:
    found = _asked.get(id(text))
    return found is not None and found[1][found[2]] != 0


def started() -> bool:
    """Whether a batch is being checked, or was, and was not ended since (``settle``, ``stop``)."""
    return _thread is not None and not _verdicts[-1]


def verdict(text: str) -> bool | None:
    """Whether libyaml accepts ``text``, when the thread has found it; None: not known (ask libyaml)."""
    if not _asked:
        return None
    found = _asked.pop(id(text), None)
    if found is None:
        return None
    _text, verdicts, place = found
    known = verdicts[place]
    return known == 1 if known else None


def settle() -> None:
    """Stop the thread after the text it is on and wait for it to end, keeping what it found:
    before a fork, so that no thread of ours is copied into a worker, and the workers
    inherit the verdicts."""
    _verdicts[-1] = 1
    if _thread is not None:
        _thread.join()


def stop() -> None:
    """Stop the thread after the text it is on, and forget what it found (a run ends)."""
    global _noted
    _verdicts[-1] = 1
    _asked.clear()
    _noted = 0
