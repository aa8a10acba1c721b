"""Container image references and the release their tag names, for checks that know add-ons by image.

Not a migration. ``parse_image`` splits a reference the way the distribution reference grammar
does (``[registry/]path[:tag][@digest]``, a first component with a dot or a colon, or
``localhost``, is a registry; ``docker.io`` and its ``library/`` prefix are dropped so that
``traefik``, ``docker.io/traefik`` and ``docker.io/library/traefik`` are the same image).
``release`` reads ``X.Y[.Z]`` at the start of a tag, after an optional ``v``, and ignores what
follows (``v1.0.0@sha256:…`` is not part of the tag; ``2.0.0-alpine``, ``v1.8.4-eksbuild.1``,
``0.9.0-beta.1`` name their release). A tag without a minor version (``v2``), ``latest``, no
tag at all, or a digest only say nothing about the release: ``None``.
"""

from __future__ import annotations

from ..dataclasscode import dataclass
from ..regexcode import regex

_RELEASE = regex(r"^v?(\d+)\.(\d+)(?:\.(\d+))?(?:$|[-+_.~])")


@dataclass(frozen=True, order=True)
class Release:
    """A release ``major.minor.patch`` of an add-on (not a Kubernetes release)."""

    major: int
    minor: int
    patch: int = 0

    @classmethod
    def parse(cls, text: str) -> Release:
        found = release(text)
        if found is None:
            raise ValueError(f"not a release: {text!r}")
        return found

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


def release(tag: str | None) -> Release | None:
    """The release a tag names, or None when it names none."""
    if not tag:
        return None
    m = _RELEASE.match(tag)
    if m is None:
        return None
    return Release(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


@dataclass(frozen=True)
class Image:
    """An image reference, split."""

    text: str
    registry: str
    """``""`` for Docker Hub."""
    path: str
    """The repository path without registry (``ingress-nginx/controller``, ``traefik``)."""
    tag: str | None
    digest: str | None

    @property
    def name(self) -> str:
        """Registry and path, without tag or digest (what kustomize's ``images[].name`` matches)."""
        return f"{self.registry}/{self.path}" if self.registry else self.path

    @property
    def release(self) -> Release | None:
        return release(self.tag)

    def with_tag(self, tag: str | None, digest: str | None = None) -> Image:
        text = self.name + (f":{tag}" if tag else "") + (f"@{digest}" if digest else "")
        return Image(text, self.registry, self.path, tag, digest)


def parse_image(text: str) -> Image:
    """Split an image reference; never raises (an odd reference just matches nothing)."""
    rest, _, digest = text.strip().partition("@")
    registry = ""
    first, slash, remainder = rest.partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        registry, rest = first, remainder
    path, colon, tag = rest.rpartition(":")
    if not colon or "/" in tag:
        path, tag = rest, ""
    if registry in ("docker.io", "index.docker.io", "registry-1.docker.io"):
        registry = ""
    if not registry and path.startswith("library/"):
        path = path[len("library/") :]
    return Image(text, registry, path, tag or None, digest or None)


def path_matches(image: Image, *paths: str) -> bool:
    """Whether the image path is one of ``paths`` or ends with ``/`` + one of them (a mirror)."""
    return any(image.path == p or image.path.endswith("/" + p) for p in paths)
