"""Migrating a template: mask it, migrate the skeleton as plain YAML, unmask the result.

The engine is not changed for templates: it migrates the skeleton (``mask``), whose
documents, lines and columns are the template's own. Each document of the result is then
unmasked on its own; a document whose migration lost, copied or re-indented template text,
or that the skeleton could not represent, is left byte-identical with a located error
finding, and the other documents of the file are still migrated. Finding messages and
patches are unmasked too, and the file's actions are checked once more at the end: the
same actions, as a multiset, must come out as went in.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine import migrate_stream
from ..prefilter import may_need, prefilter
from ..regexcode import regex
from ..registry import Registry, default_registry
from ..results import DocumentResult, FileResult, Finding
from ..settings import Settings
from ..versions import KubeVersion
from ..yamlio import EVERY, read_stream
from . import placeholders as ph
from .golex import LexError
from .markers import MARKERS, TOP_LEVEL
from .markers import needs_masking as needs_masking  # where tests and callers have found it
from .mask import Chain, Problem, Region, Skeleton, Tag, UnmaskError, blocks, chains, mask, unmask, unmask_message
from .values import Scope, scope

if TYPE_CHECKING:
    from ..lifecycles import ApiLifecycle
    from ..versions import Window
    from ..yamlio.documents import Document
    from .gates import Gate

JINJA_SUFFIXES = (".j2", ".jinja", ".jinja2")
_DOC_MARKER = regex(r"^(?:---|\.\.\.)(?=[ \t\r\n]|$)", re.M)
_JINJA_COMMENT = regex(r"(?<!\$)\{#.*?#\}", re.S)
"""A Jinja2 comment: a shell script in a Helm template counts an array with ``${#names[@]}``."""
_JINJA_STATEMENT = regex(r"\{%[-+]?\s*[A-Za-z_]\w*(?:\s|[-+]?%\})")
"""A Jinja2 statement (``{% if``, ``{%- for``): a Go ``printf`` format in a Helm template writes
``{"auths":{%s:…}}`` (cockroachdb's registry secret), which is none."""


def dialect_of(text: str, filename: str) -> str | None:
    """``go``, ``jinja`` or None (no template markers)."""
    if not MARKERS.search(text):
        return None
    if filename.endswith(JINJA_SUFFIXES) or filename.endswith(tuple(s + ".yaml" for s in JINJA_SUFFIXES)):
        return "jinja"
    if ("{%" in text and _JINJA_STATEMENT.search(text)) or ("{#" in text and _JINJA_COMMENT.search(text)):
        return "jinja"
    return "go"


def migrate_template(
    text: str,
    settings: Settings | None = None,
    filename: str = "<string>",
    registry: Registry | None = None,
    *,
    values: Any = None,
    dialect: str | None = None,
    report_only: bool = False,
    api_bodies: dict[int, tuple[str, str]] | None = None,
    gates: list[Gate] | None = None,
    newline_defines: frozenset[str] = frozenset(),
) -> FileResult:
    """Migrate a Helm (Go) or Jinja2 template; ``values`` are the chart's values.yaml data.

    ``api_bodies``: for documents (by index in the file) whose apiVersion the chart computes,
    ``(from, to)``: the API their body is written for and the one it must be migrated to
    (``apiversions`` rewrote the apiVersion itself). The engine migrates the body as if the
    document said ``from``; the apiVersion line stays as the template writes it. ``gates``:
    the chart's version conditions in this file (``gates.gates``); a document on a removed API
    that one of them keeps from every release without that API is left alone (K8SM-TPL-008).
    ``newline_defines``: the chart's defines whose output starts with a line break
    (``define_output``).
    """
    settings = settings or Settings()
    registry = registry or default_registry()
    dialect = dialect or dialect_of(text, filename) or "go"
    try:
        tags, hidden, _actions, resolve = _tags(text, dialect, values, gates, settings.window, newline_defines)
    except LexError as exc:
        line = text.count("\n", 0, exc.pos) + 1
        message = f"not a valid {_NAMES[dialect]} template: {exc.message}; left unchanged"
        return FileResult(filename, text, text, [Finding("error", "K8SM-TPL-001", message, None, filename, 0, line)])
    wanted = prefilter(registry, settings, settings.window)
    masked = _skeleton(text, tags, hidden, lambda piece: wanted(piece) and may_need(piece, registry, settings))
    skeleton = masked.skeleton
    chunks = _chunks(skeleton.text)
    failed: dict[int, Finding] = {}
    for problem in skeleton.problems:
        n = _chunk_at(chunks, skeleton.text, problem.line)
        if n not in failed:
            message = f"the template cannot be read as YAML here: {problem.message}; document left unchanged"
            failed[n] = Finding("error", "K8SM-TPL-002", message, None, filename, 0, problem.line)
    for n, (start, end) in enumerate(chunks):
        if n in failed:
            continue
        doc = read_stream(skeleton.text[start:end], wanted=EVERY)
        bad = next((d.problem for d in doc.documents if d.problem is not None), None)
        if bad is not None:
            line = skeleton.text.count("\n", 0, start) + bad.line
            message = unmask_message(bad.message, skeleton)
            failed[n] = Finding(
                "error",
                "K8SM-TPL-002",
                f"the template's YAML skeleton does not parse here ({message}); document left unchanged",
                None,
                filename,
                0,
                line,
            )

    def idle(finding: Finding, n: int) -> Finding:
        """An unreadable document is an error only where a migration may need it: else TPL-007."""
        piece = text[chunks[n][0] : chunks[n][1]]
        if wanted(piece) and may_need(piece, registry, settings, consequential=True):
            return finding
        message = finding.message.replace("document left unchanged", "nothing in it to migrate")
        return replace(finding, level="info", code="K8SM-TPL-007", message=message)

    for n, finding in list(failed.items()):
        failed[n] = idle(finding, n)
    for n, finding in version_gated(text, chunks, gates or [], settings, filename).items():
        failed.setdefault(n, finding)  # not migrated: written only where its API is served
    engine = _Engine(text, chunks, set(failed), api_bodies or {}, resolve, settings, filename, registry, report_only)
    engine_chunks, bodies, result = engine.run(skeleton)
    left_out: dict[int, list[Finding]] = {}  # what the branches left out are found to have, by document
    unreadable = set(failed)
    for chain in masked.shapes:
        n = next(k for k, (start, end) in enumerate(chunks) if start <= tags[chain.tags[0]].start < end)
        if n not in failed:
            refused, found = _check_left_out(chain, n, masked, hidden, tags, engine, result.text)
            if refused is not None and refused.code == "K8SM-TPL-002":
                unreadable.add(n)
                refused = idle(refused, n)
            if refused is not None:
                failed[n] = refused
            left_out.setdefault(n, []).extend(found)
    for span in outermost(masked.unreadable):
        n = next(k for k, (start, end) in enumerate(chunks) if start <= span[0] < end)
        if n not in failed:
            out_start, out_end = _chunks(result.text)[n]
            found_here = _check_unreadable(span, text, tags, engine_chunks[n], result.text[out_start:out_end], filename)
            if found_here is None:
                continue
            if found_here.level == "error":
                unreadable.add(n)
                failed[n] = idle(found_here, n)
            else:
                left_out.setdefault(n, []).append(found_here)

    def document_of(chain: Chain) -> int:
        return _chunk_at(chunks, skeleton.text, text.count("\n", 0, tags[chain.tags[0]].start) + 1)

    left_out_spans = [*hidden, *masked.dead]
    whole = _Whole(masked, hidden, tags, engine, engine_chunks, result.text)
    for chain in chains(tags):
        n = document_of(chain)
        if n in failed or not whole.changed(n):
            continue
        if any(a < e and s < b for a, b in chain.branches(tags) for s, e in left_out_spans):
            continue  # a branch left out is checked above (_check_left_out)
        refused = _check_live_branches(chain, n, whole)
        if refused is not None:
            failed[n] = refused
    if unreadable - engine.failed:  # the engine does not see a document it cannot read, as above
        engine.failed = unreadable
        engine_chunks, bodies, result = engine.run(skeleton)
    own = _OwnBranches(tags, dialect)
    whole = _Whole(masked, hidden, tags, engine, engine_chunks, result.text)
    for chain, live in masked.alike:
        n = document_of(chain)
        if n not in failed and whole.changed(n):
            found_own = _own_migrations(chain, live, n, whole)
            if found_own is not None:
                own.add(n, (chain.tags[live], chain.tags[live + 1]), *found_own)
    frozen_regions = [
        (_region_at(skeleton, tags[a].start), _region_at(skeleton, tags[b].start))
        for a, b in masked.frozen
        if (a, b) not in own.unfrozen
    ]
    before_unmasking = dict(failed)
    trimmed: set[int] = set()
    out = _unmasked(
        text,
        skeleton,
        chunks,
        result,
        failed,
        filename,
        frozen_regions,
        engine_chunks,
        bodies,
        masked.kept,
        trimmed,
        own,
    )
    if trimmed:  # a selector after the pod template would follow {{- end -}}: once more, before it
        engine.selector_first = _documents_of(trimmed, chunks, text, result)
        engine_chunks, bodies, result = engine.run(skeleton)
        failed = before_unmasking
        frozen_regions = [
            (_region_at(skeleton, tags[a].start), _region_at(skeleton, tags[b].start)) for a, b in masked.frozen
        ]  # the branches' own migrations were checked against the first run's: not given here
        out = _unmasked(
            text, skeleton, chunks, result, failed, filename, frozen_regions, engine_chunks, bodies, masked.kept, set()
        )
    else:
        for n, branch_findings in own.findings.items():
            if n not in failed:
                left_out.setdefault(n, []).extend(branch_findings)
    # a key written twice, met by a check that reads templated values (an image from values.yaml)
    out.findings = [
        idle(f, _chunk_at(chunks, skeleton.text, f.line)) if f.code == "K8SM-TPL-004" and f.level == "error" else f
        for f in out.findings
    ]
    extra = [f for n, found in left_out.items() if n not in failed for f in found]
    if extra:
        out.findings = sorted(out.findings + extra, key=lambda f: (f.line, f.level != "error"))
    out.findings += _computed_api_versions(out.text, settings, filename, resolve, set(api_bodies or {}))
    if dialect == "go":
        _unserved_kinds(out, settings, registry, values, newline_defines)
        _api_branches(out, settings, registry, values, newline_defines)
    return out


def _api_branches(
    out: FileResult, settings: Settings, registry: Registry, values: Any, newline_defines: frozenset[str]
) -> None:
    """Literal apiVersions that no one API serves across the window (``K8SM-GEN-009``) and whose
    body serves both the old API and the new one: with ``--set api-branches=write`` picked by
    release, else their error names that option (``branching``)."""
    from ..decisions import chart_decision
    from . import branching

    window = settings.window
    found: dict[int, tuple[tuple[int, int], re.Match[str], str, str, KubeVersion, tuple[str, ...], list[Finding]]] = {}
    for n, span, api, kind, errors in _left_with(out, {branching.REPLACEMENT_UNAVAILABLE}, window):
        plan = branching.branch_plan(api.group(1), kind.group(1), window)
        if plan is not None:
            found[n] = (span, api, kind.group(1), *plan, errors)
    after = _chunks(out.text)
    if not found:
        return
    # the one body must serve the newer API too: migrated to it over [s, target], only its
    # apiVersion may change (one trial per s; the decision off, so the trial does not recurse)
    trials = {
        since: _trial(out, settings, branching.DECISION, registry, values, newline_defines, min_version=str(since))
        for since in {entry[4] for entry in found.values()}
    }
    write = chart_decision(settings.decisions, branching.DECISION) == "write"
    for n in sorted(found, reverse=True):  # later documents first: earlier offsets stay valid
        span, api, kind_name, newer, since, older, errors = found[n]
        trial = trials[since]
        first, last = (out.original.count("\n", 0, x) + 1 for x in span)
        found_body: str | None = None
        if older[0] == api.group(1) and _only_api_changed(out, trial, n, span, api, newer):
            found_body, before = out.original[slice(*span)], api.group(1)  # the body as written serves both
        else:  # the newer body, under an apiVersion whose step to it declares the same fields
            found_body = _migrated_body(out, trial, n, first, last, newer)
            before = next((o for o in older if o != api.group(1)), "")
        if found_body is None or not before:
            continue
        body = found_body
        if not write:
            out.findings = [branching.offered(f, newer, since) if f in errors else f for f in out.findings]
            continue
        written = _API_LINE.search(body)
        assert written is not None  # both bodies hold the document's apiVersion line
        body = body[: written.start(1)] + branching.branched(before, newer, since) + body[written.end(1) :]
        out.text = out.text[: after[n][0]] + body + out.text[after[n][1] :]
        line = out.original.count("\n", 0, span[0] + api.start(1)) + 1
        notes = [f for f in trial.findings if first <= f.line <= last and f not in out.findings]
        moved = api.group(1) if before != api.group(1) else None
        added = branching.branched_finding(kind_name, before, newer, since, out.filename, line, moved)
        out.findings = sorted(
            [f for f in out.findings if f not in errors] + [added, *notes], key=lambda f: (f.line, f.level != "error")
        )


def _migrated_body(out: FileResult, trial: FileResult, n: int, first: int, last: int, api: str) -> str | None:
    """Document ``n`` as ``trial`` migrated it to ``api`` with no error in it; None otherwise."""
    chunks = _chunks(trial.text)
    if len(chunks) != len(_chunks(out.original)):
        return None
    body = trial.text[slice(*chunks[n])]
    written = _API_LINE.search(body)
    if written is None or written.group(1) != api:
        return None
    if any(f.level == "error" and first <= f.line <= last for f in trial.findings):
        return None
    return body


def _unserved_kinds(
    out: FileResult, settings: Settings, registry: Registry, values: Any, newline_defines: frozenset[str]
) -> None:
    """Documents of a kind no release serves from some release of the window on (PodSecurityPolicy
    from 1.25): with ``--set unserved-kinds=gate`` written only for the releases before, else
    their error names that option (``unserved``)."""
    from ..decisions import chart_decision
    from ..hints import INSTEAD
    from . import gotemplate, unserved

    found = []
    for n, span, api, kind, errors in _left_with(out, unserved.REMOVED_CODES, settings.window):
        plan = unserved.gate_plan(api.group(1), kind.group(1), settings.window)
        if plan is None:
            continue
        if plan.via is not None:  # written as the apiVersion that serves the releases before: only if it is all
            last_served = KubeVersion(plan.release.major, plan.release.minor - 1)
            trial = _trial(
                out, settings, unserved.DECISION, registry, values, newline_defines, target_version=str(last_served)
            )
            if not _only_api_changed(out, trial, n, span, api, plan.via):
                continue
        line = out.original.count("\n", 0, span[0] + api.start()) + 1
        found.append((n, api, kind.group(1), plan, errors, line))
    gate = chart_decision(settings.decisions, unserved.DECISION) == "gate"
    after = _chunks(out.text)
    for n, api, kind_name, plan, errors, line in reversed(found):  # later documents first
        text, span = out.text, after[n]
        if plan.via is not None:  # the same fields under the apiVersion that serves the releases before
            text = text[: span[0] + api.start(1)] + plan.via + text[span[0] + api.end(1) :]
            span = (span[0], span[1] + len(plan.via) - len(api.group(1)))
        done = unserved.wrapped(text, gotemplate.tags(text)[0], span, plan.release)
        if done is None:
            if gate:
                out.findings = [unserved.not_wrapped(f) if f in errors else f for f in out.findings]
            continue  # (not offered: it would not work)
        if not gate:
            out.findings = [unserved.offered(f, plan) if f in errors else f for f in out.findings]
            continue
        out.text = done.text
        hint = INSTEAD.get((api.group(1), kind_name), "")
        gated = unserved.gated_finding(kind_name, api.group(1), plan.release, hint, out.filename, line, plan.via)
        out.findings = sorted(
            [f for f in out.findings if f not in errors] + [gated], key=lambda f: (f.line, f.level != "error")
        )


def _left_with(
    out: FileResult, codes: Iterable[str], window: Window
) -> Iterator[tuple[int, tuple[int, int], re.Match[str], re.Match[str], list[Finding]]]:
    """(index, span, apiVersion, kind, errors) of each document on an API removed in ``window``
    that the migration left as it was, with errors of ``codes`` (most files have none: nothing
    is read again for them)."""
    codes = set(codes)
    if not any(f.level == "error" and f.code in codes for f in out.findings):
        return
    before, after = _chunks(out.original), _chunks(out.text)
    if len(after) != len(before):
        return
    for n, span, api, kind, _life in removed_documents(out.original, before, window):
        first, last = (out.original.count("\n", 0, at) + 1 for at in span)
        errors = [f for f in out.findings if f.level == "error" and f.code in codes and first <= f.line <= last]
        if errors and out.text[after[n][0] : after[n][1]] == out.original[span[0] : span[1]]:
            yield n, span, api, kind, errors


def _trial(
    out: FileResult,
    settings: Settings,
    decision: str,
    registry: Registry,
    values: Any,
    newline_defines: frozenset[str],
    **window: str,
) -> FileResult:
    """The file migrated over another window (``min_version``/``target_version``), without
    ``decision`` (so that a trial does not try again what it checks)."""
    decisions = {k: v for k, v in settings.decisions.items() if k != decision}
    narrowed = replace(settings, decisions=decisions, **window)  # type: ignore[arg-type]
    return migrate_template(
        out.original, narrowed, out.filename, registry, values=values, dialect="go", newline_defines=newline_defines
    )


def _only_api_changed(
    out: FileResult, trial: FileResult, n: int, span: tuple[int, int], api: re.Match[str], new_api: str
) -> bool:
    """Whether the trial leaves document ``n`` (at ``span`` of the original) as it was but for its
    apiVersion, now ``new_api``, with no error in it."""
    chunks = _chunks(trial.text)
    at = span[0] + api.start(1)
    expected = out.original[span[0] : at] + new_api + out.original[span[0] + api.end(1) : span[1]]
    first, last = (out.original.count("\n", 0, x) + 1 for x in span)
    return (
        len(chunks) == len(_chunks(out.original))
        and out.original[slice(*span)] != expected
        and trial.text[slice(*chunks[n])] == expected
        and not any(f.level == "error" and first <= f.line <= last for f in trial.findings)
    )


def version_gated(
    text: str, chunks: list[tuple[int, int]], gates: list[Gate], settings: Settings, filename: str
) -> dict[int, Finding]:
    """The documents on an API removed in the window that a version condition of the chart
    writes only at releases still serving it (K8SM-TPL-008, info), by index."""
    from .capabilities import release_ranges, releases

    window = settings.window
    out: dict[int, Finding] = {}
    for n, (start, end), api, kind, life in removed_documents(text, chunks, window):
        assert life.removed_in is not None
        gone = set(releases(max(life.removed_in, window.min_version), window.target))
        at = start + api.start()
        for gate in gates:
            inside = gate.start <= at < gate.end
            outside = _TAG.sub("", text[start : max(start, gate.start)] + text[min(end, gate.end) : end])
            if inside and not _NOT_CONTENT.sub("", outside).strip() and gone <= gate.off:
                condition = gate.condition.removeprefix("if").strip()
                message = (
                    f"{kind.group(1)} {api.group(1)} (removed in {life.removed_in}) is written only where "
                    f"{condition} holds, which no release of {release_ranges(gone)} meets: nothing to migrate"
                )
                line = text.count("\n", 0, at) + 1
                out[n] = Finding("info", "K8SM-TPL-008", message, None, filename, 0, line)
                break
    return out


def removed_documents(
    text: str, chunks: list[tuple[int, int]], window: Window
) -> Iterator[tuple[int, tuple[int, int], re.Match[str], re.Match[str], ApiLifecycle]]:
    """(index, span, apiVersion match, kind match, lifecycle) of each document whose written
    apiVersion and kind are an API removed by the window's target."""
    from .capabilities import lifecycle

    for n, (start, end) in enumerate(chunks):
        chunk = text[start:end]
        api, kind = _API_LINE.search(chunk), _KIND_LINE.search(chunk)
        if api is None or kind is None or MARKERS.search(api.group(1)):
            continue
        life = lifecycle(api.group(1), kind.group(1))
        if life is not None and life.removed_in is not None and life.removed_in <= window.target:
            yield n, (start, end), api, kind, life


class _Engine:
    """The engine run on a skeleton of the template: the documents in ``failed`` blanked, the
    bodies of computed apiVersions (``api_bodies``) read as the API they are written for."""

    def __init__(
        self,
        text: str,
        chunks: list[tuple[int, int]],
        failed: set[int],
        api_bodies: dict[int, tuple[str, str]],
        resolve: Any,
        settings: Settings,
        filename: str,
        registry: Registry,
        report_only: bool,
    ) -> None:
        self.text, self.chunks, self.failed, self.api_bodies = text, chunks, failed, api_bodies
        self.resolve, self.settings, self.filename, self.registry = resolve, settings, filename, registry
        self.report_only = report_only
        self.selector_first: frozenset[int] = frozenset()

    def run(self, skeleton: Skeleton) -> tuple[list[str], dict[int, tuple[str, str]], FileResult]:
        """The engine's input (by document), the apiVersion lines it replaced, and its result."""
        engine_chunks = [skeleton.text[start:end] for start, end in self.chunks]
        for n in self.failed:
            start, end = self.chunks[n]
            engine_chunks[n] = "".join(_blank(skeleton.text[start:end]))
        bodies: dict[int, tuple[str, str]] = {}
        for n, (body_from, body_to) in self.api_bodies.items():
            if 0 <= n < len(self.chunks) and n not in self.failed:
                found = _API_LINE.search(engine_chunks[n])
                if found is not None:
                    bodies[n] = (found.group(0), body_to)
                    chunk = engine_chunks[n]
                    engine_chunks[n] = chunk[: found.start()] + f"apiVersion: {body_from}" + chunk[found.end() :]
        with scope(skeleton_scope(skeleton, self.resolve, self.selector_first)):
            result = migrate_stream(
                "".join(engine_chunks), self.settings, self.filename, self.registry, report_only=self.report_only
            )
        return engine_chunks, bodies, result


def _check_left_out(
    chain: Chain, n: int, masked: Masked, hidden: list[tuple[int, int]], tags: list[Tag], engine: _Engine, migrated: str
) -> tuple[Finding | None, list[Finding]]:
    """Whether the else branches of ``chain``, left out of document ``n`` because they give a
    place another shape than its first branch, are right as they stand: the refusal (None: they
    are), and the findings of the migration located in them.

    They are not migrated, so each must need nothing: with that branch kept instead (the
    others left out), the document must parse, the migration must leave the branch as it is,
    and it must make the same changes outside the if/else as the migration of the document
    with the first branch (``migrated``, the engine's output).
    """
    text = engine.text
    start, end = engine.chunks[n]
    branches = chain.branches(tags)
    main_outside = _outside(_chunk_text(migrated, n), masked.skeleton, chain, tags)
    # A chain whose tags are masked inside a value (``securityContext:`` over an if/else of
    # ``tpl (toYaml …)``) has no regions to find the outside by: where neither migration
    # changes the document, both change the same outside (nothing).
    main_unchanged = _chunk_text(migrated, n) == masked.skeleton.text[start:end]
    found: list[Finding] = []
    for k in range(1, len(branches)):
        dead = [span for span in masked.dead if span not in branches] + [b for j, b in enumerate(branches) if j != k]
        variant = mask(text, tags, hidden + dead)
        tag = tags[chain.tags[k]]
        line = text.count("\n", 0, tag.start) + 1
        which = f"the branch after {text[tag.start : tag.end].strip()!r} (line {line})"
        why = f"{which} is left out of the migration (it gives the YAML before it another shape than the first branch)"
        problems = [p.message for p in variant.problems if _chunk_at(engine.chunks, variant.text, p.line) == n]
        docs = read_stream(variant.text[start:end], wanted=EVERY).documents
        problems += [unmask_message(d.problem.message, variant) for d in docs if d.problem is not None]
        if problems:
            message = f"{why}, and the skeleton with it does not parse either ({problems[0]}); document left unchanged"
            return Finding("error", "K8SM-TPL-002", message, None, engine.filename, 0, line), []
        _input, _bodies, result = engine.run(variant)
        out = _chunk_text(result.text, n)
        live = [(_region_at(variant, tag.start), _region_at(variant, tags[chain.tags[k + 1]].start))]
        try:
            _check_frozen(out, variant, live, start, end)
        except UnmaskError:
            message = f"{why}, and migrating the document with it would change it too; document left unchanged"
            return Finding("error", "K8SM-TPL-003", message, None, engine.filename, 0, line), []
        if main_unchanged and out == variant.text[start:end]:
            pass
        elif main_outside is None or _outside(out, variant, chain, tags) != main_outside:
            message = (
                f"{why}, and with it the migration would change the document differently outside the if/else; "
                "document left unchanged"
            )
            return Finding("error", "K8SM-TPL-003", message, None, engine.filename, 0, line), []
        first, last = line, text.count("\n", 0, tags[chain.tags[k + 1]].start) + 1
        found += [_finding(f, variant) for f in result.findings if first <= f.line <= last]
    return None, found


class _Whole:
    """The migration of the whole skeleton, for the checks that migrate one branch alone."""

    def __init__(
        self,
        masked: Masked,
        hidden: list[tuple[int, int]],
        tags: list[Tag],
        engine: _Engine,
        engine_chunks: list[str],
        migrated: str,
    ) -> None:
        self.masked, self.hidden, self.tags, self.engine = masked, hidden, tags, engine
        self.engine_chunks = engine_chunks
        self._migrated = [migrated[start:end] for start, end in _chunks(migrated)]
        self._documents: dict[int, str] = {}

    def changed(self, n: int) -> bool:
        """Whether the whole migration changed document ``n`` (most documents: not)."""
        return n < len(self._migrated) and self._migrated[n] != self.engine_chunks[n]

    def document(self, n: int) -> str:
        """Document ``n`` as the whole migration wrote it (control lines kept, added lines lifted)."""
        if n not in self._documents:
            out = keep_control_lines(self.engine_chunks[n], self._migrated[n])
            self._documents[n] = lift_out_of_blocks(self.engine_chunks[n], out, _template_line(self.masked.skeleton))
        return self._documents[n]

    def alone(self, n: int, left_out: list[tuple[int, int]]) -> tuple[str, Skeleton, FileResult] | None:
        """Document ``n`` migrated with the spans ``left_out`` out of the skeleton too, its skeleton
        and the engine's result; None when it does not read as YAML that way."""
        text, chunks = self.engine.text, self.engine.chunks
        variant = mask(text, self.tags, [*self.hidden, *left_out])
        if any(_chunk_at(chunks, variant.text, p.line) == n for p in variant.problems):
            return None
        start, end = chunks[n]
        if any(d.problem is not None for d in read_stream(variant.text[start:end], wanted=EVERY).documents):
            return None
        alone_input, _bodies, result = self.engine.run(variant)
        out = keep_control_lines(alone_input[n], _chunk_text(result.text, n))
        return lift_out_of_blocks(alone_input[n], out, _template_line(variant)), variant, result


def _check_live_branches(chain: Chain, n: int, whole: _Whole) -> Finding | None:
    """The refusal (``K8SM-TPL-003``) when a branch of ``chain``, an if/else whose branches are
    all in the skeleton of document ``n``, would be migrated differently if it were the one
    rendered; None when each comes out as it would alone.

    The skeleton reads the branches as if all were written at once, and a migration may reason
    across them: a v1beta1 CRD with ``versions:`` under ``{{- if semverCompare … }}`` and
    ``version: v1`` under ``{{- else }}`` had ``version`` dropped (``versions`` is there) and the
    moved schema written under the ``else``, so the rendering at 1.29 lost its schema. Checked
    when the migration changes text inside a branch: each branch is migrated with the others
    left out, and must come out as in the migration of the whole, inside it and outside the
    if/else. A branch that does not read as YAML alone is not checked.
    """
    text, tags, skeleton = whole.engine.text, whole.tags, whole.masked.skeleton
    union = whole.document(n)
    texts = _branch_texts(union, skeleton, chain, tags)
    if texts is None or texts == [text[a:b] for a, b in chain.branches(tags)]:
        return None  # nothing changed inside the branches (or unmasking reports what did)
    outside = _outside(union, skeleton, chain, tags)
    branches = chain.branches(tags)
    for k in range(len(branches)):
        found = whole.alone(n, [*whole.masked.dead, *(b for j, b in enumerate(branches) if j != k)])
        if found is None:
            continue
        out, variant, _result = found
        alone = _branch_texts(out, variant, chain, tags)
        if alone is not None and alone[k] == texts[k] and _outside(out, variant, chain, tags) == outside:
            continue
        tag = tags[chain.tags[k]]
        line = text.count("\n", 0, tag.start) + 1
        opener = text.count("\n", 0, tags[chain.tags[0]].start) + 1
        message = (
            f"the branches of the if/else at line {opener} are migrated as if all were written at once, and "
            f"the branch after {text[tag.start : tag.end].strip()!r} (line {line}) would be migrated differently "
            "if it were the one rendered: they need different changes; document left unchanged"
        )
        return Finding("error", "K8SM-TPL-003", message, None, whole.engine.filename, 0, line)
    return None


def _template_line(skeleton: Skeleton) -> Callable[[str], str]:
    """A line of a migrated skeleton as template text (as it is, when it does not unmask alone)."""

    def view(line: str) -> str:
        try:
            return unmask(line, skeleton, [])
        except UnmaskError:
            return line

    return view


def _branch_texts(out: str, skeleton: Skeleton, chain: Chain, tags: list[Tag]) -> list[str] | None:
    """The text of each branch of ``chain`` in a migrated document, its template text back
    (None: a tag of the chain is not found where it belongs)."""
    regions = [_region_at(skeleton, tags[i].start) for i in chain.tags]
    positions: list[tuple[int, int]] = []
    at = 0
    for region in regions:
        if region is None:
            return None
        found = out.find(region.skeleton, at)
        if found < 0:
            return None
        at = found + len(region.skeleton)
        positions.append((found, at))
    try:
        return [unmask(out[a[1] : b[0]], skeleton, []) for a, b in pairwise(positions)]
    except UnmaskError:
        return None


def _own_migrations(
    chain: Chain, live: int, n: int, whole: _Whole
) -> tuple[list[tuple[int, int, str]], list[Finding]] | None:
    """Each other branch of ``chain`` migrated as the one rendered, when the migration changes
    the branch that stayed (``live``) and the branches write the same keys: (tag, next tag,
    text) of each, and what their migrations found in them; None when there is nothing to give
    or one of them cannot be given.

    unifi's Ingress writes ``serviceName: {{ $fullName }}`` under ``{{- if … }}`` and
    ``serviceName: {{ $fullName }}-gui`` under ``{{- else }}``: the skeleton holds the first
    (the keys would be written twice), and the migration moves it to ``service.name``; the
    ``else`` needs the same move. Each other branch is migrated with it kept instead, and its
    text is taken when that migration changes the rest of the document exactly as the one of
    the whole did: every rendering then gets the migration of that rendering.
    """
    text, tags, skeleton = whole.engine.text, whole.tags, whole.masked.skeleton
    union = whole.document(n)
    branches = chain.branches(tags)
    texts = _branch_texts(union, skeleton, chain, tags)
    outside = _outside(union, skeleton, chain, tags)
    if texts is None or outside is None or texts[live] == text[branches[live][0] : branches[live][1]]:
        return None
    others = [span for span in whole.masked.dead if span not in branches]
    own: list[tuple[int, int, str]] = []
    found: list[Finding] = []
    for k in range(len(branches)):
        if k == live:
            continue
        run = whole.alone(n, [*others, *(b for j, b in enumerate(branches) if j != k)])
        if run is None:
            return None
        out, variant, result = run
        alone = _branch_texts(out, variant, chain, tags)
        if alone is None or _outside(out, variant, chain, tags) != outside:
            return None
        chunks = whole.engine.chunks
        if any(f.level == "error" for f in result.findings if _chunk_at(chunks, variant.text, f.line) == n):
            return None
        own.append((chain.tags[k], chain.tags[k + 1], alone[k]))
        first = text.count("\n", 0, tags[chain.tags[k]].start) + 1
        last = text.count("\n", 0, tags[chain.tags[k + 1]].start) + 1
        found += [_finding(f, variant) for f in result.findings if first <= f.line <= last]
    return own, found


class _OwnBranches:
    """The branches whose own migration is written in place of their text (``_own_migrations``),
    by document; found again in the migrated text by their tags, which every migration carries
    in their order."""

    def __init__(self, tags: list[Tag], dialect: str) -> None:
        self.tags, self.dialect = tags, dialect
        self.texts: dict[int, list[tuple[int, int, str]]] = {}
        self.findings: dict[int, list[Finding]] = {}
        self.unfrozen: set[tuple[int, int]] = set()

    def add(self, n: int, live: tuple[int, int], texts: list[tuple[int, int, str]], found: list[Finding]) -> None:
        self.texts.setdefault(n, []).extend(texts)
        self.findings.setdefault(n, []).extend(found)
        self.unfrozen.add(live)

    def apply(self, n: int, start: int, end: int, new: str) -> str:
        """Document ``n`` (``text[start:end]`` before it was migrated) with its branches' own texts."""
        texts = self.texts.get(n)
        if not texts:
            return new
        first = next(i for i, t in enumerate(self.tags) if t.start >= start)
        count = sum(1 for t in self.tags if start <= t.start < end)
        try:
            if self.dialect == "jinja":
                from . import jinja

                now = jinja.tags(new)[0]
            else:
                from . import gotemplate

                now = gotemplate.tags(new)[0]
        except LexError as exc:
            raise UnmaskError(f"the migrated document does not lex ({exc.message})") from exc
        if len(now) != count:
            raise UnmaskError("the migrated document does not hold the template's actions in their order")
        for opener, closer, branch in sorted(texts, reverse=True):
            new = new[: now[opener - first].end] + branch + new[now[closer - first].start :]
        return new


def _chunk_text(text: str, n: int) -> str:
    """Document ``n`` of a migrated skeleton (empty if the engine changed the number of documents, a bug)."""
    chunks = _chunks(text)
    start, end = chunks[n] if n < len(chunks) else (0, 0)
    return text[start:end]


def _outside(out: str, skeleton: Skeleton, chain: Chain, tags: list[Tag]) -> tuple[str, str] | None:
    """A migrated document before and after ``chain``, its template text back (None: not found)."""
    opener = _region_at(skeleton, tags[chain.tags[0]].start)
    closer = _region_at(skeleton, tags[chain.tags[-1]].start)
    if opener is None or closer is None:
        return None
    a, b = out.find(opener.skeleton), out.find(closer.skeleton)
    if a < 0 or b < a:
        return None
    try:
        return unmask(out[:a], skeleton, []), unmask(out[b + len(closer.skeleton) :], skeleton, [])
    except UnmaskError:
        return None


_NAMES = {"go": "Go (Helm)", "jinja": "Jinja2"}


_API_LINE = regex(r"^apiVersion:[ \t]*(.*?)[ \t]*$", re.M)
_KIND_LINE = regex(r"^kind:[ \t]*['\"]?(\w+)", re.M)
_KIND_VALUE = regex(r"^kind:[ \t]*(\{\{.*?)[ \t]*$", re.M)
_API_WORD = regex(r"[a-z0-9.-]+/v\d\w*|\bv\d+(?:alpha|beta)\d+\b|\bv1\b")
_TAG = regex(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_NOT_CONTENT = regex(r"^[ \t]*(?:#.*|---|\.\.\.)[ \t]*$", re.M)
"""A comment line or a document marker: outside a version condition, they render nothing of the document."""


def _computed_api_versions(
    text: str, settings: Settings, filename: str, resolve: Any, known: set[int]
) -> list[Finding]:
    """Documents whose apiVersion the template computes, when it can render one removed at the target.

    Candidates are the API versions the apiVersion's text names (``{{ if … }} extensions/v1beta1
    {{ else }} …``) and what it renders with the chart's values.yaml defaults
    (``rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}``). Documents in ``known`` (by
    index) are left to the chart-level step, which evaluated them.
    """
    from .capabilities import lifecycle

    window = settings.window
    out: list[Finding] = []
    for n, (start, end) in enumerate(_chunks(text)):
        if n in known:
            continue  # the chart-level step evaluated this apiVersion for every release
        chunk = text[start:end]
        api = _API_LINE.search(chunk)
        kind = _KIND_LINE.search(chunk)
        templated_kind = _KIND_VALUE.search(chunk)
        if api is not None and kind is None and templated_kind is not None and not MARKERS.search(api.group(1)):
            found = _removed_for_a_computed_kind(api.group(1), templated_kind.group(1), resolve, window)
            if found:
                line = text.count("\n", 0, start + templated_kind.start()) + 1
                message = (
                    f"kind is computed by the template ({templated_kind.group(1)}) and {api.group(1)} is removed for "
                    f"{found}; the document is left as it is: write the kind, or migrate it once rendered"
                )
                out.append(Finding("error", "K8SM-TPL-005", message, None, filename, 0, line))
            continue
        if api is None or kind is None or not MARKERS.search(api.group(1)):
            continue
        value = api.group(1)
        group = value.split("/", 1)[0] + "/" if "/" in value.split("{", 1)[0] else ""
        literal = _TAG.sub(" ", value)  # what the template prints as it is (conditions name APIs too)
        candidates = {w if "/" in w or (w == "v1" and not group) else group + w for w in _API_WORD.findall(literal)}
        if resolve is not None:
            rendered = _TAG.sub(lambda m: _rendered(m.group(), resolve), value)
            if not MARKERS.search(rendered):
                candidates.add(rendered.strip())
        removed = []
        for candidate in sorted(candidates):
            life = lifecycle(candidate, kind.group(1))
            if life is not None and life.removed_in is not None and life.removed_in <= window.target:
                removed.append(f"{candidate} (removed in {life.removed_in})")
        if removed:
            line = text.count("\n", 0, start + api.start()) + 1
            message = (
                f"apiVersion is computed by the template ({value.strip()}) and can render {', '.join(removed)}; "
                "change the helper, the condition or the values.yaml default it comes from"
            )
            out.append(Finding("error", "K8SM-TPL-005", message, None, filename, 0, line))
    return out


def _removed_for_a_computed_kind(api: str, kind_text: str, resolve: Any, window: Any) -> str:
    """What is removed at the target for the kinds a templated ``kind:`` may render (the values.yaml
    default when it resolves, else every kind the tables know at ``api``); empty when nothing is."""
    from ..registry import default_registry

    lifecycles = default_registry().lifecycles
    kinds = sorted({k for (a, k), life in lifecycles.items() if a == api and life.component == "kubernetes"})
    if resolve is not None:
        rendered = _TAG.sub(lambda m: _rendered(m.group(), resolve), kind_text).strip()
        if not MARKERS.search(rendered):
            kinds = [rendered]
    removed = []
    for k in kinds:
        life = lifecycles.get((api, k))
        if life is not None and life.component == "kubernetes" and life.removed_in and life.removed_in <= window.target:
            removed.append(f"{k} (removed in {life.removed_in})")
    return ", ".join(removed)


def _rendered(action: str, resolve: Any) -> str:
    found = resolve(action)
    return str(found.value) if found.known else action


def skeleton_scope(skeleton: Skeleton, resolve: Any, selector_first: frozenset[int] = frozenset()) -> Scope:
    """What the migrations see of the skeleton's actions while they run (``values``)."""
    return Scope({ph.index_of(r.skeleton[r.core :]): r.original for r in skeleton.regions}, resolve, selector_first)


def _tags(
    text: str,
    dialect: str,
    values: Any,
    gates: list[Gate] | None = None,
    window: Window | None = None,
    newline_defines: frozenset[str] = frozenset(),
) -> tuple[list[Tag], list[tuple[int, int]], list[Any], Any]:
    """The template's tags, the spans its skeleton leaves out (define bodies, and the lines under
    a version condition that no release of ``window`` renders: ``gates.unreached``), its Go
    actions and the resolver of their ``.Values`` paths (``newline_defines``: see
    ``gotemplate.tags``)."""
    if dialect == "jinja":
        from . import jinja

        tags, hidden = jinja.tags(text)
        return tags, hidden, [], None
    from . import gotemplate, helmvalues

    tags, hidden, actions = gotemplate.tags(text, newline_defines)
    if gates and window is not None:
        from .gates import unreached

        hidden = [*hidden, *unreached(text, gates, window)]
    return tags, hidden, actions, helmvalues.resolver(actions, values)


class Masked(NamedTuple):
    """The skeleton, and the if/else branches left out of it so that it reads as YAML (``_skeleton``)."""

    skeleton: Skeleton
    frozen: list[tuple[int, int]]
    """(opening tag, next tag) of each branch kept beside branches left out: it must not change."""
    kept: list[tuple[int, str]]
    """(offset, "  key"): a key whose override block was left out, which must keep its name."""
    dead: list[tuple[int, int]]
    """The spans left out (with ``hidden``, what the skeleton was masked with)."""
    shapes: list[Chain]
    """The chains left out because their branches give one place two shapes (the skeleton
    did not parse): their other branches are verified one by one (``_check_left_out``)."""
    alike: list[tuple[Chain, int]]
    """The chains whose branches write the same keys (and which of them stayed): where the
    migration changes the branch that stayed, each other one may get its own (``_own_migrations``)."""
    unreadable: list[tuple[int, int]]
    """Branches left out because their own lines do not read as YAML with the rest of their
    document: hoard's ``tls`` range, written one indentation off (helm renders broken YAML
    wherever it is taken), or opa's tags at column 0 inside a block scalar (which end the
    scalar in the skeleton, not in the rendering). They are kept as written; the migration must
    not need them (``_check_unreadable``)."""


def _skeleton(
    text: str, tags: list[Tag], hidden: list[tuple[int, int]], needed: Callable[[str], bool] | None = None
) -> Masked:
    """The skeleton, with if/else branches left out where the branches cannot all be in it.

    Two cases: the branches write one key twice (the branch of the first occurrence stays),
    or a document does not parse at a line of an else branch (two branches give one place
    two shapes: rabbitmq's ``- hosts: [host]`` then ``secretName`` or ``- secretName``; the
    first branch stays). The other branches become comment lines, and the branch that stayed
    is frozen: a migration must not change its text, since the branches left out would not
    get the same change. ``needed``: whether a document's text may need a migration (the
    second case is only for those; default: every document).
    """
    all_chains = chains(tags)
    starts = [0, *(m.end() for m in re.finditer(r"\n", text))]
    dead: list[tuple[int, int]] = []
    frozen: list[tuple[int, int]] = []
    kept: list[tuple[int, str]] = []  # (offset, "  key"): a key whose override was left out must stay
    shapes: list[Chain] = []
    alike: list[tuple[Chain, int]] = []
    unreadable: list[tuple[int, int]] = []
    settled: set[Chain] = set()
    skeleton = mask(text, tags, hidden)
    for _round in range(8):
        found = False
        for start, end in _chunks(skeleton.text):
            base = skeleton.text.count("\n", 0, start)
            for doc in read_stream(skeleton.text[start:end], wanted=EVERY).documents:
                if doc.problem is not None and (needed is None or needed(text[start:end])):
                    at = _key_at(text, starts, base + doc.problem.line)
                    chain = _shape_conflict(all_chains, tags, at, (start, end), settled)
                    if chain is None and doc.problem.context_line is not None:
                        # a simple key without ':' is reported past its own line: at the line it began
                        began = _key_at(text, starts, base + doc.problem.context_line)
                        chain = _shape_conflict(all_chains, tags, began, (start, end), settled)
                    if chain is None:
                        span = _unreadable_branch(text, tags, at, (start, end), dead)
                        if span is not None and _reads_further(
                            text, tags, hidden + dead, span, (start, end), doc, skeleton.problems
                        ):
                            dead.append(span)
                            unreadable.append(span)
                            found = True
                        continue
                    settled.add(chain)
                    left_out = chain.branches(tags)[1:]
                    if set(mask(text, tags, hidden + dead + left_out).problems) - set(skeleton.problems):
                        continue  # an inline branch: leaving it out does not give a skeleton either
                    dead += left_out
                    frozen.append((chain.tags[0], chain.tags[1]))
                    shapes.append(chain)
                    found = True
                for dup in doc.duplicates:
                    if dup.other_line is None:
                        continue
                    first = _key_at(text, starts, base + dup.other_line)
                    second = _key_at(text, starts, base + dup.line)
                    chain = _innermost(all_chains, tags, first, second, settled)
                    if chain is None:
                        override = _override_branch(text, tags, first, second) or _override_branch(
                            text, tags, second, first
                        )
                        if override is not None and override not in dead:
                            dead.append(override)
                            stays = second if override[0] <= first < override[1] else first
                            line_start = text.rfind("\n", 0, stays) + 1
                            kept.append((stays, text[line_start : text.index(":", stays)]))
                            found = True
                        continue
                    settled.add(chain)
                    branches = chain.branches(tags)
                    live = next(k for k, (a, b) in enumerate(branches) if a <= first < b)
                    dead += [span for k, span in enumerate(branches) if k != live]
                    frozen.append((chain.tags[live], chain.tags[live + 1]))
                    alike.append((chain, live))
                    found = True
        if not found:
            break
        skeleton = mask(text, tags, hidden + dead)
    undone = [chain for chain in shapes if _still_unreadable(skeleton.text, tags[chain.tags[0]].start)]
    if undone:  # leaving those branches out did not make their document readable: as it was
        for chain in undone:
            shapes.remove(chain)
            frozen.remove((chain.tags[0], chain.tags[1]))
            dead = [span for span in dead if span not in chain.branches(tags)[1:]]
        skeleton = mask(text, tags, hidden + dead)
    still = [span for span in unreadable if _still_unreadable(skeleton.text, span[0])]
    if still:  # leaving them out did not make their document readable either: as it was
        unreadable = [span for span in unreadable if span not in still]
        dead = [span for span in dead if span not in still]
        skeleton = mask(text, tags, hidden + dead)
    return Masked(skeleton, frozen, kept, dead, shapes, alike, unreadable)


def _unreadable_branch(
    text: str, tags: list[Tag], at: int, chunk: tuple[int, int], dead: list[tuple[int, int]]
) -> tuple[int, int] | None:
    """The innermost branch of an if/with/range block of document ``chunk`` that holds offset
    ``at`` (where the skeleton stops parsing), when it holds no top-level key: the part of the
    document that may be left out because it does not read (``Masked.unreadable``)."""
    best: tuple[int, int] | None = None
    for chain in _blocks(tags):
        if not (chunk[0] <= tags[chain.tags[0]].start and tags[chain.tags[-1]].end <= chunk[1]):
            continue
        for span in chain.branches(tags):
            if span[0] <= at < span[1] and span not in dead and (best is None or span[0] > best[0]):
                best = span
    if best is None or TOP_LEVEL.search(text, best[0], best[1]):
        return None
    return best


def _reads_further(
    text: str,
    tags: list[Tag],
    hidden: list[tuple[int, int]],
    span: tuple[int, int],
    chunk: tuple[int, int],
    doc: Document,
    before: list[Problem],
) -> bool:
    """Whether document ``chunk`` reads past the line where ``doc`` stopped once ``span`` is
    left out (maybe to stop again further down, at another branch that does not read)."""
    assert doc.problem is not None
    trial = mask(text, tags, [*hidden, span])
    if set(trial.problems) - set(before):
        return False  # leaving it out puts a tag on a line with YAML: no better
    again = read_stream(trial.text[chunk[0] : chunk[1]], wanted=EVERY).documents
    problems = [d.problem for d in again if d.problem is not None]
    return not problems or min(p.line for p in problems) > doc.problem.line


def _check_unreadable(
    span: tuple[int, int], text: str, tags: list[Tag], before: str, after: str, filename: str
) -> Finding | None:
    """A branch left out because it does not read (``Masked.unreadable``), once its document is
    migrated without it: a warning that it was kept as written, or the refusal when the
    migration changes a key that the branch writes too (it would need the same change). None
    for a branch that writes nothing but what its actions write (``{{- with .Values.labels }}
    {{- toYaml . | nindent 4 }}`` after an ``include`` of the labels): no migration reads or
    rewrites an action's output, so nothing was left unchecked."""
    literal = list(text[span[0] : span[1]])
    for t in tags:
        if span[0] <= t.start and t.end <= span[1]:
            literal[t.start - span[0] : t.end - span[0]] = [" "] * (t.end - t.start)
    if not "".join(literal).strip():
        return None
    opener, line = block_opener(span, text, tags)
    last = text.count("\n", 0, span[1]) + 1
    where = f"lines {line}–{last}, under {text[opener.start : opener.end].strip()!r}"
    import difflib

    old, new = before.splitlines(), after.splitlines()
    changed: set[str] = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag != "equal":
            changed |= {m.group(1) for x in old[i1:i2] + new[j1:j2] if (m := _NESTED_KEY.match(x))}
    shared = sorted(changed & {m.group(1) for x in text[span[0] : span[1]].splitlines() if (m := _NESTED_KEY.match(x))})
    if shared:
        message = (
            f"{where}, do not read as YAML with the rest of the document, and the migration changes keys "
            f"they write too ({', '.join(shared)}); document left unchanged"
        )
        return Finding("error", "K8SM-TPL-002", message, None, filename, 0, line)
    message = (
        f"{where}, do not read as YAML with the rest of the document (lines one indentation off, or tags "
        "inside a block scalar): left out of the migration, which changes nothing they write, and kept as "
        "written; nothing in them was checked"
    )
    return Finding("warning", "K8SM-TPL-014", message, None, filename, 0, line)


def outermost(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans not inside another of ``spans``: a block left out holds the blocks inside it,
    and one finding says so (lamp's deployment had one per nested ``if`` and ``range``)."""
    return [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in spans)]


def block_opener(span: tuple[int, int], text: str, tags: list[Tag]) -> tuple[Tag, int]:
    """The tag that opens the branch at ``span`` and its line: where its findings stand."""
    opener = next(t for t in tags if t.end == span[0])
    return opener, text.count("\n", 0, opener.start) + 1


_NESTED_KEY = regex(r"""^[ \t]+(?:-[ \t]+)?["']?([\w./-]+)["']?[ \t]*:(?:[ \t]|$)""")
"""A key below the top level (the apiVersion line of a migrated document is not one)."""


def _shape_conflict(
    chains_: list[Chain], tags: list[Tag], at: int, chunk: tuple[int, int], settled: set[Chain]
) -> Chain | None:
    """The innermost chain of the document ``chunk`` not yet settled with ``at`` in one of its
    else branches (not the first branch): where a skeleton that does not parse at ``at`` may
    read once the else branches are left out."""
    best: Chain | None = None
    for chain in chains_:
        first, last = tags[chain.tags[0]], tags[chain.tags[-1]]
        if chain in settled or not (chunk[0] <= first.start and last.end <= chunk[1]):
            continue
        if not any(a <= at < b for a, b in chain.branches(tags)[1:]):
            continue
        if best is None or first.start > tags[best.tags[0]].start:
            best = chain
    return best


def _still_unreadable(skeleton_text: str, at: int) -> bool:
    """Whether the document of the skeleton that holds offset ``at`` still does not parse."""
    for start, end in _chunks(skeleton_text):
        if start <= at < end:
            return any(d.problem is not None for d in read_stream(skeleton_text[start:end], wanted=EVERY).documents)
    return False


def _override_branch(text: str, tags: list[Tag], first: int, second: int) -> tuple[int, int] | None:
    """The span of the innermost ``if``/``with``/``range`` branch that writes the key at ``second``
    once more (the one at ``first`` is outside it), when that branch writes nothing but keys that open blocks
    and what its actions write (metallb's ``{{- with .Values.tolerations }}`` after a literal
    ``tolerations:``): the skeleton leaves it out. The branch has nothing a migration could
    change, so the key that stays is migrated alone; a branch with literal values is not
    left out (``K8SM-TPL-004``), since it would need the same change.
    """
    best: tuple[int, int] | None = None
    for block in _blocks(tags):
        for start, end in block.branches(tags):
            if start <= second < end and not start <= first < end and (best is None or start > best[0]):
                best = (start, end)
    if best is None:
        return None
    start, end = best
    inside = [t for t in tags if start <= t.start and t.end <= end]
    chars = list(text[start:end])
    for t in inside:  # a tag's text, line breaks kept: a line of tags only is empty
        chars[t.start - start : t.end - start] = [c if c == "\n" else "\0" for c in text[t.start : t.end]]
    for line in "".join(chars).splitlines():
        if line.strip(" \t\0") and not _BLOCK_KEY.match(line):
            return None
    return best


_BLOCK_KEY = regex(r"^[ \t]*[\w./-]+:[ \t]*$")  # a key that opens a block: no value, not even an action


def _blocks(tags: list[Tag]) -> list[Chain]:
    """Every if/with/range block (with or without else branches), as chains of tag indices."""
    return [chain for chain in blocks(tags) if tags[chain.tags[0]].role == "if"]


def _key_at(text: str, starts: list[int], line: int) -> int:
    begin = starts[min(line, len(starts)) - 1]
    return begin + len(text[begin:].split("\n", 1)[0]) - len(text[begin:].split("\n", 1)[0].lstrip())


def _innermost(chains_: list[Chain], tags: list[Tag], a: int, b: int, settled: set[Chain]) -> Chain | None:
    best: Chain | None = None
    for chain in chains_:
        if chain in settled:
            continue
        branches = chain.branches(tags)
        ka = next((k for k, (s, e) in enumerate(branches) if s <= a < e), None)
        kb = next((k for k, (s, e) in enumerate(branches) if s <= b < e), None)
        if ka is None or kb is None or ka == kb:
            continue
        if best is None or tags[chain.tags[0]].start > tags[best.tags[0]].start:
            best = chain
    return best


def _region_at(skeleton: Skeleton, start: int) -> Region | None:
    return next((r for r in skeleton.regions if r.start == start), None)


def _chunks(text: str) -> list[tuple[int, int]]:
    """Spans of the documents of a skeleton, cut at column-0 markers (which masking keeps)."""
    cuts = [0, *(m.start() for m in _DOC_MARKER.finditer(text)), len(text)]
    return [(a, b) for a, b in pairwise(cuts) if b > a or a == 0]


def _chunk_at(chunks: list[tuple[int, int]], text: str, line: int) -> int:
    for n, (start, end) in enumerate(chunks):
        first = text.count("\n", 0, start) + 1
        last = text.count("\n", 0, end) + 1
        if first <= line <= last and (line < last or n == len(chunks) - 1 or end == len(text)):
            return n
    return len(chunks) - 1


def _blank(text: str) -> list[str]:
    """A chunk that the engine reads as nothing: markers kept, other lines as comments."""
    out: list[str] = []
    for piece in re.split(r"(\r?\n)", text):
        if piece in ("\n", "\r\n") or not piece.strip() or _DOC_MARKER.match(piece):
            out.append(piece)
            continue
        body = piece.lstrip()
        lead = piece[: len(piece) - len(body)]
        out.append(lead + "#" + ph.PAD * (len(body) - 1))
    return list("".join(out))


def _unmasked(
    text: str,
    skeleton: Skeleton,
    chunks: list[tuple[int, int]],
    result: FileResult,
    failed: dict[int, Finding],
    filename: str,
    frozen: list[tuple[Region | None, Region | None]],
    engine_chunks: list[str],
    bodies: dict[int, tuple[str, str]],
    kept_keys: list[tuple[int, str]],
    trimmed: set[int],
    own: _OwnBranches | None = None,
) -> FileResult:
    """The migrated template; documents whose new line would follow a trimming tag go in ``trimmed``."""
    out_chunks = _chunks(result.text)
    findings = [_finding(f, skeleton) for f in result.findings]
    if len(out_chunks) != len(chunks):  # a bug: the engine keeps every document marker
        message = "the migrated skeleton has a different number of documents; left unchanged"
        return FileResult(filename, text, text, [*findings, Finding("error", "K8SM-TPL-003", message, None, filename)])
    pieces: list[str] = []
    restored: set[str] = set()  # control lines put back: not dropped with their field after all
    by_chunk = {n: [r for r in skeleton.regions if start <= r.start < end] for n, (start, end) in enumerate(chunks)}
    for n, ((start, end), (out_start, out_end)) in enumerate(zip(chunks, out_chunks, strict=True)):
        original = text[start:end]
        out = result.text[out_start:out_end]
        if n in failed or out == engine_chunks[n]:
            pieces.append(original)
            continue
        try:
            if n in bodies:
                out = _api_line_back(out, *bodies[n])
            if any(a is not None and start <= a.start < end for a, _b in frozen):
                lifted = lift_out_of_blocks(engine_chunks[n], out, _template_line(skeleton))
                _check_frozen(lifted, skeleton, frozen, start, end)
            _check_kept([key for at, key in kept_keys if start <= at < end], out)
            kept = keep_control_lines(engine_chunks[n], out)
            new = lift_out_of_blocks(original, unmask(kept, skeleton, by_chunk[n]))
            if own is not None:
                new = own.apply(n, start, end, new)
            _check_not_trimmed(original, new, text.count("\n", 0, start))
            pieces.append(new)
            restored |= {c[: ph.MIN_LENGTH] for c in set(ph.CODE.findall(kept)) - set(ph.CODE.findall(out))}
        except UnmaskError as exc:
            if isinstance(exc, _Trimmed):
                trimmed.add(n)
            line = text.count("\n", 0, start) + max(exc.line, 1)
            failed[n] = Finding("error", "K8SM-TPL-003", f"{exc}; document left unchanged", None, filename, 0, line)
            pieces.append(original)
    new_text = "".join(pieces)
    if restored:
        findings = [
            f
            for f, raw in zip(findings, result.findings, strict=True)
            if raw.code != "K8SM-GEN-004" or not any(c in raw.message for c in restored)
        ]
    if new_text != text and _actions(new_text) != _actions(text):
        message = "template actions would change (a bug); the file is left unchanged"
        failed[-1] = Finding("error", "K8SM-TPL-003", message, None, filename, 0, 1)
        new_text = text
    line_spans = [(text.count("\n", 0, s) + 1, text.count("\n", 0, e) + 1) for s, e in chunks]
    findings = _per_document(findings, failed, line_spans)
    documents = [_document(d, skeleton, failed, line_spans) for d in result.documents]
    return FileResult(filename, text, new_text, findings, documents)


def keep_control_lines(before: str, after: str) -> str:
    """``after`` with the control lines that a migration removed with a field put back where they stood.

    A line of tags that write nothing (``{{- if .Values.x }}``, ``{{- end }}``) is a comment in
    the skeleton, so it is the head comment of the field below it, and a migration that deletes
    the field (a non-functional annotation) deletes the line too. Putting it back between the
    same neighbours changes no YAML (it is a comment) and keeps every remaining line under the
    conditions it had: the block around what was deleted renders the rest, or nothing.
    """
    import difflib

    old_lines = before.splitlines(keepends=True)
    lines = after.splitlines(keepends=True)
    if not any(_CONTROL_LINE.match(x) for x in old_lines):
        return after
    present = set(ph.CODE.findall(after))
    matcher = difflib.SequenceMatcher(a=old_lines, b=lines, autojunk=False)
    for tag, i1, i2, j1, _j2 in reversed(matcher.get_opcodes()):
        if tag not in ("delete", "replace"):  # (replace: a field deleted and another written there)
            continue
        kept = [x for x in old_lines[i1:i2] if _CONTROL_LINE.match(x) and not present & set(ph.CODE.findall(x))]
        if kept:
            if j1 > 0 and not lines[j1 - 1].endswith("\n"):
                kept[-1] = kept[-1].rstrip("\r\n")
                lines[j1 - 1] += "\n"
            lines[j1:j1] = kept
    return "".join(lines)


_CONTROL_LINE = regex(f"^[ \t]*#{ph.ANY_CHAR.pattern}+\r?\n?$")


def _check_not_trimmed(original: str, new: str, first_line: int) -> None:
    """A line a migration added must not follow a tag that trims the whitespace after it
    (``{{- end -}}``): the rendering would join the new line to the one before."""
    import difflib

    old_lines = original.splitlines(keepends=True)
    lines = new.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old_lines, b=lines, autojunk=False)
    for tag, i1, _i2, j1, _j2 in matcher.get_opcodes():
        if tag == "replace" and _indent(lines[j1]) == _indent(old_lines[i1]):
            continue  # a line in place of one the tag already joined, as the author meant
        if tag in ("insert", "replace") and j1 > 0 and _TRIMS_AFTER.search(lines[j1 - 1]):
            raise _Trimmed(
                f"a line would be added after {lines[j1 - 1].strip()!r}, which trims the line break "
                "before it (the rendering would join them)",
                j1 + 1,
            )


def _documents_of(found: set[int], chunks: list[tuple[int, int]], text: str, result: FileResult) -> frozenset[int]:
    """The engine's indices of the documents in chunks ``found`` (a leading ``---`` makes an
    empty chunk 0, so the two numberings can differ), matched by line."""
    spans = []
    for n in found:
        start, end = chunks[n]
        first, last = text.count("\n", 0, start) + 1, text.count("\n", 0, end) + 1
        spans.append((first, last if end < len(text) else last + 1))  # the next chunk's marker line is its own
    return frozenset(d.index for d in result.documents if any(a <= d.line < b for a, b in spans))


class _Trimmed(UnmaskError):
    """A line added right after a tag that trims the line break after it."""


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


_TRIMS_AFTER = regex(r"(-\}\}|-%\})[ \t]*\r?\n?$")


_END_LINE = regex(r"^[ \t]*(\{\{-?\s*end\s*-?\}\}|\{%[-+]?\s*end(if|for)\s*[-+]?%\})[ \t]*\r?\n?$")
_OPEN_LINE = regex(r"^[ \t]*(\{\{-?\s*(if|range|with)\b.*\}\}|\{%[-+]?\s*(if|for)\b.*%\})[ \t]*\r?\n?$")
_ELSE_LINE = regex(r"^[ \t]*(\{\{-?\s*else\b.*\}\}|\{%[-+]?\s*(else|elif)\b.*%\})[ \t]*\r?\n?$")


def lift_out_of_blocks(original: str, new: str, view: Callable[[str], str] | None = None) -> str:
    """``new`` with each line a migration added moved below the block ends that follow it, when
    those blocks were opened inside the mapping the line belongs to.

    A migration inserts a key after a sibling (``pathType`` after ``path``); when that sibling
    is written only ``{{- if $path }}``, the new key would be written only then too. The
    skeleton reads control lines as comments, so moving the key past them changes nothing
    for YAML, and the key is written whenever its mapping is. ``view``: the template text of a
    line, when ``new`` is a skeleton (default: ``new`` is template text).
    """
    import difflib

    see = view or _same
    old_lines = original.splitlines(keepends=True)
    lines = new.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old_lines, b=lines, autojunk=False)
    added = [(j1, j2) for tag, _i1, _i2, j1, j2 in matcher.get_opcodes() if tag == "insert"]
    for j1, j2 in reversed(added):
        block = lines[j1:j2]
        indent = min(len(x) - len(x.lstrip(" ")) for x in block if x.strip()) if any(x.strip() for x in block) else 0
        k = j2
        while k < len(lines):
            line = see(lines[k])
            if _END_LINE.match(line) and _opened_inside(lines, j1, k, indent, see):
                k += 1
                continue
            end = _chain_end(lines, k, see) if _ELSE_LINE.match(line) else None
            if end is None or not _opened_inside(lines, j1, end, indent, see):
                break
            k = end + 1  # istio's objectSelector: past the other branches of an if/else, to its end
        if k > j2:
            lines[j1:k] = lines[j2:k] + block
    return "".join(lines)


def _same(line: str) -> str:
    return line


def _chain_end(lines: list[str], at: int, see: Callable[[str], str]) -> int | None:
    """The line that ends the if/else whose ``else`` line is ``lines[at]`` (None: not found)."""
    depth = 0
    for k in range(at + 1, len(lines)):
        line = see(lines[k])
        if _OPEN_LINE.match(line):
            depth += 1
        elif _END_LINE.match(line):
            if depth == 0:
                return k
            depth -= 1
    return None


def _opened_inside(lines: list[str], at: int, end: int, indent: int, see: Callable[[str], str] = _same) -> bool:
    """Whether the block that ``lines[end]`` closes was opened after the parent of a key at ``indent``
    (the nearest line above ``at`` that is less indented and not a tag line)."""
    depth = 0
    for k in range(end - 1, -1, -1):
        line = see(lines[k])
        if _END_LINE.match(line):
            depth += 1
            continue
        if _OPEN_LINE.match(line):
            if depth == 0:
                return True  # the opener comes before the parent: checked below
            depth -= 1
            continue
        text = line.rstrip("\r\n")
        content = k < at and text.strip() and not text.lstrip().startswith(("{{", "{%", "#"))
        if content and len(text) - len(text.lstrip(" ")) < indent:
            return False  # reached the parent before the opener
    return False


def _api_line_back(out: str, line: str, body_to: str) -> str:
    """The template's own apiVersion line back in a document whose body was migrated to ``body_to``."""
    found = _API_LINE.search(out)
    if found is None or found.group(1).strip() != body_to:
        got = found.group(1).strip() if found is not None else "nothing"
        raise UnmaskError(f"the body was to be migrated to {body_to}, but the migration went to {got}")
    return out[: found.start()] + line + out[found.end() :]


def _check_kept(keys: list[str], out: str) -> None:
    """A key whose override block was left out of the skeleton must come out with its name and
    indentation (renamed or moved, the block would still write the old one)."""
    for key in keys:
        if not re.search(f"^{re.escape(key)}:", out, re.M):
            raise UnmaskError(
                f"the migration renames or moves {key.strip()!r}, which a block left out of the migration "
                "writes too (it would not get the same change)"
            )


def _check_frozen(
    out: str, skeleton: Skeleton, frozen: list[tuple[Region | None, Region | None]], start: int, end: int
) -> None:
    """The branches kept beside branches left out must come out unchanged."""
    for a, b in frozen:
        if a is None or b is None or not start <= a.start < end:
            continue
        before = skeleton.text[a.end : b.start]
        ia = out.find(a.skeleton)
        ib = out.find(b.skeleton)
        if ia < 0 or ib < 0 or out[ia + len(a.skeleton) : ib] != before:
            line = skeleton.text.count("\n", 0, a.start) - skeleton.text.count("\n", 0, start) + 1
            raise UnmaskError(
                f"the migration changes the branch after {a.original.strip()!r}, and the other branches of "
                "this if/else write the same keys differently (they are not migrated)",
                line,
            )


def _in_failed(line: int, failed: dict[int, Finding], spans: list[tuple[int, int]]) -> bool:
    return any(0 <= n < len(spans) and spans[n][0] <= line <= spans[n][1] for n in failed)


def _per_document(findings: list[Finding], failed: dict[int, Finding], spans: list[tuple[int, int]]) -> list[Finding]:
    """The engine's findings, less the notes about changes that were not made, plus ours."""
    out = []
    for f in findings:
        if (f.level == "info" or f.code == "K8SM-GEN-004") and _in_failed(f.line, failed, spans):
            continue  # notes about a change that was not made
        out.append(f)
    for n, f in failed.items():
        document = max((g.document for g in findings if n >= 0 and spans[n][0] <= g.line <= spans[n][1]), default=0)
        out.append(replace(f, document=document))
    return sorted(out, key=lambda f: (f.line, f.level != "error"))


def _finding(f: Finding, skeleton: Skeleton) -> Finding:
    message = unmask_message(f.message, skeleton)
    code = f.code
    if code == "K8SM-GEN-006":
        code = "K8SM-TPL-004"
        message = (
            f"{message}: the template writes this key twice (if/else branches?); "
            "its YAML skeleton cannot hold both, document left unchanged"
        )
    elif code == "K8SM-GEN-005":
        code = "K8SM-TPL-002"
    if message == f.message and code == f.code:
        return f
    return replace(f, code=code, message=message)


def _document(
    d: DocumentResult, skeleton: Skeleton, failed: dict[int, Finding], spans: list[tuple[int, int]]
) -> DocumentResult:
    if _in_failed(d.line, failed, spans) or -1 in failed:
        d.applied, d.summary, d.patch = [], [], []
        d.new_api_version = None
        return d
    if d.changed:
        d.patch = _unmask_data(d.patch, skeleton)
        d.summary = [unmask_message(s, skeleton) for s in d.summary]
    d.name = unmask_message(d.name, skeleton) if d.name else d.name
    d.namespace = unmask_message(d.namespace, skeleton) if d.namespace else d.namespace
    return d


def _unmask_data(value: Any, skeleton: Skeleton) -> Any:
    if isinstance(value, str):
        return unmask_message(value, skeleton)
    if isinstance(value, list):
        return [_unmask_data(v, skeleton) for v in value]
    if isinstance(value, dict):
        return {_unmask_data(k, skeleton): _unmask_data(v, skeleton) for k, v in value.items()}
    return value


_ACTION = regex(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def _actions(text: str) -> Counter[str]:
    return Counter(" ".join(a.split()) for a in _ACTION.findall(text))
