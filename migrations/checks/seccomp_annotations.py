"""Seccomp annotations → ``securityContext.seccompProfile`` (annotations non-functional from 1.25/1.27).

The alpha annotations ``seccomp.security.alpha.kubernetes.io/pod`` and
``container.seccomp.security.alpha.kubernetes.io/<container>`` were replaced by the
``securityContext.seccompProfile`` field in 1.19. From 1.25 the kubelet ignores them (static
pods lose seccomp) and the API server stops filling the annotation from the field
(kubernetes PR #109819); from 1.27 the API server no longer fills the field from the
annotation either (PR #114947): the profile silently stops applying, which is a security
regression and fails the restricted Pod Security level. Warning from ``pkg/api/pod/warnings.go``:
"non-functional in v1.27+; use the "seccompProfile" field instead".

For targets from 1.25 on, in every pod spec of the object (Pod, PodTemplate, workload
templates, CronJob job templates), each annotation moves to the field and is deleted:
the pod annotation to ``spec.securityContext.seccompProfile`` (K8SM-FLD-007), a container
annotation to that container's ``securityContext.seccompProfile`` (K8SM-FLD-008). Values
(``annotation_key_constants.go``): ``runtime/default`` and its deprecated alias
``docker/default`` → ``type: RuntimeDefault``; ``unconfined`` → ``type: Unconfined``;
``localhost/<path>`` → ``type: Localhost`` with ``localhostProfile: <path>`` (relative to
the kubelet's seccomp root). Any other value is an error (K8SM-FLD-030). Validation rejects
an annotation and a field that disagree: when the field is already set, an equal annotation
is dropped and a different one is an error (K8SM-FLD-031). An annotation naming no container
of the pod is kept (K8SM-FLD-032); in a template where an action writes containers
(``{{- include "x.container" . | nindent 8 }}``) it names one of those, so it is an error
(K8SM-FLD-068): the field must be set where the action's text is. When ``--min-version`` is
below 1.19 the field does not exist at the start of the window: nothing is moved (K8SM-FLD-033).

**Helm charts.** A chart usually renders pod annotations from its values (``{{ toYaml
.Values.podAnnotations | nindent 8 }}``). A seccomp annotation there cannot be moved: the field
is in the pod spec, which values.yaml does not describe. It is an error at its values.yaml line
that names the field to set (K8SM-TPL-015, ``templating.values_annotations``).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import (
    POD_APIS,
    child,
    containers,
    drop_annotation,
    pod_specs,
    string_annotations,
    unknown_containers,
)
from k8smigrate.model import Check
from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping, Scalar

POD_KEY = "seccomp.security.alpha.kubernetes.io/pod"
CONTAINER_PREFIX = "container.seccomp.security.alpha.kubernetes.io/"


def profile(value: str) -> dict[str, Data] | None:
    """The seccompProfile for an annotation value, or None when it has none."""
    if value in ("runtime/default", "docker/default"):
        return {"type": "RuntimeDefault"}
    if value == "unconfined":
        return {"type": "Unconfined"}
    if value.startswith("localhost/") and len(value) > len("localhost/"):
        return {"type": "Localhost", "localhostProfile": value[len("localhost/") :]}
    return None


def body(obj: Mapping, ctx: Context) -> None:
    for metadata, spec in pod_specs(obj):
        found = [(k, v) for k, v in string_annotations(metadata) if k == POD_KEY or k.startswith(CONTAINER_PREFIX)]
        if not found or metadata is None:
            continue
        if not ctx.needs_met:
            ctx.warn(
                "K8SM-FLD-033",
                f"seccomp annotations kept: securityContext.seccompProfile is unknown before {ctx.needs} "
                f"and --min-version is {ctx.oldest}",
                found[0][1],
            )
            continue
        by_name = {c.data("name"): c for c in containers(spec)}
        for key, node in found:
            target: Mapping | None
            if key == POD_KEY:
                target = spec
                code, where = "K8SM-FLD-007", "spec.securityContext.seccompProfile"
            else:
                name = key[len(CONTAINER_PREFIX) :]
                target = by_name.get(name)
                code, where = "K8SM-FLD-008", f"securityContext.seccompProfile of container {name}"
                if target is None and unknown_containers(spec):
                    ctx.error(
                        "K8SM-FLD-068",
                        f"annotation {key} names no container the template writes itself, and an action writes "
                        f"containers of this pod: set securityContext.seccompProfile on container {name} where "
                        "that action's text is (the profile stops applying from 1.27); kept",
                        node,
                    )
                    continue
                if target is None:
                    ctx.warn("K8SM-FLD-032", f"annotation {key} names no container of the pod; kept", node)
                    continue
            assert target is not None
            move(metadata, key, node, target, code, where, ctx)


def move(metadata: Mapping, key: str, node: Scalar, target: Mapping, code: str, where: str, ctx: Context) -> None:
    value = str(node.data)
    wanted = profile(value)
    if wanted is None:
        ctx.error("K8SM-FLD-030", f"annotation {key}: {value!r} is not a seccomp profile Kubernetes knows", node)
        return
    existing = target.mapping("securityContext")
    current = existing.get("seccompProfile") if existing is not None else None
    if current is not None:
        if current.to_data() != wanted:
            ctx.error(
                "K8SM-FLD-031",
                f"annotation {key}: {value!r} disagrees with the seccompProfile already set; "
                "the API server rejects the pair",
                node,
            )
            return
    else:
        context = child(target, "securityContext")
        if context is None:
            ctx.error("K8SM-FLD-031", "securityContext is not a mapping", target.get("securityContext"))
            return
        notes = metadata.mapping("annotations")
        context.set("seccompProfile", wanted, comments_from=notes.entry(key) if notes is not None else None)
    ctx.info(code, f"annotation {key}: {value} moved to {where} (the annotation is non-functional from 1.27)", node)
    drop_annotation(metadata, key)
    ctx.note(f"{key} → {where}")


MIGRATION = Check(
    applies_to=POD_APIS,
    body=body,
    matters_from="1.25",
    needs="1.19",
    trigger="seccomp.security.alpha.kubernetes.io",
    category="annotation",
    edits=True,
    summary="seccomp annotations → securityContext.seccompProfile (targets from 1.25)",
    codes=(
        Code("K8SM-FLD-007", "info", "the pod seccomp annotation moved to spec.securityContext.seccompProfile"),
        Code("K8SM-FLD-008", "info", "a container seccomp annotation moved to the container's securityContext"),
        Code("K8SM-FLD-030", "error", "a seccomp annotation value with no seccompProfile equivalent"),
        Code("K8SM-FLD-031", "error", "a seccomp annotation that disagrees with the field already set"),
        Code("K8SM-FLD-032", "warning", "a container seccomp annotation naming no container of the pod; kept"),
        Code(
            "K8SM-FLD-068",
            "error",
            "a container seccomp annotation naming no container the template writes, where an action writes containers",
        ),
        Code("K8SM-FLD-033", "warning", "--min-version below 1.19, where the field does not exist; annotations kept"),
    ),
)
