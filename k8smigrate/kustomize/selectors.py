"""Which objects a kustomize selector picks, and how its group and version follow a migration.

``patches[].target``, ``patchesJson6902[].target`` and ``replacements`` ``select``/``reject``
are ``types.Selector`` (``api/types/selector.go``): group, version, kind, name and namespace
are regular expressions anchored at both ends, an empty one matches anything (so a target
without ``version`` matches every version of its kind), and ``labelSelector`` /
``annotationSelector`` are Kubernetes label selectors. Matching is on the object's original
or current name and namespace (``resmap.Select``). A strategic merge patch without a target
matches by exact group, version, kind and name (``resWrangler.GetById``), and a var's
``objref`` likewise (``ResAccumulator.MergeVars``): that is why a base migrated without its
patches no longer builds ("no matches for Id").
"""

from __future__ import annotations

import re
from dataclasses import field

from ..dataclasscode import dataclass
from ..regexcode import regex
from ..scalars import Data

_META = regex(r"[\\^$.|?*+()\[\]{}]")


def split_api(api_version: str) -> tuple[str, str]:
    """``apps/v1`` → ``("apps", "v1")``; ``v1`` → ``("", "v1")``."""
    group, _, version = api_version.rpartition("/")
    return group, version


def join_api(group: str, version: str) -> str:
    return f"{group}/{version}" if group else version


def is_literal(pattern: str) -> bool:
    """A selector field that names one value (no regular-expression syntax in it)."""
    return not _META.search(pattern.replace(".", ""))


@dataclass
class Selector:
    """The fields of a selector as written (empty: any)."""

    group: str = ""
    version: str = ""
    kind: str = ""
    name: str = ""
    namespace: str = ""
    label_selector: str = ""
    annotation_selector: str = ""

    @classmethod
    def of(cls, data: Data) -> Selector:
        if not isinstance(data, dict):
            return cls()

        def text(key: str) -> str:
            value = data.get(key)
            return "" if value is None else str(value)

        group, version = text("group"), text("version")
        if "apiVersion" in data and not (group or version):  # objref spelling
            group, version = split_api(text("apiVersion"))
        return cls(
            group,
            version,
            text("kind"),
            text("name"),
            text("namespace"),
            text("labelSelector"),
            text("annotationSelector"),
        )

    def matches_gvk(self, api_version: str, kind: str) -> bool:
        group, version = split_api(api_version)
        return _full(self.group, group) and _full(self.version, version) and _full(self.kind, kind)

    def matches(self, obj: ObjectId) -> bool:
        if not self.matches_gvk(obj.api_version, obj.kind):
            return False
        if self.name and not any(_full(self.name, n) for n in obj.names):
            return False
        if self.namespace and not any(_full(self.namespace, n) for n in obj.namespaces):
            return False
        return _labels_match(self.label_selector, obj.labels) and _labels_match(
            self.annotation_selector, obj.annotations
        )


def _full(pattern: str, value: str) -> bool:
    if not pattern:
        return True
    try:
        return re.fullmatch(f"(?:{pattern})", value) is not None
    except re.error:
        return pattern == value


@dataclass
class ObjectId:
    """What selectors look at in one object: its apiVersion and kind, and every name, namespace,
    label and annotation it may have at the point a kustomization patches it (its own, and those
    the kustomizations on the way add)."""

    api_version: str
    kind: str
    names: set[str] = field(default_factory=set)
    namespaces: set[str] = field(default_factory=set)
    labels: dict[str, set[str]] = field(default_factory=dict)
    annotations: dict[str, set[str]] = field(default_factory=dict)
    added_labels: dict[str, str] = field(default_factory=dict)
    """The labels the kustomizations on the way set (the outer one last): what a JSON patch sees."""
    added_annotations: dict[str, str] = field(default_factory=dict)


_REQUIREMENT = regex(
    r"^\s*(?P<neg>!)?\s*(?P<key>[A-Za-z0-9._/-]+)\s*"
    r"(?:(?P<op>==|=|!=|\s+in\s+|\s+notin\s+)\s*(?P<value>\([^)]*\)|[A-Za-z0-9._-]*))?\s*$"
)


def _labels_match(selector: str, labels: dict[str, set[str]]) -> bool:
    """A label selector over labels that may take several values (any of them can match).

    A selector this reader does not understand matches: picking too many objects only makes
    the all-or-nothing groups larger, never a build worse.
    """
    if not selector.strip():
        return True
    for requirement in _split_requirements(selector):
        m = _REQUIREMENT.match(requirement)
        if m is None:
            return True
        key, op, raw = m.group("key"), (m.group("op") or "").strip(), m.group("value") or ""
        values = labels.get(key, set())
        wanted = {v.strip() for v in raw.strip("()").split(",")} if raw.startswith("(") else {raw}
        if m.group("neg"):
            ok = not values
        elif not op:
            ok = bool(values)
        elif op in ("=", "=="):
            ok = bool(values & wanted)
        elif op == "!=":
            ok = not values or bool(values - wanted)
        elif op == "in":
            ok = bool(values & wanted)
        else:
            ok = not values or bool(values - wanted)
        if not ok:
            return False
    return True


def _split_requirements(selector: str) -> list[str]:
    out, depth, current = [], 0, ""
    for ch in selector:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(current)
            current = ""
        else:
            current += ch
    return [*out, current]
