"""What a run returns: findings, per-document results and per-file results.

These names are a public contract (docs/architecture.md; docs/report-format.md): shared tools and
users' scripts read ``FileResult.text``, ``.changed``, ``.findings``, ``.documents`` and
``.diff``, and ``Finding.level``, ``.code``, ``.migration``, ``.filename``, ``.document``,
``.line``, ``.path`` and ``.message``.
"""

from __future__ import annotations

from dataclasses import field

from .dataclasscode import dataclass
from .diffs import unified_diff
from .quoting import quote_path
from .runtime_typing import Any, Literal

Level = Literal["info", "warning", "error"]
LEVELS: tuple[Level, ...] = ("info", "warning", "error")


@dataclass(frozen=True)
class Finding:
    """Something a human should know about one place in one document."""

    level: Level
    code: str
    message: str
    migration: str | None = None
    filename: str = "<string>"
    document: int = 0
    line: int = 0
    path: str = ""

    def format(self) -> str:
        """``path:line: level [migration] CODE message`` as printed on stderr (an odd file name quoted)."""
        name = quote_path(self.filename)
        where = f"{name}:{self.line}" if self.line else name
        origin = f" [{self.migration}]" if self.migration else ""
        at = f" at {self.path}" if self.path else ""
        return f"{where}: {self.level}{origin} {self.code} {self.message}{at}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "code": self.code,
            "migration": self.migration,
            "filename": self.filename,
            "document": self.document,
            "line": self.line,
            "path": self.path,
            "message": self.message,
        }


@dataclass
class DocumentResult:
    """One document of a stream: what was applied to it and the RFC 6902 patch of the change."""

    index: int
    line: int
    api_version: str | None = None
    kind: str | None = None
    name: str | None = None
    new_api_version: str | None = None
    namespace: str | None = field(default=None, compare=False)
    applied: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    _patch: list[dict[str, Any]] = field(default_factory=list, repr=False)
    _pending: tuple[Any, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def changed(self) -> bool:
        return bool(self.applied)

    @property
    def patch(self) -> list[dict[str, Any]]:
        """The RFC 6902 patch from the parsed input to the parsed output (``[]`` when unchanged).

        Computed on first use: a run that only writes or checks files never pays for it.
        """
        if self._pending is not None:
            import jsonpatch

            before, after = self._pending
            self._pending = None
            if callable(before):
                before = before()
            try:
                self._patch = jsonpatch.make_patch(before, after).patch
            except RecursionError:
                # jsonpatch recurses twice per level: a document nested near the reader's limit
                # (which it accepts) gets the one patch that needs no diff, the whole new document
                self._patch = [{"op": "replace", "path": "", "value": after}]
        return self._patch

    @patch.setter
    def patch(self, value: list[dict[str, Any]]) -> None:
        self._pending = None
        self._patch = value

    def defer_patch(self, before: Any, after: Any) -> None:
        """Keep both sides of the change (``before`` may be a function that reads it); ``patch``
        diffs them when it is first read."""
        self._pending = (before, after)

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "line": self.line,
            "apiVersion": self.api_version,
            "kind": self.kind,
            "name": self.name,
            "newApiVersion": self.new_api_version,
            "applied": list(self.applied),
            "summary": list(self.summary),
            "patch": list(self.patch),
        }


@dataclass
class FileResult:
    """The outcome for one file or string: new text, findings and per-document results."""

    filename: str
    original: str
    text: str
    findings: list[Finding] = field(default_factory=list)
    documents: list[DocumentResult] = field(default_factory=list)

    _slim: tuple[bool, str] | None = field(default=None, repr=False, compare=False)

    @property
    def changed(self) -> bool:
        if self._slim is not None:
            return self._slim[0]
        return self.text != self.original

    def slim(self, keep_diff: bool = True) -> None:
        """Keep whether it changed (and its diff), drop both texts: memory stays bounded by one file.

        Only the documents a text report names stay: those changed, and those a finding is about
        (the others of a stream of many were most of what a run held per file).
        """
        if self._slim is None:
            self._slim = (self.changed, self.diff if keep_diff else "")
            self.text = self.original = ""
            named = {f.document for f in self.findings}
            self.documents = [d for d in self.documents if d.applied or d.index in named]
            for doc in self.documents:
                doc.patch = []  # the patches of a large CRD outweigh its text

    @property
    def diff(self) -> str:
        if self._slim is not None:
            return self._slim[1]
        return unified_diff(self.original, self.text, self.filename)

    @property
    def has_errors(self) -> bool:
        return any(f.level == "error" for f in self.findings)

    def as_dict(self) -> dict[str, Any]:
        return {
            "filename": self.filename,
            "changed": self.changed,
            "documents": [d.as_dict() for d in self.documents],
            "findings": [f.as_dict() for f in self.findings],
        }
