"""Masterminds/semver v3 as Helm's ``semverCompare`` uses it, to decide template branches.

Charts pick an apiVersion with ``semverCompare ">=1.14-0" .Capabilities.KubeVersion.GitVersion``;
to know which branch a release takes, the comparison must be Masterminds' exactly, corners
included: a constraint without a pre-release (``>=1.14``) rejects every pre-release version
(``v1.29.3-gke.100``, ``v1.29.3-eks-ab12``), which is why charts write ``-0``; ``x``/``*``
wildcards and missing parts make a constraint "dirty" (``>1.14`` means ``>=1.15``); ``^`` and
``~`` are ranges; ``||`` separates alternatives, commas or spaces join an AND group; ``a - b``
is ``>= a, <= b``.

Ported from Masterminds/semver v3 (``constraints.go``: ``NewConstraint``, ``parseConstraint``,
``rewriteRange``, ``Constraints.Check`` and the ``constraint*`` functions; ``version.go``:
``NewVersion`` with ``CoerceNewVersion`` on, ``Compare``, ``comparePrerelease``), the version
Helm 4 pins (v3.5.0); sprig's ``semverCompare`` (``semver.go``) is ``NewConstraint(c)`` then
``NewVersion(v)`` then ``Check``, and an error in either fails the template. Go's regexp
matches leftmost-first like Python's, so the patterns carry over; ``\\s`` is spelled out as
Go's ASCII set and ``$`` as ``\\Z``.
"""

from __future__ import annotations

from ..dataclasscode import dataclass
from ..regexcode import regex
from ..versions import KubeVersion

__all__ = ["Constraints", "SemverError", "Version", "semver_compare"]


class SemverError(ValueError):
    """A version or constraint Masterminds rejects (the template would fail to render)."""


_S = r"[\t\n\f\r ]"
_OPS = r"=||!=|>|<|>=|=>|<=|=<|~|~>|\^"
_CV = (
    r"v?([0-9|x|X|\*]+)(\.[0-9|x|X|\*]+)?(\.[0-9|x|X|\*]+)?"
    r"(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?"
    r"(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?"
)
_CONSTRAINT = regex(rf"^{_S}*({_OPS}){_S}*({_CV}){_S}*\Z")
_RANGE = regex(rf"{_S}*({_CV}){_S}+-{_S}+({_CV}){_S}*")
_FIND = regex(rf"({_OPS}){_S}*({_CV})")
_VALID = regex(rf"^({_S}*({_OPS}){_S}*({_CV}){_S}*)((?:{_S}+|,{_S}*)({_OPS}){_S}*({_CV}){_S}*)*\Z")
_LOOSE_VERSION = regex(
    r"^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?"
    r"(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?"
    r"(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?\Z"
)
_NUM = frozenset("0123456789")
_ALLOWED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789")
_UINT64 = 2**64


@dataclass(frozen=True)
class Version:
    """A parsed version: ``NewVersion`` coerces ``v1.29`` to 1.29.0."""

    major: int
    minor: int
    patch: int
    pre: str = ""
    metadata: str = ""

    @classmethod
    def parse(cls, text: str) -> Version:
        m = _LOOSE_VERSION.match(text)
        if m is None:
            raise SemverError(f"invalid semantic version: {text!r}")
        parts = [_uint(m.group(1), text)]
        parts += [_uint(g[1:], text) if g else 0 for g in (m.group(2), m.group(3))]
        pre, meta = m.group(5) or "", m.group(8) or ""
        if pre:
            _validate_prerelease(pre, text)
        if meta and not all(p and set(p) <= _ALLOWED for p in meta.split(".")):
            raise SemverError(f"invalid metadata string in {text!r}")
        return cls(parts[0], parts[1], parts[2], pre, meta)

    def compare(self, other: Version) -> int:
        """-1, 0 or 1; metadata is ignored, a pre-release sorts before its release."""
        for a, b in ((self.major, other.major), (self.minor, other.minor), (self.patch, other.patch)):
            if a != b:
                return -1 if a < b else 1
        if not self.pre and not other.pre:
            return 0
        if not self.pre:
            return 1
        if not other.pre:
            return -1
        return _compare_prerelease(self.pre, other.pre)

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        text += f"-{self.pre}" if self.pre else ""
        return text + (f"+{self.metadata}" if self.metadata else "")


def _uint(digits: str, text: str) -> int:
    value = int(digits)
    if value >= _UINT64:
        raise SemverError(f"version segment out of range in {text!r}")
    return value


def _validate_prerelease(pre: str, text: str) -> None:
    for part in pre.split("."):
        if not part:
            raise SemverError(f"invalid prerelease string in {text!r}")
        if set(part) <= _NUM:
            if len(part) > 1 and part[0] == "0":
                raise SemverError(f"version segment starts with 0 in {text!r}")
        elif not set(part) <= _ALLOWED:
            raise SemverError(f"invalid prerelease string in {text!r}")


def _compare_prerelease(a: str, b: str) -> int:
    left, right = a.split("."), b.split(".")
    for i in range(max(len(left), len(right))):
        d = _compare_pre_part(left[i] if i < len(left) else "", right[i] if i < len(right) else "")
        if d:
            return d
    return 0


def _compare_pre_part(s: str, o: str) -> int:
    if s == o:
        return 0
    if not s:
        return -1
    if not o:
        return 1
    s_num, o_num = _as_uint(s), _as_uint(o)
    if s_num is None and o_num is None:
        return 1 if s > o else -1  # Go compares strings by bytes; these are ASCII
    if o_num is None:
        return -1  # a number sorts before a word
    if s_num is None:
        return 1
    return 1 if s_num > o_num else -1


def _as_uint(part: str) -> int | None:
    """``strconv.ParseUint(part, 10, 64)``: digits only, within 64 bits."""
    if not part or not set(part) <= _NUM:
        return None
    value = int(part)
    return value if value < _UINT64 else None


@dataclass(frozen=True)
class _Constraint:
    """One comparison of a constraint string (``>= 1.19-0``), as Masterminds/semver parses it."""

    op: str
    con: Version
    orig: str
    dirty: bool
    minor_dirty: bool
    patch_dirty: bool

    def check(self, v: Version, include_pre: bool) -> bool:
        if v.pre and not include_pre:
            return False  # every constraint function starts with this test
        return _CHECKS[self.op](v, self)


def _is_x(part: str) -> bool:
    return part in ("x", "X", "*")


def _parse_constraint(text: str) -> _Constraint:
    if not text:
        return _Constraint("", Version(0, 0, 0), "", True, False, False)  # "" is "*"
    m = _CONSTRAINT.match(text)
    if m is None:
        raise SemverError(f"improper constraint: {text!r}")
    op, ver = m.group(1), m.group(2)
    major, minor, patch, pre = m.group(3), m.group(4) or "", m.group(5) or "", m.group(6) or ""
    dirty = minor_dirty = patch_dirty = False
    if _is_x(major) or major == "":
        ver, dirty = f"0.0.0{pre}", True
    elif _is_x(minor[1:]) or minor == "":
        ver, dirty, minor_dirty = f"{major}.0.0{pre}", True, True
    elif _is_x(patch[1:]) or patch == "":
        ver, dirty, patch_dirty = f"{major}{minor}.0{pre}", True, True
    try:
        con = Version.parse(ver)
    except SemverError as exc:  # e.g. "1|2": the pattern lets it through, the version parser does not
        raise SemverError(f"improper constraint: {text!r}") from exc
    return _Constraint(op, con, m.group(2), dirty, minor_dirty, patch_dirty)


def _not_equal(v: Version, c: _Constraint) -> bool:
    if c.dirty:
        if c.con.major != v.major:
            return True
        if c.con.minor != v.minor and not c.minor_dirty:
            return True
        if c.minor_dirty:
            return False
        if c.con.patch != v.patch and not c.patch_dirty:
            return True
        if c.patch_dirty:
            if v.pre or c.con.pre:
                return _compare_prerelease(v.pre, c.con.pre) != 0
            return False
    return v.compare(c.con) != 0


def _greater(v: Version, c: _Constraint) -> bool:
    if not c.dirty:
        return v.compare(c.con) == 1
    if v.major > c.con.major:
        return True
    if v.major < c.con.major or c.minor_dirty:
        return False  # >11 needs 12 or more
    if c.patch_dirty:
        return v.minor > c.con.minor  # >11.1 needs 11.2 or more
    return v.compare(c.con) == 1


def _less(v: Version, c: _Constraint) -> bool:
    return v.compare(c.con) < 0


def _greater_equal(v: Version, c: _Constraint) -> bool:
    return v.compare(c.con) >= 0


def _less_equal(v: Version, c: _Constraint) -> bool:
    if not c.dirty:
        return v.compare(c.con) <= 0
    if v.major > c.con.major:
        return False
    return not (v.major == c.con.major and v.minor > c.con.minor and not c.minor_dirty)


def _tilde(v: Version, c: _Constraint) -> bool:
    if v.compare(c.con) < 0:
        return False
    if c.con.major == 0 and c.con.minor == 0 and c.con.patch == 0 and not c.minor_dirty and not c.patch_dirty:
        return True  # ~0.0.0 accepts everything
    if v.major != c.con.major:
        return False
    return v.minor == c.con.minor or c.minor_dirty


def _tilde_or_equal(v: Version, c: _Constraint) -> bool:
    if c.dirty:
        return _tilde(v, c)
    return v.compare(c.con) == 0


def _caret(v: Version, c: _Constraint) -> bool:
    if v.compare(c.con) < 0:
        return False
    if c.con.major > 0 or c.minor_dirty:
        return v.major == c.con.major
    if v.major > 0:
        return False
    if c.con.minor > 0 or c.patch_dirty:
        return v.minor == c.con.minor
    if v.minor > 0:
        return False
    return v.patch == c.con.patch


_CHECKS = {
    "": _tilde_or_equal,
    "=": _tilde_or_equal,
    "!=": _not_equal,
    ">": _greater,
    "<": _less,
    ">=": _greater_equal,
    "=>": _greater_equal,
    "<=": _less_equal,
    "=<": _less_equal,
    "~": _tilde,
    "~>": _tilde,
    "^": _caret,
}


def _rewrite_range(text: str) -> str:
    """``1 - 2`` becomes ``>= 1, <= 2 `` (each match replaced once, in order, as Go does)."""
    out = text
    for m in _RANGE.finditer(text):
        out = out.replace(m.group(0), f">= {m.group(1)}, <= {m.group(11)} ", 1)
    return out


@dataclass(frozen=True)
class Constraints:
    """``||``-separated AND groups of constraints."""

    groups: tuple[tuple[_Constraint, ...], ...]
    text: str

    @classmethod
    def parse(cls, text: str) -> Constraints:
        groups: list[tuple[_Constraint, ...]] = []
        for segment in _rewrite_range(text).split("||"):
            if not _VALID.match(segment):
                raise SemverError(f"improper constraint: {segment!r}")
            found = [m.group(0) for m in _FIND.finditer(segment)] or [segment]
            groups.append(tuple(_parse_constraint(s) for s in found))
        return cls(tuple(groups), text)

    def check(self, version: Version) -> bool:
        """True when some AND group accepts the version; a group that names a pre-release
        anywhere lets pre-release versions through for all its members."""
        for group in self.groups:
            include_pre = any(c.con.pre for c in group)
            if all(c.check(version, include_pre) for c in group):
                return True
        return False


def semver_compare(constraint: str, version: str) -> bool:
    """sprig's ``semverCompare``: raises ``SemverError`` where the template would fail."""
    return Constraints.parse(constraint).check(Version.parse(version))


def on_cluster_version(operator: str, release: KubeVersion) -> str:
    """The condition a migration writes into a chart to pick by the cluster's release:
    ``semverCompare "<1.25-0" $.Capabilities.KubeVersion.GitVersion``. ``-0`` so that a
    ``v1.21.3-gke.100`` cluster counts as 1.21; ``$`` so that it reads the chart's root inside
    ``range`` and ``with``."""
    return f'semverCompare "{operator}{release.major}.{release.minor}-0" $.Capabilities.KubeVersion.GitVersion'
