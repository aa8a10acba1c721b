"""AppArmor annotations → ``securityContext.appArmorProfile`` (fields from 1.30).

``container.apparmor.security.beta.kubernetes.io/<container>`` is deprecated since 1.30,
when the ``securityContext.appArmorProfile`` fields were added (beta and on by default;
GA 1.31). The API server warns "deprecated since v1.30; use the "appArmorProfile" field
instead"; the annotation is still honoured in 1.35 (kubernetes issue #132952).

Only when the whole window supports the field (``--min-version`` 1.30 or later; below, the
annotation is kept with K8SM-FLD-042), each annotation moves to the named container's
``securityContext.appArmorProfile`` and is deleted (K8SM-FLD-009): ``runtime/default`` →
``type: RuntimeDefault``, ``unconfined`` → ``type: Unconfined``, ``localhost/<name>`` →
``type: Localhost`` with ``localhostProfile: <name>`` (a profile loaded on the node). Any
other value is an error (K8SM-FLD-043), as is a field already set to something else; an
annotation naming no container is kept (K8SM-FLD-044).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import POD_APIS, child, containers, drop_annotation, pod_specs, string_annotations
from k8smigrate.model import Check
from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping

PREFIX = "container.apparmor.security.beta.kubernetes.io/"


def profile(value: str) -> dict[str, Data] | None:
    if value == "runtime/default":
        return {"type": "RuntimeDefault"}
    if value == "unconfined":
        return {"type": "Unconfined"}
    if value.startswith("localhost/") and len(value) > len("localhost/"):
        return {"type": "Localhost", "localhostProfile": value[len("localhost/") :]}
    return None


def body(obj: Mapping, ctx: Context) -> None:
    for metadata, spec in pod_specs(obj):
        found = [(k, v) for k, v in string_annotations(metadata) if k.startswith(PREFIX)]
        if not found or metadata is None:
            continue
        if not ctx.needs_met:
            ctx.info(
                "K8SM-FLD-042",
                f"AppArmor annotations kept: securityContext.appArmorProfile is unknown before {ctx.needs} "
                f"and --min-version is {ctx.oldest}",
                found[0][1],
            )
            continue
        by_name = {c.data("name"): c for c in containers(spec)}
        notes = metadata.mapping("annotations")
        for key, node in found:
            name, value = key[len(PREFIX) :], str(node.data)
            container = by_name.get(name)
            if container is None:
                ctx.warn("K8SM-FLD-044", f"annotation {key} names no container of the pod; kept", node)
                continue
            wanted = profile(value)
            if wanted is None:
                ctx.error("K8SM-FLD-043", f"annotation {key}: {value!r} is not an AppArmor profile", node)
                return
            context = child(container, "securityContext")
            current = context.get("appArmorProfile") if context is not None else None
            if context is None or (current is not None and current.to_data() != wanted):
                ctx.error("K8SM-FLD-043", f"annotation {key} disagrees with the container's securityContext", node)
                return
            ctx.info("K8SM-FLD-009", f"annotation {key}: {value} moved to the container's appArmorProfile", node)
            if current is None:
                context.set("appArmorProfile", wanted, comments_from=notes.entry(key) if notes is not None else None)
            drop_annotation(metadata, key)
            ctx.note(f"{key} → containers[{name}].securityContext.appArmorProfile")


MIGRATION = Check(
    applies_to=POD_APIS,
    body=body,
    matters_from="1.30",
    needs="1.30",
    trigger="container.apparmor.security.beta.kubernetes.io",
    category="annotation",
    edits=True,
    cleanup=True,
    summary="AppArmor annotations → securityContext.appArmorProfile (window from 1.30)",
    codes=(
        Code("K8SM-FLD-009", "info", "an AppArmor annotation moved to the container's appArmorProfile"),
        Code("K8SM-FLD-042", "info", "AppArmor annotations kept: the window starts before the field exists"),
        Code("K8SM-FLD-043", "error", "an AppArmor annotation value with no equivalent, or against the field"),
        Code("K8SM-FLD-044", "warning", "an AppArmor annotation naming no container of the pod; kept"),
    ),
)
