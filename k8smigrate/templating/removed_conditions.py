"""Fields written only where the cluster lists a removed API: ``if .Capabilities.APIVersions.Has …``.

Charts written for old clusters guard a field with a check for the API that brought its
feature: jenkins' chart writes a pod's ``priorityClassName`` only under ``{{- if and
(.Capabilities.APIVersions.Has "scheduling.k8s.io/v1beta1") .Values.controller.priorityClassName
}}``. A cluster that no longer serves that API (1.22 on) does not list it, the condition is
false and the field drops out of the pod, silently: nothing fails, and ``helm template`` cannot
show it (its API list is client-go's, which keeps removed APIs, see ``capabilities``).

``removed_api_conditions(chart, root, window) -> dict[str, list[Finding]]``
    Per template path (a define's own file included), a warning (``K8SM-TPL-019``) at each
    ``if`` whose condition is such a ``Has`` (alone, or a term of its top-level ``and``), on a
    Kubernetes group/version or ``group/version/Kind`` that an earlier release served and the
    target does not, when that ``if`` has no ``else`` and writes lines inside a document. A
    whole document under it is how charts keep an object for old releases only (a
    PodSecurityPolicy under ``Has "policy/v1beta1"``): that is what the condition is for. The
    message names the API that replaced it, for the condition to ask for instead. Actions are
    carried as written (``--set template-actions``), so the change is the chart owner's.
"""

from __future__ import annotations

from pathlib import Path

from ..codes import REMOVED_API_CONDITION
from ..results import Finding
from ..versions import KubeVersion, Window
from .capabilities import chain, kinds_of, lifecycle
from .gates import and_terms
from .gotmpl import Block, Field, Literal, Pipe, walk
from .markers import TOP_LEVEL
from .sites import ParsedChart

_HAS = ("Capabilities", "APIVersions", "Has")


def removed_api_conditions(chart: ParsedChart, root: Path, window: Window) -> dict[str, list[Finding]]:
    """Per template path, the warnings for the ``if`` blocks that ask for an API the target no longer serves."""
    out: dict[str, list[Finding]] = {}
    for path, tree in sorted(chart.trees.items()):
        text = chart.sources.templates[path]
        if "APIVersions.Has" not in text:
            continue  # most templates ask for no API
        for node in walk(tree):
            if not isinstance(node, Block) or node.keyword != "if" or len(node.branches) != 1:
                continue
            arm = node.branches[0]
            body_start, body_end = arm.action.end, node.end_action.start
            if arm.pipe is None or TOP_LEVEL.search(text, body_start, body_end):
                continue
            if not text[body_start:body_end].strip():
                continue
            for entry in _asked(arm.pipe):
                gone = _gone_at(entry, window.target)
                if gone is None:
                    continue
                line = text.count("\n", 0, arm.action.start) + 1
                body = text[body_start:body_end]
                first = line + text.count("\n", body_start, body_start + len(body) - len(body.lstrip()))
                last = line + text.count("\n", body_start, body_start + len(body.rstrip()))
                lines = f"line {first}" if first == last else f"lines {first}–{last}"
                instead = _successor(entry)
                hint = f"ask for {instead} instead" if instead else "ask for the API that replaced it instead"
                message = (
                    f"{text[arm.action.start : arm.action.end].strip()} asks for {entry}, which Kubernetes "
                    f"removed in {gone}: from that release the condition is false and what it writes ({lines}) "
                    f"is silently left out of the rendered object; {hint}, or drop "
                    "the check (actions are carried as written: the change is yours)"
                )
                code = REMOVED_API_CONDITION
                finding = Finding(code.level, code.code, message, None, str(root / path), 0, line)
                out.setdefault(path, []).append(finding)
                break
    return out


def _asked(pipe: Pipe) -> list[str]:
    """The entries a condition, or a term of its top-level ``and``, asks ``APIVersions.Has`` for."""
    found: list[str] = []
    for term in and_terms(pipe):
        if len(term.cmds) != 1 or term.decl:
            continue
        args = term.cmds[0].args
        if (
            len(args) == 2
            and isinstance(args[0], Field)
            and args[0].names == _HAS
            and args[0].var in (None, "$")
            and isinstance(args[1], Literal)
            and isinstance(args[1].value, str)
        ):
            found.append(args[1].value)
    return found


def _gone_at(entry: str, target: KubeVersion) -> KubeVersion | None:
    """The release that removed ``entry`` (``group/version`` or ``group/version/Kind``: every kind
    of it) when that is the target or earlier; else None."""
    parts = entry.split("/")
    if len(parts) == 3:
        pairs = [(f"{parts[0]}/{parts[1]}", parts[2])]
    elif len(parts) == 2 and not parts[1][:1].isupper():
        pairs = [(entry, kind) for kind in sorted(kinds_of(entry))]
    else:
        return None
    removals: list[KubeVersion] = []
    for api, kind in pairs:
        life = lifecycle(api, kind)
        if life is None or life.removed_in is None:
            return None  # still served, or not an API the tables know
        removals.append(life.removed_in)
    return max(removals) if removals and max(removals) <= target else None


def _successor(entry: str) -> str | None:
    """What to ask for instead: the API the registry moves ``entry``'s kinds to, when it is one."""
    parts = entry.split("/")
    if len(parts) == 3:
        api, kind = f"{parts[0]}/{parts[1]}", parts[2]
        following = chain(api, kind)
        return f"{following[-1]}/{kind}" if len(following) > 1 else None
    nexts = {chain(entry, kind)[-1] for kind in kinds_of(entry)} - {entry}
    return next(iter(nexts)) if len(nexts) == 1 else None
