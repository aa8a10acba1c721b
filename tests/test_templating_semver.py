"""Helm's ``semverCompare`` (Masterminds/semver v3): the cases of Masterminds' own tests
(``constraints_test.go``: TestConstraintCheck, TestNewConstraint, TestConstraintsCheck), then
the corners that decide chart branches (``-0``, vendor suffixes, ``helm template``'s ``v1.29``)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from k8smigrate.templating.semver import Constraints, SemverError, Version, semver_compare

# TestConstraintCheck: one constraint, pre-releases allowed when the constraint names one.
SINGLE = [
    ("=2.0.0", "1.2.3", False),
    ("=2.0.0", "2.0.0", True),
    ("=2.0", "1.2.3", False),
    ("=2.0", "2.0.0", True),
    ("=2.0", "2.0.1", True),
    ("4.1", "4.1.0", True),
    ("!=4.1.0", "4.1.0", False),
    ("!=4.1.0", "4.1.1", True),
    ("!=4.1", "4.1.0", False),
    ("!=4.1", "4.1.1", False),
    ("!=4.1", "5.1.0-alpha.1", False),
    ("!=4.1.0", "5.1.0-alpha.1", False),
    ("!=4.1-alpha", "4.1.0", True),
    ("!=4.1", "5.1.0", True),
    ("<11", "0.1.0", True),
    ("<11", "11.1.0", False),
    ("<1.1", "0.1.0", True),
    ("<1.1", "1.1.0", False),
    ("<1.1", "1.1.1", False),
    ("<=11", "1.2.3", True),
    ("<=11", "12.2.3", False),
    ("<=11", "11.2.3", True),
    ("<=1.1", "1.2.3", False),
    ("<=1.1", "0.1.0", True),
    ("<=1.1", "1.1.0", True),
    ("<=1.1", "1.1.1", True),
    (">1.1", "4.1.0", True),
    (">1.1", "1.1.0", False),
    (">0", "0", False),
    (">0", "1", True),
    (">0", "0.0.1-alpha", False),
    (">0.0", "0.0.1-alpha", False),
    (">0-0", "0.0.1-alpha", False),
    (">0.0-0", "0.0.1-alpha", False),
    (">0", "0.0.0-alpha", False),
    (">0-0", "0.0.0-alpha", False),
    (">0.0.0-0", "0.0.0-alpha", True),
    (">1.2.3-alpha.1", "1.2.3-alpha.2", True),
    (">1.2.3-alpha.1", "1.3.3-alpha.2", True),
    (">11", "11.1.0", False),
    (">11.1", "11.1.0", False),
    (">11.1", "11.1.1", False),
    (">11.1", "11.2.1", True),
    (">=11", "11.1.2", True),
    (">=11.1", "11.1.2", True),
    (">=11.1", "11.0.2", False),
    (">=1.1", "4.1.0", True),
    (">=1.1", "1.1.0", True),
    (">=1.1", "0.0.9", False),
    (">=0", "0.0.1-alpha", False),
    (">=0.0", "0.0.1-alpha", False),
    (">=0-0", "0.0.1-alpha", True),
    (">=0.0-0", "0.0.1-alpha", True),
    (">=0", "0.0.0-alpha", False),
    (">=0-0", "0.0.0-alpha", True),
    (">=0.0.0-0", "0.0.0-alpha", True),
    (">=0.0.0-0", "1.2.3", True),
    (">=0.0.0-0", "3.4.5-beta.1", True),
    ("<0", "0.0.0-alpha", False),
    ("<0-z", "0.0.0-alpha", True),
    (">=0", "0", True),
    ("=0", "1", False),
    ("*", "1", True),
    ("*", "4.5.6", True),
    ("*", "1.2.3-alpha.1", False),
    ("*-0", "1.2.3-alpha.1", True),
    ("2.*", "1", False),
    ("2.*", "3.4.5", False),
    ("2.*", "2.1.1", True),
    ("2.1.*", "2.1.1", True),
    ("2.1.*", "2.2.1", False),
    ("2", "1", False),
    ("2", "3.4.5", False),
    ("2", "2.1.1", True),
    ("2.1", "2.1.1", True),
    ("2.1", "2.2.1", False),
    ("~1.2.3", "1.2.4", True),
    ("~1.2.3", "1.3.4", False),
    ("~1.2", "1.2.4", True),
    ("~1.2", "1.3.4", False),
    ("~1", "1.2.4", True),
    ("~1", "2.3.4", False),
    ("~0.2.3", "0.2.5", True),
    ("~0.2.3", "0.3.5", False),
    ("~1.2.3-beta.2", "1.2.3-beta.4", True),
    ("~1.2.3-beta.2", "1.2.4-beta.2", True),
    ("~1.2.3-beta.2", "1.3.4-beta.2", False),
    ("^1.2.3", "1.8.9", True),
    ("^1.2.3", "2.8.9", False),
    ("^1.2.3", "1.2.1", False),
    ("^1.1.0", "2.1.0", False),
    ("^1.2.0", "2.2.1", False),
    ("^1.2.0", "1.2.1-alpha.1", False),
    ("^1.2.0-alpha.0", "1.2.1-alpha.1", True),
    ("^1.2.0-alpha.0", "1.2.1-alpha.0", True),
    ("^1.2.0-alpha.2", "1.2.0-alpha.1", False),
    ("^1.2", "1.8.9", True),
    ("^1.2", "2.8.9", False),
    ("^1", "1.8.9", True),
    ("^1", "2.8.9", False),
    ("^0.2.3", "0.2.5", True),
    ("^0.2.3", "0.5.6", False),
    ("^0.2", "0.2.5", True),
    ("^0.2", "0.5.6", False),
    ("^0.0.3", "0.0.3", True),
    ("^0.0.3", "0.0.4", False),
    ("^0.0", "0.0.3", True),
    ("^0.0", "0.1.4", False),
    ("^0.0", "1.0.4", False),
    ("^0", "0.2.3", True),
    ("^0", "1.1.4", False),
    ("^0.2.3-beta.2", "0.2.3-beta.4", True),
    ("^0.2.3-beta.2", "0.2.4-beta.2", True),
    ("^0.2.3-beta.2", "0.3.4-beta.2", False),
    ("^0.2.3-beta.2", "0.2.3-beta.2", True),
]

# TestConstraintsCheck: whole constraint strings (AND groups, ||, ranges).
MANY = [
    ("*", "1.2.3", True),
    ("~0.0.0", "1.2.3", True),
    ("0.x.x", "1.2.3", False),
    ("0.0.x", "1.2.3", False),
    ("0.0.0", "1.2.3", False),
    ("^0.0.0", "1.2.3", False),
    ("= 2.0", "1.2.3", False),
    ("= 2.0", "2.0.0", True),
    ("4.1", "4.1.0", True),
    ("4.1.x", "4.1.3", True),
    ("1.x", "1.4", True),
    ("!=4.1", "4.1.0", False),
    ("!=4.1-alpha", "4.1.0-alpha", False),
    ("!=4.1-alpha", "4.1.1-alpha", False),
    ("!=4.1-alpha", "4.1.0", True),
    ("!=4.1", "5.1.0", True),
    ("!=4.x", "5.1.0", True),
    ("!=4.x", "4.1.0", False),
    ("!=4.1.x", "4.2.0", True),
    ("!=4.2.x", "4.2.3", False),
    (">1.1", "4.1.0", True),
    (">1.1", "1.1.0", False),
    ("<1.1", "0.1.0", True),
    ("<1.1", "1.1.0", False),
    ("<1.1", "1.1.1", False),
    ("<1.x", "1.1.1", False),
    ("<1.x", "0.1.1", True),
    ("<1.x", "2.0.0", False),
    ("<1.1.x", "1.2.1", False),
    ("<1.1.x", "1.1.500", False),
    ("<1.1.x", "1.0.500", True),
    ("<1.2.x", "1.1.1", True),
    (">=1.1", "4.1.0", True),
    (">=1.1", "4.1.0-beta", False),
    (">=1.1", "1.1.0", True),
    (">=1.1", "0.0.9", False),
    ("<=1.1", "0.1.0", True),
    ("<=1.1", "0.1.0-alpha", False),
    ("<=1.1-a", "0.1.0-alpha", True),
    ("<=1.1", "1.1.0", True),
    ("<=1.x", "1.1.0", True),
    ("<=2.x", "3.0.0", False),
    ("<=1.1", "1.1.1", True),
    ("<=1.1.x", "1.2.500", False),
    ("<=4.5", "3.4.0", True),
    ("<=4.5", "3.7.0", True),
    ("<=4.5", "4.6.3", False),
    (">1.1, <2", "1.1.1", False),
    (">1.1, <2", "1.2.1", True),
    (">1.1, <3", "4.3.2", False),
    (">=1.1, <2, !=1.2.3", "1.2.3", False),
    (">1.1 <2", "1.1.1", False),
    (">1.1 <2", "1.2.1", True),
    (">1.1    <3", "4.3.2", False),
    (">=1.1    <2    !=1.2.3", "1.2.3", False),
    (">=1.1, <2, !=1.2.3 || > 3", "4.1.2", True),
    (">=1.1, <2, !=1.2.3 || > 3", "3.1.2", False),
    (">=1.1, <2, !=1.2.3 || >= 3", "3.0.0", True),
    (">=1.1, <2, !=1.2.3 || > 3", "3.0.0", False),
    (">=1.1, <2, !=1.2.3 || > 3", "1.2.3", False),
    (">=1.1 <2 !=1.2.3", "1.2.3", False),
    (">=1.1 <2 !=1.2.3 || > 3", "4.1.2", True),
    (">=1.1 <2 !=1.2.3 || > 3", "3.1.2", False),
    (">=1.1 <2 !=1.2.3 || >= 3", "3.0.0", True),
    (">=1.1 <2 !=1.2.3 || > 3", "3.0.0", False),
    (">=1.1 <2 !=1.2.3 || > 3", "1.2.3", False),
    ("> 1.1, <     2", "1.1.1", False),
    (">   1.1, <2", "1.2.1", True),
    (">1.1, <  3", "4.3.2", False),
    (">= 1.1, <     2, !=1.2.3", "1.2.3", False),
    ("> 1.1 < 2", "1.1.1", False),
    (">1.1 < 2", "1.2.1", True),
    ("> 1.1    <3", "4.3.2", False),
    (">=1.1    < 2    != 1.2.3", "1.2.3", False),
    (">= 1.1, <2, !=1.2.3 || > 3", "4.1.2", True),
    (">= 1.1, <2, != 1.2.3 || > 3", "3.1.2", False),
    (">= 1.1, <2, != 1.2.3 || >= 3", "3.0.0", True),
    (">= 1.1, <2, !=1.2.3 || > 3", "3.0.0", False),
    (">= 1.1, <2, !=1.2.3 || > 3", "1.2.3", False),
    (">= 1.1 <2 != 1.2.3", "1.2.3", False),
    (">= 1.1 <2 != 1.2.3 || > 3", "4.1.2", True),
    (">= 1.1 <2 != 1.2.3 || > 3", "3.1.2", False),
    (">= 1.1 <2 != 1.2.3 || >= 3", "3.0.0", True),
    (">= 1.1 < 2 !=1.2.3 || > 3", "3.0.0", False),
    (">=1.1 < 2 !=1.2.3 || > 3", "1.2.3", False),
    (">= 1.0.0  <= 2.0.0-beta", "1.0.1-beta", True),
    (">= 1.0.0  <= 2.0.0-beta", "1.0.1", True),
    (">= 1.0.0  <= 2.0.0-beta", "3.0.0", False),
    (">= 1.0.0  <= 2.0.0-beta || > 3", "1.0.1-beta", True),
    (">= 1.0.0  <= 2.0.0-beta || > 3", "3.0.1-beta", False),
    (">= 1.0.0  <= 2.0.0-beta != 1.0.1 || > 3", "1.0.1-beta", True),
    (">= 1.0.0  <= 2.0.0-beta != 1.0.1-beta || > 3", "1.0.1-beta", False),
    (">= 1.0.0-0  <= 2.0.0", "1.0.1-beta", True),
    ("1.1 - 2", "1.1.1", True),
    ("1.5.0 - 4.5", "3.7.0", True),
    ("1.1-3", "4.3.2", False),
    ("^1.1", "1.1.1", True),
    ("^1.1", "4.3.2", False),
    ("^1.x", "1.1.1", True),
    ("^2.x", "1.1.1", False),
    ("^1.x", "2.1.1", False),
    ("^1.x", "1.1.1-beta1", False),
    ("^1.1.2-alpha", "1.2.1-beta1", True),
    ("^1.2.x-alpha", "1.1.1-beta1", False),
    ("^0.0.1", "0.0.1", True),
    ("^0.0.1", "0.3.1", False),
    ("~*", "2.1.1", True),
    ("~1", "2.1.1", False),
    ("~1", "1.3.5", True),
    ("~1", "1.4", True),
    ("~1.x", "2.1.1", False),
    ("~1.x", "1.3.5", True),
    ("~1.x", "1.4", True),
    ("~1.1", "1.1.1", True),
    ("~1.1", "1.1.1-alpha", False),
    ("~1.1-alpha", "1.1.1-beta", True),
    ("~1.1.1-beta", "1.1.1-alpha", False),
    ("~1.1.1-beta", "1.1.1", True),
    ("~1.2.3", "1.2.5", True),
    ("~1.2.3", "1.2.2", False),
    ("~1.2.3", "1.3.2", False),
    ("~1.1", "1.2.3", False),
    ("~1.3", "2.4.5", False),
    ("1.0.0 - 2.0.0 <=2.0.0", "1.5.0", True),
    ("1.0.0 - 2.0.0, <=2.0.0", "1.5.0", True),
]


@pytest.mark.parametrize(("constraint", "version", "expected"), SINGLE)
def test_single_constraint(constraint: str, version: str, expected: bool) -> None:
    assert semver_compare(constraint, version) is expected


@pytest.mark.parametrize(("constraint", "version", "expected"), MANY)
def test_constraints(constraint: str, version: str, expected: bool) -> None:
    assert Constraints.parse(constraint).check(Version.parse(version)) is expected


@pytest.mark.parametrize(
    ("constraint", "groups", "first_group"),
    [
        (">= 1.1", 1, 1),
        (">40.50.60, < 50.70", 1, 2),
        ("2.0", 1, 1),
        ("v2.3.5-20161202202307-sha.e8fc5e5", 1, 1),
        ("v1.2.3-0abc", 1, 1),
        (">= 1.2.3 < 2.0", 1, 2),
        (">= 1.2.3 < 2.0 || => 3.0 < 4", 2, 2),
        (">= 1.2.3, < 2.0", 1, 2),
        (">= 1.2.3, < 2.0 || => 3.0, < 4", 2, 2),
        ("3 - 4 || => 3.0, < 4", 2, 2),
        ("12.3.34 ~1.2.3", 1, 2),
        ("1.0.0 - 2.0.0, <=2.0.0", 1, 3),
    ],
)
def test_constraint_groups(constraint: str, groups: int, first_group: int) -> None:
    parsed = Constraints.parse(constraint)
    assert (len(parsed.groups), len(parsed.groups[0])) == (groups, first_group)


@pytest.mark.parametrize(
    "constraint",
    ["v1.2.3-beta.01", ">= bar", "BAR >= 1.2.3", "12.3.4.1234", "12.23.4.1234", "12.3.34.1234", "12.3.34~ 1.2.3", ""],
)
def test_improper_constraints_fail_the_template(constraint: str) -> None:
    with pytest.raises(SemverError):
        Constraints.parse(constraint)


@pytest.mark.parametrize("version", ["", "1.2.3.4", "v1.x", "1.2.3-01", "1.2.3+", "gke-1.29"])
def test_malformed_versions_fail_the_template(version: str) -> None:
    with pytest.raises(SemverError):
        Version.parse(version)


@pytest.mark.parametrize(
    ("constraint", "version", "expected"),
    [
        # helm template --kube-version 1.29 sets GitVersion "v1.29": coerced to 1.29.0
        (">=1.14-0", "v1.29", True),
        ("<1.14-0", "v1.29", False),
        ("^1.9-0", "v1.29", True),
        (">=1.4-0, <1.7-0", "v1.29", False),
        (">= 1.8-0", "v1.8", True),
        (">=1.14.0-0", "v1.14", True),
        # > on a two-part version is "dirty": >1.15 means 1.16 or later
        ("> 1.15.0-0", "v1.15.3", True),
        (">1.15", "v1.15.9", False),
        # managed clusters: the suffix is a pre-release, which only -0 constraints accept
        (">=1.14-0", "v1.29.4-gke.1043000", True),
        (">=1.14", "v1.29.4-gke.1043000", False),
        (">=1.14", "v1.29.3-eks-adc7111", False),
        ("<1.14", "v1.13.12-gke.1", False),
        ("<1.14-0", "v1.13.12-gke.1", True),
        # a pre-release sorts before its release: 1.14.0-0 is the lowest 1.14
        (">=1.14-0", "v1.14.0-alpha.1", True),
        ("<1.14-0", "v1.14.0-alpha.1", False),
    ],
)
def test_kubernetes_versions(constraint: str, version: str, expected: bool) -> None:
    assert semver_compare(constraint, version) is expected


def test_prerelease_order_follows_semver() -> None:
    ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11"]
    ordered += ["1.0.0-rc.1", "1.0.0"]
    versions = [Version.parse(v) for v in ordered]
    for low, high in pairwise(versions):
        assert low.compare(high) == -1
        assert high.compare(low) == 1
    assert Version.parse("1.0.0+build.1").compare(Version.parse("1.0.0")) == 0
