"""The optional C module ``k8smigrate._fastbuild`` (``k8smigrate/yamlio/_fastbuild.c``, the tree builder
on ruamel.yaml.clib's libyaml, and ``_prefetch.c``).

Everything else is declared in pyproject.toml. The extension needs only a C compiler: it is not
linked with a libyaml and needs no libyaml headers (``libyaml_abi.h`` declares the types it
uses); at run time it uses the libyaml ruamel.yaml.clib carries. Without a compiler the install
still succeeds and k8smigrate builds its trees in Python, with the same results, more slowly.
``K8SMIGRATE_BUILD_FASTBUILD=0`` skips it on purpose.
"""

import os
import sys

from setuptools import Extension, setup

extensions = []
if os.environ.get("K8SMIGRATE_BUILD_FASTBUILD", "1") != "0":
    extensions.append(
        Extension(
            "k8smigrate._fastbuild",  # at the top: the console loads it first (prefetch)
            ["k8smigrate/yamlio/_fastbuild.c", "k8smigrate/yamlio/_prefetch.c"],
            depends=["k8smigrate/yamlio/libyaml_abi.h", "k8smigrate/yamlio/_prefetch.h"],
            # dlopen and threads: in libc since glibc 2.34
            libraries=["dl", "pthread"] if sys.platform.startswith("linux") else [],
            optional=True,  # a failed build warns; the pure-Python builder takes over
        )
    )

setup(ext_modules=extensions)
