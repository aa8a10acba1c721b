"""The C module (``_fastbuild``), imported and bound to libyaml once, for whoever asks first.

Two parts of k8smigrate use it: ``yamlio.fastbuild`` (the tree builder and the rest of its
work in C) and ``prefetch`` (a run's files read on another core from its start). The console
starts the prefetch before the rest of the library is imported, so finding the module and
binding its libyaml live here, in a module that imports nothing of the library.

The libyaml is ruamel.yaml.clib's own, found in that extension's shared object without
importing it (``_fastbuild.bind``): the C builder, the C reader, ``accepts`` and ruamel's
CParser are one parser, so what a file means does not depend on the libyaml a system has.
``K8SMIGRATE_PURE=1`` in the environment turns the module off (to compare, or to rule it out).
"""

from __future__ import annotations

import os
from importlib.machinery import PathFinder

_bound: list[str | None] = []
"""The version ``libyaml_version`` found, once asked."""


def available() -> bool:
    """Whether the C module is installed and not turned off (what needs no libyaml works then)."""
    if os.environ.get("K8SMIGRATE_PURE", "") not in ("", "0"):
        return False
    try:
        from ._fastbuild import bind  # noqa: F401  (the module is there)
    except ImportError:
        return False
    return True


def libyaml_version() -> str | None:
    """The version of the libyaml the C module reads with, bound on the first call; None: the
    module is not available, or no usable libyaml was found (the Python builder runs)."""
    if not _bound:
        version = None
        if available():
            from ._fastbuild import bind

            spec = PathFinder.find_spec("_ruamel_yaml")  # found, not imported: its module is not needed
            version = bind(spec.origin) if spec is not None and spec.origin else None
        _bound.append(version)
    return _bound[0]
