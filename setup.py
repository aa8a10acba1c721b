"""The optional C tree builder (``k8smigrate/yamlio/_fastbuild.c``, on libyaml).

Everything else is declared in pyproject.toml. The extension needs a C compiler and libyaml's
headers (Debian/Ubuntu: ``libyaml-dev``; Fedora: ``libyaml-devel``; macOS: ``brew install
libyaml``). Without them the install still succeeds and k8smigrate builds its trees in Python,
with the same results, more slowly. ``K8SMIGRATE_BUILD_FASTBUILD=0`` skips it on purpose.
"""

import os

from setuptools import Extension, setup

extensions = []
if os.environ.get("K8SMIGRATE_BUILD_FASTBUILD", "1") != "0":
    extensions.append(
        Extension(
            "k8smigrate.yamlio._fastbuild",
            ["k8smigrate/yamlio/_fastbuild.c"],
            libraries=["yaml"],
            optional=True,  # a failed build warns; the pure-Python builder takes over
        )
    )

setup(ext_modules=extensions)
