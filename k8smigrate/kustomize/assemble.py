"""Turning an analysis into files: new texts, findings and scan rows, written atomically.

Objects held back with their group are migrated again without them (the engine's ``hold``);
objects only their patch completes get their text; each patch document, inline patch, JSON
patch and reference edit is written where it stands (edits on the kustomization's tree are
rendered by splicing, inline patches inside their block scalar); every held member gets a
K8SM-KUS-002 finding naming the member that held it back.
"""

from __future__ import annotations

from pathlib import Path

from ..codes import OWNER_NOT_KEPT, Code
from ..engine import migrate_stream
from ..files import InputError, Loaded, WritePolicy, write_atomic
from ..outcomes import UNREADABLE_CODES, FileOutcome, input_error
from ..plan import element_kind
from ..results import DocumentResult, FileResult, Finding
from ..scan import ScanEntry, Status
from ..tree import Node, Scalar
from ..yamlio import BOM, EVERY, Stream, read_stream
from . import partial, pointer
from .analysis import Analysis, MemberKey
from .codes import (
    COMPLETED_BY_PATCH,
    HELD,
    HELD_DEPRECATED,
    INLINE_NOT_REWRITTEN,
    NOT_FOLLOWED,
    PATCH_FOLLOWS,
    PATH_MOVED,
    REFERENCE_MOVED,
)
from .fix import fix
from .graph import DocRef, Graph, Kustomization, PatchEntry, Source
from .inline import splice_block
from .references import Edits, ReferenceWork
from .treerun import TreeRun


def settle(run: Analysis, out: TreeRun, in_place: bool, policy: WritePolicy | None = None) -> None:
    """Write the analysis ``run`` into ``out``: one outcome per file it owns (written with
    ``in_place``), with findings and scan rows."""
    settings = run.settings
    held = run.held()
    files = _Files(run, out)
    _hold_objects(run, held, files)
    _settle_patches(run, held, files)
    for work in run.references:
        subject = run.subject(work.refs)
        if not held.get(work.key):
            _edited(run, files, work.edits, subject)
        else:
            source_path = Path(work.where.split(":", 1)[0])
            files.add(source_path.resolve(), _held_reference(work, held[work.key]), subject)
    for k in run.graph.kustomizations.values():
        me = (_text_of(k.get("apiVersion")), _text_of(k.get("kind")) or "Kustomization", None)
        for raw, line in k.remote:
            message = (
                f"remote reference {raw} is not fetched: what it holds is not migrated, and patches that "
                "target it are left as they are"
            )
            files.add(k.path.resolve(), _finding(NOT_FOLLOWED, message, str(k.path), 0, line), me)
        for raw, line in k.outside:
            message = (
                f"{raw} is outside the folders given: what it holds is not migrated with this tree "
                "(give the folder that holds both)"
            )
            files.add(k.path.resolve(), _finding(NOT_FOLLOWED, message, str(k.path), 0, line), me)
    if settings.enabled(FIX, opt_in=True):
        for k in run.graph.kustomizations.values():
            if k.unsound is None:  # its fields may not be what kustomize reads
                _fix(k, files)
    _assemble(run, out, files, in_place, policy)


def _held(api: str | None, kind: str | None, run: Analysis) -> Code:
    """K8SM-KUS-002 (an error) when the API is removed at the target, else K8SM-KUS-009."""
    life = run.registry.lifecycle(api, element_kind(kind)) if api and kind else None
    removed = life is not None and life.removed_in is not None and life.removed_in <= run.settings.window.target
    return HELD if removed else HELD_DEPRECATED


def _why(reasons: list[tuple[str, str]]) -> str:
    listed = [f"{where}: {why}" for where, why in reasons[:3]]
    return "; ".join(listed) + (f"; and {len(reasons) - 3} more" if len(reasons) > 3 else "")


def _row(f: Finding, api: str, kind: str, name: str | None, run: Analysis) -> ScanEntry:
    """A kustomize finding as a scan row: a change the target needs has the status of the API it
    follows (removed or deprecated); a reference held back is breaking (error) or a warning."""
    settings = run.settings
    life = run.registry.lifecycle(api, element_kind(kind))
    status: Status
    if f.level == "info":
        removed = life is not None and life.removed_in is not None and life.removed_in <= settings.window.target
        status = "removed" if removed else "deprecated"
    else:
        status = "breaking" if f.level == "error" else "warning"
    return ScanEntry(
        f.filename,
        f.document,
        f.line,
        api,
        kind,
        name,
        status,
        str(life.deprecated_in) if life and life.deprecated_in else None,
        str(life.removed_in) if life and life.removed_in else None,
        life.replacement if life else None,
        "kustomize" if f.level == "info" else None,
        False,
        category="kustomize",
        level=f.level,
        code=f.code,
        message=f.message,
    )


class _Files:
    """What becomes of every file the kustomize part owns: new texts and findings."""

    def __init__(self, run: Analysis, out: TreeRun) -> None:
        self.run = run
        self.out = out
        self.findings: dict[Path, list[Finding]] = {}
        self.docs: dict[Path, dict[int, str]] = {}
        """Patch files: the new text of a document's root, by document index."""
        self.blocks: dict[Path, list[tuple[PatchEntry, str]]] = {}
        """Kustomization files: the new text of an inline patch."""
        self.applied: dict[Path, dict[int, tuple[list[str], list[str], str | None]]] = {}
        """Patch files: the migrations a document's merged object went through."""

    def add(self, path: Path, finding: Finding, subject: tuple[str, str, str | None] | None = None) -> None:
        """A finding on a file; with ``subject`` (apiVersion, kind, name) it is a scan row too."""
        self.findings.setdefault(path, []).append(finding)
        if subject is not None:
            self.out.row(path, _row(finding, *subject, self.run))


FIX = "kustomize_edit_fix"
"""The opt-in migration that moves deprecated kustomization fields (``migrations/kustomize_edit_fix.py``)."""


def _fix(k: Kustomization, files: _Files) -> None:
    me = (_text_of(k.get("apiVersion")), _text_of(k.get("kind")) or "Kustomization", None)

    def report(code: Code, message: str, node: Node | None) -> None:
        line = (node.line if node is not None else 0) or k.line
        finding = Finding(code.level, code.code, message, FIX, str(k.path), 0, line)
        files.add(k.path.resolve(), finding, me)

    fix(k.root, report, k.source.stream.text)


def _hold_objects(run: Analysis, held: dict[MemberKey, list[tuple[str, str]]], files: _Files) -> None:
    """Migrate again the resource files with objects that must stay, leaving those as they are;
    write the objects only their patch let migrate."""
    settings = run.settings
    for path, result in list(run.results.items()):
        mine = [(ref, d) for ref, d in run.docs_of(path)]
        hold = {ref.index for ref, d in mine if d.changes and d.failure is None and run.doc_key(ref) in held}
        source = run.graph.source(path)
        assert source is not None
        if hold:
            result = migrate_stream(source.text, settings, str(source.path), run.registry, hold=hold, facts=run.facts)
        for index in sorted(hold):
            d = run.docs[DocRef(path, index)]
            result.findings.append(
                Finding(
                    _held(d.api_version, d.kind, run).level,
                    _held(d.api_version, d.kind, run).code,
                    f"{d.api_version} {d.kind} left as it is, with what must move with it: "
                    f"{_why(held[run.doc_key(d.ref)])}",
                    None,
                    str(source.path),
                    index,
                    source.document(index).line,
                )
            )
        rescued = {ref.index: d.rescued for ref, d in mine if d.rescued is not None and ref.index not in hold}
        if rescued:
            result = _with_rescued(run, path, source, result, rescued)
        run.results[path] = result


def _with_rescued(run: Analysis, path: Path, source: Source, result: FileResult, rescued: dict[int, str]) -> FileResult:
    """``result`` with the objects only their patch let migrate written, their own errors gone."""
    stream = read_stream(result.text, wanted=EVERY)
    text = _splice(Source(source.path, Loaded(source.path, result.text, b""), stream), rescued)
    kept = [f for f in result.findings if not (f.document in rescued and f.level == "error")]
    out = FileResult(result.filename, result.original, text, kept, result.documents)
    for index in sorted(rescued):
        by = next((d.rescued_by for ref, d in run.docs_of(path) if ref.index == index), "")
        out.findings.append(
            _finding(
                COMPLETED_BY_PATCH,
                f"migrated as its kustomization builds it: its patch {by} settles what its migration needs "
                "(alone, the object is not complete for the new API; it is used with that patch)",
                str(source.path),
                index,
                source.document(index).line,
            )
        )
    return out


def _settle_patches(run: Analysis, held: dict[MemberKey, list[tuple[str, str]]], files: _Files) -> None:
    for work in run.patches:
        entry = work.entry
        path = entry.file if entry.file is not None else entry.owner.path.resolve()
        shown = str(run.graph.display(path))
        line = entry.line
        if entry.file is not None:
            source = run.graph.source(entry.file)
            line = source.document(work.doc_index or 0).line if source is not None else 1
        if work.key in held:
            api, kind = work.api if work.api else (None, None)
            if work.api is None and work.bases:
                api, kind = run.docs[work.bases[0]].api_version, run.docs[work.bases[0]].kind
            reasons = held[work.key]
            targets = ", ".join(_shown(run, work.bases)) or "none found"
            files.add(
                path,
                Finding(
                    _held(api, kind, run).level,
                    _held(api, kind, run).code,
                    f"patch left as it is, with the objects it targets ({targets}): {_why(reasons)}",
                    None,
                    shown,
                    work.doc_index or 0,
                    line,
                ),
                (api or "", kind or "", run.subject(work.bases)[2]),
            )
            continue
        subject = run.subject(work.bases)
        for f in work.outcome.findings:
            files.add(path, _relocated(f, shown, entry))
        for old, new, at in work.outcome.moves:
            message = f"JSON patch path {old} → {new}"
            where = entry.inline.line + at if entry.inline is not None else at
            files.add(path, _finding(PATH_MOVED, message, shown, 0, where), subject)
        new_api = run.docs[work.bases[0]].base().new_api if work.bases else None
        quiet = bool(work.outcome.moves)  # a JSON patch's moved paths say it already
        if work.outcome.text is not None and (entry.inline is not None or work.doc_index is None) and not quiet:
            message = f"{'inline ' if entry.inline is not None else ''}patch follows its objects to {new_api}"
            files.add(path, _finding(PATCH_FOLLOWS, message, shown, work.doc_index or 0, line), subject)
        if work.outcome.text is not None and entry.file is not None and work.doc_index is not None:
            files.applied.setdefault(path, {})[work.doc_index] = (work.outcome.applied, [], new_api)
        if work.outcome.text is not None:
            if entry.inline is not None:
                files.blocks.setdefault(path, []).append((entry, work.outcome.text))
            else:
                docs = files.docs.setdefault(path, {})
                index = work.doc_index if work.doc_index is not None else 0
                if docs.get(index, work.outcome.text) != work.outcome.text:
                    files.add(
                        path,
                        _finding(
                            HELD,
                            "the patch is used by several kustomizations that need different edits; left as it is",
                            shown,
                            index,
                            line,
                        ),
                    )
                    docs[index] = ""
                else:
                    docs[index] = work.outcome.text
        _edited(run, files, work.target_edits, subject)


def _edited(run: Analysis, files: _Files, edits: Edits, subject: tuple[str, str, str | None]) -> None:
    """Apply the edits of a reference that moves, each with an info finding where it is written."""
    for node, value, what in edits.items:
        for k in run.graph.kustomizations.values():
            if pointer.locate(k.root, node) is not None:
                where: Path | None = k.path
                break
        else:
            where = None
        old = node.data
        node.set(value)
        if where is not None:
            files.add(
                where.resolve(),
                _finding(REFERENCE_MOVED, f"{what}: {old} → {value}", str(where), 0, node.line),
                subject,
            )


def _text_of(node: Node | None) -> str:
    return str(node.data) if isinstance(node, Scalar) and node.data is not None else ""


def _held_reference(work: ReferenceWork, reasons: list[tuple[str, str]]) -> Finding:
    where, _sep, line = work.where.partition(":")
    return _finding(
        HELD if work.problem else HELD_DEPRECATED,
        f"reference left as it is, with the objects it names: {_why(reasons)}",
        where,
        0,
        int(line.split(" ", 1)[0]) if line.split(" ", 1)[0].isdigit() else 0,
    )


def _finding(code: Code, message: str, filename: str, document: int = 0, line: int = 0) -> Finding:
    """A finding of the kustomize part, at its code's declared level."""
    return Finding(code.level, code.code, message, None, filename, document, line)


def _shown(run: Analysis, refs: list[DocRef]) -> list[str]:
    out = []
    for ref in refs[:3]:
        source = run.graph.source(ref.file)
        if source is not None:
            out.append(f"{source.path}:{source.document(ref.index).line}")
    return out + ([f"{len(refs) - 3} more"] if len(refs) > 3 else [])


def _relocated(f: Finding, filename: str, entry: PatchEntry) -> Finding:
    line = entry.line + f.line if entry.inline is not None else f.line
    return Finding(f.level, f.code, f.message, f.migration, filename, f.document, line, f.path)


def _assemble(run: Analysis, out: TreeRun, files: _Files, in_place: bool, policy: WritePolicy | None) -> None:
    graph = run.graph
    for path, result in run.results.items():
        result.findings += files.findings.pop(path, [])
        out.roles[path] = "resource"
        _outcome(out, path, graph, result, in_place, policy)
    kustomizations = {k.path.resolve(): k for k in graph.kustomizations.values()}
    others: dict[Path, str] = {}
    for k in graph.kustomizations.values():
        for p in k.patches:
            if p.file is not None:
                others.setdefault(p.file, "patch")
        for path in k.configurations:
            others.setdefault(path, "configuration")
        for path in k.data_files:
            others.setdefault(path, "data")
    for path, role in others.items():
        if path in out.outcomes or path in kustomizations:
            continue
        source = graph.source(path)
        if source is None:
            continue
        docs = {i: t for i, t in files.docs.get(path, {}).items() if t}
        text = _splice(source, docs) if docs else _render_edited(source) or source.text
        result = FileResult(str(source.path), source.text, text, files.findings.pop(path, []))
        applied = files.applied.get(path, {})
        result.documents = []
        for d in source.stream.documents:
            steps, notes, new_api = applied.get(d.index, ([], [], None))
            found = DocumentResult(d.index, d.line, d.api_version, d.kind, d.name, applied=steps, summary=notes)
            found.new_api_version = new_api if steps else None
            result.documents.append(found)
        out.roles[path] = role
        _outcome(out, path, graph, result, in_place, policy)
    for path, k in kustomizations.items():
        source = k.source
        text = _render_edited(source) or source.text
        problems = files.findings.pop(path, [])
        for entry, value in sorted(files.blocks.get(path, []), key=lambda b: -b[0].line):
            spliced = _splice_inline(text, k, entry, value)
            if spliced is None:
                message = "the inline patch could not be rewritten in its block; left as it is"
                problems.append(_finding(INLINE_NOT_REWRITTEN, message, str(source.path), 0, entry.line))
            else:
                text = spliced
        out.roles[path] = "kustomization"
        _outcome(out, path, graph, FileResult(str(source.path), source.text, text, problems), in_place, policy)
    out.owned = set(out.outcomes)
    for problem in graph.problems:
        resolved = problem.path.resolve()
        finding = Finding(problem.level, problem.code, problem.message, None, str(problem.path), 0, problem.line)  # type: ignore[arg-type]
        o = out.outcomes.get(resolved)
        source = graph.sources.get(resolved)
        if o is not None and o.result is not None:
            o.result.findings.append(finding)
        elif source is not None:
            out.outcomes[resolved] = FileOutcome(
                problem.path, FileResult(str(source.path), source.text, source.text, [finding])
            )
            out.owned.add(resolved)
        else:
            out.outcomes[resolved] = FileOutcome(problem.path, error=finding)
            out.owned.add(resolved)


def _splice_inline(text: str, k: Kustomization, entry: PatchEntry, value: str) -> str | None:
    """``text`` (the kustomization, maybe re-rendered) with the inline patch of ``entry`` replaced."""
    assert entry.inline is not None
    located = pointer.locate(k.root, entry.inline)
    stream = read_stream(text, wanted=EVERY)
    root = stream.documents[0].root if stream.documents else None
    if located is None or root is None:
        return None
    try:
        node, _path = pointer.resolve(root, [str(p) for p in located])
    except pointer.PointerError:
        return None
    return splice_block(text, node, value) if isinstance(node, Scalar) else None


def _render_edited(source: Source) -> str | None:
    """The text of a file whose trees were edited in place (targets, paths), or None."""
    pieces: list[str] = []
    pos = 0
    stream = source.stream
    for doc in stream.documents:
        root = doc.root
        if root is None or root.src is None or root.pristine():
            continue
        new = partial.render_root(stream, root)
        if new is None:
            return None
        pieces += [stream.text[pos : root.src.start], new]
        pos = root.src.end
    if not pieces:
        return None
    return (BOM if stream.bom else "") + "".join(pieces) + stream.text[pos:]


def _splice(source: Source, edits: dict[int, str]) -> str:
    stream: Stream = source.stream
    pieces: list[str] = []
    pos = 0
    for doc in stream.documents:
        new = edits.get(doc.index)
        root = doc.root
        if new is None or root is None or root.src is None:
            continue
        pieces += [stream.text[pos : root.src.start], new]
        pos = root.src.end
    return (BOM if stream.bom else "") + "".join(pieces) + stream.text[pos:]


def _outcome(
    out: TreeRun, path: Path, graph: Graph, result: FileResult, in_place: bool, policy: WritePolicy | None
) -> None:
    source = graph.source(path)
    outcome = FileOutcome(Path(result.filename), result)
    unreadable = any(f.code in UNREADABLE_CODES for f in result.findings)
    if in_place and result.changed and not unreadable and source is not None:
        try:
            written = write_atomic(Loaded(path, source.loaded.text, source.loaded.raw), result.text, policy)
        except (InputError, OSError) as exc:
            outcome.error = input_error(result.filename, str(exc))
        else:
            outcome.written = written.written
            result.findings += [
                Finding(OWNER_NOT_KEPT.level, OWNER_NOT_KEPT.code, note, None, result.filename)
                for note in written.notes
            ]
    out.outcomes[path] = outcome
