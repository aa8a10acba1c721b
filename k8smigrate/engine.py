"""The per-document loop: find each document's chain of steps, run it, gate it, render it.

For every document the engine walks ``(apiVersion, kind)`` step by step while the next
step's target API is served by every release of the window, runs each step's body,
sets ``apiVersion`` itself, and splices the edited tree back into the text. Any error
finding leaves that document byte-identical. Afterwards it says which documents are
still on an API that the target release no longer serves.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import partial

from .context import Context, Sibling
from .hints import hint
from .registry import Migration, Registry, default_registry
from .render import Renderer, detect_style
from .results import DocumentResult, FileResult, Finding, Level
from .scalars import Data
from .settings import Settings
from .tree import Mapping, Node, Scalar, Sequence, TreeError
from .versions import Window, lifecycle
from .yamlio import BOM, EVERY, Document, Stream, directives, read_data, read_stream

LIST_KIND = "List"


def element_kind(kind: str) -> str:
    """The kind of a typed list's items (``RoleList`` → ``Role``); any other kind as it is."""
    return kind[: -len(LIST_KIND)] if kind.endswith(LIST_KIND) and kind != LIST_KIND else kind


class RenderCheckError(AssertionError):
    """The spliced text does not read back as the edited tree (a bug, never user error)."""


@dataclass
class Plan:
    """The steps one (apiVersion, kind) takes inside the window, and why it stops."""

    steps: list[Migration] = field(default_factory=list)
    blocked: Migration | None = None
    passes: list[Migration] = field(default_factory=list)

    @property
    def final_api(self) -> str | None:
        return self.steps[-1].to_api if self.steps else None


def plan(api_version: str, kind: str, settings: Settings, registry: Registry, window: Window) -> Plan:
    """The chain up to the furthest step whose target API every release of the window serves.

    Intermediate versions are only stages of the conversion: extensions/v1beta1 Ingress
    goes to networking.k8s.io/v1 for target 1.22 although networking.k8s.io/v1beta1 is
    gone there, and stops at networking.k8s.io/v1beta1 when the window starts at 1.18.
    """
    passes = [
        m
        for m in registry.passes(api_version, kind)
        if settings.enabled(m.name, m.opt_in) and (m.removed is None or m.removed <= window.target)
    ]
    chain: list[Migration] = []
    api = api_version
    seen = {api}
    while (step := registry.step(api, kind)) is not None and settings.enabled(step.name, step.opt_in):
        chain.append(step)
        api = step.to_api
        if api in seen:  # pragma: no cover - the registry rejects cycles at import
            break
        seen.add(api)
    served = [i for i, step in enumerate(chain) if _served(step, kind, window)]
    if not served:
        return Plan([], chain[0] if chain else None, passes)
    return Plan(chain[: served[-1] + 1], None, passes)


_WANTED: dict[tuple[int, tuple[str, ...], tuple[str, ...], Window], Callable[[str], bool]] = {}


def prefilter(registry: Registry, settings: Settings, window: Window) -> Callable[[str], bool]:
    """The raw-text pre-filter for these settings (built once: a run asks for it per file).

    True for a document's text that some enabled migration may need; also true for a whole
    stream holding such a document (the test is a search for apiVersions and triggers).
    """
    key = (id(registry), settings.only, settings.skip, window)
    if key not in _WANTED:
        if len(_WANTED) > 16:
            _WANTED.clear()
        _WANTED[key] = registry.wants(_enabled_in(settings, window))
    return _WANTED[key]


def _enabled_in(settings: Settings, window: Window) -> Callable[[Migration], bool]:
    def enabled(m: Migration) -> bool:
        if not settings.enabled(m.name, m.opt_in):
            return False
        return not m.fixer or m.removed is None or m.removed <= window.target

    return enabled


def _served(step: Migration, kind: str, window: Window) -> bool:
    target = lifecycle(step.to_api, kind)
    return window.serves(step.available, target.removed_in if target else None)


@dataclass
class _DocRun:
    """Findings and results collected while one document is processed."""

    filename: str
    doc: Document
    findings: list[Finding] = field(default_factory=list)

    def add(
        self,
        level: Level,
        code: str,
        message: str,
        line: int = 0,
        path: str = "",
        migration: str | None = None,
    ) -> None:
        self.findings.append(
            Finding(level, code, message, migration, self.filename, self.doc.index, line or self.doc.line, path)
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
) -> FileResult:
    """Migrate every document of ``text``; never raises on bad input (see ``Settings.raise_errors``).

    With ``report_only`` the bodies run and report, and each document says what would be
    applied, but nothing is rendered: the text stays as it is and there are no patches.
    The documents whose index is in ``hold`` stay as they are, unread by any step: the
    caller (kustomize trees, where a base and its patches move together) reports why.
    """
    settings = settings or Settings()
    registry = registry or default_registry()
    window = settings.window
    stream = read_stream(text, wanted=prefilter(registry, settings, window))
    pieces: list[str] = []
    pos = 0
    result = FileResult(filename, text, text)
    siblings = _Siblings(stream.text)
    for doc in stream.documents:
        run = _DocRun(filename, doc)
        doc_result = DocumentResult(doc.index, doc.line, doc.api_version, doc.kind, doc.name, namespace=doc.namespace)
        if doc.index in hold:
            result.documents.append(doc_result)
            continue
        try:
            new_root = _migrate_document(
                stream, doc, run, doc_result, settings, registry, window, siblings, report_only
            )
        except Exception as exc:  # a bug must cost one document, never the file or the batch
            if settings.raise_errors:
                raise
            run.findings = [f for f in run.findings if f.level != "info"]
            why = f"{type(exc).__name__}: {exc}"
            run.add("error", "K8SM-GEN-012", f"internal error, document left unchanged: {why}")
            new_root = None
            doc_result.applied, doc_result.patch, doc_result.summary = [], [], []
        _check_lifecycle(run, doc, doc_result, window, settings, registry)
        result.findings += run.findings
        result.documents.append(doc_result)
        if new_root is not None and doc.root is not None and doc.root.src is not None:
            pieces.append(stream.text[pos : doc.root.src.start])
            pieces.append(new_root)
            pos = doc.root.src.end
    if pieces:
        pieces.append(stream.text[pos:])
        result.text = (BOM if stream.bom else "") + "".join(pieces)
    return result


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


def _migrate_document(
    stream: Stream,
    doc: Document,
    run: _DocRun,
    doc_result: DocumentResult,
    settings: Settings,
    registry: Registry,
    window: Window,
    siblings: _Siblings | None = None,
    report_only: bool = False,
) -> str | None:
    """The new text of the document's root node, or None when it stays as it is."""
    if doc.templated:
        candidate = _is_candidate(doc.api_version, doc.kind, registry)
        level: Level = "warning" if candidate or doc.api_version is None else "info"
        run.add(
            level,
            "K8SM-GEN-001",
            "templated document (Helm/Jinja markers) skipped: it is not YAML until rendered",
        )
        return None
    if doc.problem is not None:
        what = "invalid YAML" if doc.problem.code == "K8SM-GEN-005" else "cannot read the document"
        run.add("error", doc.problem.code, f"{what}: {doc.problem.message}", doc.problem.line)
        return None
    if not stream.whole:
        # Pieces of a file that is not YAML as a whole may sit inside template control blocks:
        # changing nothing is the only safe answer; what needs migrating is still reported.
        if _is_candidate(doc.api_version, doc.kind, registry):
            run.add("warning", "K8SM-GEN-014", "the file does not parse as a whole (a template?); left unchanged")
        return None
    for dup in doc.duplicates:
        run.add(
            "error",
            "K8SM-GEN-006",
            f"{dup.message} (also on line {dup.other_line}); which one the API server keeps is undefined",
            dup.line,
        )
    root = doc.root
    if run.failed or not isinstance(root, Mapping):
        return None
    objects, list_plan = _objects(root, doc, registry, settings, window)
    if not any(p.steps or p.passes for _obj, p in objects) and not (list_plan and list_plan.steps):
        return None
    bare_cr = _BARE_CR.search(stream.text, stream.text.rfind("\n", 0, doc.start) + 1, doc.end)
    if bare_cr is not None:
        # YAML breaks lines at a lone CR too; splicing works on LF and CRLF lines only.
        where = stream.text.count("\n", 0, bare_cr.start()) + 1
        message = "a carriage return without a line feed (old Mac line end); left unchanged"
        run.add("error", "K8SM-GEN-011", message, where)
        return None
    before: Data = None
    if any(p.steps for _obj, p in objects) or (list_plan and list_plan.steps):
        try:
            before = root.to_data()  # and an alias bomb is refused before any body walks it
        except (TreeError, RecursionError) as exc:
            run.add("error", "K8SM-GEN-011", f"cannot read the document: {exc}")
            return None
    notes: list[str] = []
    applied: list[str] = []
    source = stream.text[doc.start : doc.end]
    for obj, p in objects:
        # pristine() walks the whole object: a fixer that found nothing leaves it as the next one sees it
        known_pristine = False
        for step in [*p.passes, *p.steps]:
            if step.fixer and not step.triggered_by(source):
                continue  # the document holds nothing this fixer looks for (it is here for another step)
            ctx = Context(step, settings, root, run.filename, doc.index, doc.line, read_siblings=siblings)
            untouched = step.fixer and (known_pristine or obj.pristine())  # only a fixer asks below
            known_pristine = False
            if step.body is not None:
                step.body(obj, ctx)
            run.findings += ctx.findings
            notes += ctx.notes
            if ctx.failed:
                return None
            if step.fixer and not ctx.notes and (not untouched or obj.pristine()):
                known_pristine = untouched  # when untouched, obj.pristine() was just found true
                continue  # a check, or a fixer that found nothing to fix: not "applied"
            api = obj.get("apiVersion")
            if isinstance(api, Scalar) and not step.fixer:
                api.set(step.to_api)
            if step.name not in applied:
                applied.append(step.name)
    if list_plan is not None and list_plan.final_api is not None:
        api = root.get("apiVersion")
        if isinstance(api, Scalar):
            api.set(list_plan.final_api)
        applied += [s.name for s in list_plan.steps if s.name not in applied]
    if root.pristine():
        return None  # only checks ran
    if report_only:
        doc_result.applied, doc_result.summary = applied, notes
        return None
    new_text = Renderer(stream.text, detect_style(stream.text, root)).document(root)
    lead = directives(stream.text, root.src.start if root.src else 0)  # %TAG handles, to read it alone
    after = _check_render(stream.text, root, new_text, run, settings, lead, stream.libyaml)
    if after is None:
        return None
    _check_comments(stream.text[root.src.start : root.src.end] if root.src else "", new_text, run)
    doc_result.applied = applied
    doc_result.summary = notes
    if before is None:  # only fixers ran: the input is read again if the patch is ever asked for
        assert root.src is not None
        original_text = lead + " " * root.src.col + stream.text[root.src.start : root.src.end]
        doc_result.defer_patch(partial(_data_of, original_text), after)
    else:
        doc_result.defer_patch(before, after)
    if isinstance(after, dict):
        doc_result.new_api_version = str(after.get("apiVersion"))
    return new_text


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

    Nothing is rendered: the caller owns the tree (kustomize merges a patch with its base and
    keeps the patch's part). ``text`` is what fixers' triggers are searched in. The result
    lists the steps applied (``summary`` holds the change notes), beside the findings.
    """
    doc = Document(index, 0, len(text), line, root=root, api_version=api_version, kind=kind)
    run = _DocRun(filename, doc)
    doc_result = DocumentResult(index, line, api_version, kind)
    stream = Stream(text, False, [doc])
    _migrate_document(stream, doc, run, doc_result, settings, registry, settings.window, None, True)
    return doc_result, run.findings


def _data_of(text: str) -> Data:
    """The data of the one document of ``text`` (the input of a document only fixers edited)."""
    documents = read_stream(text, wanted=EVERY).documents
    return documents[0].root.to_data() if documents and documents[0].root is not None else None


def _objects(
    root: Mapping, doc: Document, registry: Registry, settings: Settings, window: Window
) -> tuple[list[tuple[Mapping, Plan]], Plan | None]:
    """The objects of a document with their plans (the root, or each List item), and a typed list's plan."""
    api, kind = doc.api_version, doc.kind
    if api is None or kind is None:
        return [], None
    items = root.get("items")
    if not (kind.endswith(LIST_KIND) and isinstance(items, Sequence)):
        return [(root, plan(api, kind, settings, registry, window))], None
    element = kind[: -len(LIST_KIND)]
    out: list[tuple[Mapping, Plan]] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        item_api = _scalar_text(item.get("apiVersion")) or (api if element else None)
        item_kind = _scalar_text(item.get("kind")) or element
        if item_api and item_kind:
            out.append((item, plan(item_api, item_kind, settings, registry, window)))
    return out, plan(api, element, settings, registry, window) if element else None


def _scalar_text(node: Node | None) -> str | None:
    return node.value if isinstance(node, Scalar) and node.value else None


def _is_candidate(api: str | None, kind: str | None, registry: Registry) -> bool:
    if api is None or kind is None:
        return False
    element = element_kind(kind)
    return registry.step(api, element) is not None or lifecycle(api, kind) is not None


def _check_render(
    text: str,
    root: Mapping,
    new_text: str,
    run: _DocRun,
    settings: Settings,
    lead: str = "",
    libyaml: bool = True,
) -> Data | None:
    """Read the spliced text back; it must give exactly the edited tree's data."""
    assert root.src is not None
    problem = ""
    after: Data = None
    try:
        want = root.to_data()
        reread = read_data(lead + " " * root.src.col + new_text, libyaml)
        if len(reread) != 1:
            problem = "the edited document does not read back as one document"
        else:
            after = reread[0]
            if after != want:
                problem = "the edited document does not read back as intended"
    except (TreeError, RecursionError, ValueError) as exc:
        problem = f"the edited document does not parse: {exc}"
    if problem:
        if settings.raise_errors:
            raise RenderCheckError(problem)
        run.add("error", "K8SM-GEN-012", f"internal error, document left unchanged: {problem}")
        return None
    return after


_BARE_CR = re.compile(r"\r(?!\n)")
_COMMENT_RE = re.compile(r"(?:^|\s)(#.*)$")


def _comments(text: str) -> Counter[str]:
    found: Counter[str] = Counter()
    for line in text.splitlines():
        if "#" not in line:  # most lines: the pattern below would not match either
            continue
        s = line.strip()
        if s.startswith("#"):
            found[s] += 1
            continue
        m = _COMMENT_RE.search(line)
        if m and line.count('"') % 2 == 0 and line.count("'") % 2 == 0:
            found[m.group(1).strip()] += 1
    return found


def dropped_comments(old: str, new: str) -> list[str]:
    """The comments of ``old`` that ``new`` no longer has (K8SM-GEN-004)."""
    return list(_comments(old) - _comments(new)) if "#" in old else []


def _check_comments(old: str, new: str, run: _DocRun) -> None:
    for comment in dropped_comments(old, new):
        run.add("warning", "K8SM-GEN-004", f"comment dropped with a removed field: {comment}")


def _full_chain(api: str, kind: str, registry: Registry) -> list[Migration]:
    """Every step from ``api`` on, enabled or not."""
    chain: list[Migration] = []
    while (step := registry.step(api, kind)) is not None and step not in chain:
        chain.append(step)
        api = step.to_api
    return chain


def _check_lifecycle(
    run: _DocRun,
    doc: Document,
    doc_result: DocumentResult,
    window: Window,
    settings: Settings,
    registry: Registry,
) -> None:
    """Say which documents are still on an API that the target release no longer serves."""
    api = doc_result.new_api_version or doc.api_version
    kind = doc.kind
    if api is None or kind is None or run.failed:
        return
    life = lifecycle(api, kind)
    if life is None:
        return
    element = element_kind(kind)
    step = registry.step(api, element)
    disabled = [s.name for s in _full_chain(api, element, registry) if not settings.enabled(s.name, s.opt_in)]
    if life.removed_in is not None and life.removed_in <= window.target:
        if disabled:
            why = f"migration {disabled[0]} is disabled"
        elif step is not None and plan(api, element, settings, registry, window).steps:
            why = f"left in place (templated or not YAML as a whole); {step.name} migrates it once rendered"
        elif step is not None:
            why = f"{step.to_api} is not served by every release from {window.min_version} to {window.target}"
            run.add(
                "error",
                "K8SM-GEN-009",
                f"{api} {kind} is removed in {life.removed_in} and its replacement is unavailable: {why}"
                f"{hint(api, kind)}",
            )
            return
        elif life.replacement:
            why = f"no automatic migration; move to {life.replacement} by hand"
        else:
            why = "it has no replacement"
        run.add("error", "K8SM-GEN-007", f"{api} {kind} is removed in {life.removed_in}: {why}{hint(api, kind)}")
    elif life.deprecated_in is not None and life.deprecated_in <= window.target and not doc_result.applied:
        repl = f"; use {life.replacement}" if life.replacement else ""
        repl += hint(api, kind)
        run.add("warning", "K8SM-GEN-008", f"{api} {kind} is deprecated since {life.deprecated_in}{repl}")
