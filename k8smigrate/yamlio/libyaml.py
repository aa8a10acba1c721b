"""Whether libyaml is there, and whether it reads a text: answered without importing ruamel.yaml.

Every file a run reads is first checked by libyaml as a whole (``libyaml_accepts``), and most
are then cut into documents without a parser. With the C module (``fastbuild``) that check runs
in C on ruamel.yaml.clib's own libyaml (for the files a run read ahead, often already done by a
thread on another core: ``prechecked``), and ruamel.yaml, a fifth of a short run's start-up, is
imported only when something needs its parser: a text the C builder declines, or a problem to
word (``events``).
"""

from __future__ import annotations

from importlib.machinery import PathFinder

from .fastbuild import ACTIVE as FASTBUILD
from .fastbuild import accepts as accepts_in_c
from .prechecked import verdict

LIBYAML = FASTBUILD or PathFinder.find_spec("_ruamel_yaml") is not None
"""Whether libyaml (``ruamel.yaml.clib``) is there to parse at C speed."""


def libyaml_accepts(text: str) -> bool:
    """Whether libyaml parses the whole stream without complaint (False without libyaml)."""
    if FASTBUILD:
        known = verdict(text)
        return accepts_in_c(text) if known is None else known
    from .events import libyaml_accepts as with_cparser

    return with_cparser(text)


def parse_errors() -> tuple[type[BaseException], ...]:
    """What reading a stream may raise (``events.PARSE_ERRORS``), for an ``except`` clause: it is
    evaluated only when something was raised, so ruamel.yaml is imported only then."""
    from .events import PARSE_ERRORS

    return PARSE_ERRORS
