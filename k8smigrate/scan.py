"""Detection only: which documents use an API that is deprecated or removed in the window,
and what else breaks at the target inside APIs that are still served.

This is what ``k8smigrate scan`` prints, one row per finding, each with a category.
``removed-api`` and ``deprecated-api`` rows come from the ``apiVersion`` and ``kind`` of
every document (templated ones too, from their raw text), looked up in the lifecycle table.
The upgrade-readiness rows (removed fields, silent annotations, feature gates, runtime,
component configs, ports, volumes, cloud providers: ``model.CATEGORIES``) are the
findings of the checks, run as ``diff`` would run them but only on the documents whose
text holds what a check looks for, so a scan stays a read of the text for everything else.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import InitVar, replace

from .codes import DEPRECATED_API, INTERNAL_ERROR, REMOVED_API
from .components import is_addon
from .dataclasscode import dataclass
from .engine import migrate_stream
from .facts import Facts
from .lazyre import lazy
from .lifecycles import ApiLifecycle
from .model import Check, Step
from .plan import element_kind, list_items, plan, window_of
from .prefilter import prefilter, raw_api_versions, raw_kinds, unsure
from .problems import last_wins, problem_findings
from .quoting import quote_path
from .regexcode import regex
from .registry import Registry
from .results import DocumentResult, Finding, Level
from .runtime_typing import Any, Literal
from .settings import Settings
from .textsearch import matches_from
from .tree import Mapping, Scalar
from .versions import Window
from .yamlio import Document, Stream, read_stream
from .yamlio.classify import raw_api_kind
from .yamlio.libyaml import libyaml_accepts
from .yamlio.stream import plain_lone

Status = Literal["removed", "deprecated", "breaking", "warning", "info"]
Action = Literal["apply", "human", ""]
"""What a row asks for, as ``apply`` would answer it: ``apply`` (a migration changes the
document: exit 1), ``human`` (an error nothing fixes, or a decision to give with ``--set``:
exit 3), ``""`` (nothing yet: a warning or an info)."""
"""``removed``/``deprecated``: an API at the target. For readiness rows: ``breaking`` (an error,
or something ``apply`` changes because the target needs it: a check that is not a clean-up),
``warning`` or ``info``."""

READINESS = "readiness"
"""The category of a check that declares none (a third-party one)."""


@dataclass(frozen=True)
class ScanEntry:
    """One row of a scan: a document on a deprecated or removed API, or a readiness finding."""

    filename: str
    document: int
    line: int
    api_version: str
    kind: str
    name: str | None
    status: Status
    deprecated_in: str | None
    removed_in: str | None
    replacement: str | None
    migration: str | None
    """The migrations that fix it (``" -> "``-joined), or None when a human must."""
    templated: bool
    namespace: str | None = None
    replacement_served: bool | None = None
    """Whether every release of the window serves the replacement (None: not known)."""
    category: str = ""
    """``removed-api``, ``deprecated-api`` (from ``status`` when not given) or a readiness category."""
    level: Level | None = None
    """The level ``diff`` gives it (derived for API rows: removed is an error)."""
    code: str = ""
    message: str = ""
    of_component: InitVar[str] = "kubernetes"
    """Whose release the row is about (``component``): Kubernetes', or an add-on's."""
    action: Action | None = None
    """What it asks for (derived when not given: ``apply`` with a migration, ``human`` for an error)."""
    decisions: tuple[str, ...] = ()
    """The decisions ``apply`` needs before it can migrate this document: ``NAME=VALUE|VALUE``."""

    def __post_init__(self, of_component: str) -> None:
        object.__setattr__(self, "_component", of_component)  # not a field: rows stay plain data
        if not self.category:
            object.__setattr__(self, "category", f"{self.status}-api")  # frozen
        if self.level is None:
            object.__setattr__(self, "level", "error" if self.status == "removed" else "warning")
        if not self.code:
            object.__setattr__(self, "code", (REMOVED_API if self.status == "removed" else DEPRECATED_API).code)
        if not self.message:
            object.__setattr__(self, "message", self._api_text())
        if self.action is None:
            action: Action = "apply" if self.migration and not self.templated else ""
            if self.decisions or (action != "apply" and self.level == "error"):
                action = "human"
            object.__setattr__(self, "action", action)

    @property
    def component(self) -> str:
        """``kubernetes``, or the add-on whose release the row is about (``cert-manager``…)."""
        return str(getattr(self, "_component", "kubernetes"))

    @property
    def readiness(self) -> bool:
        return self.status not in ("removed", "deprecated")

    def _api_text(self) -> str:
        prefix = f"{self.component} " if is_addon(self.component) else ""
        when = (
            f"removed in {prefix}{self.removed_in}"
            if self.status == "removed"
            else f"deprecated in {prefix}{self.deprecated_in}"
        )
        repl = f" -> {self.replacement}" if self.replacement else " (no replacement)"
        if self.replacement and self.replacement_served is False:
            repl += " (not served by every release of the window)"
        return f"{self.api_version} {when}{repl}"

    def subject(self) -> str:
        """``Kind namespace/name``, or the kind alone."""
        name = f" {self.name}" if self.name else ""
        if self.name and self.namespace:
            name = f" {self.namespace}/{self.name}"
        return f"{self.kind}{name}".lstrip()

    def how(self) -> str:
        """``[k8smigrate: NAME]``, ``[--set NAME=A|B]`` (after the migration's name when it has one),
        ``[manual]``, or nothing: who deals with the row."""
        settle = " ".join(f"--set {d}" for d in self.decisions)
        if self.migration and settle:
            return f" [k8smigrate: {self.migration} after {settle}]"
        if settle:
            return f" [{settle}]"
        if self.migration:
            return f" [k8smigrate: {self.migration}]"
        return "" if self.readiness and self.level == "info" else " [manual]"

    def format(self) -> str:
        """``file:line: category  Kind name what [how]``: the ``scan`` line."""
        where = f"{quote_path(self.filename)}:{self.line}"
        if self.readiness:
            return f"{where}: {self.category:<16} {self.subject()}: {self.level} {self.code} {self.message}{self.how()}"
        tmpl = " (templated)" if self.templated else ""
        return f"{where}: {self.category:<16} {self.subject()} {self.message}{self.how()}{tmpl}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "filename": self.filename,
            "document": self.document,
            "line": self.line,
            "apiVersion": self.api_version,
            "kind": self.kind,
            "name": self.name,
            "namespace": self.namespace,
            "status": self.status,
            "deprecatedIn": self.deprecated_in,
            "removedIn": self.removed_in,
            "replacement": self.replacement,
            "migration": self.migration,
            "templated": self.templated,
            "replacementServed": self.replacement_served,
            "category": self.category,
            "level": self.level,
            "code": self.code,
            "message": self.message,
            "component": self.component,
            "action": self.action,
            "decisions": list(self.decisions),
        }


def scan_stream(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding] | None = None,
    facts: Facts | None = None,
) -> list[ScanEntry]:
    """The rows of one stream; invalid YAML and duplicate keys go to ``problems``; ``facts``: a run's."""
    wanted = _api_wanted(registry)
    if _quiet(text, settings, registry, wanted):
        return []
    stream = read_stream(text, wanted=wanted)
    entries = _api_entries(stream, text, settings, filename, registry, problems)
    ready = readiness_entries(text, settings, filename, registry, problems, facts, read=stream)
    if not ready:
        return entries
    return sorted([*entries, *ready], key=lambda e: (e.document, e.line, e.readiness))


def _quiet(text: str, settings: Settings, registry: Registry, wanted: Callable[[str], bool]) -> bool:
    """True when the text certainly gives no row and no problem, known without reading it as a
    stream: one plain document (``plain_lone``) that the API rows do not want a tree of, whose
    apiVersion and kind no lifecycle of the window reports, that no enabled check's pre-filter
    wants, and that libyaml accepts. This is what ``read_stream`` and the rows would find,
    without the objects they build to find it: most files of a repository are such a document,
    and this is most of what a scan does for them. Anything else is read the usual way.
    """
    api, kind = raw_api_kind(text)  # first: a file on a removed API fails here, before a look at all of it
    if api is not None and kind is not None and _status(api, kind, settings, registry) is not None:
        return False
    if not plain_lone(text) or wanted(text):
        return False
    checks, only = _check_settings(registry, settings)
    if checks and prefilter(registry, only, only.window)(text):
        return False
    return libyaml_accepts(text)  # last: it takes the verdict the precheck thread found


def _status(api: str, kind: str, settings: Settings, registry: Registry) -> tuple[ApiLifecycle, Status] | None:
    """The lifecycle of an object of this apiVersion and kind (or of its List's items), and its
    status at the release of its component; None when the window neither removes nor deprecates it."""
    life = registry.lifecycle(api, kind)
    if life is None:
        life = registry.lifecycle(api, element_kind(kind))
        if life is None:
            return None
    at = window_of(life.component, settings, settings.window).target
    if life.removed_in is not None and life.removed_in <= at:
        return life, "removed"
    if life.deprecated_in is not None and life.deprecated_in <= at:
        return life, "deprecated"
    return None


def api_entries(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding] | None = None,
) -> list[ScanEntry]:
    """The documents on deprecated or removed APIs (each item of a List), read from their text.

    Each is judged at the release of its component (Kubernetes' target, or an add-on's
    release; the newest one k8smigrate knows for an add-on the run names no release of).
    """
    return _api_entries(read_stream(text, wanted=_api_wanted(registry)), text, settings, filename, registry, problems)


def _api_wanted(registry: Registry) -> Callable[[str], bool]:
    """Which documents the API rows need a tree of: block YAML is read by a look at its text;
    JSON (and flow) documents, Lists (their items are objects) and spellings the look cannot
    read need the parser."""

    def wanted(piece: str) -> bool:
        head = piece.lstrip(" \t\r\n-")
        if _is_list(piece) or unsure(piece):
            return True
        return head.startswith(("{", "[")) and any(registry.lifecycle(api, kind) for api, kind in _api_kinds(piece))

    return wanted


def _api_entries(
    stream: Stream,
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding] | None,
) -> list[ScanEntry]:
    out: list[ScanEntry] = []
    asking: dict[int, list[Step]] = {}  # documents whose migration may ask for a decision not given
    for doc in stream.documents:
        if problems is not None:
            problems += problem_findings(doc, filename, last_wins(doc, registry, settings))
        for api, kind, name, namespace, line in _objects(doc):
            entry = _api_entry(filename, doc, api, kind, name, namespace, line, settings, registry, stream, asking)
            if entry is not None:
                out.append(entry)
    if asking:
        decided = _decisions_asked(text, settings, filename, registry, asking)
        out = [
            replace(e, decisions=decided[e.document], action=None, of_component=e.component)
            if decided.get(e.document)
            else e
            for e in out
        ]
    return out


def _removed(api: str, kind: str, registry: Registry, window: Window) -> bool:
    life = registry.lifecycle(api, kind)
    return life is not None and life.removed_in is not None and life.removed_in <= window.target


def _undecided(step: Step, settings: Settings, text: str) -> bool:
    """Whether the step may ask, in a document of this text, for a decision without a default
    that the run does not give."""
    return any(d.default is None and d.name not in settings.decisions and d.may_ask(text) for d in step.decisions)


_SET = lazy(r"--set ([A-Za-z_][\w.-]*)=")


def _decisions_asked(
    text: str, settings: Settings, filename: str, registry: Registry, asking: dict[int, list[Step]]
) -> dict[int, tuple[str, ...]]:
    """The decisions (``NAME=A|B``) that the steps of these documents ask for, by document.

    Only these steps run (report-only, nothing rendered), and only on files that hold such a
    document: a webhook without ``sideEffects`` needs ``--set sideEffects=…`` whatever its text
    looks like, so ``scan`` asks the step, as ``apply`` would.
    """
    steps = {s.name: s for chain in asking.values() for s in chain}
    only = _steps_alone(settings, tuple(sorted(steps)))
    result = migrate_stream(text, only, filename, registry, report_only=True)
    out: dict[int, list[str]] = {}
    for f in result.findings:
        step = steps.get(f.migration or "")
        if step is None or f.level != "error" or f.document not in asking:
            continue
        for name in _SET.findall(f.message):
            declared = next((d for d in step.decisions if d.name == name), None)
            if declared is not None:
                out.setdefault(f.document, []).append(f"{name}={'|'.join(declared.allowed)}")
    return {index: tuple(dict.fromkeys(found)) for index, found in out.items()}


_STEPS_ALONE: dict[tuple[int, tuple[str, ...]], tuple[Settings, Settings]] = {}
"""``_steps_alone``'s answers, by the settings (held, so that no other object takes their id)."""


def _steps_alone(settings: Settings, names: tuple[str, ...]) -> Settings:
    """``settings`` that run only the steps ``names`` (made once per run and set of steps, not per file)."""
    key = (id(settings), names)
    held = _STEPS_ALONE.get(key)
    if held is None:
        if len(_STEPS_ALONE) > 16:
            _STEPS_ALONE.clear()
        held = _STEPS_ALONE[key] = (settings, replace(settings, only=names, skip=(), raise_errors=False))
    return held[1]


_LIST = regex(r"""^["']?kind["']?[ \t]*:[ \t]*["']?\w*List\b|"kind"[ \t]*:[ \t]*"\w*List\"""", re.M)
"""A document that is a ``List`` (``kubectl get -o yaml``) or a typed list: its items are rows."""
_KIND_LIST = lazy(r"""kind["']?[ \t]*:[ \t]*["']?\w*List\b""")
_JSON_KIND_LIST = lazy(r""""kind"[ \t]*:[ \t]*"\w*List\"""")


def _is_list(piece: str) -> bool:
    """``_LIST.search(piece) is not None``, at C speed: its search cannot skip ahead (it starts
    with ``^``), this one starts with a literal and looks at what precedes each ``kind``."""
    if "List" not in piece:
        return False
    for found in matches_from("kind", _KIND_LIST, piece):
        at = found.start()
        before = piece[at - 1] if at else "\n"
        if before == "\n" or (before in "\"'" and (at == 1 or piece[at - 2] == "\n")):
            return True  # a block key at column 0 (quoted or not)
        if before == '"' and _JSON_KIND_LIST.match(piece, at - 1):
            return True  # JSON, anywhere
    return False


def _objects(doc: Document) -> list[tuple[str | None, str | None, str | None, str | None, int]]:
    """(apiVersion, kind, name, namespace, line) of the document, or of each item of a List."""
    root = doc.root
    if isinstance(root, Mapping) and doc.api_version and doc.kind and not doc.templated:
        items = list_items(root, doc.api_version, doc.kind)
        if items is not None:
            return [(api, kind, *_name(item), item.line or doc.line) for item, api, kind in items]
    return [(doc.api_version, doc.kind, doc.name, doc.namespace, doc.line)]


def _name(item: Mapping) -> tuple[str | None, str | None]:
    meta = item.get("metadata")
    if not isinstance(meta, Mapping):
        return None, None
    name, namespace = meta.get("name"), meta.get("namespace")
    return (
        name.value if isinstance(name, Scalar) else None,
        namespace.value if isinstance(namespace, Scalar) else None,
    )


def _api_entry(
    filename: str,
    doc: Document,
    api: str | None,
    kind: str | None,
    name: str | None,
    namespace: str | None,
    line: int,
    settings: Settings,
    registry: Registry,
    stream: Stream,
    asking: dict[int, list[Step]],
) -> ScanEntry | None:
    """The row of one object on a deprecated or removed API (None for any other); a document whose
    steps ask for a decision the run does not give is added to ``asking``."""
    window = settings.window
    if api is None or kind is None:
        return None
    judged = _status(api, kind, settings, registry)
    if judged is None:
        return None
    life, status = judged
    element = element_kind(kind)
    found = plan(api, element, settings, registry, window)
    steps = found.steps
    # Served across [--min-version, --target-version]: known where a migration gets there;
    # a manual replacement's availability is not in the table (None).
    served: bool | None = True if steps else (False if found.blocked or not life.replacement else None)
    action: Action | None = None
    if steps and (doc.templated or not stream.whole):
        action = "human" if status == "removed" else ""  # apply leaves it as it is (GEN-001, GEN-014)
    elif steps and _removed(steps[-1].to_api, element, registry, window):
        action = "human"  # the chain stops short of an API the target serves (GEN-009)
    elif steps and any(_undecided(s, settings, stream.text[doc.start : doc.end]) for s in steps):
        asking[doc.index] = steps
    return ScanEntry(
        filename,
        doc.index,
        line,
        api,
        kind,
        name,
        status,
        str(life.deprecated_in) if life.deprecated_in else None,
        str(life.removed_in) if life.removed_in else None,
        steps[-1].to_api if steps else life.replacement,
        " -> ".join(s.name for s in steps) or None,
        doc.templated,
        namespace=namespace,
        replacement_served=served,
        of_component=life.component,
        action=action,
    )


def readiness_entries(
    text: str,
    settings: Settings,
    filename: str,
    registry: Registry,
    problems: list[Finding] | None = None,
    facts: Facts | None = None,
    read: Stream | None = None,
) -> list[ScanEntry]:
    """The findings of the enabled checks, as rows; the version steps do not run.

    An internal error (K8SM-GEN-012) goes to ``problems``: the document's rows would be missing.
    ``read``: the stream as the API rows read it, whose trees the checks use where they can.
    """
    checks, only = _check_settings(registry, settings)
    if not checks:
        return []
    if not prefilter(registry, only, only.window)(text):
        return []  # most files: nothing any check looks for, so no second read of the stream
    result = migrate_stream(text, only, filename, registry, report_only=True, facts=facts, read=read)
    docs = {d.index: d for d in result.documents}
    out: list[ScanEntry] = []
    for f in result.findings:
        check = checks.get(f.migration or "")
        doc = docs.get(f.document)
        if f.code == INTERNAL_ERROR.code and problems is not None:
            problems.append(f)
        if check is None or doc is None:
            continue  # the core's own findings: scan reports invalid input through ``problems``
        out.append(readiness_entry(f, check, doc))
    return out


_CHECKS: dict[tuple[int, tuple[str, ...], tuple[str, ...]], tuple[Registry, dict[str, Check], tuple[str, ...]]] = {}
_ONLY: list[tuple[Settings, tuple[str, ...], Settings]] = []
"""The last settings a scan ran its checks with: one per run, not one per file."""


def _check_settings(registry: Registry, settings: Settings) -> tuple[dict[str, Check], Settings]:
    """The enabled checks by name (found once per run, not per file), and settings that run only them."""
    key = (id(registry), settings.only, settings.skip)
    cached = _CHECKS.get(key)
    if cached is None or cached[0] is not registry:
        if len(_CHECKS) > 16:
            _CHECKS.clear()
        enabled = {c.name: c for c in registry.checks if settings.enabled(c.name, c.opt_in)}
        cached = _CHECKS[key] = (registry, enabled, tuple(sorted(enabled)))
    if not _ONLY or (_ONLY[0][0] is not settings and _ONLY[0][0] != settings) or _ONLY[0][1] != cached[2]:
        _ONLY[:] = [(settings, cached[2], replace(settings, only=cached[2], raise_errors=False))]
    return cached[1], _ONLY[0][2]


def readiness_entry(f: Finding, check: Check, doc: DocumentResult) -> ScanEntry:
    """The row of a check's finding on a document (also what a chart's values.yaml step reports)."""
    fixed = check.name in doc.applied
    decisions = tuple(
        f"{d.name}={'|'.join(d.allowed)}"
        for name in (_SET.findall(f.message) if f.level == "error" else ())
        for d in check.decisions
        if d.name == name
    )
    status: Status = "breaking" if f.level == "error" or (fixed and not check.cleanup) else f.level
    return ScanEntry(
        f.filename,
        f.document,
        f.line,
        doc.api_version or "",
        doc.kind or "",
        doc.name,
        status,
        None,
        str(check.matters) if check.matters else None,
        None,
        check.name if fixed else None,
        False,
        namespace=doc.namespace,
        category=check.category or READINESS,
        level=f.level,
        code=f.code,
        message=(f"{check.component}: " if is_addon(check.component) else "")
        + f.message
        + (f" at {f.path}" if f.path else ""),
        of_component=check.component,
        decisions=decisions,
    )


def _api_kinds(piece: str) -> list[tuple[str, str]]:
    """Every (apiVersion, kind) pair a document's text could mean (List items included)."""
    return [(api, kind) for api in set(raw_api_versions(piece)) for kind in set(raw_kinds(piece))]
