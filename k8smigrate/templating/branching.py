"""A chart's literal apiVersion that no one API serves across the window, picked by release.

A chart supports a range of clusters. With ``--min-version 1.19 --target-version 1.29`` a
``policy/v1beta1`` PodDisruptionBudget has no one apiVersion that every release serves:
``policy/v1beta1`` is gone from 1.25 and ``policy/v1`` arrives in 1.21. For plain manifests
that is an error (``K8SM-GEN-009``, "replacement unavailable"). A chart can do what upstream
charts do instead, and give each release the API it serves (one line in the template)::

    apiVersion: {{ if semverCompare ">=1.21-0" $.Capabilities.KubeVersion.GitVersion }}policy/v1
    {{ else }}policy/v1beta1{{ end }}

That writes template actions, so it is a decision, ``--set api-branches=write`` (default
``keep``: the error stays and names the option). It applies to a document whose literal
apiVersion ``A`` is removed by the target when the newest apiVersion ``B`` its migrations lead
to is served from some release ``s`` of the window to the target, and ``A`` from the window's
first release up to ``s``; and only when the document's one body serves both: migrated from
``A`` to ``B`` (over ``[s, target]``), nothing but its apiVersion changes, with no error.

When ``A``'s body is not ``B``'s, the releases before ``s`` may get an apiVersion ``O`` whose
step to ``B`` declares the same fields (``Step.same_fields``): the body is migrated to ``B``
(over ``[s, target]``, with no error) and written under both. An ``autoscaling/v2beta1``
HorizontalPodAutoscaler with ``--min-version 1.19`` gets ``v2``'s metrics (``target:``) under
``autoscaling/v2`` from 1.23 and ``autoscaling/v2beta2`` before, as upstream charts did. An
Ingress whose backends change shape keeps its error: no version before ``networking.k8s.io/v1``
has its fields.

The condition is ``semverCompare ">=s-0" $.Capabilities.KubeVersion.GitVersion``: ``-0`` so
that a ``v1.21.3-gke.100`` cluster counts as 1.21, ``$`` so that it reads the chart's root
inside ``range`` and ``with``. ``.Capabilities.APIVersions.Has`` is not used: ``helm template``
answers it from helm's own list, whatever ``--kube-version`` says. On the next run the chart
reads as one that already branches (``apiversions``, status ``branches``): nothing to do.
"""

from __future__ import annotations

from ..results import Finding
from ..versions import KubeVersion, Window
from .semver import on_cluster_version

DECISION = "api-branches"
REPLACEMENT_UNAVAILABLE = "K8SM-GEN-009"


def branch_plan(api: str, kind: str, window: Window) -> tuple[str, KubeVersion, tuple[str, ...]] | None:
    """``(B, s, older)``: the apiVersion ``B`` from release ``s`` on, one of ``older`` before
    (``api`` first, when it serves those releases; then each apiVersion whose step to ``B``
    declares the same fields); None when no such split gives every release an API it serves."""
    from ..registry import default_registry
    from .capabilities import chain, releases, served

    span = releases(window.min_version, window.target)
    if served(api, kind, window.target):
        return None  # not removed by the target: nothing to pick
    newer = [a for a in chain(api, kind)[1:] if served(a, kind, window.target)]
    if not newer:
        return None
    target = newer[-1]
    since = next((r for r in span if all(served(target, kind, later) for later in span[span.index(r) :])), None)
    if since is None or since == window.min_version:
        return None  # served across the window: the migration's own job
    before = [r for r in span if r < since]
    same = [
        s.from_api
        for s in default_registry().steps
        if s.same_fields and s.to_api == target and kind in s.kinds and s.from_api != api
    ]
    older = tuple(a for a in (api, *same) if all(served(a, kind, r) for r in before))
    return (target, since, older) if older else None


def branched(api: str, newer: str, since: KubeVersion) -> str:
    """The apiVersion value that gives releases from ``since`` on ``newer``, the others ``api``."""
    return "{{ if " + on_cluster_version(">=", since) + " }}" + newer + "{{ else }}" + api + "{{ end }}"


def branched_finding(
    kind: str, api: str, newer: str, since: KubeVersion, filename: str, line: int, written: str | None = None
) -> Finding:
    """``written``: the apiVersion the body was written for, when it is now ``newer``'s."""
    body = f"the body, written for {written}, is now {newer}'s, which {api} shares" if written else "the body"
    message = (
        f"{kind}: no one apiVersion serves every release of the window, so the chart now picks it by "
        f"release: {newer} from {since}, {api} before; {body}{'' if written else ' serves both'} "
        f"(--set {DECISION}=write)"
    )
    return Finding("info", "K8SM-TPL-110", message, None, filename, 0, line)


def offered(finding: Finding, newer: str, since: KubeVersion) -> Finding:
    from dataclasses import replace

    note = f"In a chart, --set {DECISION}=write picks it by release ({newer} from {since})"
    return replace(finding, message=f"{finding.message}. {note}")
