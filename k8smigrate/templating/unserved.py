"""A chart's document of a kind nothing serves any more, written only for the releases that serve it.

Kubernetes 1.25 removed PodSecurityPolicy and put no API in its place. A chart that still writes
one renders a document that every cluster from 1.25 on rejects, and ``helm install`` fails as a
whole. No migration can rewrite it (``K8SM-GEN-007``), but the chart can stop writing it where
it cannot be served, which is how upstream charts moved on (ingress-nginx, bitnami,
kube-prometheus-stack): ``{{- if semverCompare "<1.25-0" .Capabilities.KubeVersion.GitVersion }}``
around the document. Older clusters still get the policy; newer ones get nothing, and a human
still has to put Pod Security Admission in its place, which the finding says.

That adds two template actions to the chart, so it is a decision, ``--set unserved-kinds=gate``
(default ``keep``: the document stays with its error, and the error names the option where it
would work). It applies to a document whose written apiVersion is removed by the target when
(``gate_plan``)

- from some release of the window on, no release serves the kind at any apiVersion the
  written one migrates to (for ``policy/v1beta1`` PodSecurityPolicy: none from 1.25), and
- the releases of the window before that are served by the written apiVersion, or else by the
  newest one its migrations lead to (``via``: an ``extensions/v1beta1`` PodSecurityPolicy with
  ``--min-version 1.19`` is written as ``policy/v1beta1``, the same fields, once a trial
  migration shows that nothing else changes).

The condition is ``semverCompare "<X-0" $.Capabilities.KubeVersion.GitVersion`` with ``X``
the removal of the apiVersion written (``-0`` so that ``v1.24.3-gke.100`` still counts as 1.24;
``$`` so that it reads the chart's root inside ``range`` and ``with``). A chart migrated this way
is read as gated on the next run (``gates``, K8SM-TPL-008): nothing more to do.

Where the ``if`` goes (``wrapped``): around the document's lines from its first line of YAML to
its last, inside any block that opens before them, and around an if/else just above them that
only picks the apiVersion line. Both actions trim the line break before them and write one
after them, so that where the condition holds the rendering is byte for byte what it was. The
lines in between must hold whole blocks (an ``if`` that opens in them closes in them, or on
``end`` lines right after them); otherwise the document is left as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import NamedTuple

from ..regexcode import regex
from ..results import Finding
from ..versions import KubeVersion, Window
from .mask import Tag
from .semver import on_cluster_version

DECISION = "unserved-kinds"
REMOVED_CODES = frozenset({"K8SM-GEN-007", "K8SM-GEN-009"})
"""The engine's errors for a document on a removed API that nothing migrates."""


def one_error(chart: list[Finding], engine: list[Finding]) -> list[Finding]:
    """The chart-level step's findings then the engine's, one error per document: where the
    step's ``K8SM-TPL-104`` (no API of the kind is served: a PodSecurityPolicy whose apiVersion
    an if/else picks) stands at the line of the engine's error for the document
    (``REMOVED_CODES``, with the advice for the kind), that error alone stays, with the step's
    offer (``--set unserved-kinds=gate``) added."""
    engine = list(engine)
    kept: list[Finding] = []
    for finding in chart:
        same = (
            next((k for k, e in enumerate(engine) if e.code in REMOVED_CODES and e.line == finding.line), None)
            if finding.code == "K8SM-TPL-104"
            else None
        )
        if same is None:
            kept.append(finding)
            continue
        at = finding.message.find(_OFFER)  # the note ``offered`` wrote
        offer = finding.message[at:] if at >= 0 else ""
        if offer and offer not in engine[same].message:
            engine[same] = _with_note(engine[same], offer)
    return kept + engine


_ONLY_MARKER = regex(r"(?:---|\.\.\.)(?:[ \t].*)?")


class GatePlan(NamedTuple):
    """Where a document of a kind nothing serves any more is left out, and what it is written as."""

    release: KubeVersion
    """The document is written only for releases before this one."""
    via: str | None = None
    """The apiVersion to write instead of the document's own (which no release of the window
    before ``release`` serves), or None to keep it."""


def gate_plan(api: str, kind: str, window: Window) -> GatePlan | None:
    """How to write a document of ``kind`` at ``api`` only for the releases that serve it, or
    None when leaving it out would lose something a release of the window serves."""
    from .capabilities import chain, lifecycle, releases, served
    from .capabilities import unserved as unserved_releases

    life = lifecycle(api, kind)
    if life is None or life.removed_in is None or life.removed_in > window.target:
        return None
    span = releases(window.min_version, window.target)
    apis = chain(api, kind)
    gone = unserved_releases([api], kind, span)
    if not gone or gone != span[span.index(gone[0]) :]:
        return None  # an apiVersion serves it at the target: a migration's job, not a gate's
    before = [r for r in span if r < gone[0]]
    if all(served(api, kind, r) for r in before):
        return GatePlan(life.removed_in)
    # written at an apiVersion already gone (extensions/v1beta1 PodSecurityPolicy with
    # --min-version 1.19): the newest one its migrations lead to that serves the releases before
    via = next((a for a in reversed(apis[1:]) if all(served(a, kind, r) for r in before)), None)
    via_life = lifecycle(via, kind) if via is not None else None
    if via is None or via_life is None or via_life.removed_in is None:
        return None
    return GatePlan(via_life.removed_in, via)


def kind_end(apis: list[str], kind: str) -> KubeVersion | None:
    """The release from which none of ``apis`` (nor an apiVersion they migrate to) serves ``kind``."""
    from .capabilities import chain, lifecycle

    removals = [lifecycle(a, kind) for api in apis for a in chain(api, kind)]
    if not removals or any(life is None or life.removed_in is None for life in removals):
        return None
    return max(life.removed_in for life in removals if life is not None and life.removed_in is not None)


def condition(release: KubeVersion) -> str:
    """Written only for the releases before ``release``."""
    return on_cluster_version("<", release)


class Wrapped(NamedTuple):
    """A template with one document inside the ``if``, and where that ``if``'s body is in it."""

    text: str
    body_start: int
    body_end: int


def wrapped(text: str, tags: list[Tag], span: tuple[int, int], release: KubeVersion) -> Wrapped | None:
    """``text`` with the document at ``span`` written only below ``release``; None when its
    lines do not hold whole template blocks (the document is then left as it is)."""
    region = _region(text, tags, span)
    if region is None:
        return None
    first, last = region
    newline = "\r\n" if "\r\n" in text else "\n"
    opening = "{{- if " + condition(release) + " }}" + newline
    closing = "{{- end }}" + newline if text.endswith("\n", 0, last) else newline + "{{- end }}"
    body = first + len(opening)
    return Wrapped(text[:first] + opening + text[first:last] + closing + text[last:], body, body + last - first)


def _region(text: str, tags: list[Tag], span: tuple[int, int]) -> tuple[int, int] | None:
    start, end = span
    lines = list(_lines(text, start, end))
    content = [k for k, (a, b) in enumerate(lines) if _is_content(text, a, b, tags)]
    if not content:
        return None
    head = content[0]
    first, last = lines[head][0], lines[content[-1]][1]
    depth = _depth(tags, first, last)
    # an else or end of a block that opens on the control lines just above the YAML (an if
    # that picks the apiVersion line): the region starts with that block
    while depth is None and head > 0 and lines[head - 1][1] > start:
        head -= 1
        first = lines[head][0]
        depth = _depth(tags, first, last)
    if depth is None or any(t.start < first < t.end or t.start < last < t.end for t in tags):
        return None  # an arm or the end of a block that opened before the document, or a tag across an edge
    if first < lines[content[0]][0] and not _picks_api_version(text, tags, first, lines[content[0]][0], lines):
        return None  # a block pulled in holds more than the apiVersion line: other YAML would be gated too
    while depth > 0:  # blocks opened in the document that close on the lines right after it
        if last >= len(text):
            return None
        line_end = text.find("\n", last)
        line_end = len(text) if line_end < 0 else line_end + 1
        on_line = [t for t in tags if last <= t.start < line_end]
        rest = text[last:line_end]
        if not on_line and not rest.strip():
            last = line_end  # a blank line before the end
            continue
        for t in reversed(on_line):
            rest = rest[: t.start - last] + rest[t.end - last :]
        if rest.strip() or not on_line or any(t.role != "end" or t.end > line_end for t in on_line):
            return None
        depth -= len(on_line)
        if depth < 0:
            return None
        last = line_end
    return first, last


def _picks_api_version(text: str, tags: list[Tag], first: int, yaml_start: int, lines: list[tuple[int, int]]) -> bool:
    """Whether every block that opens in ``[first, yaml_start)`` writes only apiVersion lines
    until its end (``{{ if … }}apiVersion: a{{ else }}apiVersion: b{{ end }}`` on lines)."""
    for i, opener in enumerate(tags):
        if not (first <= opener.start < yaml_start) or opener.role not in ("if", "open"):
            continue
        depth, close = 0, None
        for tag in tags[i:]:
            depth += 1 if tag.role in ("if", "open") else -1 if tag.role == "end" else 0
            if depth == 0:
                close = tag.start
                break
        if close is None:
            return False
        inside = [(a, b) for a, b in lines if opener.end <= a and b <= close + 1 and _is_content(text, a, b, tags)]
        if any(not text[a:b].lstrip().startswith("apiVersion:") for a, b in inside):
            return False
    return True


def _depth(tags: list[Tag], first: int, last: int) -> int | None:
    """How many blocks that open in ``[first, last)`` are still open at its end; None when it
    holds an arm or the end of a block that opened before it."""
    depth = 0
    for tag in (t for t in tags if first <= t.start < last):
        if tag.role in ("if", "open"):
            depth += 1
        elif tag.role == "else" and depth == 0:
            return None
        elif tag.role == "end":
            depth -= 1
            if depth < 0:
                return None
    return depth


def _lines(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    at = start
    while at < end:
        stop = text.find("\n", at, end)
        stop = end if stop < 0 else stop + 1
        yield at, stop
        at = stop


def _is_content(text: str, a: int, b: int, tags: list[Tag]) -> bool:
    """Whether a line writes YAML: not blank, a comment, a document marker or only control tags."""
    on_line = [t for t in tags if t.start < b and t.end > a]
    if any(t.writes for t in on_line):
        return True
    rest = text[a:b]
    for t in sorted(on_line, key=lambda t: t.start, reverse=True):
        rest = rest[: max(0, t.start - a)] + rest[max(0, t.end - a) :]
    body = rest.strip()
    return bool(body) and not body.startswith("#") and _ONLY_MARKER.fullmatch(body) is None


def gated_finding(
    kind: str, api: str, release: KubeVersion, hint: str, filename: str, line: int, via: str | None = None
) -> Finding:
    written = f"writes it as {via} (the same fields)" if via else "writes it"
    message = (
        f"{kind} {api} is removed and no apiVersion serves {kind} from {release} on: the chart now "
        f"{written} only where {condition(release)} holds (--set {DECISION}=gate)"
    )
    if hint:
        message += f"; from {release} on, {hint}"
    return Finding("warning", "K8SM-TPL-009", message, None, filename, 0, line)


def not_wrapped(finding: Finding) -> Finding:
    return _with_note(finding, f"--set {DECISION}=gate cannot put an if around it: its lines do not hold whole blocks")


_OFFER = f"In a chart, --set {DECISION}=gate "


def offered(finding: Finding, plan: GatePlan) -> Finding:
    written = f"writes it as {plan.via}" if plan.via else "writes it"
    return _with_note(finding, f"{_OFFER}{written} only for the releases before {plan.release}")


def _with_note(finding: Finding, note: str) -> Finding:
    return replace(finding, message=f"{finding.message}. {note}")
