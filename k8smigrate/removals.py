"""The report stage: documents still on an API that the target no longer serves, or deprecates.

After a document went through the engine, its (final) apiVersion and kind are looked up in
the lifecycle table: removed at or before the target is an error (K8SM-GEN-007, or
K8SM-GEN-009 when a step exists but its target is not served across the window);
deprecated at the target, and left as it is, is a warning (K8SM-GEN-008). Each says why
nothing was done and, where there is one, what a human should do (``hints``).
"""

from __future__ import annotations

from .codes import DEPRECATED_API, RELEASE_NEEDED, REMOVED_API, REPLACEMENT_UNAVAILABLE, Code
from .components import is_addon, release_needed_message, release_text
from .hints import hint
from .lifecycles import ApiLifecycle
from .plan import element_kind, full_chain, plan, window_of
from .registry import Registry
from .results import DocumentResult, Finding
from .settings import Settings
from .versions import Window
from .yamlio import Document


def lifecycle_findings(
    doc: Document,
    result: DocumentResult,
    filename: str,
    window: Window,
    settings: Settings,
    registry: Registry,
    *,
    ask_release: bool = False,
) -> list[Finding]:
    """The finding of a document whose API is removed or deprecated at the target (none otherwise).

    An add-on's API is judged at that add-on's release (``plan.window_of``). With ``ask_release``
    (``apply``/``diff``), an add-on whose release was not given gets K8SM-GEN-016 instead of a
    finding made at the newest release k8smigrate knows.
    """
    api = result.new_api_version or doc.api_version
    kind = doc.kind
    if api is None or kind is None:
        return []
    life = registry.lifecycle(api, kind)
    if life is None:
        return []
    component_window = window_of(life.component, settings, window)
    if ask_release and settings.windows.assumed(life.component):
        at = component_window.target
        gone = life.removed_in is not None and life.removed_in <= at
        old = life.deprecated_in is not None and life.deprecated_in <= at and not result.applied
        if gone or old:
            message = release_needed_message(api, kind, [life.component])
            return [
                Finding(RELEASE_NEEDED.level, RELEASE_NEEDED.code, message, None, filename, doc.index, doc.line, "")
            ]
        return []
    return _findings(doc, result, filename, component_window, settings, registry, api, kind, life)


def _findings(
    doc: Document,
    result: DocumentResult,
    filename: str,
    window: Window,
    settings: Settings,
    registry: Registry,
    api: str,
    kind: str,
    life: ApiLifecycle,
) -> list[Finding]:
    def finding(code: Code, message: str) -> list[Finding]:
        return [Finding(code.level, code.code, message, None, filename, doc.index, doc.line, "")]

    removed = release_text(life.component, life.removed_in)
    element = element_kind(kind)
    step = registry.step(api, element)
    disabled = [s.name for s in full_chain(api, element, registry) if not settings.enabled(s.name, s.opt_in)]
    if life.removed_in is not None and life.removed_in <= window.target:
        if disabled:
            why = f"migration {disabled[0]} is disabled"
        elif step is not None and plan(api, element, settings, registry, window).steps:
            why = f"left in place (templated or not YAML as a whole); {step.name} migrates it once rendered"
        elif step is not None:
            if is_addon(life.component):
                why = f"{step.to_api} is not served by {release_text(life.component, window.target)}"
            else:
                why = f"{step.to_api} is not served by every release from {window.min_version} to {window.target}"
            return finding(
                REPLACEMENT_UNAVAILABLE,
                f"{api} {kind} is removed in {removed} and its replacement is unavailable: {why}{hint(api, kind)}",
            )
        elif life.replacement:
            why = f"no automatic migration; move to {life.replacement} by hand"
        else:
            why = "it has no replacement"
        return finding(REMOVED_API, f"{api} {kind} is removed in {removed}: {why}{hint(api, kind)}")
    if life.deprecated_in is not None and life.deprecated_in <= window.target and not result.applied:
        repl = f"; use {life.replacement}" if life.replacement else ""
        repl += hint(api, kind)
        deprecated = release_text(life.component, life.deprecated_in)
        return finding(DEPRECATED_API, f"{api} {kind} is deprecated since {deprecated}{repl}")
    return []
