"""The per-document pipeline: read → pre-filter → gate and plan → apply → render and verify → report.

``migrate_stream`` reads a stream (parsing only the documents the pre-filter wants) and
takes each document through the same stages, with one status object that collects what
happens to it:

1. **gate**: templated documents, unreadable ones and duplicate keys stop here with a
   finding; the plan (``plan``) says which checks and which chain of steps each object of
   the document gets in the window.
2. **apply**: the checks run, then the steps; each gets a ``Context`` and edits the object
   in place. Any error finding leaves the whole document byte-identical.
3. **render and verify** (``verify``): the edited tree is spliced into the text and read
   back; the document's new text, patch and summary are recorded.
4. **report**: documents still on an API the target no longer serves (or that it
   deprecates) get their lifecycle finding (``removals``).

A bug costs one document, never the file or the batch (K8SM-GEN-012), except in
``raise_errors`` mode.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import field
from functools import partial

from .codes import (
    COMMENT_DROPPED,
    INTERNAL_ERROR,
    NOT_WHOLE,
    RELEASE_NEEDED,
    SHARED_EDIT,
    TEMPLATED,
    TEMPLATED_UNTOUCHED,
    UNREADABLE,
    Code,
    CodeError,
    checking,
)
from .components import release_needed_message
from .context import Context, Sibling
from .dataclasscode import dataclass
from .facts import Facts, StreamFacts
from .model import Check, DeclarationError, Migration
from .plan import LIST_KIND, Plan, is_candidate, list_items, plan, window_of
from .prefilter import prefilter
from .problems import input_problems, last_wins
from .regexcode import regex
from .registry import Registry, default_registry
from .removals import lifecycle_findings
from .results import DocumentResult, FileResult, Finding
from .runtime_typing import TYPE_CHECKING
from .scalars import Data
from .settings import Settings
from .tree import Mapping, Node, Scalar, TreeError
from .verify import RenderCheckError, dropped_comments, read_back, render
from .versions import Window
from .yamlio import EVERY, Document, Stream, read_again, read_data, read_stream
from .yamlio.fastbuild import pristine

if TYPE_CHECKING:
    from .sharing import Expansion

__all__ = ["RenderCheckError", "migrate_root", "migrate_stream"]


@dataclass(frozen=True)
class _Run:
    """What stays the same for every document of a stream."""

    settings: Settings
    registry: Registry
    window: Window
    filename: str
    report_only: bool
    siblings: Callable[[], list[Sibling]]
    checking: bool
    """Declarations are enforced: codes at their levels, checks that edit only with ``edits=True``."""
    facts: StreamFacts
    """The run's facts (``k8smigrate.facts``), or this stream's when there is no run."""


@dataclass
class _Status:
    """One document while it goes through the stages: its findings, its result, its new text."""

    filename: str
    doc: Document
    result: DocumentResult
    findings: list[Finding] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    new_text: str | None = None
    """The new text of the document's root node; None while it stays as it is."""

    def add(self, code: Code, message: str, line: int = 0) -> None:
        """A finding of the core about this document, at its code's declared level."""
        self.findings.append(
            Finding(code.level, code.code, message, None, self.filename, self.doc.index, line or self.doc.line, "")
        )

    @property
    def failed(self) -> bool:
        return any(f.level == "error" for f in self.findings)


def migrate_stream(
    text: str,
    settings: Settings | None = None,
    filename: str = "<string>",
    registry: Registry | None = None,
    *,
    report_only: bool = False,
    hold: Collection[int] = (),
    facts: Facts | None = None,
    read: Stream | None = None,
) -> FileResult:
    """Migrate every document of ``text``; never raises on bad input (see ``Settings.raise_errors``).

    With ``report_only`` the migrations run and report, and each document says what would be
    applied, but nothing is rendered: the text stays as it is and there are no patches.
    The documents whose index is in ``hold`` stay as they are, unread by any migration: the
    caller (kustomize trees, where an object and its patches move together) reports why.
    ``facts`` are a run's (``k8smigrate.facts``); without them a check joins this stream only.
    ``read``: the stream of ``text`` as the caller read it with another pre-filter (a scan, for
    its API rows), its trees used where they are the same (``yamlio.read_again``).
    """
    settings = settings or Settings()
    registry = registry or default_registry()
    window = settings.window
    wanted = prefilter(registry, settings, window)
    same = read is not None and len(read.prefix) + len(read.text) == len(text) and text.endswith(read.text)
    stream = read_again(read, wanted) if read is not None and same else None
    if stream is None:
        stream = read_stream(text, wanted=wanted)
    run = _Run(
        settings,
        registry,
        window,
        filename,
        report_only,
        _Siblings(stream.text),
        settings.raise_errors or checking(),
        StreamFacts(stream.text, filename, facts),
    )
    result = FileResult(filename, text, text)
    pieces: list[str] = []
    pos = 0
    for doc in stream.documents:
        status = _Status(
            filename,
            doc,
            DocumentResult(doc.index, doc.line, doc.api_version, doc.kind, doc.name, namespace=doc.namespace),
        )
        if doc.index in hold:
            result.documents.append(status.result)
            continue
        try:
            _migrate_document(run, stream, status)
        except (CodeError, DeclarationError):
            raise  # a migration that does not do what it declares: a bug to fix, never a finding
        except Exception as exc:  # a bug must cost one document, never the file or the batch
            if settings.raise_errors:
                raise
            status.findings = [f for f in status.findings if f.level != "info"]
            status.add(INTERNAL_ERROR, f"internal error, document left unchanged: {type(exc).__name__}: {exc}")
            status.new_text = None
            status.result.applied, status.result.patch, status.result.summary = [], [], []
        if not status.failed:
            status.findings += lifecycle_findings(
                doc, status.result, filename, window, settings, registry, ask_release=not report_only
            )
        result.findings += status.findings
        result.documents.append(status.result)
        if status.new_text is not None and doc.root is not None and doc.root.src is not None:
            pieces.append(stream.text[pos : doc.root.src.start])
            pieces.append(status.new_text)
            pos = doc.root.src.end
    if pieces:
        pieces.append(stream.text[pos:])
        result.text = stream.prefix + "".join(pieces)
    return result


def migrate_root(
    root: Mapping,
    api_version: str,
    kind: str,
    settings: Settings,
    registry: Registry,
    *,
    filename: str = "<string>",
    index: int = 0,
    line: int = 1,
    text: str = "",
) -> tuple[DocumentResult, list[Finding]]:
    """Run the plan of ``(api_version, kind)`` on a tree built by the caller, editing it in place.

    The gate and apply stages only: nothing is rendered, the caller owns the tree (kustomize
    merges a patch with the object it targets and keeps the patch's part). ``text`` is what
    checks' triggers are searched in. The result lists the migrations applied (``summary``
    holds the change notes), beside the findings.
    """
    doc = Document(index, 0, len(text), line, root=root, api_version=api_version, kind=kind)
    run = _Run(
        settings,
        registry,
        settings.window,
        filename,
        True,
        list,
        settings.raise_errors or checking(),
        StreamFacts(text, filename),  # a patch merged with its object: the facts of its text only
    )
    status = _Status(filename, doc, DocumentResult(index, line, api_version, kind))
    _migrate_document(run, Stream(text, False, [doc]), status)
    return status.result, status.findings


class _Siblings:
    """The input data of every document of a stream, read again on first use (bodies edit the trees)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.data: list[Sibling] | None = None

    def __call__(self) -> list[Sibling]:
        if self.data is None:
            self.data = []
            for doc in read_stream(self.text, wanted=EVERY).documents:
                if doc.root is not None and not doc.templated:
                    try:
                        self.data.append((doc.api_version, doc.kind, doc.root.to_data()))
                    except (TreeError, RecursionError):
                        continue
        return self.data


def _migrate_document(run: _Run, stream: Stream, status: _Status) -> None:
    """Take one document through the stages; ``status.new_text`` is set when it changes."""
    root = _gate(run, stream, status)
    if root is None:
        return
    objects, list_plan = _objects(root, status.doc, run)
    if all(p.empty for _obj, p in objects) and not (list_plan and list_plan.steps):
        return
    doc = status.doc
    expansion = None
    if doc.shares:  # bodies see what aliases and merge keys stand for, each place on its own
        from .sharing import expand  # anchors and aliases are rare: not imported by every run

        try:
            expansion = expand(root)
        except (TreeError, RecursionError) as exc:
            status.add(UNREADABLE, f"cannot read the document: {exc}")
            return
        objects, list_plan = _objects(root, doc, run)  # a List item may have been an alias
    bare_cr = _BARE_CR.search(stream.text, stream.text.rfind("\n", 0, doc.start) + 1, doc.end)
    if bare_cr is not None:
        # YAML breaks lines at a lone CR too; splicing works on LF and CRLF lines only.
        where = stream.text.count("\n", 0, bare_cr.start()) + 1
        status.add(UNREADABLE, "a carriage return without a line feed (old Mac line end); left unchanged", where)
        return
    before: Data = None
    if expansion is not None and (any(p.steps for _obj, p in objects) or (list_plan and list_plan.steps)):
        # written-out aliases: the patch's "before" is what the bodies saw, not the text read again
        try:
            before = root.to_data()
        except (TreeError, RecursionError) as exc:
            status.add(UNREADABLE, f"cannot read the document: {exc}")
            return
    applied = _apply(run, stream, status, root, objects)
    if _release_needed(run, status):
        return
    if not applied:
        return
    if expansion is not None and not _fold(expansion, root, status):
        return
    if list_plan is not None and list_plan.final_api is not None:
        api = root.get("apiVersion")
        if isinstance(api, Scalar):
            api.set(list_plan.final_api)
        status.applied += [s.name for s in list_plan.steps if s.name not in status.applied]
    if pristine(root):
        return  # only checks ran
    if run.report_only:
        status.result.applied, status.result.summary = status.applied, status.notes
        return
    _render_and_verify(run, stream, status, root, before)


# ------------------------------------------------------------------ 1. gate and plan


def _gate(run: _Run, stream: Stream, status: _Status) -> Mapping | None:
    """The document's root when it can be migrated; otherwise None, with the finding that says why."""
    doc = status.doc
    if doc.templated:
        if is_candidate(doc.api_version, doc.kind, run.registry) or doc.api_version is None:
            status.add(TEMPLATED, "templated document (Helm/Jinja markers) skipped: it is not YAML until rendered")
        else:
            status.add(
                TEMPLATED_UNTOUCHED, "templated document (Helm/Jinja markers) skipped: it is not YAML until rendered"
            )
        return None
    if doc.problem is None and not stream.whole:
        # Pieces of a file that is not YAML as a whole may sit inside template control blocks:
        # changing nothing is the only safe answer; what needs migrating is still reported.
        if is_candidate(doc.api_version, doc.kind, run.registry):
            status.add(NOT_WHOLE, "the file does not parse as a whole (a template?); left unchanged")
        return None
    for code, message, line in input_problems(doc, last_wins(doc, run.registry, run.settings)):
        status.add(code, message, line)
    if status.failed or not isinstance(doc.root, Mapping):
        return None
    return doc.root


def _objects(root: Mapping, doc: Document, run: _Run) -> tuple[list[tuple[Mapping, Plan]], Plan | None]:
    """The objects of a document with their plans (the root, or each List item), and a typed list's plan."""
    api, kind = doc.api_version, doc.kind
    if api is None or kind is None:
        return [], None
    settings, registry, window = run.settings, run.registry, run.window
    items = list_items(root, api, kind)
    if items is None:
        return [(root, plan(api, kind, settings, registry, window))], None
    out = [
        (item, plan(item_api, item_kind, settings, registry, window))
        for item, item_api, item_kind in items
        if item_api and item_kind
    ]
    element = kind[: -len(LIST_KIND)]
    return out, plan(api, element, settings, registry, window) if element else None


def _scalar_text(node: Node | None) -> str | None:
    return node.value if isinstance(node, Scalar) and node.value else None


# ------------------------------------------------------------------ 2. apply checks and steps


def _apply(run: _Run, stream: Stream, status: _Status, root: Mapping, objects: list[tuple[Mapping, Plan]]) -> bool:
    """Run every object's checks, then its steps; False when one reported an error."""
    doc = status.doc
    whole = stream.text[doc.start : doc.end]
    for obj, p in objects:
        # which checks a List item needs is read from the item's own text: the whole List's, read
        # again for each item and check, made a List of n items cost n times its length; but
        # where aliases share nodes, an item may hold what only another item's text says
        if obj is root or doc.shares or obj.src is None or obj.src.start < 0:
            source = whole
        else:
            source = stream.text[obj.src.start : obj.src.end]
        final_api = p.final_api or _scalar_text(obj.get("apiVersion")) or doc.api_version
        untouched: bool | None = None  # whether obj is still as parsed, when known (pristine() walks it all)
        migrations: list[Migration] = [*p.checks, *p.steps]
        for m in migrations:
            if isinstance(m, Check) and not m.triggered_by(source):
                continue  # the document holds nothing this check looks for (it is here for another one)
            ctx = _context(run, status, root, m, final_api, stream.text)
            if isinstance(m, Check) and (m.edits or run.checking):
                untouched = pristine(obj) if untouched is None else untouched
            was_untouched = untouched
            if m.body is not None:
                m.body(obj, ctx)
            status.findings += ctx.findings
            status.notes += ctx.notes
            if ctx.failed:
                return False
            if isinstance(m, Check):
                if not m.edits and run.checking and was_untouched and not pristine(obj):
                    raise DeclarationError(f"{m.name} changed a document but does not declare edits=True")
                if not ctx.notes and (not m.edits or not was_untouched or pristine(obj)):
                    continue  # a check that found nothing to fix: not "applied"
                untouched = None
            else:
                api = obj.get("apiVersion")
                if isinstance(api, Scalar):
                    api.set(m.to_api)
                kind = obj.get("kind")
                if m.to_kind is not None and isinstance(kind, Scalar):
                    kind.set(m.to_kind)
            if m.name not in status.applied:
                status.applied.append(m.name)
    return True


def _fold(expansion: Expansion, root: Mapping, status: _Status) -> bool:
    """Aliases and merge keys back in place; False (with the errors) where an edit went through one."""
    from .sharing import fold

    problems = fold(expansion, root)
    for p in problems:
        status.findings.append(
            Finding(
                SHARED_EDIT.level,
                SHARED_EDIT.code,
                p.message,
                None,
                status.filename,
                status.doc.index,
                p.node.line or status.doc.line,
                p.path,
            )
        )
    return not problems


def _checking(run: _Run) -> bool:
    return run.settings.raise_errors or checking()


def _release_needed(run: _Run, status: _Status) -> bool:
    """An add-on migration acted on the document but the run names no release of that add-on.

    The migrations of an add-on whose release was not given ran with the newest release
    k8smigrate knows (what ``scan`` reports). ``apply`` and ``diff`` do not guess: when one of
    them changed the document or found it needs a human, the document is left as it is with
    K8SM-GEN-016 naming the option; what they only reported is dropped. True in that case.
    """
    if run.report_only:
        return False
    windows = run.settings.windows
    acted = set(status.applied) | {f.migration for f in status.findings if f.migration and f.level == "error"}
    pending = sorted({m.component for name in acted for m in run.registry.named(name) if windows.assumed(m.component)})
    status.findings = [
        f
        for f in status.findings
        if not (f.migration and any(windows.assumed(m.component) for m in run.registry.named(f.migration)))
    ]
    if not pending:
        return False
    status.applied, status.notes = [], []
    status.add(RELEASE_NEEDED, release_needed_message(status.doc.api_version, status.doc.kind, pending))
    return True


def _context(
    run: _Run, status: _Status, root: Mapping, m: Migration, final_api: str | None, source: str = ""
) -> Context:
    return Context(
        m,
        run.settings,
        root,
        window_of(m.component, run.settings, run.window),
        run.filename,
        status.doc.index,
        status.doc.line,
        final_api=final_api,
        needs=m.needed if isinstance(m, Check) else None,
        lifecycles=run.registry.lifecycles,
        check_codes=run.checking,
        read_siblings=run.siblings,
        read_facts=run.facts,
        source=source,
        plan_api=partial(_migrated_api, run),
    )


def _migrated_api(run: _Run, api: str, kind: str) -> str | None:
    """``ctx.migrated_api``: where the steps of this run take an object of ``api`` and ``kind``."""
    return plan(api, kind, run.settings, run.registry, run.window).final_api


# ------------------------------------------------------------------ 3. render and verify


def _render_and_verify(run: _Run, stream: Stream, status: _Status, root: Mapping, before: Data) -> None:
    new_text, lead = render(stream.text, root)
    after, problem = read_back(root, new_text, lead, stream.libyaml)
    if problem:
        if run.settings.raise_errors:
            raise RenderCheckError(problem)
        status.add(INTERNAL_ERROR, f"internal error, document left unchanged: {problem}")
        return
    old_text = stream.text[root.src.start : root.src.end] if root.src else ""
    for comment, offset in dropped_comments(old_text, new_text):
        status.add(COMMENT_DROPPED, f"comment dropped with a removed field: {comment}", root.line + offset)
    result = status.result
    result.applied = status.applied
    result.summary = status.notes
    if before is None:  # the input is read again if the patch is ever asked for (most runs never ask)
        assert root.src is not None
        original_text = lead + " " * root.src.col + stream.text[root.src.start : root.src.end]
        result.defer_patch(partial(_data_of, original_text, stream.libyaml), after)
    else:
        result.defer_patch(before, after)
    if isinstance(after, dict):
        result.new_api_version = str(after.get("apiVersion"))
    status.new_text = new_text


def _data_of(text: str, libyaml: bool) -> Data:
    """The data of the one document of ``text``, the input of an edited document, read as the
    tree reads it by the reader that checks edits (no tree built, in C where libyaml is)."""
    try:
        documents = read_data(text, libyaml)
    except ValueError:  # not expected (the document was read once): then as the stream read it
        found = read_stream(text, wanted=EVERY).documents
        return found[0].root.to_data() if found and found[0].root is not None else None
    return documents[0] if documents else None


_BARE_CR = regex(r"\r(?!\n)")
