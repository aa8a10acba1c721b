"""Feature-gate lifecycle table and rules, shared by the feature-gate checks.

The table is ``k8smigrate/data/feature_gates.tsv`` (a copy of the research
table: first release seen, GA release, deprecated release, locked release and value, removed
release); rows up to 1.30 come from upstream ``kube_features.go`` as vendored at each
release, rows from 1.31 from a secondary copy of upstream ``versioned_feature_list.yaml``.

``judge`` applies the rules of ``component-base/featuregate/feature_gate.go``: a removed gate
makes the component refuse to start (``unrecognized feature gate``), and so does a locked
gate set to the other value (``cannot set feature gate … feature is locked to …``).
"""

from __future__ import annotations

import csv
from functools import cache

from k8smigrate.codes import Code
from k8smigrate.packagedata import data_text
from k8smigrate.results import Level
from k8smigrate.versions import KubeVersion, Window

from ..dataclasscode import dataclass

CODES = (
    Code("K8SM-GATE-001", "info", "a removed gate set to the behaviour the component now always has; deleted"),
    Code("K8SM-GATE-002", "error", "a removed gate set against the behaviour the component now always has"),
    Code("K8SM-GATE-003", "error", "a locked gate set to the other value; the component refuses to start"),
    Code("K8SM-GATE-004", "info", "a locked gate set to its locked value (only a start-up warning; kept)"),
    Code("K8SM-GATE-005", "info", "a GA gate that will be locked or removed in a later release"),
    Code("K8SM-GATE-006", "warning", "a gate the table does not know (typo, other project, gone before 1.17)"),
    Code("K8SM-GATE-007", "warning", "a removed gate deleted although it was not yet on by default at --min-version"),
    Code("K8SM-GATE-008", "warning", "a gate introduced after the target release"),
    Code("K8SM-GATE-009", "error", "a gate value that is not a boolean"),
)


@dataclass(frozen=True)
class Gate:
    """One feature gate of the table: when it appeared, went GA, was deprecated, locked, removed."""

    name: str
    first_seen: KubeVersion | None
    ga: KubeVersion | None
    deprecated: KubeVersion | None
    locked: KubeVersion | None
    locked_value: bool | None
    removed: KubeVersion | None

    @property
    def final(self) -> bool:
        """The behaviour the component has once the gate is gone."""
        if self.locked_value is not None:
            return self.locked_value
        return self.ga is not None


def _version(text: str) -> KubeVersion | None:
    # one GA cell reads "<=1.17?" (GA before the data starts): the earliest release known
    text = text.strip().lstrip("<=").rstrip("?")
    return KubeVersion.parse(text) if text else None


def parse_table(text: str) -> dict[str, Gate]:
    gates: dict[str, Gate] = {}
    rows = csv.reader(text.splitlines(), delimiter="\t")
    next(rows, None)
    for row in rows:
        if not row or not row[0].strip():
            continue
        name, first, ga, deprecated, locked, removed = (row + [""] * 6)[:6]
        locked_at, _, locked_value = locked.partition("=")
        gates[name.strip()] = Gate(
            name.strip(),
            _version(first),
            _version(ga),
            _version(deprecated),
            _version(locked_at),
            {"true": True, "false": False}.get(locked_value.strip()),
            _version(removed),
        )
    return gates


@cache
def table() -> dict[str, Gate]:
    return parse_table(data_text("feature_gates.tsv"))


def parse_bool(text: str) -> bool | None:
    """Go's ``strconv.ParseBool``, which the ``--feature-gates`` flag uses."""
    if text in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if text in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    return None


@dataclass(frozen=True)
class Verdict:
    """What to do with one gate setting: delete it or keep it, and the finding that says so."""

    delete: bool
    level: Level | None = None
    code: str = ""
    message: str = ""


KEEP = Verdict(False)


def judge(name: str, value: bool, window: Window, gates: dict[str, Gate] | None = None) -> Verdict:
    """What to do with ``name=value`` so that the component starts on every release of the window."""
    gate = (gates if gates is not None else table()).get(name)
    setting = f"{name}={str(value).lower()}"
    target = window.target
    if gate is None:
        return Verdict(False, "warning", "K8SM-GATE-006", f"feature gate {name} is unknown; check its spelling")
    if gate.removed is not None and gate.removed <= target:
        return _removed(gate, value, setting, window)
    if gate.locked is not None and gate.locked <= target:
        if value != gate.locked_value:
            return Verdict(
                False,
                "error",
                "K8SM-GATE-003",
                f"{setting}: the gate is locked to {str(gate.locked_value).lower()} from {gate.locked}; "
                "the component refuses to start",
            )
        later = f" and removed in {gate.removed}" if gate.removed else ""
        return Verdict(False, "info", "K8SM-GATE-004", f"{setting}: locked from {gate.locked}{later}; can go")
    if gate.first_seen is not None and gate.first_seen > target:
        return Verdict(False, "warning", "K8SM-GATE-008", f"{setting}: the gate first appears in {gate.first_seen}")
    if gate.ga is not None and gate.ga <= target and (gate.locked or gate.removed):
        plans = [
            f"locked in {gate.locked}" if gate.locked else "",
            f"removed in {gate.removed}" if gate.removed else "",
        ]
        return Verdict(
            False,
            "info",
            "K8SM-GATE-005",
            f"{setting}: GA since {gate.ga}; " + ", ".join(p for p in plans if p),
        )
    return KEEP


def _removed(gate: Gate, value: bool, setting: str, window: Window) -> Verdict:
    if gate.name.startswith("InTreePlugin") and gate.name.endswith("Unregister"):
        # the in-tree plugin code went with the gate: either value now means the same
        return Verdict(
            True,
            "info",
            "K8SM-GATE-001",
            f"{setting}: removed in {gate.removed} with the in-tree plugin; deleted",
        )
    if value != gate.final:
        return Verdict(
            False,
            "error",
            "K8SM-GATE-002",
            f"{setting}: the gate is removed in {gate.removed} and the component always behaves as "
            f"{gate.name}={str(gate.final).lower()} since; it refuses to start with the gate set",
        )
    on_by = min((v for v in (gate.ga, gate.locked) if v is not None), default=None)
    if value and window.min_version < gate.removed and (on_by is None or on_by > window.min_version):
        return Verdict(
            True,
            "warning",
            "K8SM-GATE-007",
            f"{setting}: removed in {gate.removed}; deleted, but at --min-version {window.min_version} "
            f"the gate was not yet GA (GA in {gate.ga or 'never'}): check its default there",
        )
    return Verdict(
        True,
        "info",
        "K8SM-GATE-001",
        f"{setting}: removed in {gate.removed}, where it is always {str(gate.final).lower()}; deleted",
    )
