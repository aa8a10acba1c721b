"""Decisions: values only a human can choose, declared by migrations and settled with ``--set``.

A migration declares each decision it may ask for (``Decision("sideEffects", ("None",
"NoneOnDryRun"), "…")``), with a ``default`` when one value is a safe choice. The values a
run is given are checked once, before anything runs (``check_decisions``, used by the CLI
and the library alike); a body then only asks ``ctx.decision(name)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from .dataclasscode import dataclass
from .settings import SettingsError


@dataclass(frozen=True)
class Decision:
    """A value only a human can choose, settled with ``--set NAME=VALUE``.

    Without a ``default`` the decision is required wherever the migration needs it: the
    document is left unchanged with an error finding (K8SM-GEN-010) naming the option.
    """

    name: str
    allowed: tuple[str, ...]
    help: str
    default: str | None = None
    asked_if: re.Pattern[str] | None = None
    """Where the migration can ask for it: only in documents whose text this matches (``None``:
    in any). A cheap look that may match where the migration does not ask, never the reverse;
    ``scan`` runs the migration to learn what it asks only where it matches."""

    def may_ask(self, text: str) -> bool:
        """Whether a migration may ask for this decision in a document of this text."""
        return self.asked_if is None or self.asked_if.search(text) is not None

    def __post_init__(self) -> None:
        if not self.allowed:
            raise ValueError(f"decision {self.name!r} allows no value")
        if self.default is not None and self.default not in self.allowed:
            raise ValueError(f"decision {self.name!r}: default {self.default!r} is not one of {self.allowed}")


def check_decisions(given: Mapping[str, str], declared: Iterable[Decision]) -> None:
    """Every given decision is declared by some migration, with one of its allowed values."""
    allowed: dict[str, set[str]] = {}
    for d in declared:
        allowed.setdefault(d.name, set()).update(d.allowed)
    for name, value in given.items():
        values = sorted(allowed.get(name, ()))
        if not values:
            known = ", ".join(sorted(allowed)) or "none"
            raise SettingsError(f"unknown decision {name!r} (known: {known})")
        if value not in values:
            raise SettingsError(f"--set {name}={value}: not one of {' | '.join(values)}")


CHART_DECISIONS = (
    Decision(
        "template-actions",
        ("keep", "rewrite"),
        "in a chart, a computed apiVersion written inside a template action ({{ print "
        '"networking.k8s.io/v1beta1" }} in a _helpers.tpl define): rewrite the literal in the action, '
        "and replace an if whose arms then print the same by one arm, or keep every action as written",
        default="keep",
    ),
    Decision(
        "dead-branches",
        ("keep", "remove"),
        "in a chart, an if/else arm that picks an apiVersion and that no release from --min-version on "
        "takes: remove it (the if becomes its live arm), or keep it",
        default="keep",
    ),
    Decision(
        "unserved-kinds",
        ("keep", "gate"),
        "in a chart, a document of a kind that no apiVersion serves from some release of the window on "
        "(PodSecurityPolicy from 1.25): write it only for the releases before (an if on "
        ".Capabilities.KubeVersion around it), or keep it with its error",
        default="keep",
    ),
    Decision(
        "api-branches",
        ("keep", "write"),
        "in a chart, a literal apiVersion that no one API serves across the window (policy/v1beta1 "
        "PodDisruptionBudget with --min-version 1.19): when its body serves both, write an if on "
        ".Capabilities.KubeVersion that gives each release the API it serves, or keep it with its error",
        default="keep",
    ),
)
"""Decisions of the chart-level step (``templating.chartplan``), which is not a migration: the
registry checks them with the migrations' own."""


def chart_decision(given: Mapping[str, str], name: str) -> str:
    """The value of a chart-level decision: the one given, else its default."""
    declared = next(d for d in CHART_DECISIONS if d.name == name)
    return given.get(name, declared.default or declared.allowed[0])
